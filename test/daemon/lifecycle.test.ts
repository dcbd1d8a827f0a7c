import { describe, expect, test } from '@jest/globals';
import { TestPresenter } from '../../daemon/present/test-presenter.js';
import { type Running, eventually, startInProcess } from '../helpers/in-process.js';
import { missingField } from '../helpers/http.js';

// docs/api/notifications.md#banners-states-and-transitions: banner lifetime, clicks, snooze and unsnooze (also across
// a restart), stacks, and POST /v1/speak. The app's side is real HTTP; the person's side is the test presenter.

const onScreen = (n: Running, app: string, id: string) => n.person.banner(app, id) !== undefined;

describe('banner lifetime', () => {
  test('a timeout closes the banner and records actionUsed timeout; the app default applies when the notification has none', async () => {
    const n = await startInProcess();
    await n.api('POST', '/v1/register', { body: { app: 'lt', defaults: { timeout: 1 } } });
    await n.notify({ app: 'lt', id: 'own', title: 't', timeout: 1 });
    await n.notify({ app: 'lt', id: 'default', title: 't' });
    await n.notify({ app: 'lt', id: 'stays', title: 't', timeout: 0, persistent: true });
    await eventually(async () => (await n.record('lt', 'default')).dismissedAt, 'the app default timeout');
    expect(await n.record('lt', 'own')).toMatchObject({ actionUsed: 'timeout', dismissedAt: expect.any(String) });
    expect(await n.record('lt', 'default')).toMatchObject({ actionUsed: 'timeout' });
    expect(onScreen(n, 'lt', 'own')).toBe(false);
    expect(onScreen(n, 'lt', 'stays')).toBe(true);
  });

  test('a display that times banners itself is left to do it (hover pauses are its business)', async () => {
    const person = new TestPresenter();
    person.handlesExpiry = true;
    const n = await startInProcess({ person });
    await n.notify({ app: 'lt2', id: 'x', title: 't', timeout: 1 });
    await new Promise((resolve) => setTimeout(resolve, 1300));
    expect((await n.record('lt2', 'x')).dismissedAt).toBeUndefined();
    person.closeByPerson('lt2', 'x', 'expired');
    await eventually(async () => (await n.record('lt2', 'x')).actionUsed === 'timeout');
  });

  test('a click opens the link (http, https, mailto only) and records open', async () => {
    const n = await startInProcess();
    await n.notify({ app: 'click', id: 'web', title: 't', url: 'https://example.com/a' });
    await n.notify({ app: 'click', id: 'plain', title: 't' });
    n.person.click('click', 'web');
    n.person.click('click', 'plain');
    await eventually(async () => (await n.record('click', 'plain')).dismissedAt);
    await eventually(async () => (await n.record('click', 'web')).dismissedAt);
    expect(n.person.opened).toEqual([{ url: 'https://example.com/a' }]);
    expect(await n.record('click', 'web')).toMatchObject({ actionUsed: 'open' });
    expect(await n.record('click', 'plain')).toMatchObject({ actionUsed: 'open' });
  });

  test('a link that cannot be opened is noted on the record', async () => {
    const n = await startInProcess();
    n.person.openFails = 'xdg-open is not installed';
    await n.notify({ app: 'click', id: 'broken', title: 't', url: 'https://example.com/b' });
    n.person.click('click', 'broken');
    await eventually(async () => (await n.record('click', 'broken')).dismissedAt);
    expect((await n.record('click', 'broken')).actionNote).toBe('open: xdg-open is not installed');
  });
});

