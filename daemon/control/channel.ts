import { createHash } from 'node:crypto';
import { chmod, unlink } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Approvals } from '../core/approvals/approvals.js';
import type { ConnectorApprovals } from '../core/relay/connectors.js';
import type { QuietStatus } from '../core/settings/quiet-hours.js';
import { log } from '../log.js';
import { DEFAULT_APP_PAGE } from '../../protocol/app-api.js';

/** What the person's programs can do through the channel (the daemon provides it). */
export interface ChannelHandlers {
  approvals: Approvals;
  /** Connector requests waiting for the person, with their 6-digit codes (docs/api/relay-connection.md#rl43: only here). */
  connectors: Pick<ConnectorApprovals, 'forPerson' | 'onChange' | 'answer'>;
  /** The newest notifications, for the tray's menu; `appName` is the app's display name, as on its banners. */
  recent(limit: number): Promise<Array<{ app: string; appName: string; id: string; title: string; deliveredAt: string }>>;
  /** Calls back whenever a notification arrives; returns a function that stops. */
  onNotification(listener: () => void): () => void;
  /** Shows a notification of History again, as POST /v1/history/reshow does (the tray's recent items); false: no such one. */
  show(app: string, id: string): Promise<boolean>;
  /** Calls back whenever notifications leave History (deleted, cleared); returns a function that stops. */
  onRemoval(listener: () => void): () => void;
  /** A quiet period: no sounds or speech for `minutes` (0 ends it). */
  quiet(minutes: number): { quietUntil: string | null };
  /** What quiet hours silence now: the `status` of GET /v1/settings/quiet-hours (docs/api/settings.md#s11). */
  quietStatus(): QuietStatus;
  /** Calls back whenever the quiet status may have changed; returns a function that stops. */
  onQuietChange(listener: () => void): () => void;
  /** Stops the daemon (the tray's Quit). */
  quit(): void;
  /** Opens the person's app at a page (docs/app.md#how-it-opens); the reason when it cannot. */
  open(page: string): Promise<{ ok: true } | { ok: false; error: string }>;
  /** Unread notifications (the tray's count). */
  unread(): number;
  /** Calls back whenever the unread count may have changed; returns a function that stops. */
  onUnreadChange(listener: () => void): () => void;
}

const RECENT_DEFAULT = 5;
/** A Unix socket path must fit in sockaddr_un (108 bytes on Linux, 104 on macOS). */
const MAX_SOCKET_PATH = 100;
/** A request line longer than this is not a request of ours. */
const MAX_LINE_BYTES = 64 * 1024;

/**
 * Where the private channel listens: `<support>/control.sock`; a Windows named pipe; or, when the support folder's
 * path is too long for a socket, a name derived from it in the user's runtime (or temporary) folder.
 */
export function channelPath(supportDir: string): string {
  const hash = createHash('sha256').update(supportDir).digest('hex').slice(0, 16);
  if (process.platform === 'win32') return `\\\\.\\pipe\\notifier-${hash}`;
  const inFolder = path.join(supportDir, 'control.sock');
  if (Buffer.byteLength(inFolder) <= MAX_SOCKET_PATH) return inFolder;
  return path.join(process.env.XDG_RUNTIME_DIR || os.tmpdir(), `notifier-${hash}.sock`);
}

type Request = { seq?: unknown } & (
  | { op: 'questions' }
  | { op: 'answer'; id: string; allow: boolean }
  | { op: 'connectors' }
  | { op: 'decide'; id: string; approve: boolean }
  | { op: 'watch' }
  | { op: 'recent'; limit?: number }
  | { op: 'show'; app: string; id: string }
  | { op: 'quiet'; minutes: number }
  | { op: 'open'; page?: string }
  | { op: 'quit' }
);

/**
 * The person's private channel to the daemon: the tray and the native approval prompts answer questions
 * here. It is a Unix socket only the user can open (0600, in a 0700 folder), never the bearer-token HTTP API,
 * so an app holding the token still cannot grant itself anything. One JSON object per line, each answered by one
 * line (docs/private-channel.md): `questions`, `answer`, `connectors`, `decide`, `recent`, `show`, `quiet`, `open` (the
 * person's app, signed in), `quit`, and `watch`, which sends the open questions, connector requests, quiet status
 * and unread count now and again whenever they change, and tells when a notification arrives or leaves History.
 */
export async function openChannel(supportDir: string, handlers: ChannelHandlers): Promise<{ path: string; close(): Promise<void> }> {
  const where = channelPath(supportDir);
  if (process.platform !== 'win32') await unlink(where).catch(() => undefined); // a socket left by a crash
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    serve(socket, handlers);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(where, () => resolve());
  });
  if (process.platform !== 'win32') await chmod(where, 0o600);
  return {
    path: where,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
      }),
  };
}

/** `answer` and `decide`: the field of the person's yes or no, and what each says when its item is not settled. */
const SETTLING = {
  answer: { yesNo: 'allow', failure: 'could not record an answer', notDone: 'could not save the answer', unknown: 'no such question' },
  decide: {
    yesNo: 'approve',
    failure: 'could not send an answer to the relay',
    notDone: 'could not send the answer',
    unknown: 'no such request',
  },
} as const;

/**
 * `answer` and `decide`: the person's yes or no on one waiting item (a question, a connector's request) named by
 * `id`, given to `settle`. Ok, or why not: the request lacks either, `settle` failed (logged), or there is no such
 * item.
 */
