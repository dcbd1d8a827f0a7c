// The person's app as tests reach it: a real daemon process with a desktop session to open windows on, whose
// "browser" is a stand-in that writes down what it was asked to open. Signing in goes the person's way: the
// private channel's `open`, then the forwarding file the daemon wrote — which this helper may read, being the
// person's own program, as the browser does — then the sign-in link.

import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import http from 'node:http';
import path from 'node:path';
import { APP_CSRF_HEADER, APP_CSRF_PARAM, APP_CSRF_STORAGE, type AppPage } from '../../protocol/app-api.js';
import { channelPath } from '../../daemon/control/channel.js';
import { ROOT, startDaemon, tempFolder, waitFor, type DaemonProcess, type StartOptions } from './daemon.js';
import { request, type Reply, type RequestOptions } from './http.js';
import { channel } from './in-process.js';
import { checkWindowAnswer } from './window-contract.js';
import { sessionCsrf } from '../../rigs/person-app.js';

/** The built front end, when it is built (the front end's own tests use it). */
export const BUILT_APP = path.join(ROOT, 'dist', 'app');

/** A page standing in for the front end in the server's tests: a script of its own (no inline code), and a marker. */
export const STAND_IN_PAGE =
  '<!doctype html><html><head><script type="module" src="/app/assets/stand-in.js"></script></head><body>stand-in app</body></html>\n';

/**
 * The stand-in page's script: it marks that it ran, and takes the session's CSRF value out of the address into its
 * origin's storage, as the front end does (app/src/models/api.ts).
 */
const STAND_IN_SCRIPT = `document.body.dataset.ran = 'yes';
const csrf = new URLSearchParams(location.hash.slice(1)).get('${APP_CSRF_PARAM}');
if (csrf) {
  localStorage.setItem('${APP_CSRF_STORAGE}', csrf);
  history.replaceState(null, '', location.pathname + location.search);
}
`;

export interface AppDaemon extends DaemonProcess {
  /** What the stand-in browser was asked to open, one argument list per window. */
  opened(): Promise<string[][]>;
  /** Asks for a window through the private channel: the daemon's answer. */
  open(page?: AppPage | string): Promise<{ ok: boolean; error?: string }>;
  /** Opens a window and reads the sign-in link out of the forwarding file the browser was given. */
  signInLink(page?: AppPage): Promise<{ link: string; file: string }>;
  /** Signs in as the person: a session cookie and its CSRF value. */
  signIn(page?: AppPage): Promise<AppSession>;
  /** A request to `/app` with no session, nothing added. */
  raw(method: string, route: string, options?: RequestOptions): Promise<Reply>;
}

export interface AppSession {
  cookie: string;
  csrf: string;
  /** A request as the app's own page sends it: the cookie, `Sec-Fetch-Site: same-origin`, the CSRF value, and for a change its Origin. */
  call(method: string, route: string, body?: unknown, headers?: Record<string, string>): Promise<Reply>;
  /** Opens `GET /app/api/events` as the app's page does (EventSource). */
  events(): Promise<EventStream>;
}

export interface AppEvent {
  event: string;
  data: any;
  /** When it arrived (performance.now()). */
  at: number;
}

/** A server-sent event stream, read as it comes. */
export interface EventStream {
  readonly received: AppEvent[];
  /** The first event (from `from` on) of that name for which `accept` holds; waits for it. */
  next(name: string, accept?: (data: any) => boolean, from?: number): Promise<AppEvent>;
  close(): void;
}

/** Reads `text/event-stream`: blocks separated by a blank line, `event:` and `data:` lines; comments ignored. */
export function openEventStream(port: number, headers: Record<string, string>): Promise<EventStream> {
  return new Promise((resolve, reject) => {
    const received: AppEvent[] = [];
    const req = http.request(
      { host: '127.0.0.1', port, path: '/app/api/events', headers: { Accept: 'text/event-stream', ...headers }, agent: false },
      (res) => {
        if (res.statusCode !== 200) return reject(new Error(`events answered ${res.statusCode}`));
        let buffered = '';
        res.on('data', (chunk: Buffer) => {
          buffered += chunk.toString('utf8');
          for (let end = buffered.indexOf('\n\n'); end >= 0; end = buffered.indexOf('\n\n')) {
            const block = buffered.slice(0, end);
            buffered = buffered.slice(end + 2);
            const event = /^event: (.*)$/m.exec(block)?.[1];
            const data = /^data: (.*)$/m.exec(block)?.[1];
            if (event && data !== undefined) received.push({ event, data: JSON.parse(data), at: performance.now() });
          }
        });
        resolve({
          received,
          next: (name, accept = () => true, from = 0) =>
            waitFor(async () => received.slice(from).find((item) => item.event === name && accept(item.data)), `the ${name} event`),
          close: () => req.destroy(),
        });
      },
    );
    req.on('error', (error) => (error.message === 'socket hang up' ? undefined : reject(error)));
    req.end();
  });
}

