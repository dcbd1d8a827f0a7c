import { rm } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SpeechEngine } from '../../daemon/core/voice/voice.js';
import { type Daemon, startDaemon } from '../../daemon/daemon.js';
import { log } from '../../daemon/log.js';
import { TestPresenter } from '../../daemon/present/test-presenter.js';
import { waitFor } from '../../rigs/wait.js';
import { stopBeforeCleanup, tempFolder } from './daemon.js';
import { request, type Reply, type RequestOptions } from './http.js';

log.setQuiet(true);

export interface Running {
  daemon: Daemon;
  /** The person's side of the display. */
  person: TestPresenter;
  api(method: string, path: string, options?: RequestOptions): Promise<Reply>;
  notify(body: Record<string, unknown>): Promise<Reply>;
  /** The record of one notification, as `GET /v1/history` shows it. */
  record(app: string, id: string): Promise<any>;
  stop(): Promise<void>;
}

const started: Running[] = [];
const servers: Array<() => Promise<void>> = [];
stopBeforeCleanup(async () => {
  for (const running of started.splice(0)) await running.stop();
  for (const close of servers.splice(0)) await close();
});

/** Waits until `check` gives something other than undefined, false or null (polling every 20 ms, up to 10 s). */
export function eventually<T>(check: () => Promise<T> | T, what = 'the condition', timeoutMs = 10_000): Promise<NonNullable<T>> {
  return waitFor(
    async () => {
      const value = await check();
      return value === undefined || value === null || value === false ? undefined : (value as NonNullable<T>);
    },
    what,
    timeoutMs,
  );
}

/**
 * The real daemon (HTTP server, store, private channel) in this process, with the test presenter as its display:
 * the app's side speaks HTTP to it, the test plays the person through `person`.
 */
export async function startInProcess(
  options: { supportDir?: string; person?: TestPresenter; speech?: SpeechEngine | null } = {},
): Promise<Running> {
  const supportDir = options.supportDir ?? (await tempFolder('notifier-person-'));
  const person = options.person ?? new TestPresenter();
  const daemon = await startDaemon({
    supportDir,
    port: 0,
    presenter: person,
    ...(options.speech === undefined ? {} : { speech: options.speech }),
  });
  await daemon.core.history.ready;
  const api = (method: string, path: string, requestOptions: RequestOptions = {}): Promise<Reply> =>
    request(daemon.port, method, path, {
      ...requestOptions,
      token: requestOptions.token === undefined ? daemon.token : requestOptions.token,
    });
  let stopped = false;
  const running: Running = {
    daemon,
    person,
    api,
    notify: (body) => api('POST', '/v1/notify', { body }),
    record: async (app, id) =>
      (await api('GET', `/v1/history?app=${encodeURIComponent(app)}&limit=1000`)).json.items.find((item: { id: string }) => item.id === id),
    stop: async () => {
      if (stopped) return;
      stopped = true;
      await daemon.stop();
      if (!options.supportDir) await rm(supportDir, { recursive: true, force: true });
    },
  };
  started.push(running);
  return running;
}

/**
 * Resolves once a request waits for the reply to notification `id` (GET /v1/replies/wait asked the reply queue to
 * call back), so a test can play the person while the program waits rather than before.
 */
export function whenWaiting(running: Running, id: string): Promise<void> {
  const queue = running.daemon.core.replies;
  const wait = queue.wait.bind(queue);
  return new Promise<void>((resolve) => {
    queue.wait = (waitedId, app, deliver) => {
      const stop = wait(waitedId, app, deliver);
      if (waitedId === id) {
        queue.wait = wait;
        resolve();
      }
      return stop;
    };
  });
}

export { channel } from '../../rigs/channel.js';
import { channel } from '../../rigs/channel.js';

/** Answers the one open question about `app` through the private channel, as the person would. */
export async function answerQuestion(running: Running, app: string, allow: boolean): Promise<void> {
  const { questions } = await channel(running.daemon.channelPath, { op: 'questions' });
  const question = questions.find((q: { app: string }) => q.app === app);
  if (!question) throw new Error(`no open question for ${app}: ${JSON.stringify(questions)}`);
  const answer = await channel(running.daemon.channelPath, { op: 'answer', id: question.id, allow });
  if (!answer.ok) throw new Error(`the answer was refused: ${JSON.stringify(answer)}`);
}

export interface Received {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: any;
  at: number;
}

/** A real HTTP server on this computer that records the callback requests it gets and answers as told. */
export async function callbackServer(answer: (request: Received, index: number) => number | 'hang' = () => 200) {
  const received: Received[] = [];
  const hanging = new Set<http.ServerResponse>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString();
      const entry: Received = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: text ? JSON.parse(text) : undefined,
        at: Date.now(),
      };
      received.push(entry);
      const status = answer(entry, received.length - 1);
      if (status === 'hang') hanging.add(res);
      else if (status >= 300 && status < 400) res.writeHead(status, { Location: `${base}/redirected` }).end();
      else res.writeHead(status).end('ignored body');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '0.0.0.0', resolve));
  const port = (server.address() as AddressInfo).port;
  const base = `http://127.0.0.1:${port}`;
  servers.push(async () => {
    for (const res of hanging) res.destroy();
    await new Promise((resolve) => server.close(resolve));
  });
  return { received, port, url: (path = '/cb') => `${base}${path}` };
}
