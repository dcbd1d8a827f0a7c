// Quiet hours in the running daemon (GET/PUT /v1/settings/quiet-hours; docs/api/settings.md#quiet-hours): what a
// notification does while they silence banners, sounds or speech; urgent notifications of apps the person allowed;
// the route's checks; and the summary spoken when a window that asked for one ends, driven by a clock the test moves.

import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from '@jest/globals';
import { startDaemon } from '../../daemon/daemon.js';
import { TestPresenter } from '../../daemon/present/test-presenter.js';
import { tempFolder } from '../helpers/daemon.js';
import { request } from '../helpers/http.js';
import { eventually, startInProcess } from '../helpers/in-process.js';
import { ListeningEngine } from '../helpers/speech.js';
import { writeSupportFile } from '../helpers/support.js';

const NOTHING = { active: false, speech: false, sounds: false, banners: false };

describe('while quiet hours silence banners', () => {
  test('a notification is kept in History, not dismissed, and never shown: not when they end, not after a restart', async () => {
    const supportDir = await tempFolder('notifier-quiet-');
    const n = await startInProcess({ supportDir });
    const quiet = await n.api('PUT', '/v1/settings/quiet-hours', { body: { adHoc: { minutes: 60, banners: true } } });
    expect(quiet.status).toBe(200);
    expect(quiet.json.status).toEqual({
      active: true,
      speech: true,
      sounds: true,
      banners: true,
      until: quiet.json.adHoc.until,
      source: 'adhoc',
    });

    await n.notify({ app: 'q', id: 'held', title: 'Held back', persistent: true });
    expect(n.person.banner('q', 'held')).toBeUndefined();
    expect(n.person.calls.filter((call) => call.key.id === 'held')).toEqual([]);
    const record = await n.record('q', 'held');
    expect(record).toMatchObject({ id: 'held', held: 'quiet-hours', notification: { title: 'Held back' } });
    expect(record.dismissedAt).toBeUndefined();

    expect((await n.api('PUT', '/v1/settings/quiet-hours', { body: { resume: true } })).json.status).toEqual(NOTHING);
    expect(n.person.banner('q', 'held')).toBeUndefined();
    await n.notify({ app: 'q', id: 'after', title: 'After', persistent: true });
    expect(n.person.banner('q', 'after')!.sound).toBe('default');

    await n.stop();
    const again = await startInProcess({ supportDir });
    await eventually(() => again.person.banner('q', 'after'), 'the banner that was shown to come back');
    expect(again.person.banner('q', 'held')).toBeUndefined();
    expect((await again.record('q', 'held')).dismissedAt).toBeUndefined();

    // Re-showing it from History puts it on screen; it is no longer held.
    expect((await again.api('POST', '/v1/history/reshow', { body: { app: 'q', id: 'held' } })).status).toBe(200);
    expect(again.person.banner('q', 'held')).toBeDefined();
    expect((await again.record('q', 'held')).held).toBeUndefined();
    await again.stop();
    await rm(supportDir, { recursive: true, force: true });
  });

  test('a held notification with the id of a banner on screen takes that banner down', async () => {
    const n = await startInProcess();
    await n.notify({ app: 'q', id: 'same', title: 'First', persistent: true });
    expect(n.person.banner('q', 'same')).toBeDefined();
    await n.api('PUT', '/v1/settings/quiet-hours', { body: { adHoc: { minutes: 5, banners: true } } });
    await n.notify({ app: 'q', id: 'same', title: 'Second' });
    expect(n.person.banner('q', 'same')).toBeUndefined();
    expect(await n.record('q', 'same')).toMatchObject({ held: 'quiet-hours', notification: { title: 'Second' } });
  });

  test('speech is suppressed, and with banners silenced too it is not shown either', async () => {
    const engine = new ListeningEngine();
    const n = await startInProcess({ speech: engine });
    await n.api('PUT', '/v1/settings/quiet-hours', { body: { adHoc: { minutes: 60, banners: true } } });
    await n.api('POST', '/v1/speak', { body: { app: 'q', id: 'said', text: 'Not now' } });
    expect(n.person.banner('q', 'said')).toBeUndefined();
    expect(await n.record('q', 'said')).toMatchObject({ held: 'quiet-hours', speech: { text: 'Not now.', suppressed: 'quiet-hours' } });
    expect(engine.asked).toEqual([]);
  });
});