describe('POST /v1/snooze and /v1/unsnooze', () => {
  test('every status of docs/api/notifications.md#post-v1-snooze and #post-v1-unsnooze', async () => {
    const n = await startInProcess();
    await n.notify({ app: 'sz', id: 'a', title: 't' });
    const snooze = (body: Record<string, unknown>) => n.api('POST', '/v1/snooze', { body });
    expect((await snooze({ id: 'a', minutes: 5 })).json).toEqual(missingField('app'));
    expect((await snooze({ app: 'sz', minutes: 5 })).json).toEqual(missingField('id'));
    expect((await snooze({ app: 'sz', id: 'a' })).json).toEqual(missingField('minutes'));
    for (const minutes of [0, -1, 43200.5, '5', true]) {
      const reply = await snooze({ app: 'sz', id: 'a', minutes });
      expect(reply.status).toBe(400);
      expect(reply.json.error).toBe('invalid field: minutes (a number greater than 0 and at most 43200)');
    }
    expect(await snooze({ app: 'sz', id: 'nope', minutes: 5 })).toMatchObject({
      status: 404,
      json: { error: 'no such notification in History', code: 'notification_not_found' },
    });
    await n.notify({ app: 'sz', id: 'gone', title: 't' });
    await n.api('POST', '/v1/dismiss', { body: { app: 'sz', id: 'gone' } });
    expect(await snooze({ app: 'sz', id: 'gone', minutes: 5 })).toMatchObject({
      status: 400,
      json: { error: 'the notification was already dismissed', code: 'already_dismissed' },
    });
    expect((await snooze({ app: 'sz', id: 'a', minutes: 43200 })).status).toBe(200);
    expect((await n.api('POST', '/v1/unsnooze', { body: { app: 'sz' } })).json).toEqual(missingField('id'));
    expect((await n.api('POST', '/v1/unsnooze', { body: { app: 'sz', id: 'nope' } })).status).toBe(404);
  });

  test('a snooze hides the banner for elapsed time, fractions allowed, and brings it back by itself', async () => {
    const n = await startInProcess();
    await n.notify({ app: 'sz2', id: 'x', title: 't' });
    const before = Date.now();
    const reply = await n.api('POST', '/v1/snooze', { body: { app: 'sz2', id: 'x', minutes: 0.02 } }); // 1.2 s
    expect(reply.json).toEqual({ ok: true, until: expect.any(String) });
    expect(Date.parse(reply.json.until) - before).toBeGreaterThanOrEqual(1150);
    expect(Date.parse(reply.json.until) - before).toBeLessThan(1400);
    expect(onScreen(n, 'sz2', 'x')).toBe(false);
    expect(await n.record('sz2', 'x')).toMatchObject({ snoozedUntil: reply.json.until });
    expect((await n.record('sz2', 'x')).dismissedAt).toBeUndefined();
    await eventually(() => onScreen(n, 'sz2', 'x'), 'the banner to come back');
    expect((await n.record('sz2', 'x')).snoozedUntil).toBeUndefined();
    expect(n.person.banner('sz2', 'x')!.sound).toBe('default');
  });

  test('unsnooze brings it back now, without sound', async () => {
    const n = await startInProcess();
    await n.notify({ app: 'sz3', id: 'x', title: 't' });
    await n.api('POST', '/v1/snooze', { body: { app: 'sz3', id: 'x', minutes: 60 } });
    expect((await n.api('POST', '/v1/unsnooze', { body: { app: 'sz3', id: 'x' } })).json).toEqual({ ok: true });
    expect(n.person.banner('sz3', 'x')!.sound).toBeNull();
    expect((await n.record('sz3', 'x')).snoozedUntil).toBeUndefined();
  });

  test('a notification with the same id cancels the pending snooze; a dismissal clears it', async () => {
    const n = await startInProcess();
    await n.notify({ app: 'sz4', id: 'x', title: 'old' });
    await n.api('POST', '/v1/snooze', { body: { app: 'sz4', id: 'x', minutes: 0.02 } });
    await n.notify({ app: 'sz4', id: 'x', title: 'new' });
    expect((await n.record('sz4', 'x')).snoozedUntil).toBeUndefined();
    await n.api('POST', '/v1/dismiss', { body: { app: 'sz4', id: 'x' } });
    await new Promise((resolve) => setTimeout(resolve, 1500)); // past the old snooze: nothing comes back
    expect(onScreen(n, 'sz4', 'x')).toBe(false);
    await n.notify({ app: 'sz4', id: 'y', title: 't' });
    await n.api('POST', '/v1/snooze', { body: { app: 'sz4', id: 'y', minutes: 5 } });
    await n.api('POST', '/v1/dismiss', { body: { app: 'sz4', id: 'y' } });
    expect(await n.record('sz4', 'y')).toMatchObject({ actionUsed: 'dismiss' });
    expect((await n.record('sz4', 'y')).snoozedUntil).toBeUndefined();
  });

  test('a snooze survives a restart: a future one is armed again, one that ended meanwhile shows at once', async () => {
    const first = await startInProcess();
    const folder = first.daemon.supportDir;
    await first.notify({ app: 'sz5', id: 'later', title: 't' });
    await first.notify({ app: 'sz5', id: 'ended', title: 't' });
    await first.api('POST', '/v1/snooze', { body: { app: 'sz5', id: 'later', minutes: 0.04 } }); // 2.4 s
    await first.api('POST', '/v1/snooze', { body: { app: 'sz5', id: 'ended', minutes: 0.005 } }); // 0.3 s
    await first.daemon.stop();
    await new Promise((resolve) => setTimeout(resolve, 500));
    const second = await startInProcess({ supportDir: folder });
    await eventually(() => onScreen(second, 'sz5', 'ended'), 'the ended snooze to show');
    expect(onScreen(second, 'sz5', 'later')).toBe(false);
    await eventually(() => onScreen(second, 'sz5', 'later'), 'the armed snooze to end');
    expect((await second.record('sz5', 'later')).snoozedUntil).toBeUndefined();
  });
});

