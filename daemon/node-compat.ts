// Node 23 removed `util.isError` (deprecated since Node 4). usocket 0.3, the Unix-socket module dbus-next uses to
// reach a session bus at a `unix:path=` or `unix:abstract=` address, still calls it on every write, so on Node 24
// every D-Bus connection fails with "util.isError is not a function". usocket 1.1 no longer calls it; until the
// lock moves to that version, importing this module (before the first D-Bus connection) puts the function back.
// Nothing changes on Node 20, where the function exists. Every process that speaks D-Bus imports it first: the
// daemon (daemon.ts) and the tray companion (tray/main.ts).
import util from 'node:util';

const legacy = util as unknown as { isError?: (value: unknown) => boolean };
legacy.isError ??= (value) => value instanceof Error || util.types.isNativeError(value);