export interface AppDaemonOptions extends StartOptions {
  /** The front end to serve. Default: a stand-in page (the server's tests check the door, not the UI). */
  appDir?: string;
  /** No desktop session: neither DISPLAY nor WAYLAND_DISPLAY. */
  noDesktop?: boolean;
}

/** The cookie a `Set-Cookie` answer sets: `name=value`. */
export const cookieOf = (reply: Reply): string => String(reply.headers['set-cookie']?.[0] ?? '').split(';')[0]!;

/** The session's CSRF value, as the sign-in's page hands it to the page it forwards to (`#csrf=…`). */
export const csrfOf = (reply: Reply): string => sessionCsrf(reply.text);

/** Starts a daemon (headless banners, no tray) whose desktop opens windows with a stand-in `chromium`. */
export async function startAppDaemon(options: AppDaemonOptions = {}): Promise<AppDaemon> {
  const folder = await tempFolder('notifier-app-');
  const bin = path.join(folder, 'bin');
  const openedFile = path.join(folder, 'opened.txt');
  await mkdir(bin);
  // One line per window: its arguments, separated by spaces (the temporary folders have none in their paths).
  await writeFile(path.join(bin, 'chromium'), `#!/bin/sh\nprintf '%s\\n' "$*" >> '${openedFile}'\n`);
  await chmod(path.join(bin, 'chromium'), 0o755);
  let appDir = options.appDir;
  if (!appDir) {
    appDir = path.join(folder, 'web');
    await mkdir(path.join(appDir, 'assets'), { recursive: true });
    await writeFile(path.join(appDir, 'index.html'), STAND_IN_PAGE);
    await writeFile(path.join(appDir, 'assets', 'stand-in.js'), STAND_IN_SCRIPT);
  }
  const desktop: Record<string, string> = options.noDesktop ? { DISPLAY: '', WAYLAND_DISPLAY: '' } : { DISPLAY: ':notifier-test' };
  const daemon = await startDaemon({
    ...options,
    env: {
      PATH: `${bin}${path.delimiter}${process.env.PATH}`,
      NOTIFIER_APP_DIR: appDir,
      NOTIFIER_NO_TRAY: '1',
      ...desktop,
      ...options.env,
    },
  });
  const opened = async (): Promise<string[][]> =>
    (await readFile(openedFile, 'utf8').catch(() => ''))
      .split('\n')
      .filter(Boolean)
      .map((line) => line.split(' '));
  const open = (page: string = 'history') => channel(channelPath(daemon.supportDir), { op: 'open', page });
  const signInLink = async (page: AppPage = 'history') => {
    const before = (await opened()).length;
    const answer = await open(page);
    if (!answer.ok) throw new Error(`open was refused: ${answer.error}`);
    const args = await waitFor(async () => (await opened())[before], 'the browser to be asked');
    const file = new URL(args.find((arg) => arg.startsWith('--app='))!.slice('--app='.length)).pathname;
    const html = await readFile(file, 'utf8');
    const link = /url=([^"]+)"/.exec(html)![1]!.replace(/&amp;/g, '&');
    return { link, file };
  };
  const session = (cookie: string, csrf: string): AppSession => ({
    cookie,
    csrf,
    events: () => openEventStream(daemon.port, { Cookie: cookie, 'Sec-Fetch-Site': 'same-origin', [APP_CSRF_HEADER]: csrf }),
    call: async (method, route, body, headers = {}) => {
      const change = method !== 'GET' && method !== 'HEAD';
      const reply = await request(daemon.port, method, route, {
        token: null,
        ...(body === undefined ? {} : { body }),
        headers: {
          Cookie: cookie,
          'Sec-Fetch-Site': 'same-origin',
          [APP_CSRF_HEADER]: csrf,
          ...(change ? { Origin: `http://127.0.0.1:${daemon.port}` } : {}),
          ...headers,
        },
      });
      checkWindowAnswer(method, route, reply); // every answer the window gets keeps to its route's contract
      return reply;
    },
  });
  return {
    ...daemon,
    opened,
    open,
    signInLink,
    raw: (method, route, requestOptions = {}) => request(daemon.port, method, route, { token: null, ...requestOptions }),
    signIn: async (page) => {
      const { link } = await signInLink(page);
      const signedIn = await request(daemon.port, 'GET', new URL(link).pathname + new URL(link).search, { token: null });
      if (signedIn.status !== 200) throw new Error(`sign-in failed: ${signedIn.status} ${signedIn.text}`);
      return session(cookieOf(signedIn), csrfOf(signedIn));
    },
  };
}