describe('while quiet hours silence sounds and speech but not banners', () => {
  test('the banner shows without sound, and speech falls back to a banner marked quiet-hours', async () => {
    const engine = new ListeningEngine();
    const n = await startInProcess({ speech: engine });
    const reply = await n.api('PUT', '/v1/settings/quiet-hours', { body: { adHoc: { minutes: 30 } } });
    expect(reply.json.status).toMatchObject({ active: true, speech: true, sounds: true, banners: false });

    await n.notify({ app: 'q', id: 'quiet', title: 'Quietly', speak: true });
    expect(n.person.banner('q', 'quiet')!.sound).toBeNull();
    const record = await n.record('q', 'quiet');
    expect(record.speech).toEqual({ text: 'Quietly.', suppressed: 'quiet-hours' });
    expect(record.held).toBeUndefined();

    await n.api('POST', '/v1/speak', { body: { app: 'q', id: 'voice', text: 'Only spoken' } });
    expect(n.person.banner('q', 'voice')).toBeDefined();
    expect(engine.asked).toEqual([]);
  });

  test('a window silencing sounds only lets speech through', async () => {
    const engine = new ListeningEngine();
    const n = await startInProcess({ speech: engine });
    const now = new Date();
    const hhmm = (date: Date) => `${String(date.getHours()).padStart(2, '0')}:${String(date.getMinutes()).padStart(2, '0')}`;
    const windows = [
      {
        id: 'w',
        start: hhmm(new Date(now.getTime() - 60_000)),
        end: hhmm(new Date(now.getTime() + 2 * 3600_000)),
        speech: false,
        sounds: true,
      },
    ];
    const reply = await n.api('PUT', '/v1/settings/quiet-hours', { body: { windows } });
    expect(reply.json.status).toMatchObject({ active: true, speech: false, sounds: true, banners: false, source: 'window' });
    await n.notify({ app: 'q', id: 'spoken', title: 'Spoken anyway', speak: true });
    expect(n.person.banner('q', 'spoken')!.sound).toBeNull();
    await eventually(() => engine.asked.some((ask) => ask.text === 'Spoken anyway.'), 'the speech');
    expect((await n.record('q', 'spoken')).speech.suppressed).toBeUndefined();
  });
});

describe('priority urgent', () => {
  test('breaks through only for an app whose urgentBreaksQuiet is on, and only when urgent', async () => {
    const supportDir = await tempFolder('notifier-urgent-');
    await writeSupportFile(supportDir, 'apps.json', {
      apps: [
        { app: 'pager', settings: { urgentBreaksQuiet: true } },
        { app: 'chatty', settings: { urgentBreaksQuiet: false } },
      ],
    });
    const engine = new ListeningEngine();
    const n = await startInProcess({ supportDir, speech: engine });
    await n.api('PUT', '/v1/settings/quiet-hours', { body: { adHoc: { minutes: 60, banners: true } } });

    await n.notify({ app: 'pager', id: 'urgent', title: 'Server down', priority: 'urgent', speak: true });
    expect(n.person.banner('pager', 'urgent')!.sound).toBe('default');
    const through = await n.record('pager', 'urgent');
    expect(through.held).toBeUndefined();
    expect(through.speech.suppressed).toBeUndefined();
    await eventually(() => engine.asked.some((ask) => ask.text.startsWith('Server down')), 'the urgent speech');

    await n.notify({ app: 'pager', id: 'normal', title: 'Disk at 80%', priority: 'high', speak: true });
    await n.notify({ app: 'chatty', id: 'urgent', title: 'Lunch!', priority: 'urgent', speak: true });
    await n.notify({ app: 'stranger', id: 'urgent', title: 'Unknown app', priority: 'urgent' });
    for (const [app, id] of [
      ['pager', 'normal'],
      ['chatty', 'urgent'],
      ['stranger', 'urgent'],
    ] as const) {
      expect(n.person.banner(app, id)).toBeUndefined();
      expect((await n.record(app, id)).held).toBe('quiet-hours');
    }
    expect((await n.record('chatty', 'urgent')).speech.suppressed).toBe('quiet-hours');
    await n.stop();
    await rm(supportDir, { recursive: true, force: true });
  });
});