async function settleOne(
  request: { op: string; id?: unknown } & Record<string, unknown>,
  says: (typeof SETTLING)[keyof typeof SETTLING],
  settle: (id: string, yes: boolean) => Promise<boolean>,
): Promise<object> {
  const { yesNo } = says;
  const yes = request[yesNo];
  if (typeof request.id !== 'string' || typeof yes !== 'boolean') {
    return { ok: false, error: `${request.op} needs id (string) and ${yesNo} (true or false)` };
  }
  const done = await settle(request.id, yes).catch((error: Error) => {
    log.error(`${says.failure}: ${error.message}`);
    return null;
  });
  return done ? { ok: true } : { ok: false, error: done === null ? says.notDone : says.unknown };
}

function serve(socket: net.Socket, handlers: ChannelHandlers): void {
  const { approvals, connectors } = handlers;
  const send = (value: unknown): void => {
    if (socket.writable) socket.write(`${JSON.stringify(value)}\n`);
  };
  const stopWatching: Array<() => void> = [];
  socket.once('close', () => stopWatching.forEach((stop) => stop()));
  /** The quiet status this connection was told last (in an answer or an event), as JSON. */
  let toldQuiet = '';
  const quietNow = (): QuietStatus => {
    const quiet = handlers.quietStatus();
    toldQuiet = JSON.stringify(quiet);
    return quiet;
  };
  /** The unread count this connection was told last. */
  let toldUnread = -1;
  const unreadNow = (): number => (toldUnread = handlers.unread());
  socket.on('error', () => undefined);
  let buffered = '';
  socket.on('data', (chunk: Buffer) => {
    buffered += chunk.toString('utf8');
    if (Buffer.byteLength(buffered) > MAX_LINE_BYTES) return socket.destroy();
    for (let end = buffered.indexOf('\n'); end >= 0; end = buffered.indexOf('\n')) {
      const line = buffered.slice(0, end).trim();
      buffered = buffered.slice(end + 1);
      if (line) void handle(line);
    }
  });

  async function handle(line: string): Promise<void> {
    let request: Request;
    try {
      request = JSON.parse(line) as Request;
    } catch {
      return send({ ok: false, error: 'invalid JSON' });
    }
    // A request's `seq` comes back on its answer: the answers of slow requests (show, decide, open) may come after
    // those of requests sent later, so a client with several requests under way matches them by it.
    const seq = typeof request?.seq === 'number' || typeof request?.seq === 'string' ? request.seq : undefined;
    const reply = (answer: object): void => send(seq === undefined ? answer : { ...answer, seq });
    switch (request?.op) {
      case 'questions':
        return reply({ ok: true, questions: approvals.questions() });
      case 'answer':
        return reply(await settleOne(request, SETTLING.answer, (id, allow) => approvals.answer(id, allow)));
      case 'connectors':
        return reply({ ok: true, connectors: connectors.forPerson() });
      case 'decide':
        return reply(await settleOne(request, SETTLING.decide, (id, approve) => connectors.answer(id, approve)));
      case 'watch':
        if (stopWatching.length === 0) {
          stopWatching.push(approvals.onChange(() => send({ event: 'questions', questions: approvals.questions() })));
          stopWatching.push(connectors.onChange(() => send({ event: 'connectors', connectors: connectors.forPerson() })));
          stopWatching.push(handlers.onNotification(() => send({ event: 'notification' })));
          stopWatching.push(handlers.onRemoval(() => send({ event: 'removed' })));
          // Quiet hours change through the API, the tray and the clock; a watcher hears of each real change once.
          // The look waits for the current turn to end, so a change this connection asked for is told by its answer.
          stopWatching.push(
            handlers.onQuietChange(() =>
              queueMicrotask(() => {
                if (JSON.stringify(handlers.quietStatus()) !== toldQuiet) send({ event: 'quiet', quiet: quietNow() });
              }),
            ),
          );
          stopWatching.push(
            handlers.onUnreadChange(() =>
              queueMicrotask(() => {
                if (handlers.unread() !== toldUnread) send({ event: 'unread', unread: unreadNow() });
              }),
            ),
          );
        }
        return reply({
          ok: true,
          questions: approvals.questions(),
          connectors: connectors.forPerson(),
          quiet: quietNow(),
          unread: unreadNow(),
        });
      case 'recent': {
        const limit = Number.isInteger(request.limit) && request.limit! > 0 ? request.limit! : RECENT_DEFAULT;
        return reply({ ok: true, notifications: await handlers.recent(limit) });
      }
      case 'show': {
        if (typeof request.app !== 'string' || typeof request.id !== 'string')
          return reply({ ok: false, error: 'show needs app and id (strings)' });
        const shown = await handlers.show(request.app, request.id).catch((error: Error) => {
          log.error(`could not show a notification again: ${error.message}`);
          return null;
        });
        return reply(shown ? { ok: true } : { ok: false, error: shown === null ? 'could not show it' : 'no such notification' });
      }
      case 'quiet':
        if (typeof request.minutes !== 'number' || request.minutes < 0)
          return reply({ ok: false, error: 'quiet needs minutes (0 ends it)' });
        return reply({ ok: true, ...handlers.quiet(request.minutes), quiet: quietNow() });
      case 'open': {
        // The sign-in code stays in the daemon: this answer says only whether a window was opened.
        if (request.page !== undefined && typeof request.page !== 'string')
          return reply({ ok: false, error: 'open takes page (a string)' });
        return reply(await handlers.open(request.page ?? DEFAULT_APP_PAGE));
      }
      case 'quit':
        reply({ ok: true });
        return handlers.quit();
      default:
        return reply({
          ok: false,
          error: 'unknown op: use questions, answer, connectors, decide, watch, recent, show, quiet, open or quit',
        });
    }
  }
}
