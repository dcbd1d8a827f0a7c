import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import path from 'node:path';
import { defaultServiceContext, launchesAtLogin, type ServiceContext, setLaunchAtLogin } from './integrations/login-service.js';
import { openChannel } from './control/channel.js';
import { type Core, openCore } from './core/core.js';
import type { SpeechEngine } from './core/voice/voice.js';
import { startTray } from './tray-process.js';
import { ApiError, errorBody, errors } from '../protocol/errors.js';
import { V1_ROUTES } from './http/api.js';
import { createApp } from './http/app.js';
import { PersonApp } from './http/window/person-app.js';
import type { AppPage } from '../protocol/app-api.js';
import { fileURLToPath } from 'node:url';
import { MAX_HEADER_BYTES } from '../protocol/limits.js';
import { log } from './log.js';
import { choosePresenter, type PresenterName } from './present/choose.js';
import type { Presenter } from './present/presenter.js';
import { defaultSupportDir, loadOrCreateToken, lockSupportDir, prepareSupportDir, removePortFile, writePortFile } from './support-dir.js';

/** docs/api/README.md#g14: the whole request must arrive within 10 s (slow-loris protection); replies may take longer. */
const REQUEST_ARRIVAL_MS = 10_000;
/** On stop, requests still running get this long before their connections are cut. */
const STOP_GRACE_MS = 2_000;
/** After a move to another port (setting `port`), requests still running on the old one get this long. */
const MOVE_GRACE_MS = 10_000;

export interface DaemonOptions {
  supportDir?: string;
  /** 0 asks the system for a free port. Default 48617. */
  port?: number;
  /** A presenter name, or a presenter object (in-process tests use the test presenter). */
  presenter?: PresenterName | Presenter;
  /** The speech engine; default: the one this computer has. Null: none. */
  speech?: SpeechEngine | null;
  /** Called after the person quit the daemon (the tray's Quit) and it has stopped. */
  onQuit?: () => void;
  /** The tray companion's script (dist/tray/main.js); it starts when a desktop session exists. None: no tray. */
  trayScript?: string;
  /** Epoch milliseconds now, for quiet hours (tests move it). Default Date.now. */
  clock?: () => number;
  /** Where the `launchAtLogin` setting installs the login service. Default: this user's, running this program. */
  service?: ServiceContext;
  /**
   * The built front end of the person's app. Default: `dist/app` next to this program, else NOTIFIER_APP_DIR (set
   * only by the server's own tests, which check the door with a page of their own while the front end is built apart).
   */
  appDir?: string;
}

export interface Daemon {
  /** The port listened on now (the `port` setting can move it). */
  readonly port: number;
  /** Where the person's private channel (approvals) listens. */
  readonly channelPath: string;
  readonly supportDir: string;
  readonly token: string;
  readonly core: Core;
  stop(): Promise<void>;
}

