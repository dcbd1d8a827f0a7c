// Approval requests (docs/relay-api.md#ra104, #ra108, #ra110, #ra111): what a connector asks for — in the browser
// flow (`GET /authorize`) or the device flow (`/device_authorization`) — waiting for the person to approve or deny
// it on their computer. Each request belongs to one computer and changes only inside that computer's locked
// transaction; every change is announced on the bus, so the node holding the computer's socket sends the
// `consent` or `consent_resolved` frame.

import type { SelectQueryBuilder } from 'kysely';
import { randomInt } from 'node:crypto';
import { MAX_WRONG_APPROVAL_CODES, type ConsentFrame, type ConsentView } from '../../protocol/relay/consent.js';
import { alreadyDecided, expired, notFound } from '../../protocol/relay/errors.js';
import { NOTIFY_SCOPE } from '../core/auth.js';
import { randomHex, sameSecret, sha256Hex } from '../core/credentials.js';
import { isOnline } from '../core/devices.js';
import type { Relay } from '../core/relay.js';
import { iso } from '../core/time.js';
import type { DeviceTx, RelayDb } from '../store/backend.js';
import { countRows } from '../store/queries.js';
import type { DeviceRow, OAuthRequestRow, RelayDatabase } from '../store/schema.js';
import { redirectHost, type OAuthClient } from './client-rules.js';
import { approvalCode, authorizationCode, newCodeNonce } from './codes.js';
import { createConnectorKey } from './connectors.js';
import {
  CODE_EXCHANGE_MS,
  CONSENT_LIST_MAX,
  CONSENT_LIST_WINDOW_MS,
  DEVICE_POLL_INTERVAL_SECONDS,
  MAX_PENDING_REQUESTS,
  MAX_REQUESTS_PER_HOUR,
  REQUEST_TTL_MS,
  USER_CODE_ALPHABET,
  USER_CODE_LENGTH,
} from './limits.js';

const HOUR_MS = 3_600_000;

/** RA104: a request's id: the computer's (signed) id, then 24 random hex digits. */
const REQUEST_ID = /^[0-9a-f]{72}$/;

/** The computer a request id names, when it is well formed and this relay signed it; else undefined. */
export function requestDevice(relay: Relay, rid: unknown): string | undefined {
  if (typeof rid !== 'string' || !REQUEST_ID.test(rid)) return undefined;
  const deviceId = rid.slice(0, 48);
  return relay.credentials.verifyDeviceId(deviceId) ? deviceId : undefined;
}

/** RA108: a user code is shown `XXXX-XXXX`, and read without regard to case, dashes or spaces. */
export const formatUserCode = (code: string): string => `${code.slice(0, 4)}-${code.slice(4)}`;
export const normaliseUserCode = (text: string): string => text.toUpperCase().replace(/[^A-Z]/g, '');

async function newUserCode(db: RelayDb): Promise<string> {
  for (;;) {
    let code = '';
    for (let i = 0; i < USER_CODE_LENGTH; i++) code += USER_CODE_ALPHABET[randomInt(USER_CODE_ALPHABET.length)];
    const taken = await db
      .selectFrom('oauth_requests')
      .select('id')
      .where('user_code', '=', code)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    if (!taken) return code;
  }
}

/** RA108: a device code names its computer, like every credential (RA1). */
const newDeviceCode = (deviceId: string): string => `hrv_${deviceId}_${randomHex(32)}`;

/** A pending request whose time ran out counts as expired even before the sweep marks it. */
const effectiveStatus = (row: OAuthRequestRow, now: number): string =>
  row.status === 'pending' && row.expires_at <= now ? 'expired' : row.status;

/** RA111: a request as the computer sees it, with its approval code. */
export function consentView(relay: Relay, row: OAuthRequestRow, now: number): ConsentView {
  return {
    id: row.id,
    clientId: row.client_id,
    clientName: row.client_name,
    redirectHost: redirectHost(row.redirect_uri),
    scope: NOTIFY_SCOPE,
    code: approvalCode(relay, row),
    status: effectiveStatus(row, now) as ConsentView['status'],
    createdAt: iso(row.created_at),
    expiresAt: iso(row.expires_at),
    flow: row.flow,
    ...(row.user_code !== null && { userCode: formatUserCode(row.user_code) }),
  };
}

export const consentFrame = (relay: Relay, row: OAuthRequestRow, now: number, redelivered: boolean): ConsentFrame => ({
  type: 'consent',
  ...consentView(relay, row, now),
  ...(redelivered && { redelivered: true }),
});

