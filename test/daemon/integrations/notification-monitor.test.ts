// The session bus monitor that reads other programs' notifications (daemon/integrations/notification-monitor.ts,
// docs/desktop.md), on private dbus-daemons with a notification server of the test's own: what it reads of a
// `Notify`, the server's answer and its signals; that it never answers a call itself (the program gets the
// server's answer); that it starts again when the server changes; and, where the bus refuses monitoring, that it
// says so — and the daemon's Settings say so in the window, nothing else broken.

import { afterEach, describe, expect, test } from '@jest/globals';
import dbus from 'dbus-next';
import { sessionBus } from '../../../daemon/integrations/dbus-bus.js';
import { NotificationMonitor, type ObservedEvent } from '../../../daemon/integrations/notification-monitor.js';
import { startFakeNotificationServer, startSessionBus } from '../../../rigs/session-bus.js';
import { startAppDaemon } from '../../helpers/app.js';
import { eventually } from '../../helpers/in-process.js';

/** A bus whose policy lets nobody become a monitor, as some distributions' session buses are set up. */
const NO_MONITORING = '<deny send_destination="org.freedesktop.DBus" send_interface="org.freedesktop.DBus.Monitoring"/>';

const cleanUp: Array<() => Promise<unknown> | unknown> = [];
afterEach(async () => {
  for (const step of cleanUp.splice(0).reverse()) await step();
});

/** A program's connection that calls Notify as a program does. */
async function program(address: string) {
  const bus = sessionBus(address);
  cleanUp.push(() => bus.disconnect());
  const server = (await bus.getProxyObject('org.freedesktop.Notifications', '/org/freedesktop/Notifications')).getInterface(
    'org.freedesktop.Notifications',
  );
  return (summary: string, replacesId = 0): Promise<number> =>
    server.Notify('Mail', replacesId, '', summary, 'body', ['open', 'Open'], { urgency: new dbus.Variant('y', 2) }, -1);
}

/** A monitor on the bus, closed after the test: the events it reads, and the reasons it ends with. */
async function watching(address: string) {
  const events: ObservedEvent[] = [];
  const ended: string[] = [];
  const started = await NotificationMonitor.start({
    address,
    onEvent: (event) => events.push(event),
    onEnd: (reason) => ended.push(reason),
  });
  if (!('monitor' in started)) throw new Error(started.refused);
  cleanUp.push(() => started.monitor.close());
  return { events, ended };
}

describe('the notification monitor', () => {
  test('reads a Notify, the server’s id for it and its signals; the program gets the server’s answer, never the monitor’s', async () => {
    const bus = await startSessionBus();
    cleanUp.push(() => bus.stop());
    const server = await startFakeNotificationServer(bus.address);
    cleanUp.push(() => server.stop());
    const { events } = await watching(bus.address);
    const notify = await program(bus.address);
    const id = await notify('New mail');
    expect(id).toBe(server.calls[0]!.id);
    server.invoke(id, 'open');
    server.close(id, 1);
    await eventually(() => events.length >= 4, 'four events');
    const [asked, answered, action, closed] = events;
    expect(asked).toMatchObject({
      type: 'notify',
      call: { appName: 'Mail', summary: 'New mail', actions: ['open', 'Open'], hints: { urgency: 2 } },
    });
    expect(answered).toEqual({
      type: 'answered',
      to: (asked as { sender: string }).sender,
      serial: (asked as { serial: number }).serial,
      id,
    });
    expect([action, closed]).toEqual([
      { type: 'action', id, key: 'open' },
      { type: 'closed', id, reason: 1 },
    ]);
  });

  test('a server that starts after the monitor: the monitor ends, saying so, and a new one sees the server’s answers', async () => {
    const bus = await startSessionBus();
    cleanUp.push(() => bus.stop());
    const { ended } = await watching(bus.address);
    const server = await startFakeNotificationServer(bus.address);
    cleanUp.push(() => server.stop());
    await eventually(() => ended.length === 1, 'the first monitor to end');
    expect(ended).toEqual(['the notification server changed']);
    const { events } = await watching(bus.address);
    const id = await (await program(bus.address))('Hello');
    await eventually(() => events.some((event) => event.type === 'answered' && event.id === id), 'the answer with its id');
  });

  test('where the bus refuses monitoring, starting says so in the bus’s words', async () => {
    const bus = await startSessionBus({ policy: NO_MONITORING });
    cleanUp.push(() => bus.stop());
    const started = await NotificationMonitor.start({ address: bus.address, onEvent: () => undefined, onEnd: () => undefined });
    expect(started).toEqual({ refused: expect.stringMatching(/AccessDenied|denied|rejected/i) });
  });

  test('the daemon on such a bus: the window’s Settings say why, and History and banners go on working', async () => {
    const bus = await startSessionBus({ policy: NO_MONITORING });
    cleanUp.push(() => bus.stop());
    const daemon = await startAppDaemon({ env: { DBUS_SESSION_BUS_ADDRESS: bus.address } });
    cleanUp.push(() => daemon.stop());
    const session = await daemon.signIn();
    expect((await session.call('PUT', '/app/api/settings/desktop', { keep: true })).status).toBe(200);
    const { json } = await session.call('GET', '/app/api/settings/desktop');
    expect(json).toMatchObject({
      keep: true,
      monitor: { state: 'refused', reason: expect.stringMatching(/AccessDenied|denied|rejected/i) },
    });
    expect((await daemon.api('POST', '/v1/notify', { body: { app: 'ci', title: 'Still here' } })).status).toBe(200);
    expect((await daemon.api('GET', '/v1/history?app=ci')).json.items).toHaveLength(1);
  });
});