describe('after a restart', () => {
  test('a banner with a lifetime that was simply on screen has expired; one that stays is shown again', async () => {
    const first = await startInProcess();
    const folder = first.daemon.supportDir;
    await first.notify({ app: 'rs', id: 'brief', title: 't', timeout: 600 });
    await first.notify({ app: 'rs', id: 'stays', title: 't' });
    await first.daemon.stop();
    const second = await startInProcess({ supportDir: folder });
    await eventually(async () => (await second.record('rs', 'brief')).dismissedAt);
    expect(await second.record('rs', 'brief')).toMatchObject({ actionUsed: 'timeout' });
    expect(onScreen(second, 'rs', 'stays')).toBe(true);
  });
});

describe('GET /v1/stacks', () => {
  test('groups of two or more banners on screen, by app and group, newest first', async () => {
    const n = await startInProcess();
    await n.notify({ app: 'st', id: 'a1', title: 'A1', group: 'alpha' });
    await n.notify({ app: 'st', id: 'b1', title: 'B1', group: 'beta' });
    await n.notify({ app: 'st', id: 'a2', title: 'A2', group: 'alpha' });
    await n.notify({ app: 'st', id: 'p1', title: 'P1' });
    await n.notify({ app: 'st', id: 'p2', title: 'P2' });
    await n.notify({ app: 'other', id: 'o1', title: 'O1', group: 'alpha' });
    const { json } = await n.api('GET', '/v1/stacks?app=st');
    expect(json.stacks).toEqual([
      {
        level: 'bySender',
        app: 'st',
        count: 2,
        expanded: false,
        members: [
          { app: 'st', id: 'p2', title: 'P2', deliveredAt: expect.any(String) },
          { app: 'st', id: 'p1', title: 'P1', deliveredAt: expect.any(String) },
        ],
      },
      {
        level: 'bySender',
        app: 'st',
        group: 'alpha',
        count: 2,
        expanded: false,
        members: [
          { app: 'st', id: 'a2', title: 'A2', group: 'alpha', deliveredAt: expect.any(String) },
          { app: 'st', id: 'a1', title: 'A1', group: 'alpha', deliveredAt: expect.any(String) },
        ],
      },
    ]);
    await n.api('POST', '/v1/dismissAll', { body: { app: 'st', group: 'alpha' } });
    expect((await n.api('GET', '/v1/stacks?app=st')).json.stacks.map((s: { group?: string }) => s.group)).toEqual([undefined]);
    await n.api('POST', '/v1/dismiss', { body: { app: 'st', id: 'p2' } });
    expect((await n.api('GET', '/v1/stacks')).json).toEqual({ stacks: [] });
  });
});

