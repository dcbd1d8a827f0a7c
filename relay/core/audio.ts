// Voice-reply recordings (docs/relay-api.md#ra21, #ra48): the computer uploads one per reply, agents download it
// through a link signed with RELAY_SECRET that works for an hour. The bytes live in the database (at most
// 1 MiB each, 20 MiB per computer per day, kept 7 days), so every relay process can serve them.

import { TOO_LARGE, type BoundedBody } from '../../common/bounded-body.js';
import { dailyCap, expired, forbidden, invalidRequest, notFound, tooLarge, unsupportedMediaType } from '../../protocol/relay/errors.js';
import { AUDIO_CONTENT_TYPES, MAX_AUDIO_BYTES } from '../../protocol/relay/limits.js';
import { RELAY_ID_PATTERN } from '../../protocol/relay/receipts.js';
import type { DeviceTx } from '../store/backend.js';
import { AUDIO_LINK_SECONDS } from '../limits.js';
import { sameSecret } from './credentials.js';
import { findNote } from './notes.js';
import type { Relay } from './relay.js';
import { secondsToMidnightUTC } from './time.js';
import { addUsage, usageToday } from './usage.js';

/** RA48: `<origin>/v1/audio/<deviceId>/<rid>.m4a?exp=<unix s>&sig=<hex>`, valid an hour from now. */
export function audioLink(relay: Relay, origin: string, deviceId: string, rid: string, now: number): string {
  const exp = Math.floor(now / 1000) + AUDIO_LINK_SECONDS;
  return `${origin}/v1/audio/${deviceId}/${rid}.m4a?exp=${exp}&sig=${relay.credentials.audioSignature(deviceId, rid, exp)}`;
}

async function requireNote(tx: DeviceTx, deviceId: string, rid: string): Promise<void> {
  if (!RELAY_ID_PATTERN.test(rid) || !(await findNote(tx.db, deviceId, rid)))
    throw notFound('no notification with this id on this computer');
}

async function checkUploadCount(relay: Relay, tx: DeviceTx, deviceId: string, now: number): Promise<void> {
  const today = await usageToday(tx.db, deviceId, now);
  if (today.audio_uploads >= relay.limits.deviceAudioUploadsPerDay) {
    throw dailyCap(`at most ${relay.limits.deviceAudioUploadsPerDay} recordings per computer per day (UTC)`, secondsToMidnightUTC(now));
  }
}

/** RA21, before the body is read: unknown note (404), declared size (413), today's upload count (429). */
export async function precheckUpload(
  relay: Relay,
  tx: DeviceTx,
  deviceId: string,
  rid: string,
  declaredBytes: number | undefined,
  now: number,
): Promise<void> {
  await requireNote(tx, deviceId, rid);
  if (declaredBytes !== undefined && declaredBytes > MAX_AUDIO_BYTES) throw tooLarge('the recording', MAX_AUDIO_BYTES);
  await checkUploadCount(relay, tx, deviceId, now);
}

/**
 * RA21, with the body: the note and the count again (another upload may have landed meanwhile), empty (400),
 * actual size (413), today's bytes (429), Content-Type (415); then stored. Returns the size.
 */
export async function storeUpload(
  relay: Relay,
  tx: DeviceTx,
  deviceId: string,
  rid: string,
  body: BoundedBody,
  contentType: string | undefined,
  now: number,
): Promise<number> {
  await requireNote(tx, deviceId, rid);
  await checkUploadCount(relay, tx, deviceId, now);
  if (body === TOO_LARGE) throw tooLarge('the recording', MAX_AUDIO_BYTES);
  if (body.length === 0) throw invalidRequest('the recording is empty');
  const today = await usageToday(tx.db, deviceId, now);
  if (today.audio_bytes + body.length > relay.limits.deviceAudioBytesPerDay) {
    throw dailyCap(
      `at most ${relay.limits.deviceAudioBytesPerDay} bytes of recordings per computer per day (UTC)`,
      secondsToMidnightUTC(now),
    );
  }
  const type = contentType?.split(';')[0]!.trim().toLowerCase();
  if (!type || !(AUDIO_CONTENT_TYPES as readonly string[]).includes(type)) throw unsupportedMediaType(AUDIO_CONTENT_TYPES);

  const row = { device_id: deviceId, rid, content_type: type, size: body.length, bytes: body, created_at: now };
  await tx.db
    .insertInto('reply_audio')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['device_id', 'rid']).doUpdateSet({ content_type: type, size: body.length, bytes: body, created_at: now }),
    )
    .execute();
  await tx.db.updateTable('notes').set({ audio_size: body.length }).where('device_id', '=', deviceId).where('rid', '=', rid).execute();
  await addUsage(tx.db, deviceId, now, { audio_uploads: 1, audio_bytes: body.length });
  return body.length;
}

/** RA48: a download, checked in order: the link's shape (404), its expiry (410), its signature (403), the file (404). */
export async function readDownload(relay: Relay, deviceId: string, file: string, exp: unknown, sig: unknown, now: number): Promise<Buffer> {
  const rid = file.endsWith('.m4a') ? file.slice(0, -'.m4a'.length) : '';
  const shaped =
    /^[0-9a-f]{48}$/.test(deviceId) &&
    RELAY_ID_PATTERN.test(rid) &&
    typeof exp === 'string' &&
    /^\d{1,12}$/.test(exp) &&
    typeof sig === 'string';
  if (!shaped) throw notFound('no such recording');
  if (Number(exp) * 1000 < now) throw expired('this link has expired: read the receipt again for a fresh one');
  if (!sameSecret(sig, relay.credentials.audioSignature(deviceId, rid, Number(exp)))) throw forbidden('this link is not valid');
  const row = await relay.store.db
    .selectFrom('reply_audio')
    .select('bytes')
    .where('device_id', '=', deviceId)
    .where('rid', '=', rid)
    .executeTakeFirst();
  if (!row) throw notFound('no such recording');
  return Buffer.from(row.bytes);
}
