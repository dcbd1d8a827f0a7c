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
import { openStore } from './store/open.js';
import { DeviceStream } from './ws/stream.js';

export interface RunningRelay {
  readonly relay: Relay;
  readonly server: http.Server;
  readonly stream: DeviceStream;
  readonly housekeeper: Housekeeper;
  readonly outbox: Outbox;
  readonly port: number;
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
  const store = await openStore(config);
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
  const server = http.createServer(createApp(relay, config.trustProxy));
  server.on('upgrade', (req, socket, head) => stream.handleUpgrade(req, socket, head));
  const housekeeper = new Housekeeper(relay);
  const outbox = new Outbox(relay, options.scheduler);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, () => resolve());
    });
  } catch (error) {
    relay.outbound.close();
    await store.close();
    throw error;
  }
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
    close: () =>
      (closing ??= (async () => {
        await housekeeper.stop();
        await outbox.stop();
        relay.outbound.close();
        const stopped = new Promise<void>((resolve) => server.close(() => resolve()));
        await stream.close();
        server.closeAllConnections(); // long-polls and keep-alive connections end now
        await stopped;
        await store.close();
      })()),
  };
}
