// One relay process: the store, the HTTP routes, the device stream and the background work, started and
// stopped together. main.ts runs it from the environment; tests of time rules run it in-process with a clock.

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RelayConfig } from './config.js';
import { Credentials } from './core/credentials.js';
import { Housekeeper } from './core/housekeeping.js';
import { Outbound, type OutboundOptions } from './core/outbound.js';
import { Outbox, type Scheduler } from './core/outbox.js';
import type { Relay } from './core/relay.js';
import { systemClock, type Clock } from './core/time.js';
import { Waiters } from './core/waiters.js';
import { createApp } from './http/app.js';
import { createMetricsServer } from './http/metrics-route.js';
import { timeTransaction, watchStore } from './metrics.js';
import type { Backend, DeviceTx } from './store/backend.js';
import { openStore } from './store/open.js';
import { DeviceStream } from './ws/stream.js';

export interface RunningRelay {
  readonly relay: Relay;
  readonly server: http.Server;
  readonly stream: DeviceStream;
  readonly housekeeper: Housekeeper;
  readonly outbox: Outbox;
  readonly port: number;
  /** The port of the separate /metrics listener (RELAY_METRICS_PORT), if there is one. */
  readonly metricsPort: number | undefined;
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
  const server = http.createServer(createApp(relay, config.trustProxy, config.metrics.token));
  const metricsServer = config.metrics.port === undefined ? undefined : createMetricsServer();
  server.on('upgrade', (req, socket, head) => stream.handleUpgrade(req, socket, head));
  const housekeeper = new Housekeeper(relay);
  const outbox = new Outbox(relay, options.scheduler);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, () => resolve());
    });
    if (metricsServer) await listen(metricsServer, config.metrics.port!, config.metrics.host);
  } catch (error) {
    server.close();
    relay.outbound.close();
    await store.close();
    throw error;
  }
  watchStore(store);
  if (options.background !== false) housekeeper.start();
  outbox.start();

  let closing: Promise<void> | undefined;
  return {
    relay,
    server,
    stream,
    housekeeper,
    outbox,
    port: (server.address() as AddressInfo).port,
    metricsPort: metricsServer ? (metricsServer.address() as AddressInfo).port : undefined,
    close: () =>
      (closing ??= (async () => {
        await housekeeper.stop();
        await outbox.stop();
        relay.outbound.close();
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        await stream.close();
        server.closeAllConnections(); // long-polls and keep-alive connections end now
        await stopped;
        if (metricsServer) await new Promise<void>((resolve) => metricsServer.close(() => resolve()));
        watchStore(undefined);
        await store.close();
      })()),
  };
}

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
  store.withDeviceLock = <T>(deviceId: string, work: (tx: DeviceTx) => Promise<T>): Promise<T> =>
    timeTransaction('device', () => withDeviceLock(deviceId, work));
  store.withRelayLock = <T>(work: (tx: DeviceTx) => Promise<T>): Promise<T> => timeTransaction('relay', () => withRelayLock(work));
  return store;
}
