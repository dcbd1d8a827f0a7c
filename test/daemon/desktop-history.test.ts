// Every desktop notification in History (docs/desktop.md, "Every desktop notification in History"), end to end with
// real parts: the built daemon with the D-Bus presenter, dunst on Xvfb with a private session bus, and other
// programs' notifications sent as programs send them — notify-send (actions, urgency, category, desktop entry,
// replacement ids), gdbus (raw `image-data` pixels) and a D-Bus client of the test's own for a burst. The person
// turns keeping on in the window's Settings (the only door that can); the window shows the records read-only; the
// API token never sees them.

import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, test } from '@jest/globals';
import dbus from 'dbus-next';
import { sessionBus } from '../../daemon/integrations/dbus-bus.js';
import { startAppDaemon, type AppSession } from '../helpers/app.js';
import { displayed, useDesktopDaemon } from '../helpers/desktop.js';
import { eventually } from '../helpers/in-process.js';

const run = promisify(execFile);
const SETTINGS = '/app/api/settings/desktop';
const EVOLUTION = 'desktop.org.gnome.evolution';
/** Notifications in the burst of one program (bench/desktop-history.ts sends 1,000 and measures). */
const BURST = 200;

describe('other programs’ notifications in History', () => {
  const { desktop, daemon } = useDesktopDaemon((desktop) => startAppDaemon({ env: desktop.env, presenter: 'dbus' }), 60_000);
  let session: AppSession;
  beforeAll(async () => {
    session = await daemon().signIn();
  });

  const notifySend = (...args: string[]) => run('notify-send', args, { env: { ...process.env, ...desktop().env } });
  const rows = async (query: string) => (await session.call('GET', `/app/api/history?${query}`)).json.items as any[];
  const details = async (app: string, id: string) =>
    (await session.call('GET', `/app/api/history/${encodeURIComponent(app)}/${encodeURIComponent(id)}`)).json;
  const settings = async () => (await session.call('GET', SETTINGS)).json;
  /** The newest row of a program once one titled `title` is there. */
  const kept = (app: string, title: string) =>
    eventually(async () => (await rows(`app=${encodeURIComponent(app)}`)).find((row) => row.title === title), `"${title}" kept`);

  test('off until the person turns it on in the window; the API token can neither turn it on nor read it', async () => {
    expect(await settings()).toEqual({ keep: false, monitor: { state: 'off' }, programs: [], where: expect.stringContaining('history') });
    await notifySend('-a', 'Mail', 'Before it was on', 'not kept');
    await eventually(async () => (await displayed(desktop())) > 0, 'the banner on dunst');
    // The token's door has no such route.
    expect((await daemon().api('PUT', SETTINGS, { body: { keep: true } })).status).toBe(401);
    const on = await session.call('PUT', SETTINGS, { keep: true });
    expect(on.status).toBe(200);
    await eventually(async () => (await settings()).monitor.state === 'on', 'the monitor to watch');
    expect((await rows('state=programs')).map((row) => row.title)).not.toContain('Before it was on');
  });

  test('a program’s notification: its name, summary, body reduced to Markdown, link, urgency, category, actions; how it ended', async () => {
    await desktop().dunstctl('close-all');
    const body = 'From <b>Ann</b> &amp; Bo: <a href="https://mail.example/inbox/1">lunch?</a> <img src="x.png" alt="(photo)"/>';
    const sent = notifySend(
      '-a',
      'Evolution',
      '-u',
      'critical',
      '-c',
      'email.arrived',
      '-h',
      'string:desktop-entry:org.gnome.Evolution',
      '-A',
      'open=Open',
      '-A',
      'archive=Archive',
      'New mail',
      body,
    );
    const row = await kept(EVOLUTION, 'New mail');
    expect(row).toMatchObject({ appName: 'Evolution', firstLine: 'From Ann & Bo: lunch? (photo)', read: true, state: { program: true } });
    const shown = await details(EVOLUTION, row.id);
    expect(shown.bodyMarkdown).toBe('From **Ann** & Bo: [lunch?](https://mail.example/inbox/1) (photo)');
    expect(shown.record.notification).toMatchObject({
      url: 'https://mail.example/inbox/1',
      priority: 'urgent',
      metadata: {
        source: 'desktop',
        program: 'Evolution',
        desktopEntry: 'org.gnome.Evolution',
        category: 'email.arrived',
        actions: ['Open', 'Archive'],
      },
    });
    // Read-only: the program owns its buttons; nothing here presses, answers, shows again or snoozes it.
    expect(shown.buttons).toEqual([]);
    expect(shown.takesReply).toBeNull();
    for (const action of ['reshow', 'snooze', 'press', 'reply', 'dismiss']) {
      const refused = await session.call('POST', `/app/api/history/${EVOLUTION}/${row.id}/${action}`, {
        minutes: 10,
        actionId: 'open',
        text: 'x',
      });
      expect({ action, status: refused.status, code: refused.json.code }).toEqual({ action, status: 409, code: 'read_only' });
    }
    // The person chooses Archive on the program's own banner (dunst's menu): the record says so, and how it ended.
    await desktop().choose('Archive (New mail)');
    await sent;
    const ended = await eventually(async () => {
      const record = (await details(EVOLUTION, row.id)).record;
      return record.dismissedAt && record.actionUsed ? record : undefined;
    }, 'the action and the ending');
    // notify-send closes its banner itself once an action is chosen.
    expect(ended).toMatchObject({ actionUsed: 'Archive', notification: { metadata: { ending: 'closed-by-program' } } });
  });

  test('a replacement id updates its record; raw image-data becomes its picture; Notifier’s own banners are not kept twice', async () => {
    const { stdout } = await notifySend('-p', '-a', 'Downloads', 'Downloading', '10 %');
    await kept('desktop.downloads', 'Downloading');
    await notifySend('-r', stdout.trim(), '-a', 'Downloads', 'Downloaded', 'report.pdf');
    await kept('desktop.downloads', 'Downloaded');
    const downloads = await rows('app=desktop.downloads');
    expect(downloads.map((row) => row.title)).toEqual(['Downloaded']);
    // The person closes it on dunst: the record says it was dismissed.
    await desktop().dunstctl('close-all');
    await eventually(
      async () => (await details('desktop.downloads', downloads[0].id)).record.notification.metadata.ending === 'dismissed',
      'its ending',
    );

    // Two pixels, red and green, as a chat program sends its sender's picture.
    await run(
      'gdbus',
      [
        'call',
        '--session',
        '--dest',
        'org.freedesktop.Notifications',
        '--object-path',
        '/org/freedesktop/Notifications',
        '--method',
        'org.freedesktop.Notifications.Notify',
        'Chat',
        '0',
        '',
        'Ann',
        'see you at noon',
        '[]',
        "{'image-data': <(2, 1, 6, false, 8, 3, [byte 255, 0, 0, 0, 255, 0])>, 'desktop-entry': <'org.example.Chat'>}",
        '5000',
      ],
      { env: { ...process.env, ...desktop().env } },
    );
    const chat = await kept('desktop.org.example.chat', 'Ann');
    const picture = await readFile((await details('desktop.org.example.chat', chat.id)).record.imagePath);
    expect(picture.subarray(1, 4).toString()).toBe('PNG');
    expect([picture.readUInt32BE(16), picture.readUInt32BE(20)]).toEqual([2, 1]);

    const own = await daemon().api('POST', '/v1/notify', { body: { app: 'ci', id: 'own-1', title: 'Build 12 passed' } });
    expect(own.status).toBe(200);
    await eventually(async () => (await rows('app=ci')).length === 1, 'the own record');
    await notifySend('-a', 'Evolution', '-h', 'string:desktop-entry:org.gnome.Evolution', 'After Notifier’s own', 'x');
    await kept(EVOLUTION, 'After Notifier’s own');
    // "From other programs" holds the programs' notifications, never Notifier's own.
    const fromPrograms = (await rows('state=programs')).map((row) => row.title);
    expect(fromPrograms).toEqual(expect.arrayContaining(['After Notifier’s own', 'Ann', 'Downloaded', 'New mail']));
    expect(fromPrograms).not.toContain('Build 12 passed');
  });

  test('each program has its choice: titles only, none; a password manager is left out until the person keeps it', async () => {
    await notifySend('-a', 'KeePassXC', 'Password copied', 'bank.example: cleared in 10 seconds');
    await eventually(async () => (await settings()).programs.some((program: any) => program.name === 'KeePassXC'), 'KeePassXC listed');
    const keepass = (await settings()).programs.find((program: any) => program.name === 'KeePassXC');
    expect(keepass).toEqual({
      app: 'desktop.keepassxc',
      name: 'KeePassXC',
      keep: 'none',
      excludedByDefault: expect.stringContaining('password manager'),
    });
    expect(await rows('app=desktop.keepassxc')).toEqual([]);

    const titles = await session.call('PUT', `${SETTINGS}/programs/${EVOLUTION}`, { keep: 'titles' });
    expect([titles.status, titles.json]).toMatchObject([200, { app: EVOLUTION, keep: 'titles' }]);
    await notifySend('-a', 'Evolution', '-h', 'string:desktop-entry:org.gnome.Evolution', 'Private subject', 'private text');
    const row = await kept(EVOLUTION, 'Private subject');
    expect(row.firstLine).toBe('');
    expect((await details(EVOLUTION, row.id)).record.notification.body).toBeUndefined();
    const bad = await session.call('PUT', `${SETTINGS}/programs/${EVOLUTION}`, { keep: 'some' });
    expect([bad.status, bad.json.code]).toEqual([400, 'invalid_choice']);
    const unknown = await session.call('PUT', `${SETTINGS}/programs/desktop.never-seen`, { keep: 'all' });
    expect(unknown.status).toBe(404);
  });

  test('a burst from one program: every notification kept, in the order it sent them', async () => {
    const bus = sessionBus(desktop().env.DBUS_SESSION_BUS_ADDRESS);
    try {
      const server = (await bus.getProxyObject('org.freedesktop.Notifications', '/org/freedesktop/Notifications')).getInterface(
        'org.freedesktop.Notifications',
      );
      const hints = { 'desktop-entry': new dbus.Variant('s', 'org.example.Burst') };
      // In waves of 100: the bus lets one connection wait for at most 128 answers at once.
      for (let wave = 0; wave < BURST / 100; wave++) {
        await Promise.all(Array.from({ length: 100 }, (_, i) => server.Notify('Burst', 0, '', `n${wave * 100 + i}`, '', [], hints, 1000)));
      }
    } finally {
      bus.disconnect();
    }
    const titles = await eventually(async () => {
      const found = (await rows('app=desktop.org.example.burst&limit=500')).map((row) => row.title);
      return found.length === BURST ? found : undefined;
    }, `all ${BURST} kept`);
    expect(titles).toEqual(Array.from({ length: BURST }, (_, i) => `n${BURST - 1 - i}`));
  }, 60_000);

  test('the token’s History never holds other programs’ notifications, and no sender may take their app ids', async () => {
    const items = (await daemon().api('GET', '/v1/history?limit=1000')).json.items as any[];
    expect(items.filter((item) => item.app.startsWith('desktop.'))).toEqual([]);
    expect((await daemon().api('GET', `/v1/history?app=${EVOLUTION}`)).json.items).toEqual([]);
    const posing = await daemon().api('POST', '/v1/notify', { body: { app: 'desktop.org.gnome.evolution', title: 'fake mail' } });
    expect([posing.status, posing.json.code]).toEqual([400, 'invalid_field']);
  });

  test('turned off: nothing more is kept, and what was kept stays', async () => {
    expect((await session.call('PUT', SETTINGS, { keep: false })).status).toBe(200);
    expect((await settings()).monitor).toEqual({ state: 'off' });
    await notifySend('-a', 'Evolution', '-h', 'string:desktop-entry:org.gnome.Evolution', 'After it was off', 'x');
    await eventually(async () => (await displayed(desktop())) > 0, 'the banner on dunst');
    await new Promise((resolve) => setTimeout(resolve, 500));
    const titles = (await rows(`app=${EVOLUTION}`)).map((row) => row.title);
    expect(titles).not.toContain('After it was off');
    expect(titles).toContain('New mail');
  });
});
