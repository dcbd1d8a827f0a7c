// Webhook subscriptions to reply events (docs/relay-api.md#ra203 to #ra206, #ra211, #ra212): a connector
// subscribes a callback URL with `events/subscribe` (checked, then verified by a signed challenge), ends it with
// `events/unsubscribe`; the computer lists and ends them; revoking a connector ends its own.
//
// A connector is an agent key: the key's id names it, whatever credential (key or OAuth access token) the request
// carried, so everything here works from the key row the request step verified.

import { randomBytes } from 'node:crypto';
import type { SubscriptionView } from '../../protocol/relay/device-api.js';
import type { DeviceTx, RelayDb } from '../store/backend.js';
import { countRows } from '../store/queries.js';
import { MAX_CALLBACK_URL_CHARS, MAX_SUBSCRIPTIONS_PER_KEY, SUBSCRIPTION_REFRESH_MS, WEBHOOK_SECRET_BYTES } from '../limits.js';
import { log } from '../log.js';
import { verifyAgentKey, type AgentCaller } from './auth.js';
import { randomHex } from './credentials.js';
import { hostOf, publicHostProblem } from '../host-rules.js';
import { OutboundRefused } from './outbound.js';
import type { Relay } from './relay.js';
import { REPLY_EVENT, replayAndCursor, type ReplayOutcome } from './reply-events.js';
import { agentStep, type AgentStep } from './requests.js';
import { callbackFailed, invalidParams, RpcError } from './rpc-errors.js';
import { iso } from './time.js';
import { sendWebhook } from './webhooks.js';

const newSubscriptionId = (): string => `sub_${randomHex(10)}`;

