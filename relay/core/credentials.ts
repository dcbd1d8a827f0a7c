// Identifiers and credentials (docs/relay-api.md#ra1). Every credential names its computer's id, and every id is
// signed with RELAY_SECRET: a request is routed to one computer by parsing its token, and an id the relay did
// not make is refused before any query. Secrets are stored only as SHA-256 and compared in constant time.

import { createHash, createHmac, randomBytes, randomUUID, timingSafeEqual } from 'node:crypto';

/** The kinds of bearer credential (RA1); `access` tokens are the OAuth server's (RA109). */
export type CredentialKind = 'device' | 'key' | 'access';

export interface ParsedCredential {
  kind: CredentialKind;
  deviceId: string;
  /** The key's id, for `key`. */
  keyId?: string;
  /** The secret part, compared (as its hash) with the stored one. */
  secret: string;
}

const HEX48 = '[0-9a-f]{48}';
const SHAPES: [CredentialKind, RegExp][] = [
  ['device', new RegExp(`^hrd_(${HEX48})_([0-9a-f]{64})$`)],
  ['key', new RegExp(`^hrk_(${HEX48})_([0-9a-f]{8})_([0-9a-f]{64})$`)],
  ['access', new RegExp(`^hra_(${HEX48})_([0-9a-f]{64})$`)],
];

export const randomHex = (bytes: number): string => randomBytes(bytes).toString('hex');

export const sha256Hex = (text: string | Buffer): string => createHash('sha256').update(text).digest('hex');

/** Constant-time equality of two hex digests (or any two strings of public length). */
export function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/** RA1: `Authorization: Bearer <token>`, the scheme in any case, exactly one token. */
export function bearerToken(header: string | undefined): string | undefined {
  const match = header === undefined ? null : /^bearer +(\S+)$/i.exec(header.trim());
  return match?.[1];
}

/** The shape of a credential (RA1), or undefined. The device id is not verified here: see Credentials. */
export function parseCredential(token: string): ParsedCredential | undefined {
  for (const [kind, shape] of SHAPES) {
    const match = shape.exec(token);
    if (!match) continue;
    return kind === 'key'
      ? { kind, deviceId: match[1]!, keyId: match[2]!, secret: match[3]! }
      : { kind, deviceId: match[1]!, secret: match[2]! };
  }
  return undefined;
}

/** Everything signed with RELAY_SECRET. */
/** Device ids whose signature was checked, kept so a busy computer's requests do not each compute an HMAC. */
const VERIFIED_CACHE_SIZE = 10_000;

export class Credentials {
  private readonly verified = new Set<string>();

  constructor(private readonly relaySecret: string) {}

  private mac(text: string): string {
    return createHmac('sha256', this.relaySecret).update(text).digest('hex');
  }

  /** RA1: 32 random hex digits, then the first 16 of HMAC-SHA256(RELAY_SECRET, "device:" + those digits). */
  newDeviceId(): string {
    const random = randomHex(16);
    return random + this.mac(`device:${random}`).slice(0, 16);
  }

  /** Whether this relay (with this secret) made the id. A rotated secret fails every earlier id. */
  verifyDeviceId(deviceId: string): boolean {
    if (this.verified.has(deviceId)) return true;
    if (!/^[0-9a-f]{48}$/.test(deviceId)) return false;
    if (!sameSecret(deviceId.slice(32), this.mac(`device:${deviceId.slice(0, 32)}`).slice(0, 16))) return false;
    if (this.verified.size >= VERIFIED_CACHE_SIZE) this.verified.clear();
    this.verified.add(deviceId);
    return true;
  }

  /**
   * A secret only this relay can make again from what its database keeps: HMAC-SHA256(RELAY_SECRET,
   * `<purpose>:<text>`), hex. The OAuth server's codes are made so (relay/oauth/codes.ts), and never stored.
   */
  derive(purpose: string, text: string): string {
    return this.mac(`${purpose}:${text}`);
  }

  /** RA48: the signature of an audio link: HMAC over `audio:<deviceId>/<rid>.m4a:<exp>`. */
  audioSignature(deviceId: string, rid: string, exp: number): string {
    return this.mac(`audio:${deviceId}/${rid}.m4a:${exp}`);
  }
}

/** RA1: a new device token and the hash the relay keeps. */
export function newDeviceToken(deviceId: string): { token: string; hash: string } {
  const secret = randomHex(32);
  return { token: `hrd_${deviceId}_${secret}`, hash: sha256Hex(secret) };
}

/** RA1: a new agent key (`hrk_<device>_<key id>_<secret>`) and the hash the relay keeps. */
export function newAgentKey(deviceId: string, keyId: string): { key: string; hash: string } {
  const secret = randomHex(32);
  return { key: `hrk_${deviceId}_${keyId}_${secret}`, hash: sha256Hex(secret) };
}

/** RA11: a client address, hashed (the relay never stores one in clear). */
export const hashAddress = (address: string): string => sha256Hex(`ip:${address}`).slice(0, 16);

/**
 * 24 hex digits: the time in milliseconds (12 digits), then 12 random ones. A note's ids begin with its time, so
 * the notes' indexes (by id, by sender's id) grow at their end: a commit of many notes writes a few index pages
 * to the WAL rather than one per note at a random place (docs/performance.md, "Relay"). The random digits come
 * from randomUUID, which draws from a buffer of random bytes it refills in bulk (randomBytes would ask the
 * system each time); a UUID's first 12 hex digits are all random.
 */
function timeOrderedHex(): string {
  const uuid = randomUUID();
  return Date.now().toString(16).padStart(12, '0') + uuid.slice(0, 8) + uuid.slice(9, 13);
}

/** `r_` + 24 hex: the relay's id of a notification. */
export const newRelayNoteId = (): string => `r_${timeOrderedHex()}`;

/** `n_` + 24 hex: a notificationId for a sender that gave none. */
export const newSenderNoteId = (): string => `n_${timeOrderedHex()}`;
