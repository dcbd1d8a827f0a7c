import { createHash } from 'node:crypto';
import { chmod, unlink } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Approvals } from '../core/approvals.js';
import { log } from '../log.js';

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

type Request = { op: 'questions' } | { op: 'answer'; id: string; allow: boolean } | { op: 'watch' };

/**
 * The person's private channel to the daemon: the tray and the native approval prompts answer questions
 * here. It is a Unix socket only the user can open (0600, in a 0700 folder), never the bearer-token HTTP API,
 * so an app holding the token still cannot grant itself anything. One JSON object per line, each answered by one
 * line: `{"op":"questions"}`, `{"op":"answer","id":"...","allow":true}`, and `{"op":"watch"}`, which sends the
 * open questions now and again whenever they change.
 */
export async function openChannel(supportDir: string, approvals: Approvals): Promise<{ path: string; close(): Promise<void> }> {
  const where = channelPath(supportDir);
  if (process.platform !== 'win32') await unlink(where).catch(() => undefined); // a socket left by a crash
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
    serve(socket, approvals);
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

function serve(socket: net.Socket, approvals: Approvals): void {
  const send = (value: unknown): void => {
    if (socket.writable) socket.write(`${JSON.stringify(value)}\n`);
  };
  let stopWatching: (() => void) | null = null;
  socket.once('close', () => stopWatching?.());
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
    switch (request?.op) {
      case 'questions':
        return send({ ok: true, questions: approvals.questions() });
      case 'answer': {
        if (typeof request.id !== 'string' || typeof request.allow !== 'boolean') {
          return send({ ok: false, error: 'answer needs id (string) and allow (true or false)' });
        }
        const answered = await approvals.answer(request.id, request.allow).catch((error: Error) => {
          log.error(`could not record an answer: ${error.message}`);
          return null;
        });
        return send(answered ? { ok: true } : { ok: false, error: answered === null ? 'could not save the answer' : 'no such question' });
      }
      case 'watch':
        stopWatching ??= approvals.onChange(() => send({ event: 'questions', questions: approvals.questions() }));
        return send({ ok: true, questions: approvals.questions() });
      default:
        return send({ ok: false, error: 'unknown op: use questions, answer or watch' });
    }
  }
}
