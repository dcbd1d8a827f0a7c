// The relay's metrics (docs/relay.md, "Metrics"): one registry per process, scraped as Prometheus text at
// GET /metrics. Every label comes from a fixed set (route patterns, error codes, outcomes), never a path, an
// id or a client's name, so the number of series stays bounded whatever callers send.
//
// A leaf of the relay: the registry and its counters, which the callers feed (relay/http/request-count.ts counts
// the requests, the store and the core their own events), and the gauges read at scrape time from what server.ts
// gives them (watchRelay).

import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { RelayError } from '../protocol/relay/errors.js';
import { OAuthError } from '../protocol/relay/oauth-errors.js';
import { RELAY_VERSION } from './version.js';

export const registry = new Registry();
collectDefaultMetrics({ register: registry });

// Which relay answers: constant 1, its labels the version and the Node running it (the usual `_build_info`
// gauge), so a dashboard can tell nodes of a rolling upgrade apart.
new Gauge({
  name: 'relay_build_info',
  help: "The relay's version and the Node.js version it runs on; always 1",
  labelNames: ['version', 'node_version'] as const,
  registers: [registry],
}).set({ version: RELAY_VERSION, node_version: process.version }, 1);

/** Latency buckets in seconds: from a cached SQLite read (about a millisecond) up to a slow webhook. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** A counter of the registry, by the labels named (each label takes values from a fixed set: see the head of this file). */
const counter = <L extends string = never>(name: string, help: string, labelNames: readonly L[] = []): Counter<L> =>
  new Counter({ name, help, labelNames, registers: [registry] });

/** A histogram of the registry in seconds, on the latency buckets. */
const latency = <L extends string = never>(name: string, help: string, labelNames: readonly L[] = []): Histogram<L> =>
  new Histogram({ name, help, labelNames, buckets: LATENCY_BUCKETS, registers: [registry] });

export const httpRequests = counter('relay_http_requests_total', 'HTTP requests answered, by route pattern, method and status', [
  'route',
  'method',
  'status',
]);

export const httpDuration = latency(
  'relay_http_request_duration_seconds',
  'Time from a request arriving to its answer being sent, by route pattern',
  ['route'],
);

export const connectedComputers = new Gauge({
  name: 'relay_connected_computers',
  help: 'Computers with at least one open device stream on this process',
  registers: [registry],
});

export const notifications = counter('relay_notifications_total', 'POST /v1/notify outcomes: accepted, deduplicated or refused', [
  'outcome',
]);

export const notificationsRefused = counter(
  'relay_notifications_refused_total',
  'Notifications refused, by reason (the error code of the refusal)',
  ['reason'],
);

export const notificationsGrouped = counter(
  'relay_notifications_grouped_total',
  'PostgreSQL: notify requests taken together with others waiting for the same transaction (one read and one write for all)',
);

export const notificationsDelivered = counter(
  'relay_notifications_delivered_total',
  'Notifications sent to a connected computer over its device stream',
);

export const replyEvents = counter(
  'relay_reply_events_total',
  'Webhook delivery attempts of reply events, by outcome (delivered, retried, given_up, gone)',
  ['outcome'],
);

export const webhookDuration = latency(
  'relay_webhook_duration_seconds',
  'Time a webhook delivery attempt took, until its answer or failure',
);

export const transactionDuration = latency(
  'relay_db_transaction_duration_seconds',
  'Time a locked database transaction took, including the wait for its lock, by kind (device or relay)',
  ['kind'],
);

export const receipts = counter(
  'relay_receipts_total',
  'Frames from computers about notifications: acks and receipts (displayed, clicked, replied...)',
  ['kind'],
);

export const replyEventsQueued = counter('relay_reply_events_queued_total', 'Reply events queued for webhook subscriptions');

export const oauthGrants = counter(
  'relay_oauth_grants_total',
  'Token endpoint requests, by grant type and outcome (granted, or the OAuth error code)',
  ['grant', 'outcome'],
);

/** A gauge read from the database at each scrape: what waits now, on every node of the relay. */
const waiting = (name: string, help: string, count: (relay: Watched) => Promise<number>): Gauge =>
  new Gauge({
    name,
    help,
    registers: [registry],
    async collect() {
      if (watched) this.set(await count(watched));
    },
  });

