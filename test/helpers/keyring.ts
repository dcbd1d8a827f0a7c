import { afterAll } from '@jest/globals';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import dbus from 'dbus-next';
import { sessionBus } from '../../daemon/integrations/dbus-bus.js';
import { stopProcess } from '../../rigs/desktop.js';
import { startSessionBus } from '../../rigs/session-bus.js';
import { waitFor } from '../../rigs/wait.js';
import { type Run, runProgram } from './process.js';

// A real Secret Service for a test: Debian's gnome-keyring-daemon (secrets component only) on a private session bus,
// with a home of its own in a temp folder, so its "login" keyring lives there. The daemon unlocks (and on first
// start creates) that keyring with the password it reads on stdin, as a login manager hands it over; the login
// keyring is then the `default` collection. The test reads it with libsecret's `secret-tool`: a second client.
// Locking and unlocking are plain D-Bus calls (`secret-tool lock` does not return against gnome-keyring 42, and
// unlocking through the Secret Service API would ask the person): unlocking uses the daemon's own password call.

/** The password the test keyring is created and unlocked with. */
const PASSWORD = 'notifier-test-keyring';
/** Where gnome-keyring exports the login keyring on the bus. */
const LOGIN_COLLECTION = '/org/freedesktop/secrets/collection/login';
const SERVICE = 'org.freedesktop.secrets';
const SERVICE_PATH = '/org/freedesktop/secrets';
/** gnome-keyring's own interface for unlocking with the password (what its tests and login managers use). */
const GNOME_KEYRING_INTERFACE = 'org.gnome.keyring.InternalUnsupportedGuiltRiddenInterface';

export interface Keyring {
  /** DBUS_SESSION_BUS_ADDRESS of the keyring's bus, for the programs started on it. */
  readonly env: Record<string, string>;
  /** Runs `secret-tool` against this keyring. */
  secretTool(...args: string[]): Promise<Run>;
  /** Locks the login keyring, as the person would in Seahorse: unlocking it again needs its password. */
  lock(): Promise<void>;
  /** Unlocks it with its password, as the person would when asked. */
  unlock(): Promise<void>;
  /** Stops gnome-keyring-daemon (the bus stays): there is no Secret Service any more. */
  goAway(): Promise<void>;
  /** Starts it again on the same home: the login keyring, unlocked, with what it held. */
  comeBack(): Promise<void>;
  /** Stops the daemon and the bus and removes the home. */
  stop(): Promise<void>;
}

/** Keyrings of this test file still up: a failing test must not leave a bus or gnome-keyring-daemon behind. */
const running = new Set<Keyring>();
afterAll(async () => {
  for (const keyring of running) await keyring.stop();
});

/** Starts the keyring and waits until its unlocked login collection is the default one; stopped after the test file. */
export async function startKeyring(): Promise<Keyring> {
  const home = await mkdtemp(path.join(os.tmpdir(), 'notifier-keyring-'));
  let bus: Awaited<ReturnType<typeof startSessionBus>> | undefined;
  let daemon: ChildProcess | undefined;
  const env: Record<string, string> = {};
  const address = () => env.DBUS_SESSION_BUS_ADDRESS!;

  const startDaemon = async () => {
    let stderr = '';
    daemon = spawn('gnome-keyring-daemon', ['--foreground', '--unlock', '--components=secrets'], {
      env: {
        ...process.env,
        ...env,
        HOME: home,
        XDG_DATA_HOME: path.join(home, 'data'),
        XDG_CONFIG_HOME: path.join(home, 'config'),
        XDG_RUNTIME_DIR: path.join(home, 'run'),
      },
      stdio: ['pipe', 'ignore', 'pipe'],
    });
    daemon.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    daemon.stdin!.end(PASSWORD);
    await waitFor(() => unlockedLogin(address()), 'gnome-keyring-daemon with an unlocked default collection').catch((error: Error) => {
      throw new Error(`${error.message}\ngnome-keyring-daemon said: ${stderr}`);
    });
  };
  const keyring: Keyring = {
    env,
    secretTool: (...args) => runProgram('secret-tool', args, { env }),
    lock: () =>
      onBus(address(), async (client) => {
        await (await service(client)).Lock([LOGIN_COLLECTION]);
        if (!(await isLocked(client))) throw new Error('the login keyring did not lock');
      }),
    unlock: () =>
      onBus(address(), async (client) => {
        const [, session] = (await (await service(client)).OpenSession('plain', new dbus.Variant('s', ''))) as [unknown, string];
        const gnome = (await client.getProxyObject(SERVICE, SERVICE_PATH)).getInterface(GNOME_KEYRING_INTERFACE);
        await gnome.UnlockWithMasterPassword(LOGIN_COLLECTION, [session, Buffer.alloc(0), Buffer.from(PASSWORD), 'text/plain']);
        if (await isLocked(client)) throw new Error('the login keyring did not unlock');
      }),
    goAway: async () => {
      if (daemon) await stopProcess(daemon);
      await waitFor(async () => ((await hasOwner(address())) ? undefined : true), 'the Secret Service to leave the bus');
    },
    comeBack: startDaemon,
    stop: async () => {
      running.delete(keyring);
      if (daemon) await stopProcess(daemon);
      await bus?.stop();
      await rm(home, { recursive: true, force: true });
    },
  };
  running.add(keyring);
  bus = await startSessionBus();
  env.DBUS_SESSION_BUS_ADDRESS = bus.address;
  // Its runtime folder (the control socket) must be private, as a real one is.
  await mkdir(path.join(home, 'run'), { mode: 0o700 });
  await startDaemon();
  return keyring;
}

const service = async (client: dbus.MessageBus) =>
  (await client.getProxyObject(SERVICE, SERVICE_PATH)).getInterface('org.freedesktop.Secret.Service');

const hasOwner = (address: string): Promise<boolean> =>
  onBus(address, async (client) => {
    const daemon = (await client.getProxyObject('org.freedesktop.DBus', '/org/freedesktop/DBus')).getInterface('org.freedesktop.DBus');
    return (await daemon.NameHasOwner(SERVICE)) as boolean;
  });

/** True once the login collection is there, unlocked, and the default one; else undefined (not yet). */
async function unlockedLogin(address: string): Promise<true | undefined> {
  if (!(await hasOwner(address))) return undefined;
  return onBus(address, async (client) => {
    if ((await (await service(client)).ReadAlias('default')) !== LOGIN_COLLECTION) return undefined;
    return (await isLocked(client)) ? undefined : true;
  });
}

async function isLocked(client: dbus.MessageBus): Promise<boolean> {
  const properties = (await client.getProxyObject(SERVICE, LOGIN_COLLECTION)).getInterface('org.freedesktop.DBus.Properties');
  return ((await properties.Get('org.freedesktop.Secret.Collection', 'Locked')) as dbus.Variant<boolean>).value;
}

/** A connection to the bus for one piece of work, closed after it. */
async function onBus<T>(address: string, work: (client: dbus.MessageBus) => Promise<T>): Promise<T> {
  const client = sessionBus(address);
  try {
    return await work(client);
  } finally {
    client.disconnect();
  }
}
