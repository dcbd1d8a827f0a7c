// When the relay's socket tries again at once (docs/api/relay-connection.md#rl13): NetworkManager saying the computer is
// connected, and logind saying it woke up, on a system bus of the test's own (a private dbus-daemon, reached
// through DBUS_SYSTEM_BUS_ADDRESS) where the test owns both services' names and sends their signals.

import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import dbus from 'dbus-next';
import { sessionBus } from '../../../../daemon/integrations/dbus-bus.js';
import { startSessionBus } from '../../../../rigs/session-bus.js';
import { type WakeReason, watchWakeUps } from '../../../../daemon/core/relay/wake.js';
import { eventually } from '../../../helpers/in-process.js';

class NetworkManager extends dbus.interface.Interface {
  StateChanged(state: number): number {
    return state;
  }
}
NetworkManager.configureMembers({ signals: { StateChanged: { signature: 'u' } } });

class Login extends dbus.interface.Interface {
  PrepareForSleep(start: boolean): boolean {
    return start;
  }
}
Login.configureMembers({ signals: { PrepareForSleep: { signature: 'b' } } });

describe('wake-ups from the system bus', () => {
  let bus: Awaited<ReturnType<typeof startSessionBus>>;
  let services: dbus.MessageBus;
  const network = new NetworkManager('org.freedesktop.NetworkManager');
  const login = new Login('org.freedesktop.login1.Manager');
  const saved = process.env.DBUS_SYSTEM_BUS_ADDRESS;

  beforeAll(async () => {
    bus = await startSessionBus();
    process.env.DBUS_SYSTEM_BUS_ADDRESS = bus.address;
    services = sessionBus(bus.address);
    services.export('/org/freedesktop/NetworkManager', network);
    services.export('/org/freedesktop/login1', login);
    await services.requestName('org.freedesktop.NetworkManager', dbus.NameFlag.DO_NOT_QUEUE);
    await services.requestName('org.freedesktop.login1', dbus.NameFlag.DO_NOT_QUEUE);
  });

  afterAll(async () => {
    services?.disconnect();
    await bus?.stop();
    if (saved === undefined) delete process.env.DBUS_SYSTEM_BUS_ADDRESS;
    else process.env.DBUS_SYSTEM_BUS_ADDRESS = saved;
  });

  test('connected again and resumed wake the socket; going to sleep and other network states do not', async () => {
    const woken: WakeReason[] = [];
    const watching = await watchWakeUps((reason) => woken.push(reason));
    try {
      network.StateChanged(20); // disconnected
      login.PrepareForSleep(true); // going to sleep
      network.StateChanged(70); // connected (global)
      await eventually(() => woken.length === 1, 'the network wake-up');
      login.PrepareForSleep(false); // woke up
      network.StateChanged(60); // connected (site)
      await eventually(() => woken.length === 3, 'two more wake-ups');
      expect(woken).toEqual(['network', 'resume', 'network']);
    } finally {
      watching.stop();
    }
  });

  test('without a system bus nothing happens, and nothing fails', async () => {
    process.env.DBUS_SYSTEM_BUS_ADDRESS = 'unix:path=/nonexistent/notifier-test-system-bus';
    try {
      const watching = await watchWakeUps(() => undefined);
      watching.stop();
    } finally {
      process.env.DBUS_SYSTEM_BUS_ADDRESS = bus.address;
    }
  });
});