export const queueDepth = waiting(
  'relay_queue_depth',
  'Notifications waiting for their computer (neither acknowledged nor given up), on the whole relay',
  (relay) => relay.waitingNotes(),
);

export const outboxDepth = waiting(
  'relay_reply_events_waiting',
  'Reply events waiting in the webhook outbox (queued or to be retried), on the whole relay',
  (relay) => relay.waitingEvents(),
);

export const poolConnections = new Gauge({
  name: 'relay_db_pool_connections',
  help: 'PostgreSQL pool connections by state (in_use, idle, waiting: requests waiting for one); absent on SQLite',
  labelNames: ['state'] as const,
  registers: [registry],
  collect() {
    const use = watched?.poolUse?.();
    if (!use) return;
    this.set({ state: 'in_use' }, use.total - use.idle);
    this.set({ state: 'idle' }, use.idle);
    this.set({ state: 'waiting' }, use.waiting);
  },
});

export const queuedRequests = new Gauge({
  name: 'relay_db_requests_queued',
  help: "PostgreSQL: requests on this node waiting for their computer's transaction or in one not yet committed; always 0 on SQLite",
  registers: [registry],
  collect() {
    const queued = watched?.queuedRequests?.();
    if (queued !== undefined) this.set(queued);
  },
});

export const listenReconnects = counter(
  'relay_db_listen_reconnects_total',
  'PostgreSQL: times the listening connection (LISTEN, the bus between nodes) was opened again after it was lost',
);

/** What the gauges read at scrape time, from the process's one relay. */
export interface Watched {
  /** Notifications waiting for their computer (neither acknowledged nor given up), on the whole relay. */
  waitingNotes(): Promise<number>;
  /** Reply events waiting in the webhook outbox, on the whole relay. */
  waitingEvents(): Promise<number>;
  /** PostgreSQL: the pool's connections (all, idle) and the requests waiting for one. */
  poolUse?(): { total: number; idle: number; waiting: number };
  /** PostgreSQL: the requests on this node waiting for their computer's transaction or in one not yet committed. */
  queuedRequests?(): number;
}

let watched: Watched | undefined;
/** server.ts: what the gauges read, once the relay runs; undefined again when it closes. */
export function watchRelay(relay: Watched | undefined): void {
  watched = relay;
}

/** The grant types of the token endpoint (RA106, RA108); any other value given counts as `other`. */
const GRANT_LABELS = new Set(['authorization_code', 'refresh_token', 'urn:ietf:params:oauth:grant-type:device_code']);

/** Counts one token request: `granted`, or the OAuth error code it was refused with (a fixed set). */
export async function countGrant<T>(grant: string | null, work: () => Promise<T>): Promise<T> {
  const label = grant !== null && GRANT_LABELS.has(grant) ? (grant.endsWith('device_code') ? 'device_code' : grant) : 'other';
  try {
    const answer = await work();
    oauthGrants.inc({ grant: label, outcome: 'granted' });
    return answer;
  } catch (error) {
    oauthGrants.inc({ grant: label, outcome: error instanceof OAuthError ? error.code : 'error' });
    throw error;
  }
}

/**
 * The refusal reasons of notify that get their own label value; any other refusal counts as `other`, so a new
 * error code can never add a series unnoticed.
 */
const NOTIFY_REFUSAL_REASONS = new Set(['rate_limited', 'queue_full', 'daily_cap', 'forbidden_fields', 'budget_exhausted', 'too_large']);

/** Counts the outcome of one notify: its result (duplicate or not) or the refusal it threw. */
export async function countNotify<T extends { duplicate: boolean }>(work: Promise<T>): Promise<T> {
  try {
    const outcome = await work;
    notifications.inc({ outcome: outcome.duplicate ? 'deduplicated' : 'accepted' });
    return outcome;
  } catch (error) {
    if (error instanceof RelayError) {
      notifications.inc({ outcome: 'refused' });
      notificationsRefused.inc({ reason: NOTIFY_REFUSAL_REASONS.has(error.code) ? error.code : 'other' });
    }
    throw error;
  }
}

/** Times one transaction (resolved or not) under the `kind` label. */
export async function timeTransaction<T>(kind: 'device' | 'relay', work: () => Promise<T>): Promise<T> {
  const end = transactionDuration.startTimer({ kind });
  try {
    return await work();
  } finally {
    end();
  }
}
