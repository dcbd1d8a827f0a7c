// Where the relay's device token is kept (docs/relay-desktop.md#the-device-token): the desktop's Secret Service
// (org.freedesktop.secrets on the session bus: GNOME Keyring, KWallet, KeePassXC), as an item of its default
// collection with attributes naming Notifier and this support folder; else, when there is no Secret Service or
// its collection is locked, a 0600 file in the support folder's 0700 `secrets/` folder. The secret is read back
// from the place it was written to: a keyring that is locked or not running is "not now", never "no secret".
// Nothing else ever reads the token: no route, command or tool returns it.

import { createHash } from 'node:crypto';
import { readFile, unlink } from 'node:fs/promises';
import path from 'node:path';
import dbus from 'dbus-next';
import type { RelayTokenPlace } from '../../protocol/app-api-relay.js';
import { busDaemon, setUpOnBus } from './dbus-bus.js';
import { log } from '../log.js';
import { syncFolder, writeFileDurably } from '../store/durable-file.js';

const SERVICE = 'org.freedesktop.secrets';
const SERVICE_PATH = '/org/freedesktop/secrets';
const SERVICE_INTERFACE = 'org.freedesktop.Secret.Service';
const COLLECTION_INTERFACE = 'org.freedesktop.Secret.Collection';
const ITEM_INTERFACE = 'org.freedesktop.Secret.Item';
const SESSION_INTERFACE = 'org.freedesktop.Secret.Session';
/** The Secret Service's "no object" (no default collection, no prompt needed). */
const NO_OBJECT = '/';
/** How long one exchange with the Secret Service may take before the file is used instead. */
const SECRET_SERVICE_TIMEOUT_MS = 5_000;

/** Where a secret went. */
export type SecretPlace = RelayTokenPlace;

export interface SecretStore {
  /**
   * The secret kept in `place` (either, the Secret Service first, when it is not known), or null when none is kept
   * there. Throws SecretUnavailable when `place` is the Secret Service and it cannot be asked now.
   */
  read(place?: SecretPlace): Promise<string | null>;
  /** Keeps the secret (replacing an earlier one) and says where. */
  write(secret: string): Promise<SecretPlace>;
  /**
   * Forgets it, in both places. An item the Secret Service cannot delete now (locked, not running) stays there;
   * that is logged when `place`, where it was kept, is the Secret Service.
   */
  remove(place?: SecretPlace): Promise<void>;
}

/** The Secret Service cannot be asked now: there is none on the bus, its collection is locked, or it failed. */
export class SecretUnavailable extends Error {}

export interface SecretStoreOptions {
  supportDir: string;
  /** What the secret is (the file's name, and the `account` attribute). */
  account: string;
  /** The item's label, as keyring managers (Seahorse) show it. */
  label: string;
  /** The session bus; default DBUS_SESSION_BUS_ADDRESS. */
  busAddress?: string;
}

/** A secret of this support folder: the Secret Service first, the 0600 file when there is none or it is locked. */
export function secretStore(options: SecretStoreOptions): SecretStore {
  const file = path.join(options.supportDir, 'secrets', options.account);
  // Two support folders (two daemons of one user) keep two tokens: the folder is part of the item's attributes.
  const attributes = {
    application: 'notifier',
    account: options.account,
    'support-folder': createHash('sha256').update(options.supportDir).digest('hex').slice(0, 16),
  };
  /** One exchange with the Secret Service; SecretUnavailable when there is none or it fails. */
  const ask = async <T>(work: (service: SecretService) => Promise<T>): Promise<T> => {
    const service = await SecretService.connect(options.busAddress);
    if (!service) throw new SecretUnavailable('there is no Secret Service on the session bus');
    try {
      return await withTimeout(work(service), SECRET_SERVICE_TIMEOUT_MS);
    } catch (error) {
      if (error instanceof SecretUnavailable) throw error;
      throw new SecretUnavailable(`the Secret Service failed: ${(error as Error).message}`);
    } finally {
      service.close();
    }
  };
  const readFileSecret = () =>
    readFile(file, 'utf8').then(
      (text) => text.trim() || null,
      () => null,
    );
  return {
    async read(place) {
      if (place === 'file') return readFileSecret();
      if (place === 'secret-service') return ask((service) => service.find(attributes));
      return (await ask((service) => service.find(attributes)).catch(() => null)) ?? readFileSecret();
    },
    async write(secret) {
      const stored = await ask((service) => service.store(options.label, attributes, secret)).catch((error: Error) => {
        log.info(`${error.message}; the support folder's file is used instead`);
        return false;
      });
      if (stored) {
        await removeFile(file); // one place only
        return 'secret-service';
      }
      await writeFileDurably(file, `${secret}\n`);
      await syncFolder(path.dirname(file));
      return 'file';
    },
    async remove(place) {
      await ask((service) => service.remove(attributes)).catch((error: Error) => {
        if (place === 'secret-service') {
          log.warn(`${error.message}: its item "${options.label}" stays there (the next pairing replaces it)`);
        }
      });
      await removeFile(file);
    },
  };
}

