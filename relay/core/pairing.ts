// Pairing a computer (docs/relay-api.md#ra10 to #ra12): a one-time code, then the device token, shown once.
// Every relay-wide rule (how many computers, how many starts, codes and wrong guesses) is a check-then-write
// under the relay-wide lock, so two nodes cannot both let the last one through.

import { randomInt } from 'node:crypto';
import {
  badCode,
  deviceLimit,
  invalidField,
  invalidRequest,
  notAnObject,
  pairingLimited,
  unauthorized,
} from '../../protocol/relay/errors.js';
import { MAX_DEVICE_NAME_CHARS } from '../../protocol/relay/limits.js';
import type { DeviceTx, RelayDb } from '../store/backend.js';
import { countRows } from '../store/queries.js';
import {
  MAX_WAITING_CODES,
  MAX_WAITING_CODES_PER_ADDRESS,
  MAX_WRONG_CODES,
  PAIR_CODE_ALPHABET,
  PAIR_CODE_LENGTH,
  PAIR_CODE_TTL_MS,
  PAIR_RETRY_SECONDS,
  PAIR_WINDOW_MS,
  WRONG_CODE_WINDOW_MS,
} from '../limits.js';
import { newDeviceToken, sameSecret, sha256Hex } from './credentials.js';
import { pruneIdleDevices, removeDevice } from './devices.js';
import { refusableRelayWide, type Relay } from './relay.js';
import { secondsUntil } from './time.js';

export interface PairingRequest {
  /** The client address, hashed (RA11). */
  addressHash: string;
  body: unknown;
}

/** RA10: a name for the computer: trimmed, without control characters, cut to 60 characters; '' when none. */
function deviceName(body: Record<string, unknown>): string | undefined {
  const value = body.deviceName;
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw invalidField('deviceName', 'must be a string');
  // eslint-disable-next-line no-control-regex
  const name = value
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .trim()
    .slice(0, MAX_DEVICE_NAME_CHARS);
  return name === '' ? undefined : name;
}

function objectBody(body: unknown): Record<string, unknown> {
  if (body === undefined) return {};
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw notAnObject();
  return body as Record<string, unknown>;
}

/** RA10: upper case, letters and digits only: `abcd-efgh` and `ABCDEFGH` are the same code. */
const normaliseCode = (code: string): string => code.toUpperCase().replace(/[^A-Z0-9]/g, '');

function newCode(): string {
  let code = '';
  for (let i = 0; i < PAIR_CODE_LENGTH; i++) code += PAIR_CODE_ALPHABET[randomInt(PAIR_CODE_ALPHABET.length)];
  return code;
}

/** RA12: pairing events out of every window and expired codes (before each check, and by the background work). */
export async function forgetOldPairing(db: RelayDb, now: number): Promise<void> {
  await db
    .deleteFrom('pair_events')
    .where('at', '<=', now - PAIR_WINDOW_MS)
    .execute();
  await db.deleteFrom('pair_codes').where('expires_at', '<=', now).execute();
}

/** The number of pairing events of a kind in a window (from one address, or from all), and the oldest. */
async function recentEvents(
  tx: DeviceTx,
  kind: 'start' | 'fail',
  since: number,
  addressHash?: string,
): Promise<{ count: number; oldest: number }> {
  let query = tx.db
    .selectFrom('pair_events')
    .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.min<number>('at').as('oldest')])
    .where('kind', '=', kind)
    .where('at', '>', since);
  if (addressHash !== undefined) query = query.where('addr_hash', '=', addressHash);
  const row = await query.executeTakeFirstOrThrow();
  return { count: Number(row.count), oldest: Number(row.oldest ?? since) };
}

/** RA11 `POST /v1/pair/start`: the checks in order (secret, computers, starts, waiting codes), then a code. */
export async function startPairing(
  relay: Relay,
  request: PairingRequest & { secretHeader: string | undefined },
): Promise<{ code: string; expiresInSeconds: number }> {
  if (relay.pairingSecret !== undefined) {
    const given = request.secretHeader ?? '';
    if (!sameSecret(sha256Hex(given), sha256Hex(relay.pairingSecret)))
      throw unauthorized('this relay needs its pairing secret in X-Pairing-Secret');
  }
  const name = deviceName(objectBody(request.body));
  await pruneIdleDevices(relay, relay.clock()); // computers the relay would drop anyway do not count
  return refusableRelayWide(relay, async (tx) => {
    const now = relay.clock();
    await forgetOldPairing(tx.db, now);
    await checkDeviceCount(relay, tx, name);
    await checkStarts(relay, tx, request.addressHash, now);
    await checkWaitingCodes(tx, request.addressHash);
    const code = newCode();
    await tx.db
      .insertInto('pair_codes')
      .values({
        code_hash: sha256Hex(code),
        device_name: name ?? null,
        addr_hash: request.addressHash,
        created_at: now,
        expires_at: now + PAIR_CODE_TTL_MS,
      })
      .execute();
    await tx.db.insertInto('pair_events').values({ kind: 'start', addr_hash: request.addressHash, at: now }).execute();
    return { code: `${code.slice(0, 4)}-${code.slice(4)}`, expiresInSeconds: PAIR_CODE_TTL_MS / 1000 };
  });
}

