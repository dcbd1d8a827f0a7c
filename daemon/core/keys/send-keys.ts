import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { SendKeyRow } from '../../../protocol/app-api-settings.js';
import { errors } from '../../../protocol/errors.js';
import { MAX_SEND_KEYS } from '../../../protocol/limits.js';
import type { Document, Store } from '../../store/store.js';
import { log } from '../../log.js';

// Sending keys (docs/api/keys.md): a key sends notifications as one app and does nothing else, so the configuration
// file of a monitoring tool, which gets copied around, never holds the daemon's full token. Only a hash of each key
// is kept (`send-keys.json`): the key itself is shown once, when it is made.

/** A key as the API lists it: never the key, never its hash. */
export type SendKeyView = SendKeyRow;

interface StoredKey extends SendKeyView {
  /** SHA-256 of the key, hex. A key has 150 random bits, so a fast hash is enough: nothing can be guessed from it. */
  hash: string;
}

interface KeysFile {
  keys: StoredKey[];
}

/**
 * ntfy's access tokens are `tk_` and 29 lower-case letters and digits; a key of that very shape is taken by every
 * ntfy client that checks a token's form (Apprise's `ntfy://tk_…@host/topic` sends it as a bearer token).
 */
const KEY_PREFIX = 'tk_';
const KEY_LENGTH = 29;
const KEY_ALPHABET = 'abcdefghijklmnopqrstuvwxyz0123456789';
/** How much of a key its hint shows: the prefix and four characters of the 29. */
const HINT_LENGTH = KEY_PREFIX.length + 4;
/** The last use is saved at most this often: it is a convenience for the person, not a record to lose nothing of. */
const LAST_USE_SAVE_MS = 60_000;

/** A new key: 29 characters drawn evenly from 36 (a byte is used only below 252, 7 × 36, so none is likelier). */
function newKey(): string {
  let key = KEY_PREFIX;
  while (key.length < KEY_PREFIX.length + KEY_LENGTH) {
    for (const byte of randomBytes(KEY_LENGTH)) {
      if (byte < 252 && key.length < KEY_PREFIX.length + KEY_LENGTH) key += KEY_ALPHABET[byte % 36];
    }
  }
  return key;
}

const hashOf = (key: string): string => createHash('sha256').update(key).digest('hex');

const viewOf = ({ hash: _hash, ...view }: StoredKey): SendKeyView => view;

export class SendKeys {
  private readonly byHash = new Map<string, StoredKey>();
  private lastUseTimer: NodeJS.Timeout | null = null;

  private constructor(
    private readonly store: Store,
    private readonly document: Document<KeysFile>,
  ) {
    for (const key of document.data.keys ?? []) if (typeof key?.hash === 'string') this.byHash.set(key.hash, key);
  }

  static async open(store: Store): Promise<SendKeys> {
    return new SendKeys(store, await store.open<KeysFile>('send-keys.json', { keys: [] }));
  }

  /** The keys, oldest first; of one app when `app` is given. */
  list(app?: string): SendKeyView[] {
    return [...this.byHash.values()].filter((key) => app === undefined || key.app === app).map(viewOf);
  }

  /** Makes a key for `app`; the answer is the only time the key itself is seen. Answered once it is on disk. */
  async create(app: string, name: string | undefined, now = new Date()): Promise<SendKeyView & { key: string }> {
    if (this.byHash.size >= MAX_SEND_KEYS) throw errors.tooManySendKeys();
    const key = newKey();
    const stored: StoredKey = {
      id: `key-${randomUUID().slice(0, 8)}`,
      app,
      name: name ?? app,
      hint: key.slice(0, HINT_LENGTH),
      createdAt: now.toISOString(),
      hash: hashOf(key),
    };
    this.byHash.set(stored.hash, stored);
    await this.save();
    return { ...viewOf(stored), key };
  }

  /** Revokes a key: from the answer on, it opens nothing. */
  async revoke(id: string): Promise<void> {
    const found = [...this.byHash.values()].find((key) => key.id === id);
    if (!found) throw errors.sendKeyNotFound(id);
    this.byHash.delete(found.hash);
    await this.save();
  }

  /** Revokes every key of an app (the app was removed). */
  async revokeApp(app: string): Promise<void> {
    const before = this.byHash.size;
    for (const [hash, key] of this.byHash) if (key.app === app) this.byHash.delete(hash);
    if (this.byHash.size !== before) await this.save();
  }

  /**
   * The key a secret is, or null. The look-up is by the secret's hash, so no comparison of the secret itself can
   * leak its characters by its time. Its last use is noted.
   */
  verify(secret: string, now = new Date()): SendKeyView | null {
    if (!secret.startsWith(KEY_PREFIX)) return null;
    const found = this.byHash.get(hashOf(secret));
    if (!found) return null;
    found.lastUsedAt = now.toISOString();
    this.saveLastUseSoon();
    return viewOf(found);
  }

  /** Is the secret a key (without noting a use)? */
  isKey(secret: string): boolean {
    return secret.startsWith(KEY_PREFIX) && this.byHash.has(hashOf(secret));
  }

  /** Saves the last uses still waiting (the daemon stops). */
  async close(): Promise<void> {
    if (!this.lastUseTimer) return;
    clearTimeout(this.lastUseTimer);
    this.lastUseTimer = null;
    await this.save();
  }

  private saveLastUseSoon(): void {
    if (this.lastUseTimer) return;
    this.lastUseTimer = setTimeout(() => {
      this.lastUseTimer = null;
      this.save().catch((error: Error) => log.error(`send-keys.json: ${error.message}`));
    }, LAST_USE_SAVE_MS);
    this.lastUseTimer.unref();
  }

  private save(): Promise<void> {
    this.document.data = { keys: [...this.byHash.values()] };
    return this.store.save(this.document);
  }
}