/** RA204: `whsec_` and the base64 of 24 to 64 bytes. */
function isWebhookSecret(value: unknown): value is string {
  if (typeof value !== 'string' || !value.startsWith('whsec_')) return false;
  const encoded = value.slice('whsec_'.length);
  const bytes = Buffer.from(encoded, 'base64');
  return bytes.toString('base64') === encoded && bytes.length >= WEBHOOK_SECRET_BYTES.min && bytes.length <= WEBHOOK_SECRET_BYTES.max;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** RA203: whether the URL as written names a port (the parser forgets an explicit `:443`). */
function namesPort(raw: string): boolean {
  const authority = /^[a-z][a-z0-9+.-]*:[/\\]{2}([^/\\?#]*)/i.exec(raw.trim())?.[1] ?? '';
  const hostPort = authority.slice(authority.lastIndexOf('@') + 1);
  return hostPort.startsWith('[') ? hostPort.includes(']:') : hostPort.includes(':');
}

function checkEventName(params: Record<string, unknown>): void {
  if (params.name !== REPLY_EVENT) throw invalidParams(`unknown event: ${String(params.name)}`);
}

/** RA203: the URL parses (the message of every later URL rule is its own). */
function parseUrl(delivery: unknown): URL {
  const raw = isObject(delivery) ? delivery.url : undefined;
  try {
    if (typeof raw !== 'string') throw new Error('not a string');
    return new URL(raw);
  } catch {
    throw invalidParams('delivery.url must be an https URL');
  }
}

interface SubscribeRequest {
  /** Normalised. */
  url: string;
  secret: string;
  cursor: unknown;
}

/** RA204: the checks of `events/subscribe`, in order; each refusal is -32602 with its message. */
export function readSubscribe(params: Record<string, unknown>, callbackHosts: readonly string[]): SubscribeRequest {
  checkEventName(params);
  if (params.arguments !== undefined && !(isObject(params.arguments) && Object.keys(params.arguments).length === 0))
    throw invalidParams(`${REPLY_EVENT} takes no arguments`);
  const delivery = params.delivery;
  if (!isObject(delivery) || delivery.mode !== 'webhook') throw invalidParams('delivery.mode must be webhook');
  const url = parseUrl(delivery);
  if (url.protocol !== 'https:' || url.username !== '' || url.password !== '' || (delivery.url as string).length > MAX_CALLBACK_URL_CHARS)
    throw invalidParams('delivery.url must be an https URL without credentials');
  if (url.port !== '' || namesPort(delivery.url as string)) throw invalidParams('delivery.url must use the default https port');
  const host = hostOf(url);
  if (publicHostProblem(host) !== undefined) throw invalidParams('delivery.url must be a public address');
  if (callbackHosts.length > 0 && !callbackHosts.includes(host))
    throw invalidParams("delivery.url host is not on this relay's EVENT_CALLBACK_HOSTS list", { reason: 'host_not_allowed', host });
  if (!isWebhookSecret(delivery.secret))
    throw invalidParams(
      `delivery.secret must be whsec_ followed by base64 of ${WEBHOOK_SECRET_BYTES.min}-${WEBHOOK_SECRET_BYTES.max} bytes`,
    );
  const ttl = params.ttlMs;
  if (ttl !== undefined && !(typeof ttl === 'number' && Number.isSafeInteger(ttl) && ttl > 0))
    throw invalidParams('ttlMs must be a positive integer number of milliseconds');
  return { url: url.href, secret: delivery.secret, cursor: params.cursor };
}

export interface SubscribeResult extends ReplayOutcome {
  id: string;
  refreshBefore: string;
}

type Existing = { id: string; device_id: string; key_id: string };

const findSubscription = (db: RelayDb, key: { device_id: string; id: string }, url: string): Promise<Existing | undefined> =>
  db
    .selectFrom('event_subs')
    .select(['id', 'device_id', 'key_id'])
    .where('device_id', '=', key.device_id)
    .where('key_id', '=', key.id)
    .where('event', '=', REPLY_EVENT)
    .where('url', '=', url)
    .executeTakeFirst();

function subscriptionCount(db: RelayDb, key: { device_id: string; id: string }): Promise<number> {
  return countRows(db.selectFrom('event_subs').where('device_id', '=', key.device_id).where('key_id', '=', key.id));
}

/** RA205: the same connector and URL again: the id stays, the new secret is in force from now on, no challenge. */
async function renew(tx: DeviceTx, existing: Existing, request: SubscribeRequest, now: number): Promise<SubscribeResult> {
  await tx.db.updateTable('event_subs').set({ secret: request.secret }).where('id', '=', existing.id).execute();
  return result(existing.id, await replayAndCursor(tx, existing, request.cursor, now), now);
}

const result = (id: string, replay: ReplayOutcome, now: number): SubscribeResult => ({
  id,
  refreshBefore: iso(now + SUBSCRIPTION_REFRESH_MS),
  ...replay,
});

/**
 * An agent's step (counted, read-limited: RA204) whose -32602 refusals still count: they are returned out of the
 * transaction and thrown after it commits.
 */
async function countedStep<T>(relay: Relay, agent: AgentCaller, work: (step: AgentStep) => Promise<T>): Promise<T> {
  const outcome = await agentStep(relay, agent, { readLimited: true }, async (step) => {
    try {
      return { value: await work(step) };
    } catch (error) {
      if (error instanceof RpcError) return { refusal: error };
      throw error;
    }
  });
  if ('refusal' in outcome) throw outcome.refusal;
  return outcome.value;
}

/**
 * RA204-RA206: `events/subscribe`. The checks and the renewal of an existing subscription happen in the
 * request's step; a new URL is then challenged outside any lock (it may take 10 seconds), and created in a
 * second transaction that looks again at what the connector did meanwhile.
 */
export async function subscribe(relay: Relay, agent: AgentCaller, params: Record<string, unknown>): Promise<SubscribeResult> {
  const first = await countedStep<{ done: SubscribeResult } | { request: SubscribeRequest }>(relay, agent, async ({ tx, key, now }) => {
    const request = readSubscribe(params, relay.eventCallbackHosts);
    const existing = await findSubscription(tx.db, key, request.url);
    if (existing) return { done: await renew(tx, existing, request, now) };
    if ((await subscriptionCount(tx.db, key)) >= MAX_SUBSCRIPTIONS_PER_KEY)
      throw invalidParams(`at most ${MAX_SUBSCRIPTIONS_PER_KEY} subscriptions per connector`);
    return { request };
  });
  if ('done' in first) return first.done;

  const { request } = first;
  const id = newSubscriptionId();
  await challenge(relay, id, request);

  return relay.store.withDeviceLock(agent.deviceId, async (tx) => {
    const now = relay.clock();
    const { key } = await verifyAgentKey(tx.db, agent, now); // revoked meanwhile: 401, nothing made
    const existing = await findSubscription(tx.db, key, request.url);
    if (existing) return renew(tx, existing, request, now);
    if ((await subscriptionCount(tx.db, key)) >= MAX_SUBSCRIPTIONS_PER_KEY)
      throw invalidParams(`at most ${MAX_SUBSCRIPTIONS_PER_KEY} subscriptions per connector`);
    const sub = { id, device_id: key.device_id, key_id: key.id };
    await tx.db
      .insertInto('event_subs')
      .values({ ...sub, event: REPLY_EVENT, url: request.url, secret: request.secret, created_at: now })
      .execute();
    return result(id, await replayAndCursor(tx, sub, request.cursor, now), now);
  });
}

/**
 * RA206: the verification challenge, signed like an event: the callback must answer 2xx with the same
 * `challenge` in a JSON body. A name that resolves to an address that is not public is refused as such.
 */
async function challenge(relay: Relay, subscriptionId: string, request: SubscribeRequest): Promise<void> {
  const challengeText = randomBytes(16).toString('hex');
  const message = {
    id: `ver_${randomHex(8)}`,
    subscriptionId,
    secret: request.secret,
    body: JSON.stringify({ type: 'verification', challenge: challengeText }),
  };
  let answer;
  try {
    answer = await sendWebhook(relay, request.url, message);
  } catch (error) {
    if (error instanceof OutboundRefused) throw invalidParams('delivery.url must be a public address');
    log.info(`a webhook challenge to ${new URL(request.url).host} failed: ${(error as Error).message}`);
    throw callbackFailed('unreachable', `the callback could not be reached: ${(error as Error).message}`);
  }
  if (answer.status < 200 || answer.status >= 300)
    throw callbackFailed(
      'bad_status',
      `the callback answered the challenge with HTTP ${answer.status} (it must answer 2xx; redirects are not followed)`,
    );
  let echo: unknown;
  try {
    echo = JSON.parse(answer.body.toString('utf8'));
  } catch {
    echo = undefined;
  }
  if (!isObject(echo) || echo.challenge !== challengeText)
    throw callbackFailed(
      'challenge_mismatch',
      'the callback must answer the challenge with the JSON {"challenge": "<the challenge it was sent>"}',
    );
}

/** RA204: `events/unsubscribe`: this connector's subscription of that URL ends, with its waiting events; none is fine. */
export async function unsubscribe(relay: Relay, agent: AgentCaller, params: Record<string, unknown>): Promise<void> {
  await countedStep(relay, agent, async ({ tx, key }) => {
    checkEventName(params);
    const url = parseUrl(params.delivery).href;
    const existing = await findSubscription(tx.db, key, url);
    if (existing) await endSubscription(tx, key.device_id, existing.id);
  });
}

/** RA205, RA211: a subscription of a computer ends (whether or not it exists), with the events still waiting for it. */
export async function endSubscription(tx: DeviceTx, deviceId: string, id: string): Promise<void> {
  await tx.db.deleteFrom('event_outbox').where('device_id', '=', deviceId).where('sub_id', '=', id).execute();
  await tx.db.deleteFrom('event_subs').where('device_id', '=', deviceId).where('id', '=', id).execute();
}

/**
 * RA212: a revoked connector's subscriptions end and their waiting events are dropped; a purged one's reply
 * events go too.
 */
export async function endKeyEvents(tx: DeviceTx, deviceId: string, keyId: string, purge: boolean): Promise<void> {
  const subs = tx.db.selectFrom('event_subs').select('id').where('device_id', '=', deviceId).where('key_id', '=', keyId);
  await tx.db.deleteFrom('event_outbox').where('device_id', '=', deviceId).where('sub_id', 'in', subs).execute();
  await tx.db.deleteFrom('event_subs').where('device_id', '=', deviceId).where('key_id', '=', keyId).execute();
  if (purge) await tx.db.deleteFrom('reply_events').where('device_id', '=', deviceId).where('key_id', '=', keyId).execute();
}

/** RA211: `GET /v1/device/events`. */
export async function subscriptionsView(
  relay: Relay,
  db: RelayDb,
  deviceId: string,
): Promise<{ restrictedTo: string[]; subscriptions: SubscriptionView[] }> {
  const rows = await db
    .selectFrom('event_subs as s')
    .innerJoin('agent_keys as k', (join) => join.onRef('k.device_id', '=', 's.device_id').onRef('k.id', '=', 's.key_id'))
    .select((eb) => [
      's.id',
      's.event',
      's.url',
      's.created_at',
      'k.id as key_id',
      'k.name as key_name',
      'k.display_name',
      eb.selectFrom('event_outbox as o').select(eb.fn.countAll<number>().as('n')).whereRef('o.sub_id', '=', 's.id').as('pending'),
    ])
    .where('s.device_id', '=', deviceId)
    .orderBy('s.created_at')
    .orderBy('s.id')
    .execute();
  return {
    restrictedTo: [...relay.eventCallbackHosts],
    subscriptions: rows.map((row) => ({
      id: row.id,
      event: row.event,
      host: new URL(row.url).host,
      key: { id: row.key_id, name: row.key_name, ...(row.display_name !== null && { displayName: row.display_name }) },
      createdAt: iso(row.created_at),
      pending: Number(row.pending ?? 0),
    })),
  };
}
