import { afterAll } from '@jest/globals';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import dbus from 'dbus-next';
import { stopProcess } from '../../bench/rigs/desktop.js';
import { startSessionBus } from '../../bench/rigs/session-bus.js';
import { waitFor } from '../../bench/rigs/wait.js';
import { type Run, runProgram } from './process.js';

// A real Secret Service for a test: Debian's gnome-keyring-daemon (secrets component only) on a private session bus,
// with a home of its own in a temp folder, so its "login" keyring lives there. The daemon unlocks (and on first
// start creates) that keyring with the password it reads on stdin, as a login manager would hand it over; the login
// keyring is then the `default` collection. The test reads it with libsecret's `secret-tool`: a second client.
// (`secret-tool lock` does not return against gnome-keyring 42, so locking is a plain D-Bus call here.)

/** The password the test keyring is created and unlocked with. */
const PASSWORD = 'notifier-test-keyring';
/** Where gnome-keyring exports the login keyring on the bus. */
export const LOGIN_COLLECTION = '/org/freedesktop/secrets/collection/login';

export interface Keyring {
  /** DBUS_SESSION_BUS_ADDRESS of the keyring's bus, for the programs started on it. */
  env: Record<string, string>;
  /** Runs `secret-tool` against this keyring. */
  secretTool(...args: string[]): Promise<Run>;
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
  const keyring: Keyring = {
    env: {},
    secretTool: (...args) => runProgram('secret-tool', args, { env: keyring.env }),
    stop: async () => {
      running.delete(keyring);
      if (daemon) await stopProcess(daemon);
      await bus?.stop();
      await rm(home, { recursive: true, force: true });
    },
  };
  running.add(keyring);
  bus = await startSessionBus();
  keyring.env = { DBUS_SESSION_BUS_ADDRESS: bus.address };
  // Its runtime folder (the control socket) must be private, as a real one is.
  const runtime = path.join(home, 'run');
  await mkdir(runtime, { mode: 0o700 });
  let stderr = '';
  daemon = spawn('gnome-keyring-daemon', ['--foreground', '--unlock', '--components=secrets'], {
    env: {
      ...process.env,
      ...keyring.env,
      HOME: home,
      XDG_DATA_HOME: path.join(home, 'data'),
      XDG_CONFIG_HOME: path.join(home, 'config'),
      XDG_RUNTIME_DIR: runtime,
    },
    stdio: ['pipe', 'ignore', 'pipe'],
  });
  daemon.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  daemon.stdin!.end(PASSWORD);
  await waitFor(() => defaultCollection(bus!.address), 'gnome-keyring-daemon with an unlocked default collection').catch(
    (error: Error) => {
      throw new Error(`${error.message}\ngnome-keyring-daemon said: ${stderr}`);
    },
  );
  return keyring;
}

/** Locks the login keyring, as the screen locker or the person in Seahorse would: unlocking it again needs its password. */
export async function lockKeyring(keyring: Keyring): Promise<void> {
  await onBus(keyring.env.DBUS_SESSION_BUS_ADDRESS!, async (client) => {
    const service = (await client.getProxyObject(SERVICE, SERVICE_PATH)).getInterface('org.freedesktop.Secret.Service');
    await service.Lock([LOGIN_COLLECTION]);
    if (!(await isLocked(client, LOGIN_COLLECTION))) throw new Error('the login keyring did not lock');
  });
}

const SERVICE = 'org.freedesktop.secrets';
const SERVICE_PATH = '/org/freedesktop/secrets';

/** The default collection when it is there and unlocked, else undefined (not yet). */
function defaultCollection(address: string): Promise<string | undefined> {
  return onBus(address, async (client) => {
    const daemon = (await client.getProxyObject('org.freedesktop.DBus', '/org/freedesktop/DBus')).getInterface('org.freedesktop.DBus');
    if (!(await daemon.NameHasOwner(SERVICE))) return undefined;
    const service = (await client.getProxyObject(SERVICE, SERVICE_PATH)).getInterface('org.freedesktop.Secret.Service');
    const collection = (await service.ReadAlias('default')) as string;
    if (collection !== LOGIN_COLLECTION) return undefined;
    return (await isLocked(client, collection)) ? undefined : collection;
  });
}

async function isLocked(client: dbus.MessageBus, collection: string): Promise<boolean> {
  const properties = (await client.getProxyObject(SERVICE, collection)).getInterface('org.freedesktop.DBus.Properties');
  return ((await properties.Get('org.freedesktop.Secret.Collection', 'Locked')) as dbus.Variant<boolean>).value;
}

/** A connection to the bus for one piece of work, closed after it. */
async function onBus<T>(address: string, work: (client: dbus.MessageBus) => Promise<T>): Promise<T> {
  const client = dbus.sessionBus({ busAddress: address });
  try {
    return await work(client);
  } finally {
    client.disconnect();
  }
}