describe('GET and PUT /v1/settings/quiet-hours', () => {
  test('windows are stored as given, normalised; the state survives a restart', async () => {
    const supportDir = await tempFolder('notifier-quiet-');
    const n = await startInProcess({ supportDir });
    expect((await n.api('GET', '/v1/settings/quiet-hours')).json).toEqual({ windows: [], status: NOTHING });

    const put = await n.api('PUT', '/v1/settings/quiet-hours', {
      body: {
        windows: [
          { id: 'nights', days: ['Monday', 'TUE'], start: '22:30', end: '07:30', speakSummary: true },
          { start: '12:00', end: '13:00', banners: true },
        ],
      },
    });
    expect(put.status).toBe(200);
    const windows = [
      { id: 'nights', days: ['mon', 'tue'], start: '22:30', end: '07:30', speech: true, sounds: false, banners: false, speakSummary: true },
      { id: expect.any(String), days: [], start: '12:00', end: '13:00', speech: true, sounds: false, banners: true, speakSummary: false },
    ];
    expect(put.json.windows).toEqual(windows);
    expect(put.json.status).toEqual(expect.objectContaining({ active: expect.any(Boolean) }));
    const stored = JSON.parse(await readFile(path.join(supportDir, 'quiet-hours.json'), 'utf8'));
    expect(stored.windows).toEqual(put.json.windows);

    await n.stop();
    const again = await startInProcess({ supportDir });
    expect((await again.api('GET', '/v1/settings/quiet-hours')).json.windows).toEqual(put.json.windows);
    await again.stop();
    await rm(supportDir, { recursive: true, force: true });
  });

  test('a bad change is a 400 naming the field, and nothing changes', async () => {
    const n = await startInProcess();
    const good = await n.api('PUT', '/v1/settings/quiet-hours', { body: { windows: [{ id: 'kept', start: '01:00', end: '02:00' }] } });
    const before = (await n.api('GET', '/v1/settings/quiet-hours')).json;
    const refusals: Array<[unknown, string]> = [
      [{ windows: [{ start: '25:00', end: '02:00' }] }, 'windows[0].start must be HH:MM (24-hour)'],
      [{ windows: [{ start: '02:00', end: '02:00' }] }, 'windows[0]: start and end are the same'],
      [{ windows: [{ start: '01:00', end: '02:00', days: ['mon', 'holiday'] }] }, "windows[0].days: unknown day 'holiday'"],
      [{ windows: Array.from({ length: 25 }, (_, k) => ({ id: `${k}`, start: '01:00', end: '02:00' })) }, 'at most 24 windows'],
      // The good ad hoc part is not applied either.
      [
        {
          adHoc: { minutes: 10 },
          windows: [
            { id: 'x', start: '01:00', end: '02:00' },
            { id: 'x', start: '03:00', end: '04:00' },
          ],
        },
        'windows[1]: duplicate id',
      ],
      [{ adHoc: { minutes: 20000 } }, 'adHoc.minutes must be greater than 0 and at most 10080'],
      [{ adHoc: { until: '2001-01-01T00:00:00Z' } }, 'adHoc.until is in the past'],
      [{ resume: 1 }, 'resume must be true or false'],
      [[1, 2], 'invalid JSON: the body must be a JSON object'],
    ];
    for (const [body, message] of refusals) {
      const reply = await n.api('PUT', '/v1/settings/quiet-hours', { body });
      const code = message.startsWith('invalid JSON') ? 'body_not_object' : 'invalid_quiet_hours';
      expect([reply.status, reply.json]).toEqual([400, { error: message, code }]);
    }
    const after = (await n.api('GET', '/v1/settings/quiet-hours')).json;
    expect([after.windows, after.adHoc]).toEqual([before.windows, undefined]);
    expect(before.windows).toEqual(good.json.windows);
  });

  test('an ad hoc period until HH:MM, shown with its end; resume ends it', async () => {
    const n = await startInProcess();
    const soon = new Date(Date.now() + 2 * 3600_000);
    const until = `${String(soon.getHours()).padStart(2, '0')}:${String(soon.getMinutes()).padStart(2, '0')}`;
    const reply = await n.api('PUT', '/v1/settings/quiet-hours', { body: { adHoc: { until, banners: true } } });
    const end = Date.parse(reply.json.adHoc.until);
    expect(end).toBeGreaterThan(Date.now() + 3600_000);
    expect(end).toBeLessThanOrEqual(Date.now() + 2 * 3600_000);
    expect(reply.json).toEqual({
      windows: [],
      adHoc: { until: reply.json.adHoc.until, speech: true, sounds: true, banners: true },
      status: { active: true, speech: true, sounds: true, banners: true, until: reply.json.adHoc.until, source: 'adhoc' },
    });
    expect((await n.api('PUT', '/v1/settings/quiet-hours', { body: { resume: true } })).json).toEqual({ windows: [], status: NOTHING });
  });
});

