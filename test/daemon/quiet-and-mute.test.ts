import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from '@jest/globals';
import { tempFolder } from '../helpers/daemon.js';
import { watchChannel } from '../helpers/channel-watch.js';
import { channel, eventually, startInProcess } from '../helpers/in-process.js';

// Sounds and speech held back: the muteAllSounds setting, and the quiet hour the person starts from the tray
// (through the private channel). The banners still show; what could not be spoken says why.

describe('muteAllSounds', () => {
  test('banners come without sound, and speech falls back to a banner marked muted', async () => {
    const supportDir = await tempFolder('notifier-mute-');
    await writeFile(path.join(supportDir, 'settings.json'), JSON.stringify({ muteAllSounds: true }));
    const n = await startInProcess({ supportDir });
    await n.notify({ app: 'mute', id: 'b', title: 'Silent banner' });
    expect(n.person.banner('mute', 'b')!.sound).toBeNull();
    await n.api('POST', '/v1/speak', { body: { app: 'mute', id: 's', text: 'Not said aloud' } });
    expect(n.person.banner('mute', 's')).toBeDefined();
    expect((await n.record('mute', 's')).speech).toEqual({ text: 'Not said aloud.', suppressed: 'muted' });
  });
});

describe("the private channel: the tray's quiet hour, recent notifications and quit", () => {
  test('quiet for an hour silences sounds and speech until it is ended', async () => {
    const n = await startInProcess();
    const quiet = await channel(n.daemon.channelPath, { op: 'quiet', minutes: 60 });
    expect(quiet).toEqual({
      ok: true,
      quietUntil: expect.any(String),
      quiet: { active: true, speech: true, sounds: true, banners: false, until: quiet.quietUntil, source: 'adhoc' },
    });
    expect(Date.parse(quiet.quietUntil) - Date.now()).toBeGreaterThan(59 * 60_000);
    await n.notify({ app: 'q', id: 'during', title: 'During the quiet hour', speak: true });
    expect(n.person.banner('q', 'during')!.sound).toBeNull();
    expect((await n.record('q', 'during')).speech).toMatchObject({ suppressed: 'quiet-hours' });
    expect(await channel(n.daemon.channelPath, { op: 'quiet', minutes: 0 })).toEqual({
      ok: true,
      quietUntil: null,
      quiet: { active: false, speech: false, sounds: false, banners: false },
    });
    await n.notify({ app: 'q', id: 'after', title: 'After it' });
    expect(n.person.banner('q', 'after')!.sound).toBe('default');
    expect(await channel(n.daemon.channelPath, { op: 'quiet' })).toMatchObject({ ok: false });
  });

  test("recent lists the newest notifications with their app's display name; watch tells when one arrives", async () => {
    const n = await startInProcess();
    await n.notify({ app: 'unnamed', id: 'zero', title: 'Title zero' });
    await n.api('POST', '/v1/register', { body: { app: 'r', appName: 'Reminders' } });
    for (const id of ['one', 'two', 'three']) await n.notify({ app: 'r', id, title: `Title ${id}` });
    const recent = await channel(n.daemon.channelPath, { op: 'recent', limit: 2 });
    expect(recent).toEqual({
      ok: true,
      notifications: [
        { app: 'r', appName: 'Reminders', id: 'three', title: 'Title three', deliveredAt: expect.any(String) },
        { app: 'r', appName: 'Reminders', id: 'two', title: 'Title two', deliveredAt: expect.any(String) },
      ],
    });
    const all = await channel(n.daemon.channelPath, { op: 'recent', limit: 10 });
    expect(all.notifications.at(-1)).toMatchObject({ app: 'unnamed', appName: 'unnamed' }); // no name registered: its id
    const watcher = watchChannel(n.daemon.channelPath);
    const { lines } = watcher;
    await eventually(() => lines.length > 0);
    await n.notify({ app: 'r', id: 'four', title: 'Title four' });
    await eventually(() => lines.some((line) => line.event === 'notification'), 'the notification event');
    watcher.close();
  });

  test('watch tells the unread count (the tray shows it), and again each time it changes', async () => {
    const n = await startInProcess();
    await n.notify({ app: 'count', id: 'c0', title: 'Before watching' });
    const watcher = watchChannel(n.daemon.channelPath);
    const { lines } = watcher;
    try {
      await eventually(() => lines.length > 0, 'the answer to watch');
      expect(lines[0]).toMatchObject({ ok: true, unread: 1 });
      await n.notify({ app: 'count', id: 'c1', title: 'One more' });
      await eventually(() => lines.find((line) => line.event === 'unread' && line.unread === 2), 'the new count');
      const told = lines.length;
      await n.notify({ app: 'count', id: 'c1', title: 'The same one again' }); // replaced: still 2, nothing told
      await n.daemon.core.readState.markAllRead();
      await eventually(() => lines.slice(told).find((line) => line.event === 'unread' && line.unread === 0), 'all read');
      expect(lines.slice(told).filter((line) => line.event === 'unread')).toEqual([{ event: 'unread', unread: 0 }]);
    } finally {
      watcher.close();
    }
  });

  test('watch sends the quiet status now, and again when quiet hours change through the API', async () => {
    const n = await startInProcess();
    const watcher = watchChannel(n.daemon.channelPath);
    const { lines } = watcher;
    try {
      await eventually(() => lines.length > 0, 'the answer to watch');
      expect(lines[0]).toEqual({
        ok: true,
        questions: [],
        connectors: [],
        quiet: { active: false, speech: false, sounds: false, banners: false },
        unread: 0,
      });
      await n.api('PUT', '/v1/settings/quiet-hours', { body: { adHoc: { minutes: 30, banners: true } } });
      const started = await eventually(() => lines.find((line) => line.event === 'quiet'), 'the quiet event');
      expect(started.quiet).toMatchObject({ active: true, banners: true, source: 'adhoc' });
      await n.api('PUT', '/v1/settings/quiet-hours', { body: { resume: true } });
      await eventually(() => lines.some((line) => line.event === 'quiet' && !line.quiet.active), 'the end of quiet');
      // Started here (told by the answer, not by an event) and ended through the API: the end is told.
      const told = lines.length;
      watcher.write({ op: 'quiet', minutes: 60 });
      await n.api('PUT', '/v1/settings/quiet-hours', { body: { resume: true } });
      await eventually(() => lines.slice(told).some((line) => line.event === 'quiet' && !line.quiet.active), "the end of the tray's quiet");
      expect(lines[told]).toMatchObject({ ok: true, quiet: { active: true } });
    } finally {
      watcher.close();
    }
  });

  test('quit stops the daemon', async () => {
    const n = await startInProcess();
    expect(await channel(n.daemon.channelPath, { op: 'quit' })).toEqual({ ok: true });
    await eventually(
      async () =>
        (await n.api('GET', '/v1/health').then(
          () => false,
          () => true,
        )) || undefined,
      'the daemon to stop',
    );
  });
});