/** RA12: paired computers, not counting those of the same name (pairing replaces them). */
async function checkDeviceCount(relay: Relay, tx: DeviceTx, name: string | undefined): Promise<void> {
  const devices = tx.db.selectFrom('devices');
  const paired = await countRows(name === undefined ? devices : devices.where('name', '!=', name));
  if (paired >= relay.limits.maxDevices) throw deviceLimit(relay.limits.maxDevices);
}

/** RA12: starts from this address, then from everyone, in the last hour. */
async function checkStarts(relay: Relay, tx: DeviceTx, addressHash: string, now: number): Promise<void> {
  const since = now - PAIR_WINDOW_MS;
  const mine = await recentEvents(tx, 'start', since, addressHash);
  if (mine.count >= relay.limits.pairStartsPerHour) {
    throw pairingLimited(
      `at most ${relay.limits.pairStartsPerHour} pairings per hour from one address`,
      secondsUntil(mine.oldest + PAIR_WINDOW_MS, now),
    );
  }
  const all = await recentEvents(tx, 'start', since);
  if (all.count >= relay.limits.pairStartsGlobalPerHour) {
    throw pairingLimited(
      `at most ${relay.limits.pairStartsGlobalPerHour} pairings per hour on this relay`,
      secondsUntil(all.oldest + PAIR_WINDOW_MS, now),
    );
  }
}

/** RA12: codes handed out and not used yet, from this address and in all. */
async function checkWaitingCodes(tx: DeviceTx, addressHash: string): Promise<void> {
  const rows = await tx.db.selectFrom('pair_codes').select('addr_hash').execute();
  const mine = rows.filter((row) => row.addr_hash === addressHash).length;
  if (mine >= MAX_WAITING_CODES_PER_ADDRESS || rows.length >= MAX_WAITING_CODES) {
    throw pairingLimited('too many pairing codes are waiting to be used; try again later', PAIR_RETRY_SECONDS);
  }
}

/**
 * RA11 `POST /v1/pair`: too many wrong codes from this address (429), a wrong, used or expired code (403, and
 * counted as wrong), else the computer is created and its token returned — once; the relay keeps its hash.
 * Other computers of the same name are removed: a reinstall replaces the old entry.
 */
export async function completePairing(relay: Relay, request: PairingRequest): Promise<{ deviceId: string; deviceToken: string }> {
  const body = objectBody(request.body);
  if (typeof body.code !== 'string' || body.code.trim() === '')
    throw invalidRequest('code is required: the code from POST /v1/pair/start', ['code']);
  const code = normaliseCode(body.code);
  const requestedName = deviceName(body);
  const paired = await refusableRelayWide(relay, async (tx) => {
    const now = relay.clock();
    await forgetOldPairing(tx.db, now);
    const wrong = await recentEvents(tx, 'fail', now - WRONG_CODE_WINDOW_MS, request.addressHash);
    if (wrong.count >= MAX_WRONG_CODES)
      throw pairingLimited('too many wrong pairing codes from this address; try again later', PAIR_RETRY_SECONDS);
    const row = await tx.db
      .selectFrom('pair_codes')
      .selectAll()
      .where('code_hash', '=', sha256Hex(code))
      .where('expires_at', '>', now)
      .executeTakeFirst();
    if (!row) {
      await tx.db.insertInto('pair_events').values({ kind: 'fail', addr_hash: request.addressHash, at: now }).execute();
      throw badCode();
    }
    await tx.db.deleteFrom('pair_codes').where('code_hash', '=', row.code_hash).execute();
    const name = requestedName ?? row.device_name ?? '';
    const deviceId = relay.credentials.newDeviceId();
    const { token, hash } = newDeviceToken(deviceId);
    await tx.db
      .insertInto('devices')
      .values({ id: deviceId, name, token_hash: hash, created_at: now, last_seen_at: now, status: '{}', stream_gen: 0, stream_open: null })
      .execute();
    const sameName =
      name === '' ? [] : await tx.db.selectFrom('devices').select('id').where('name', '=', name).where('id', '!=', deviceId).execute();
    return { deviceId, deviceToken: token, replaced: sameName.map((device) => device.id) };
  });
  // Each under its own lock, after the new computer is in place (a device lock never waits for the relay one).
  for (const id of paired.replaced) await removeDevice(relay, id);
  return { deviceId: paired.deviceId, deviceToken: paired.deviceToken };
}