/** A daemon whose clock the test sets (`setNow`), with a speech engine that remembers what it was asked. */
async function withClockedDaemon(
  start: Date,
  use: (rig: {
    api: (method: string, route: string, body?: unknown) => Promise<any>;
    engine: ListeningEngine;
    setNow: (now: Date) => void;
  }) => Promise<void>,
): Promise<void> {
  let offset = start.getTime() - Date.now();
  const supportDir = await tempFolder('notifier-summary-');
  const engine = new ListeningEngine();
  const daemon = await startDaemon({
    supportDir,
    port: 0,
    presenter: new TestPresenter(),
    speech: engine,
    clock: () => Date.now() + offset,
  });
  try {
    await use({
      api: (method, route, body) => request(daemon.port, method, route, { token: daemon.token, body }),
      engine,
      setNow: (now) => (offset = now.getTime() - Date.now()),
    });
  } finally {
    await daemon.stop();
    await rm(supportDir, { recursive: true, force: true });
  }
}

describe('the summary at the end of a window', () => {
  // Monday 6 January 2025, 09:30 local, inside a window from 09:00 to 10:00.
  const monday = (hours: number, minutes: number, seconds = 0) => new Date(2025, 0, 6, hours, minutes, seconds);

  test('when a window with speakSummary ends, what came in meanwhile is summed up in one spoken sentence', () =>
    withClockedDaemon(monday(9, 30), async ({ api, engine, setNow }) => {
      const windows = [{ id: 'morning', start: '09:00', end: '10:00', speakSummary: true }];
      expect((await api('PUT', '/v1/settings/quiet-hours', { windows })).json.status).toMatchObject({
        active: true,
        speech: true,
        source: 'window',
      });
      for (const title of ['Build failed', 'Deploy done', 'New mail', 'Lunch', 'Standup', 'Review']) {
        expect((await api('POST', '/v1/notify', { app: 'work', title, speak: true })).status).toBe(200);
      }
      expect(engine.asked).toEqual([]); // all of it was quiet

      // A second before the window ends; the daemon looks at the clock again when quiet hours change.
      setNow(monday(9, 59, 59));
      expect((await api('PUT', '/v1/settings/quiet-hours', {})).json.status.active).toBe(true);
      await eventually(() => engine.asked.length > 0, 'the summary', 15_000);
      expect(engine.asked.map((ask) => ask.text)).toEqual([
        '6 messages while you were away: Build failed, Deploy done, New mail, Lunch, and 2 more',
      ]);
      expect((await api('GET', '/v1/settings/quiet-hours')).json.status).toEqual(NOTHING);
    }));

  test('a window without speakSummary ends silently', () =>
    withClockedDaemon(monday(9, 30), async ({ api, engine, setNow }) => {
      await api('PUT', '/v1/settings/quiet-hours', { windows: [{ id: 'morning', start: '09:00', end: '10:00' }] });
      await api('POST', '/v1/notify', { app: 'work', title: 'Quietly' });
      setNow(monday(10, 0, 1));
      // The change makes the daemon look at the clock: the window is over, and speech is heard again.
      expect((await api('PUT', '/v1/settings/quiet-hours', {})).json.status).toEqual(NOTHING);
      await api('POST', '/v1/notify', { app: 'work', title: 'Heard', speak: true });
      await eventually(() => engine.asked.length > 0, 'the speech after the window');
      expect(engine.asked.map((ask) => ask.text)).toEqual(['Heard.']);
    }));
});