/** The pending requests of a computer, as `closePending` narrows them down. */
type PendingQuery = SelectQueryBuilder<RelayDatabase, 'oauth_requests', { id: string }>;

/**
 * Closes the computer's pending requests that `narrow` picks with `status`, telling its socket of each. A row at
 * a time: one SQL text, whatever the number of rows (relay/store/sqlite.ts keeps a statement per text).
 */
async function closePending(
  tx: DeviceTx,
  deviceId: string,
  status: 'expired' | 'superseded',
  now: number,
  narrow: (pending: PendingQuery) => PendingQuery,
): Promise<void> {
  const pending = tx.db.selectFrom('oauth_requests').select('id').where('device_id', '=', deviceId).where('status', '=', 'pending');
  for (const { id } of await narrow(pending).execute()) {
    await updateRequest(tx.db, deviceId, id, { status, decided_at: now });
    tx.publish({ t: 'consent_resolved', d: deviceId, i: id, s: status });
  }
}

/** RA104: requests that waited 10 minutes become expired (their banners go). */
export async function expireRequests(tx: DeviceTx, deviceId: string, now: number): Promise<void> {
  await closePending(tx, deviceId, 'expired', now, (pending) => pending.where('expires_at', '<=', now));
}

const selectRequest = (db: RelayDb, deviceId: string, id: string) =>
  db.selectFrom('oauth_requests').selectAll().where('device_id', '=', deviceId).where('id', '=', id).executeTakeFirst();

/** Changes these columns of one request. */
export const updateRequest = (db: RelayDb, deviceId: string, id: string, fields: Partial<OAuthRequestRow>) =>
  db.updateTable('oauth_requests').set(fields).where('device_id', '=', deviceId).where('id', '=', id).execute();

// --- Which computer -----------------------------------------------------------------------------------------

export interface DeviceChoice {
  device: DeviceRow;
  /** 1-based, in pairing order. */
  index: number;
  devices: DeviceRow[];
}

/**
 * RA104: the computer that receives the approval: `device=N` counted from 1 in pairing order; else the one
 * connected now (the one seen last, if several are); else the one seen most recently. `none` when nothing is
 * paired, `out_of_range` for a `device` that names none.
 */
export async function chooseDevice(relay: Relay, requested: unknown, now: number): Promise<DeviceChoice | 'none' | 'out_of_range'> {
  const devices = await relay.store.db.selectFrom('devices').selectAll().orderBy('created_at').orderBy('id').execute();
  if (requested !== undefined && requested !== '') {
    const index = typeof requested === 'string' && /^\d{1,3}$/.test(requested) ? Number(requested) : 0;
    if (index < 1 || index > devices.length) return 'out_of_range';
    return { device: devices[index - 1]!, index, devices };
  }
  if (devices.length === 0) return 'none';
  const bySeen = [...devices].sort((a, b) => b.last_seen_at - a.last_seen_at);
  const device = bySeen.find((candidate) => isOnline(candidate, now)) ?? bySeen[0]!;
  return { device, index: devices.indexOf(device) + 1, devices };
}

// --- Beginning a request ------------------------------------------------------------------------------------

export interface NewRequest {
  flow: 'code' | 'device';
  client: OAuthClient;
  /** The relay's origin as the client reached it (the issuer). */
  origin: string;
  redirectUri?: string;
  codeChallenge?: string;
  state?: string;
  resource?: string;
}

export type Begun = { row: OAuthRequestRow; deviceCode?: string } | { limited: 'waiting' | 'hourly' };

/**
 * RA104, RA108: begins a request on a computer. The same client's open request of the same flow is taken over
 * (new codes, 10 more minutes, the banner updated in place); its open request of the other flow is superseded.
 * Otherwise at most 3 wait on one computer and 12 are begun per hour. Then the same client's open requests on
 * the other computers are superseded: one approval is enough.
 */
