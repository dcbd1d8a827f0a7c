// One relay process: the store, the HTTP routes, the device stream and the background work, started and
// stopped together. main.ts runs it from the environment; tests of time rules run it in-process with a clock.

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RelayConfig } from './config.js';
import { Credentials } from './core/credentials.js';
import { CORE_TASKS, Housekeeper } from './core/housekeeping.js';
import { Outbound, type OutboundOptions } from './core/outbound.js';
import { waitingOnRelay } from './core/notes.js';
import { Outbox, waitingEvents, type Scheduler } from './core/outbox.js';
import type { Relay } from './core/relay.js';
import { systemClock, type Clock } from './core/time.js';
import { Waiters } from './core/waiters.js';
import { createApp } from './http/app.js';
import { createMetricsServer } from './http/metrics-server.js';
import { Readiness } from './http/ready.js';
import { streamUpgrade } from './http/stream-upgrade.js';
import { timeTransaction, watchRelay } from './metrics.js';
import { OAUTH_TASKS } from './oauth/sweep.js';
import type { Backend, DeviceTx, Grouped } from './store/backend.js';
import { openStore } from './store/open.js';
import { DeviceStream } from './ws/stream.js';

/** How long requests in flight may take to answer once the node closes (a notify is a few database writes). */
const REQUEST_FINISH_MS = 2000;
/** How often the node looks whether they have. */
const FINISH_POLL_MS = 50;

export interface RunningRelay {
  readonly relay: Relay;
  readonly server: http.Server;
  readonly stream: DeviceStream;
  readonly housekeeper: Housekeeper;
  readonly outbox: Outbox;
  readonly port: number;
  /** The port of the separate /metrics listener (RELAY_METRICS_PORT), if there is one. */
  readonly metricsPort: number | undefined;
  readonly readiness: Readiness;
  /**
   * SIGTERM: /ready says 503 at once; after `graceMs` (the load balancer has stopped sending) the node closes as
   * close() does. Resolves once closed.
   */
  drain(graceMs: number): Promise<void>;
  close(): Promise<void>;
}

export async function startRelay(
  config: RelayConfig & { secret: string },
  options: {
    clock?: Clock;
    /** false: no housekeeping timer (tests run it themselves). */
    background?: boolean;
    /** The webhook outbox's timers (tests of the retry timing). */
    scheduler?: Scheduler;
    /** How the relay's own requests resolve and check addresses, and extra trusted certificates (in-process tests). */
    outbound?: Pick<OutboundOptions, 'resolve' | 'allowAddress' | 'extraCA'>;
  } = {},
): Promise<RunningRelay> {
  const store = timeTransactions(await openStore(config));
  const relay: Relay = {
    limits: config.limits,
    store,
    credentials: new Credentials(config.secret),
    clock: options.clock ?? systemClock,
    pairingSecret: config.pairingSecret,
    waiters: new Waiters(store.bus),
    eventCallbackHosts: config.eventCallbackHosts,
    outbound: new Outbound({ ...config.outbound, ...options.outbound }),
  };
  const stream = new DeviceStream(relay);
  const readiness = new Readiness(store);
  const server = http.createServer(createApp(relay, config.trustProxy, readiness, config.metrics.token));
  const metricsServer = config.metrics.port === undefined ? undefined : createMetricsServer();
  server.on('upgrade', streamUpgrade(relay, stream));
  const housekeeper = new Housekeeper(relay, [...CORE_TASKS, ...OAUTH_TASKS]);
  const outbox = new Outbox(relay, options.scheduler);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, () => resolve());
    });
    if (metricsServer) await listen(metricsServer, config.metrics.port!, config.metrics.host);
  } catch (error) {
    server.close();
    // Not awaited: the embedded store's close waits on its checkpoint worker, which keeps nothing on the event
    // loop, so awaiting it let the process end quietly with exit code 0 instead of reporting a taken port.
    relay.outbound.close();
    void store.close().catch(() => undefined);
    throw error;
  }
  watchRelay({
    waitingNotes: () => waitingOnRelay(store.db),
    waitingEvents: () => waitingEvents(store.db),
    poolUse: store.poolUse?.bind(store),
    queuedRequests: store.queuedRequests?.bind(store),
  });
  if (options.background !== false) housekeeper.start();
  outbox.start();

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closing ??= (async () => {
      readiness.drain();
      await housekeeper.stop();
      await outbox.stop();
      relay.outbound.close();
      const stopped = new Promise<void>((resolve) => server.close(() => resolve())); // no new connections
      await stream.close(); // computers reconnect (1012), to another node
      server.closeIdleConnections();
      await finishRequests(server, relay, REQUEST_FINISH_MS);
      await stopped;
      if (metricsServer) await new Promise<void>((resolve) => metricsServer.close(() => resolve()));
      watchRelay(undefined);
      await store.close();
    })());
  return {
    relay,
    server,
    stream,
    housekeeper,
    outbox,
    port: (server.address() as AddressInfo).port,
    metricsPort: metricsServer ? (metricsServer.address() as AddressInfo).port : undefined,
    readiness,
    drain: async (graceMs) => {
      readiness.drain();
      outbox.drain(); // webhook deliveries under way finish; new ones go to the other nodes
      await new Promise((resolve) => setTimeout(resolve, graceMs));
      await close();
    },
    close,
  };
}

/**
 * Requests in flight get a moment to answer; long-polls are answered at once (Waiters.close: an empty answer, the
 * agent asks again and reaches another node); whatever is left after `ms` is cut.
 */
async function finishRequests(server: http.Server, relay: Relay, ms: number): Promise<void> {
  relay.waiters.close();
  const deadline = Date.now() + ms;
  while (Date.now() < deadline && (await openConnections(server)) > 0) {
    server.closeIdleConnections();
    await new Promise((resolve) => setTimeout(resolve, FINISH_POLL_MS));
  }
  server.closeAllConnections();
}

const openConnections = (server: http.Server): Promise<number> =>
  new Promise((resolve) => server.getConnections((_error, count) => resolve(count ?? 0)));

function listen(server: http.Server, port: number, host: string): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
}

/** Every locked transaction is timed (relay_db_transaction_duration_seconds): the one path all writes take. */
function timeTransactions(store: Backend): Backend {
  const withDeviceLock = store.withDeviceLock.bind(store);
  const withRelayLock = store.withRelayLock.bind(store);
  store.withDeviceLock = <T>(deviceId: string, work: (tx: DeviceTx) => Promise<T>, grouped?: Grouped): Promise<T> =>
    timeTransaction('device', () => withDeviceLock(deviceId, work, grouped));
  store.withRelayLock = <T>(work: (tx: DeviceTx) => Promise<T>): Promise<T> => timeTransaction('relay', () => withRelayLock(work));
  return store;
}