async function removeFile(file: string): Promise<void> {
  await unlink(file).catch((error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error;
  });
  await syncFolder(path.dirname(file));
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms / 1000} s`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

type Attributes = Record<string, string>;
/** The Secret Service's secret: session, parameters, value, content type. */
type Secret = [session: string, parameters: Buffer, value: Buffer, contentType: string];

/**
 * A client of the Secret Service API over D-Bus (dbus-next), the `plain` algorithm: the secret crosses the user's
 * own session bus only. It never prompts: a locked collection that cannot be unlocked without asking the person is
 * SecretUnavailable (a new secret goes to the file; one kept in the keyring is read once it is unlocked).
 */
class SecretService {
  private constructor(
    private readonly bus: dbus.MessageBus,
    private readonly service: dbus.ClientInterface,
  ) {}

  /** The Secret Service on the session bus, or null when there is no bus or nobody owns the name. */
  static async connect(busAddress?: string): Promise<SecretService | null> {
    const connected = await setUpOnBus(
      'session',
      async (bus) => {
        const daemon = await busDaemon(bus);
        if (!((await daemon.NameHasOwner(SERVICE)) as boolean)) throw new Error('no Secret Service');
        return (await bus.getProxyObject(SERVICE, SERVICE_PATH)).getInterface(SERVICE_INTERFACE);
      },
      { timeoutMs: SECRET_SERVICE_TIMEOUT_MS, address: busAddress },
    );
    return 'failed' in connected ? null : new SecretService(connected.bus, connected.value);
  }

  close(): void {
    this.bus.disconnect();
  }

  /** The secret of the first item with these attributes; SecretUnavailable when the collection is locked. */
  async find(attributes: Attributes): Promise<string | null> {
    const items = await this.unlockedItems(attributes);
    if (items.length === 0) {
      // A locked collection may hide its items' attributes: nothing found in it is "not now", not "none".
      if (await this.defaultLocked()) throw new SecretUnavailable('the keyring is locked');
      return null;
    }
    const session = await this.openSession();
    try {
      const secrets = (await this.service.GetSecrets(items, session)) as Record<string, Secret>;
      const secret = items.map((item) => secrets[item]).find((found) => found !== undefined);
      return secret ? Buffer.from(secret[2]).toString('utf8') : null;
    } finally {
      await this.closeSession(session);
    }
  }

  /** Stores the secret in the default collection (replacing the item of the same attributes). */
  async store(label: string, attributes: Attributes, secret: string): Promise<true> {
    const collectionPath = (await this.service.ReadAlias('default')) as string;
    if (collectionPath === NO_OBJECT) throw new SecretUnavailable('the Secret Service has no default collection');
    if (!(await this.unlock([collectionPath]))) throw new SecretUnavailable('the keyring is locked');
    const collection = (await this.bus.getProxyObject(SERVICE, collectionPath)).getInterface(COLLECTION_INTERFACE);
    const session = await this.openSession();
    try {
      const properties = {
        'org.freedesktop.Secret.Item.Label': new dbus.Variant('s', label),
        'org.freedesktop.Secret.Item.Attributes': new dbus.Variant('a{ss}', attributes),
      };
      const value: Secret = [session, Buffer.alloc(0), Buffer.from(secret, 'utf8'), 'text/plain; charset=utf8'];
      const [, prompt] = (await collection.CreateItem(properties, value, true)) as [string, string];
      if (prompt !== NO_OBJECT) throw new SecretUnavailable('the Secret Service asks the person before it keeps a secret');
      return true;
    } finally {
      await this.closeSession(session);
    }
  }

  /** Deletes every item with these attributes; SecretUnavailable when some are locked (they stay). */
  async remove(attributes: Attributes): Promise<void> {
    for (const itemPath of await this.unlockedItems(attributes)) {
      const item = (await this.bus.getProxyObject(SERVICE, itemPath)).getInterface(ITEM_INTERFACE);
      await item.Delete();
    }
    if (await this.defaultLocked()) throw new SecretUnavailable('the keyring is locked');
  }

  /** Matching items that are unlocked, or that unlock without asking the person. */
  private async unlockedItems(attributes: Attributes): Promise<string[]> {
    const [unlocked, locked] = (await this.service.SearchItems(attributes)) as [string[], string[]];
    if (locked.length > 0 && (await this.unlock(locked))) return [...unlocked, ...locked];
    return unlocked;
  }

  /** True when the default collection is there and locked (unlocking it would ask the person). */
  private async defaultLocked(): Promise<boolean> {
    const collectionPath = (await this.service.ReadAlias('default')) as string;
    if (collectionPath === NO_OBJECT) return false;
    const properties = (await this.bus.getProxyObject(SERVICE, collectionPath)).getInterface('org.freedesktop.DBus.Properties');
    return ((await properties.Get(COLLECTION_INTERFACE, 'Locked')) as dbus.Variant<boolean>).value;
  }

  /** True when the objects are unlocked now; false when unlocking them would need a prompt. */
  private async unlock(objects: string[]): Promise<boolean> {
    const [, prompt] = (await this.service.Unlock(objects)) as [string[], string];
    return prompt === NO_OBJECT;
  }

  private async openSession(): Promise<string> {
    const [, session] = (await this.service.OpenSession('plain', new dbus.Variant('s', ''))) as [unknown, string];
    return session;
  }

  private async closeSession(session: string): Promise<void> {
    const proxy = await this.bus.getProxyObject(SERVICE, session).catch(() => null);
    await proxy
      ?.getInterface(SESSION_INTERFACE)
      .Close()
      .catch(() => undefined);
  }
}