export async function beginRequest(relay: Relay, deviceId: string, request: NewRequest): Promise<Begun> {
  const now = relay.clock();
  const begun = await relay.store.withDeviceLock(deviceId, async (tx): Promise<Begun> => {
    await expireRequests(tx, deviceId, now);
    const open = await tx.db
      .selectFrom('oauth_requests')
      .selectAll()
      .where('device_id', '=', deviceId)
      .where('status', '=', 'pending')
      .execute();
    const mine = open.filter((row) => row.client_id === request.client.id);
    const otherFlow = (pending: PendingQuery) => pending.where('client_id', '=', request.client.id).where('flow', '!=', request.flow);
    await closePending(tx, deviceId, 'superseded', now, otherFlow);
    const takenOver = mine.find((row) => row.flow === request.flow);
    if (!takenOver) {
      if (open.length - mine.length >= MAX_PENDING_REQUESTS) return { limited: 'waiting' };
      const begunLastHour = tx.db
        .selectFrom('oauth_requests')
        .where('device_id', '=', deviceId)
        .where('created_at', '>', now - HOUR_MS);
      if ((await countRows(begunLastHour)) >= MAX_REQUESTS_PER_HOUR) return { limited: 'hourly' };
    }
    const deviceCode = request.flow === 'device' ? newDeviceCode(deviceId) : undefined;
    const fields = {
      client_name: request.client.name,
      origin: request.origin,
      redirect_uri: request.redirectUri ?? null,
      code_challenge: request.codeChallenge ?? null,
      state: request.state ?? null,
      resource: request.resource ?? null,
      code_nonce: newCodeNonce(),
      attempts: 0,
      expires_at: now + REQUEST_TTL_MS,
      device_code_hash: deviceCode === undefined ? null : sha256Hex(deviceCode),
      user_code: request.flow === 'device' ? await newUserCode(tx.db) : null,
      last_poll_at: request.flow === 'device' ? now : null,
      interval_seconds: DEVICE_POLL_INTERVAL_SECONDS,
    };
    const id = takenOver?.id ?? `${deviceId}${randomHex(12)}`;
    if (takenOver) {
      await updateRequest(tx.db, deviceId, id, fields);
    } else {
      await tx.db
        .insertInto('oauth_requests')
        .values({
          device_id: deviceId,
          id,
          flow: request.flow,
          client_id: request.client.id,
          status: 'pending',
          code_hash: null,
          key_id: null,
          created_at: now,
          decided_at: null,
          redeemed_at: null,
          announced_at: null,
          ...fields,
        })
        .execute();
    }
    tx.publish({ t: 'consent', d: deviceId, i: id });
    return { row: (await selectRequest(tx.db, deviceId, id))!, deviceCode };
  });
  if ('row' in begun) await closeClientElsewhere(relay, deviceId, request.client.id, now);
  return begun;
}

/** Supersedes a client's open requests on every computer but `deviceId` (each under its own lock). */
async function closeClientElsewhere(relay: Relay, deviceId: string, clientId: string, now: number): Promise<void> {
  const others = await relay.store.db
    .selectFrom('oauth_requests')
    .select('device_id')
    .distinct()
    .where('client_id', '=', clientId)
    .where('status', '=', 'pending')
    .where('device_id', '!=', deviceId)
    .execute();
  for (const { device_id } of others) {
    await relay.store.withDeviceLock(device_id, (tx) =>
      closePending(tx, device_id, 'superseded', now, (pending) => pending.where('client_id', '=', clientId)),
    );
  }
}

// --- Deciding -----------------------------------------------------------------------------------------------

export type Settled =
  /** Unknown on this computer. */
  | { kind: 'unknown' }
  /** Decided by this call. */
  | { kind: 'decided'; row: OAuthRequestRow }
  /** Already closed before: approved, denied, superseded or expired. */
  | { kind: 'closed'; row: OAuthRequestRow }
  /** A wrong approval code, and how many more may be tried. */
  | { kind: 'wrong'; row: OAuthRequestRow; triesLeft: number };

/**
 * RA110: approves or denies a waiting request — from the computer (`POST /v1/device/consent`), or with the
 * approval code typed on a relay page (`code`: checked first; the fifth wrong code denies). Approval makes the
 * connector's key (RA109); in the browser flow it also makes the authorization code. A too_many_keys refusal
 * leaves the request waiting.
 */
export async function settleRequest(
  relay: Relay,
  deviceId: string,
  id: string,
  decision: 'approve' | 'deny',
  code?: string,
): Promise<Settled> {
  const now = relay.clock();
  const settled = await relay.store.withDeviceLock(deviceId, async (tx): Promise<Settled> => {
    await expireRequests(tx, deviceId, now);
    const row = await selectRequest(tx.db, deviceId, id);
    if (!row) return { kind: 'unknown' };
    if (row.status !== 'pending') return { kind: 'closed', row };
    let outcome = decision;
    if (code !== undefined && !sameSecret(code, approvalCode(relay, row))) {
      const attempts = row.attempts + 1;
      await updateRequest(tx.db, deviceId, id, { attempts });
      if (attempts < MAX_WRONG_APPROVAL_CODES)
        return { kind: 'wrong', row: { ...row, attempts }, triesLeft: MAX_WRONG_APPROVAL_CODES - attempts };
      outcome = 'deny';
    }
    if (outcome === 'approve') {
      const keyId = await createConnectorKey(tx, deviceId, row.client_id, row.client_name, now);
      await updateRequest(tx.db, deviceId, id, {
        status: 'approved',
        decided_at: now,
        key_id: keyId,
        code_hash: row.flow === 'code' ? sha256Hex(authorizationCode(relay, row)) : null,
      });
    } else {
      await updateRequest(tx.db, deviceId, id, { status: 'denied', decided_at: now });
    }
    const status = outcome === 'approve' ? 'approved' : 'denied';
    tx.publish({ t: 'consent_resolved', d: deviceId, i: id, s: status });
    return { kind: 'decided', row: (await selectRequest(tx.db, deviceId, id))! };
  });
  if (settled.kind === 'decided') await closeClientElsewhere(relay, deviceId, settled.row.client_id, now);
  return settled;
}

