// Every D-Bus connection of the daemon and the tray companion is made here, over Node's own sockets.
//
// Given a `unix:path=` or `unix:abstract=` address, dbus-next connects through usocket, a native addon it loads
// when installed (an optional dependency, so npm installs it). usocket 0.3 closes its libuv handle in its C++
// destructor, which the garbage collector runs: the handle's memory is freed before libuv finishes closing it,
// and on Node 24 that aborts the process now and then ("uv__finish_close: Assertion `handle->flags &
// UV_HANDLE_CLOSING' failed"). Its only use is passing file descriptors over the bus, which nothing here asks for.
// So each address is rewritten to dbus-next's `unix:socket=` form, which it opens with `net.createConnection`, and
// usocket is never loaded (nor is its call of `util.isError`, which Node 23 removed). Linux's abstract names go
// the same way (a path that begins with a NUL byte) where Node's libuv connects to such a name with its exact
// length (libuv 1.48; Node 24 has it). Node 20's libuv pads the name with NULs to the full size of the address,
// which names another socket: there an abstract address is left to usocket, as before, which works on Node 20.

import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import dbus from 'dbus-next';

/**
 * Whether Node's sockets reach a Linux abstract name as it is: libuv 1.48 gives connect() the name's own length
 * rather than the size of the whole address.
 */
export const NODE_OPENS_ABSTRACT_NAMES = atLeast(process.versions.uv ?? '0', [1, 48]);

/** Where the system bus is when DBUS_SYSTEM_BUS_ADDRESS does not say (the D-Bus specification's default). */
const SYSTEM_BUS_DEFAULT = 'unix:path=/var/run/dbus/system_bus_socket';

/** The session bus: at `address`, else DBUS_SESSION_BUS_ADDRESS, else the user's bus in XDG_RUNTIME_DIR. */
export function sessionBus(address?: string): dbus.MessageBus {
  const found = address || process.env.DBUS_SESSION_BUS_ADDRESS || userBusAddress();
  // dbus-next would go on to an X11 session's bus files, whose address it would open through usocket.
  if (!found) throw new Error('neither DBUS_SESSION_BUS_ADDRESS nor $XDG_RUNTIME_DIR/bus names a session bus');
  const busAddress = throughNodeSockets(found);
  if (!reachable(busAddress)) throw new Error(ABSTRACT_WITHOUT_USOCKET(found));
  return dbus.sessionBus({ busAddress });
}

/**
 * Node 20 reaches an abstract address only through usocket, which npm cannot build in a global install (it asks for
 * a node-gyp that no longer runs on Node 20): said plainly, rather than dbus-next's "Cannot find module".
 */
const ABSTRACT_WITHOUT_USOCKET = (address: string): string =>
  `the session bus is at an abstract address (${address}), which Node ${process.versions.node} reaches only through ` +
  'the usocket addon, and it is not installed here: run Notifier on Node 24 or newer, or give it a bus at a path ' +
  '(DBUS_SESSION_BUS_ADDRESS=unix:path=...)';

/**
 * Whether dbus-next can open the address here. It tries the entries in turn: an abstract one left (Node 20) needs
 * usocket, so only an address of nothing else does.
 */
function reachable(busAddress: string): boolean {
  if (!busAddress.split(';').every((entry) => /^unix:.*abstract=/i.test(entry))) return true;
  try {
    createRequire(import.meta.url).resolve('usocket');
    return true;
  } catch {
    return false;
  }
}

/** The bus daemon's own interface (org.freedesktop.DBus): who owns a name, NameOwnerChanged when that changes. */
export async function busDaemon(bus: dbus.MessageBus): Promise<dbus.ClientInterface> {
  return (await bus.getProxyObject('org.freedesktop.DBus', '/org/freedesktop/DBus')).getInterface('org.freedesktop.DBus');
}