/** Starts the service: support folder, token, store, presenter, then the HTTP server, then the port file. */
export async function startDaemon(options: DaemonOptions = {}): Promise<Daemon> {
  const supportDir = path.resolve(options.supportDir ?? defaultSupportDir());
  await prepareSupportDir(supportDir);
  const unlock = await lockSupportDir(supportDir);
  try {
    const token = await loadOrCreateToken(supportDir);
    const presenter = await pickPresenter(options.presenter ?? 'auto');
    const core = await openCore({
      supportDir,
      presenter,
      ...(options.speech === undefined ? {} : { speech: options.speech }),
      ...(options.clock ? { clock: options.clock } : {}),
    });
    let port = 0;
    const personApp = await PersonApp.open(core, { appDir: options.appDir ?? defaultAppDir(), supportDir, port: () => port });
    const app = createApp(core, token, personApp);
    const newServer = (): http.Server => {
      const created = http.createServer(
        { maxHeaderSize: MAX_HEADER_BYTES, requestTimeout: REQUEST_ARRIVAL_MS, headersTimeout: REQUEST_ARRIVAL_MS },
        app,
      );
      created.on('clientError', answerMalformedRequest);
      // Node hands CONNECT to this event and, without a listener, drops the connection without a word.
      created.on('connect', (_request: http.IncomingMessage, socket: Socket) =>
        answerRaw(socket, errors.notAProxy(ROUTE_METHODS), ROUTE_METHODS),
      );
      return created;
    };
    let server = newServer();
    const retired = new Set<http.Server>();
    let stop: () => Promise<void> = async () => undefined;
    const channel = await openChannel(supportDir, {
      approvals: core.approvals,
      connectors: core.relay.connectors,
      recent: async (limit) =>
        (await core.records.list({ limit })).map(({ app, id, notification, deliveredAt }) => ({
          app,
          appName: core.names.name(app),
          id,
          title: notification.title ?? '',
          deliveredAt,
        })),
      onNotification: (listener) => core.notifications.onDelivery(listener),
      show: (app, id) =>
        core.screen.reshow(app, id).then(
          () => true,
          (error: Error) => {
            if (error instanceof ApiError && error.status === 404) return false;
            throw error;
          },
        ),
      // Records leaving History (deleted, cleared, an app removed, the cap): one event per turn, however many went.
      onRemoval: (listener) => {
        let told = false;
        return core.history.onChange((event) => {
          if (event.type === 'stored' || told) return;
          told = true;
          queueMicrotask(() => {
            told = false;
            listener();
          });
        });
      },
      quiet: (minutes) => core.quietHours.quietFor(minutes),
      quietStatus: () => core.quietHours.status(),
      onQuietChange: (listener) => core.quietHours.onChange(listener),
      quit: () => {
        log.info('quit from the tray: stopping');
        void stop().then(() => options.onQuit?.());
      },
      open: (page) => personApp.open(page as AppPage),
      unread: () => core.readState.unreadCount(),
      onUnreadChange: (listener) => {
        const stops = [core.history.onChange(listener), core.readState.onChange(listener)];
        return () => stops.forEach((stopListening) => stopListening());
      },
    });
    // --port and NOTIFIER_PORT win over the `port` setting (default 48617).
    port = await listen(server, options.port ?? core.settings.storedPort);
    await writePortFile(supportDir, port);
    core.settings.useEffect('port', {
      read: () => port,
      // The setting moves the server: the new port listens before the old one stops, then the port file says so.
      change: async (next) => {
        const moved = newServer();
        await listenOn(moved, next).catch((error: NodeJS.ErrnoException) => {
          if (error.code === 'EADDRINUSE') throw errors.portInUse(next, port);
          throw error;
        });
        const [previous, old] = [server, port];
        [server, port] = [moved, next];
        await writePortFile(supportDir, port);
        retire(previous, retired);
        log.info(`Notifier moved from port ${old} to http://127.0.0.1:${port}`);
        return `Notifier now listens on port ${port} (the port file says so); this reply is the last one from port ${old}.`;
      },
    });
    const service = options.service ?? defaultServiceContext(process.argv[1] ?? '');
    core.settings.useEffect('launchAtLogin', {
      read: () => launchesAtLogin(service),
      change: async (enabled) => {
        await setLaunchAtLogin(service, enabled, { supportDir }).catch((error: Error) => {
          const supported = service.platform === 'linux' || service.platform === 'darwin';
          throw supported ? errors.launchAtLoginFailed(error.message) : errors.launchAtLoginUnsupported(error.message);
        });
      },
    });
    const tray = options.trayScript ? startTray(options.trayScript, supportDir) : null;
    log.info(`Notifier listening on http://127.0.0.1:${port} (support folder ${supportDir}, presenter ${presenter.name})`);

    let stopping: Promise<void> | null = null;
    stop = (): Promise<void> =>
      (stopping ??= (async () => {
        await removePortFile(supportDir);
        tray?.stop();
        personApp.close();
        for (const old of retired) old.closeAllConnections();
        await closeServer(server);
        await channel.close();
        await core.close();
        await unlock();
      })());
    return {
      get port() {
        return port;
      },
      channelPath: channel.path,
      supportDir,
      token,
      core,
      stop,
    };
  } catch (error) {
    await unlock();
    throw error;
  }
}

/** The person's app as the set-up builds it: `dist/app`, next to `dist/daemon`; NOTIFIER_APP_DIR for the server's tests. */
function defaultAppDir(): string {
  return process.env.NOTIFIER_APP_DIR || fileURLToPath(new URL('../app', import.meta.url));
}

async function pickPresenter(choice: PresenterName | Presenter): Promise<Presenter> {
  if (typeof choice !== 'string') return choice;
  const { presenter, note } = await choosePresenter(choice);
  if (note) log.info(note);
  return presenter;
}

/** Listens on 127.0.0.1, on exactly this port. */
function listenOn(server: http.Server, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
}

/** Listens on 127.0.0.1 only. When the port is taken, any free port: the port file says which. */
async function listen(server: http.Server, port: number): Promise<number> {
  try {
    await listenOn(server, port);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || port === 0) throw error;
    log.warn(`port ${port} is taken; listening on a free port instead`);
    await listenOn(server, 0);
  }
  return (server.address() as AddressInfo).port;
}

/** A server left behind by a move: it takes no new connections; those still busy get a grace period. */
function retire(server: http.Server, retired: Set<http.Server>): void {
  retired.add(server);
  server.close(() => retired.delete(server));
  server.closeIdleConnections();
  setTimeout(() => server.closeAllConnections(), MOVE_GRACE_MS).unref();
}

/** Node's own parser errors, answered in the service's error shape instead of a bare status line. */
function answerMalformedRequest(error: NodeJS.ErrnoException, socket: Socket): void {
  if (!socket.writable || error.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  answerRaw(
    socket,
    error.code === 'HPE_HEADER_OVERFLOW'
      ? errors.headersTooLarge(MAX_HEADER_BYTES)
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? errors.requestTimedOut()
        : errors.malformedRequest(),
  );
}

/** The methods the routes take, for the `Allow` of a CONNECT's 405 (docs/api/README.md#g8). */
const ROUTE_METHODS = ['GET', 'POST', 'PUT', 'DELETE'].filter((method) => V1_ROUTES.some((route) => route.method === method)).join(', ');

/** An error written straight on the socket (no request object to answer through), then the connection closes. */
function answerRaw(socket: Socket, error: ApiError, allow?: string): void {
  const body = JSON.stringify(errorBody(error));
  socket.end(
    `HTTP/1.1 ${error.status} ${http.STATUS_CODES[error.status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
      (allow ? `Allow: ${allow}\r\n` : '') +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

async function closeServer(server: http.Server): Promise<void> {
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const cut = setTimeout(() => server.closeAllConnections(), STOP_GRACE_MS);
  await closed;
  clearTimeout(cut);
}