/**
 * RA111 `POST /v1/device/consent`: the person's decision on the computer the request belongs to. Its status, and
 * where the app's browser goes next (the browser flow); 404 for another computer's request or an unknown one, 409
 * for one already decided, 410 for one that expired or was replaced.
 */
export async function decideOnComputer(
  relay: Relay,
  deviceId: string,
  id: string,
  decision: 'approve' | 'deny',
): Promise<{ status: string; redirect?: string }> {
  if (requestDevice(relay, id) !== deviceId) throw notFound('no such connector request');
  const settled = await settleRequest(relay, deviceId, id, decision);
  if (settled.kind === 'closed') {
    if (settled.row.status === 'approved' || settled.row.status === 'denied') throw alreadyDecided(settled.row.status);
    throw expired(`this connector request is ${settled.row.status}: the app must ask again`);
  }
  // `wrong` needs an approval code, which a decision on the computer never carries.
  if (settled.kind !== 'decided') throw notFound('no such connector request');
  const location = redirectFor(relay, settled.row, relay.clock());
  return { status: settled.row.status, ...(location !== undefined && { redirect: location }) };
}

/**
 * RA104: where the browser goes once a browser-flow request is decided; undefined while there is nowhere to go
 * (and once the code was exchanged or is too old to be).
 */
export function redirectFor(relay: Relay, row: OAuthRequestRow, now: number): string | undefined {
  if (row.flow !== 'code' || row.redirect_uri === null) return undefined;
  const url = new URL(row.redirect_uri);
  if (row.status === 'approved') {
    const usable = row.code_hash !== null && row.redeemed_at === null && now < (row.decided_at ?? 0) + CODE_EXCHANGE_MS;
    if (!usable) return undefined;
    url.searchParams.set('code', authorizationCode(relay, row));
  } else if (row.status === 'denied') {
    url.searchParams.set('error', 'access_denied');
    url.searchParams.set('error_description', 'the person denied the request');
  } else return undefined;
  if (row.state !== null) url.searchParams.set('state', row.state);
  url.searchParams.set('iss', row.origin);
  return url.toString();
}

/**
 * RA105: what the consent page's poll sees: `pending`; `approved` or `denied` with the redirect (the browser flow);
 * `expired` for an expired or superseded request, or an approval whose code was used or is too old to use.
 */
export function pageStatus(relay: Relay, row: OAuthRequestRow, now: number): { status: string; redirect?: string } {
  const status = effectiveStatus(row, now);
  if (status === 'pending') return { status };
  if (status !== 'approved' && status !== 'denied') return { status: 'expired' };
  if (row.flow === 'device') return { status };
  const redirect = redirectFor(relay, row, now);
  return redirect === undefined ? { status: 'expired' } : { status, redirect };
}

/** A request by id, without a lock (pages and polls read; changes take the lock). */
export function readRequest(relay: Relay, deviceId: string, id: string): Promise<OAuthRequestRow | undefined> {
  return selectRequest(relay.store.db, deviceId, id);
}

/** RA111: the last day's requests, newest first, at most 20 (expired ones marked first). */
export async function listConsents(relay: Relay, tx: DeviceTx, deviceId: string, now: number): Promise<ConsentView[]> {
  await expireRequests(tx, deviceId, now);
  const rows = await tx.db
    .selectFrom('oauth_requests')
    .selectAll()
    .where('device_id', '=', deviceId)
    .where('created_at', '>', now - CONSENT_LIST_WINDOW_MS)
    .orderBy('created_at', 'desc')
    .orderBy('id')
    .limit(CONSENT_LIST_MAX)
    .execute();
  return rows.map((row) => consentView(relay, row, now));
}