/** What `setUpOnBus` set up, on its bus; or why nothing was (the bus is closed again then). */
export type OnBus<T> = { bus: dbus.MessageBus; value: T } | { failed: string };

/**
 * Opens the session bus (at `address`, else as `sessionBus` finds it) or the system bus, and runs `setUp` on it
 * within `timeoutMs`. Nothing is set up, and the bus is closed again, when it cannot be opened, when it reports an
 * error (dbus-next says an address has nothing behind it by an `error` event, not by failing the call in flight),
 * when `setUp` throws, or when time runs out. The bus's later errors are ignored here: a bus that goes away takes
 * what was set up on it along.
 */
export async function setUpOnBus<T>(
  which: 'session' | 'system',
  setUp: (bus: dbus.MessageBus) => Promise<T>,
  options: { timeoutMs: number; address?: string },
): Promise<OnBus<T>> {
  let bus: dbus.MessageBus;
  try {
    bus = which === 'session' ? sessionBus(options.address) : systemBus();
  } catch (error) {
    return { failed: `no ${which} bus (${(error as Error).message})` };
  }
  const failed = new Promise<{ failed: string }>((resolve) =>
    bus.on('error', (error: Error) => resolve({ failed: `the ${which} bus failed (${error.message})` })),
  );
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<{ failed: string }>((resolve) => {
    timer = setTimeout(() => resolve({ failed: `the ${which} bus did not answer` }), options.timeoutMs);
  });
  const done = setUp(bus).then(
    (value) => ({ bus, value }),
    (error: Error) => ({ failed: error.message }),
  );
  const outcome = await Promise.race([done, failed, late]);
  clearTimeout(timer);
  if ('failed' in outcome) bus.disconnect();
  return outcome;
}

/** The system bus: DBUS_SYSTEM_BUS_ADDRESS, else the system's socket. */
export function systemBus(): dbus.MessageBus {
  // dbus-next's sessionBus connects to whatever address it is given: the system bus is no different on the wire.
  return dbus.sessionBus({ busAddress: throughNodeSockets(process.env.DBUS_SYSTEM_BUS_ADDRESS || SYSTEM_BUS_DEFAULT) });
}

/**
 * The same bus address with each `unix:path=` entry, and where Node can open them each `unix:abstract=` entry, in
 * dbus-next's `unix:socket=` form (other entries, and their order, as they were). An entry's other keys (a
 * `guid`) are dropped: dbus-next reads none.
 */
export function throughNodeSockets(address: string): string {
  return address
    .split(';')
    .map((entry) => {
      const [transport, keys = ''] = splitOnce(entry, ':');
      if (transport.toLowerCase() !== 'unix') return entry;
      const values = new Map(keys.split(',').map((pair) => splitOnce(pair, '=')));
      const abstract = NODE_OPENS_ABSTRACT_NAMES && values.has('abstract') ? `\0${values.get('abstract')}` : undefined;
      const socket = values.has('path') ? values.get('path') : abstract;
      return socket === undefined ? entry : `unix:socket=${socket}`;
    })
    .join(';');
}

/** The bus systemd (or dbus-broker) starts for the user, where the session has no address of its own. */
function userBusAddress(): string | undefined {
  const runtime = process.env.XDG_RUNTIME_DIR;
  const socket = runtime && path.join(runtime, 'bus');
  return socket && existsSync(socket) ? `unix:path=${socket}` : undefined;
}

function splitOnce(text: string, separator: string): [string, string | undefined] {
  const at = text.indexOf(separator);
  return at < 0 ? [text, undefined] : [text.slice(0, at), text.slice(at + separator.length)];
}

/** Whether a version such as `1.46.0` is at least `[major, minor]`. */
function atLeast(version: string, [major, minor]: [number, number]): boolean {
  const [hasMajor = 0, hasMinor = 0] = version.split('.').map(Number);
  return hasMajor > major || (hasMajor === major && hasMinor >= minor);
}