describe('POST /v1/speak and speech', () => {
  test('with a speech engine: spoken, not shown; the record has the text, the WAV and its length', async () => {
    const n = await startInProcess(); // espeak-ng, installed by the test set-up
    const text = `The deploy of release 42 finished. ${'Everything is green. '.repeat(6)}`;
    const reply = await n.api('POST', '/v1/speak', { body: { app: 'voice', id: 'sp', text, voice: 'en-gb', speed: 1.2, lang: 'en-gb' } });
    expect(reply.json).toEqual({ ok: true, id: 'sp' });
    expect(onScreen(n, 'voice', 'sp')).toBe(false);
    const record = await eventually(async () => {
      const found = await n.record('voice', 'sp');
      return found.speech?.audioPath && found;
    }, 'the speech to be written');
    expect(record.notification).toMatchObject({
      title: text.trim().slice(0, 80),
      presentation: 'voice',
      speak: { text, voice: 'en-gb', speed: 1.2, lang: 'en-gb' },
    });
    expect(record.speech).toEqual({
      text: text.trim(),
      voice: 'en-gb',
      audioPath: expect.stringMatching(/audio\/\d+-[0-9a-f]+\.wav$/),
      durationSeconds: expect.any(Number),
    });
    // About 150 words a minute at speed 1.2 (espeak-ng): some 8 to 12 seconds for these 22 words.
    expect(record.speech.durationSeconds).toBeGreaterThan(4);
    expect(record.speech.durationSeconds).toBeLessThan(20);
    expect(record.dismissedAt).toBeDefined(); // nothing is left on screen to close
    const generated = await n.api('POST', '/v1/speak', { body: { app: 'voice', text: 'hello' } });
    expect(generated.json.id).toMatch(/^[0-9A-F-]{36}$/);
  });

  test('without a speech engine: shown as a banner so nothing is lost, and the record says why', async () => {
    const n = await startInProcess({ speech: null });
    await n.api('POST', '/v1/speak', { body: { app: 'voice', id: 'quiet', text: 'Nobody can say this' } });
    expect(onScreen(n, 'voice', 'quiet')).toBe(true);
    expect((await n.record('voice', 'quiet')).speech).toEqual({ text: 'Nobody can say this.', suppressed: 'unavailable' });
    await n.notify({ app: 'voice', id: 'nv', title: 'Bid accepted', body: 'Acme paid [the invoice](https://x.example)', speak: true });
    expect((await n.record('voice', 'nv')).speech).toEqual({ text: 'Bid accepted. Acme paid the invoice.', suppressed: 'unavailable' });
    // The body's Markdown is said without its marks (docs/api/voice.md#v2).
    await n.notify({ app: 'voice', id: 'md', title: 'Deployed', body: '## **api** is live\n- on `prod`\n---\n> checked', speak: true });
    expect((await n.record('voice', 'md')).speech).toEqual({ text: 'Deployed. api is live • on prod checked.', suppressed: 'unavailable' });
  });

  test('presentation both shows the banner and speaks; banner alone does not speak', async () => {
    const n = await startInProcess();
    await n.notify({ app: 'voice', id: 'both', title: 'Both ways', presentation: 'both' });
    await n.notify({ app: 'voice', id: 'quiet-banner', title: 'Only shown' });
    expect(onScreen(n, 'voice', 'both')).toBe(true);
    await eventually(async () => (await n.record('voice', 'both')).speech?.audioPath);
    expect((await n.record('voice', 'quiet-banner')).speech).toBeUndefined();
  });

  test.each([
    [{ text: 'hi' }, 'missing field: app'],
    [{ app: 'voice' }, 'missing field: text'],
    [{ app: 'voice', text: '   ' }, 'missing field: text'],
    [{ app: 'voice', text: 'hi', voice: 'no spaces allowed' }, 'invalid field: voice'],
    [{ app: 'voice', text: 'hi', lang: 'en us' }, 'invalid field: lang'],
    [{ app: 'voice', text: 'hi', speed: 3 }, 'invalid field: speed'],
    [{ app: 'voice', text: 'hi', speed: 0.4 }, 'invalid field: speed'],
  ])('%j is 400: %s', async (body, message) => {
    const n = await startInProcess({ speech: null });
    const reply = await n.api('POST', '/v1/speak', { body });
    expect(reply.status).toBe(400);
    expect(reply.json.error.startsWith(message)).toBe(true);
  });
});
