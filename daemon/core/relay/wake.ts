// RL13: the moments worth trying the relay again at once, from the system bus where it has them: NetworkManager
// saying the computer is connected again, and logind saying it woke up from suspend. Only signals are listened
// to (match rules, no polling); without a system bus, or without either service, nothing happens and the
// socket's own delays apply.

import dbus from 'dbus-next';
import { setUpOnBus } from '../../integrations/dbus-bus.js';
import { log } from '../../log.js';

/** NetworkManager's `StateChanged(u)` values that mean connected (site-wide, then globally). */
const NM_CONNECTED_SITE = 60;
const NM_CONNECTED_GLOBAL = 70;

const MATCHES = [
  "type='signal',sender='org.freedesktop.NetworkManager',interface='org.freedesktop.NetworkManager',member='StateChanged'",
  "type='signal',sender='org.freedesktop.login1',interface='org.freedesktop.login1.Manager',member='PrepareForSleep'",
];

/** How long connecting to the system bus may take before the daemon carries on without it. */
const CONNECT_TIMEOUT_MS = 3_000;

export type WakeReason = 'network' | 'resume';

/** Calls `wake` when the network comes back or the computer resumes; `stop` ends it. */
export async function watchWakeUps(wake: (reason: WakeReason) => void): Promise<{ stop(): void }> {
  // No system bus (a container, a test): nothing is set up, and the socket's own delays apply.
  const watching = await setUpOnBus(
    'system',
    async (bus) => {
      bus.on('message', (message: dbus.Message) => {
        if (message.type !== dbus.MessageType.SIGNAL) return;
        if (message.member === 'StateChanged' && message.interface === 'org.freedesktop.NetworkManager') {
          const state = message.body[0] as number;
          if (state === NM_CONNECTED_GLOBAL || state === NM_CONNECTED_SITE) wake('network');
        } else if (message.member === 'PrepareForSleep' && message.interface === 'org.freedesktop.login1.Manager') {
          if (message.body[0] === false) wake('resume'); // false: the computer woke up
        }
      });
      await Promise.all(
        MATCHES.map((rule) =>
          bus.call(
            new dbus.Message({
              destination: 'org.freedesktop.DBus',
              path: '/org/freedesktop/DBus',
              interface: 'org.freedesktop.DBus',
              member: 'AddMatch',
              signature: 's',
              body: [rule],
            }),
          ),
        ),
      );
    },
    { timeoutMs: CONNECT_TIMEOUT_MS },
  );
  if ('failed' in watching) return { stop: () => undefined };
  log.info('relay: listening for the network and resume signals on the system bus');
  return { stop: () => watching.bus.disconnect() };
}
