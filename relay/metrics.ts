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

export const httpRequests = new Counter({
  name: 'relay_http_requests_total',
  help: 'HTTP requests answered, by route pattern, method and status',
  labelNames: ['route', 'method', 'status'] as const,
  registers: [registry],
});

export const httpDuration = new Histogram({
  name: 'relay_http_request_duration_seconds',
  help: 'Time from a request arriving to its answer being sent, by route pattern',
  labelNames: ['route'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [registry],
});

export const connectedComputers = new Gauge({
  name: 'relay_connected_computers',
  help: 'Computers with at least one open device stream on this process',
  registers: [registry],
});

export const notifications = new Counter({
  name: 'relay_notifications_total',
  help: 'POST /v1/notify outcomes: accepted, deduplicated or refused',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

export const notificationsRefused = new Counter({
  name: 'relay_notifications_refused_total',
  help: 'Notifications refused, by reason (the error code of the refusal)',
  labelNames: ['reason'] as const,
  registers: [registry],
});

export const notificationsGrouped = new Counter({
  name: 'relay_notifications_grouped_total',
  help: 'PostgreSQL: notify requests taken together with others waiting for the same transaction (one read and one write for all)',
  registers: [registry],
});

export const notificationsDelivered = new Counter({
  name: 'relay_notifications_delivered_total',
  help: 'Notifications sent to a connected computer over its device stream',
  registers: [registry],
});

export const replyEvents = new Counter({
  name: 'relay_reply_events_total',
  help: 'Webhook delivery attempts of reply events, by outcome (delivered, retried, given_up, gone)',
  labelNames: ['outcome'] as const,
  registers: [registry],
});

export const webhookDuration = new Histogram({
  name: 'relay_webhook_duration_seconds',
  help: 'Time a webhook delivery attempt took, until its answer or failure',
  buckets: LATENCY_BUCKETS,
  registers: [registry],
});

export const transactionDuration = new Histogram({
  name: 'relay_db_transaction_duration_seconds',
  help: 'Time a locked database transaction took, including the wait for its lock, by kind (device or relay)',
  labelNames: ['kind'] as const,
  buckets: LATENCY_BUCKETS,
  registers: [registry],
});

export const receipts = new Counter({
  name: 'relay_receipts_total',
  help: 'Frames from computers about notifications: acks and receipts (displayed, clicked, replied...)',
  labelNames: ['kind'] as const,
  registers: [registry],
});

export const replyEventsQueued = new Counter({
  name: 'relay_reply_events_queued_total',
  help: 'Reply events queued for webhook subscriptions',
  registers: [registry],
});

export const oauthGrants = new Counter({
  name: 'relay_oauth_grants_total',
  help: 'Token endpoint requests, by grant type and outcome (granted, or the OAuth error code)',
  labelNames: ['grant', 'outcome'] as const,
  registers: [registry],
});

/** Read from the database at each scrape: what waits now, on every node of the relay. */
export const queueDepth = new Gauge({
  name: 'relay_queue_depth',
  help: 'Notifications waiting for their computer (neither acknowledged nor given up), on the whole relay',
  registers: [registry],
  async collect() {
    if (watched) this.set(await watched.waitingNotes());
  },
});

export const outboxDepth = new Gauge({
  name: 'relay_reply_events_waiting',
  help: 'Reply events waiting in the webhook outbox (queued or to be retried), on the whole relay',
  registers: [registry],
  async collect() {
    if (watched) this.set(await watched.waitingEvents());
  },
});

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

export const listenReconnects = new Counter({
  name: 'relay_db_listen_reconnects_total',
  help: 'PostgreSQL: times the listening connection (LISTEN, the bus between nodes) was opened again after it was lost',
  registers: [registry],
});

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
