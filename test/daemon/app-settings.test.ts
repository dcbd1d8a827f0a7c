import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { tempFolder } from '../helpers/daemon.js';
import { eventually, type Running, startInProcess } from '../helpers/in-process.js';
import { FakeEngine } from '../helpers/speech.js';
import { writeSupportFile } from '../helpers/support.js';

// Per-app settings (GET/PUT /v1/apps/settings, docs/api/apps.md#per-app-settings): each key applies, every bad value
// is refused and changes nothing, the revoke keys only take away, and the settings change what the person sees and
// hears.

let n: Running;
const engine = new FakeEngine();
const approvedAt = '2026-11-01T10:00:00.000Z';

beforeAll(async () => {
  const supportDir = await tempFolder('notifier-app-settings-');
  await writeSupportFile(supportDir, 'apps.json', {
    apps: [
      { app: 'tuned' },
      { app: 'granted', allowCommands: true, callbackURL: 'https://hooks.example.com/in' },
      { app: 'muted' },
      { app: 'quietvoice' },
      { app: 'stacker' },
    ],
  });
  await writeSupportFile(supportDir, 'approvals.json', {
    commands: { granted: { approvedAt } },
    callbackHosts: { granted: { 'hooks.example.com': { approvedAt } } },
    templates: {},
  });
  n = await startInProcess({ supportDir, speech: engine });
});
afterAll(() => n.stop());

const put = (body: Record<string, unknown>) => n.api('PUT', '/v1/apps/settings', { body });
const settingsOf = async (app: string) => (await n.api('GET', `/v1/apps/settings?app=${app}`)).json.apps[0];

describe('GET /v1/apps/settings', () => {
  test('one app: its settings with defaults written out, its voice and approvals, and the schema', async () => {
    const reply = await n.api('GET', '/v1/apps/settings?app=granted');
    expect(reply.status).toBe(200);
    expect(reply.json.apps).toEqual([
      {
        app: 'granted',
        appName: 'granted',
        callbackURL: 'https://hooks.example.com/in',
        settings: {
          displayName: null,
          sound: 'default',
          persistent: true,
          timeout: 0,
          corner: null,
          effectiveCorner: 'topRight',
          muteBanners: false,
          stacking: null,
        },
        voice: { speak: true, voice: null, speed: null, lang: null, urgentBreaksQuiet: false },
        approvals: {
          commandsRequested: true,
          commandsConfirmed: true,
          commandsAllowed: true,
          callbackHostRegistered: 'hooks.example.com',
          callbackHostApproved: true,
        },
      },
    ]);
    expect(reply.json.schema.map((entry: { key: string }) => entry.key)).toContain('muteBanners');
    expect(reply.json.schema.find((entry: { key: string }) => entry.key === 'timeout')).toMatchObject({
      type: 'integer',
      min: 0,
      max: 86400,
    });
    expect(reply.json.options).toBeUndefined();
  });

  test('every app, with the lists the choices come from', async () => {
    const reply = await n.api('GET', '/v1/apps/settings');
    expect(reply.json.apps.map((app: { app: string }) => app.app)).toEqual(expect.arrayContaining(['granted', 'muted', 'tuned']));
    expect(reply.json.options).toMatchObject({
      corners: ['topRight', 'topLeft', 'bottomRight', 'bottomLeft'],
      stackingLevels: ['byApp', 'byIssuer', 'bySender', 'never'],
    });
    expect(reply.json.options.sounds.slice(0, 2)).toEqual(['none', 'default']);
  });

  test('an unknown app is 404', async () => {
    expect(await n.api('GET', '/v1/apps/settings?app=nobody')).toMatchObject({ status: 404, json: { error: 'unknown app: nobody' } });
  });
});

describe('PUT /v1/apps/settings', () => {
  const good: Array<[string, unknown, (app: any) => unknown]> = [
    ['displayName', 'Build bot', (a) => a.settings.displayName],
    ['sound', 'none', (a) => a.settings.sound],
    ['persistent', false, (a) => a.settings.persistent],
    ['timeout', 30, (a) => a.settings.timeout],
    ['corner', 'bottomLeft', (a) => [a.settings.corner, a.settings.effectiveCorner]],
    ['muteBanners', false, (a) => a.settings.muteBanners],
    ['stacking', 'never', (a) => a.settings.stacking],
    ['speak', false, (a) => a.voice.speak],
    ['voice', 'en-gb', (a) => a.voice.voice],
    ['speed', 1.5, (a) => a.voice.speed],
    ['lang', 'en-gb', (a) => a.voice.lang],
    ['urgentBreaksQuiet', true, (a) => a.voice.urgentBreaksQuiet],
  ];
  test.each(good)('%s: a good value applies and is shown', async (key, value, read) => {
    const reply = await put({ app: 'tuned', [key]: value });
    expect(reply.status).toBe(200);
    expect(reply.json.applied).toEqual([key]);
    const shown = read(reply.json.app);
    expect(shown).toEqual(key === 'corner' ? [value, value] : value);
    expect(read(await settingsOf('tuned'))).toEqual(shown);
  });

  test("the person's name for an app is the one its banners, History and the window show; null gives its own back", async () => {
    await n.notify({ app: 'renamed', title: 'Before' });
    const reply = await put({ app: 'renamed', displayName: 'Backups on the NAS' });
    expect(reply.json.app).toMatchObject({ appName: 'Backups on the NAS', settings: { displayName: 'Backups on the NAS' } });
    await n.notify({ app: 'renamed', id: 'after', title: 'After' });
    expect((await n.record('renamed', 'after')).fields.appName).toBe('Backups on the NAS');
    const back = await put({ app: 'renamed', displayName: null });
    expect(back.json.app).toMatchObject({ appName: 'renamed', settings: { displayName: null } });
  });

  test('null puts a key back to its default', async () => {
    await put({ app: 'tuned', corner: 'topLeft', voice: 'en-gb' });
    const reply = await put({ app: 'tuned', corner: null, voice: null });
    expect(reply.json.applied).toEqual(['corner', 'voice']);
    expect(reply.json.app.settings).toMatchObject({ corner: null, effectiveCorner: 'topRight' });
    expect(reply.json.app.voice.voice).toBeNull();
  });

  const bad: Array<[string, unknown, string]> = [
    ['displayName', '', 'invalid value for displayName: a non-empty string of at most 2048 bytes'],
    ['sound', '', 'invalid value for sound: a non-empty string of at most 1024 bytes'],
    ['sound', 'x'.repeat(1025), 'invalid value for sound: a non-empty string of at most 1024 bytes'],
    ['persistent', 'yes', 'invalid value for persistent: true or false'],
    ['timeout', 86401, 'invalid value for timeout: an integer from 0 to 86400'],
    ['timeout', 2.5, 'invalid value for timeout: an integer from 0 to 86400'],
    ['corner', 'middle', 'invalid value for corner: one of topRight, topLeft, bottomRight, bottomLeft'],
    ['muteBanners', 1, 'invalid value for muteBanners: true or false'],
    ['muteBanners', null, 'invalid value for muteBanners: null is not allowed'],
    ['stacking', 'sideways', 'invalid value for stacking: one of byApp, byIssuer, bySender, never'],
    ['voice', 'two words', 'invalid value for voice: not a valid voice name'],
    ['speed', 3, 'invalid value for speed: a number from 0.5 to 2'],
    ['lang', 'en us!', 'invalid value for lang: not a valid language code'],
    ['urgentBreaksQuiet', 'true', 'invalid value for urgentBreaksQuiet: true or false'],
  ];
  const cases = bad.map(([key, value, message]) => ({
    key,
    value,
    message,
    shown: typeof value === 'string' && value.length > 20 ? `${value.length} characters` : JSON.stringify(value),
  }));
  test.each(cases)('$key = $shown is refused, and nothing of the change is applied', async ({ key, value, message }) => {
    const before = await settingsOf('tuned');
    // a good key beside the bad one: all or nothing
    const reply = await put({ app: 'tuned', muteBanners: !before.settings.muteBanners, [key]: value });
    expect(reply).toMatchObject({ status: 400, json: { error: message } });
    expect(await settingsOf('tuned')).toEqual(before);
  });

  test('no keys, an unknown key, no app, an unknown app', async () => {
    expect(await put({ app: 'tuned' })).toMatchObject({
      status: 400,
      json: { error: expect.stringMatching(/^no settings given; send an object such as/) },
    });
    expect(await put({ app: 'tuned', colour: 'red' })).toMatchObject({
      status: 400,
      json: { error: expect.stringMatching(/^unknown setting: colour \(known: corner, displayName, lang, muteBanners, persistent, /) },
    });
    expect(await put({ muteBanners: true })).toMatchObject({ status: 400, json: { error: 'missing field: app' } });
    expect(await put({ app: 'nobody', muteBanners: true })).toMatchObject({ status: 404, json: { error: 'unknown app: nobody' } });
  });

  test('a revoke key accepts only true: anything else is 403 and nothing changes', async () => {
    for (const value of [false, 'true', 1, null]) {
      for (const key of ['revokeCommands', 'revokeCallbackHost']) {
        const reply = await put({ app: 'granted', timeout: 9, [key]: value });
        expect(reply.status).toBe(403);
        expect(reply.json.error).toMatch(new RegExp(`^${key}: only true is accepted`));
      }
    }
    const current = await settingsOf('granted');
    expect(current.settings.timeout).toBe(0);
    expect(current.approvals).toMatchObject({ commandsConfirmed: true, callbackHostApproved: true });
  });

  test('revokeCommands and revokeCallbackHost withdraw what the person granted', async () => {
    const reply = await put({ app: 'granted', revokeCommands: true, revokeCallbackHost: true });
    expect(reply.json.applied).toEqual(['revokeCallbackHost', 'revokeCommands']);
    expect(reply.json.app.approvals).toEqual({
      commandsRequested: true,
      commandsConfirmed: false,
      commandsAllowed: false,
      callbackHostRegistered: 'hooks.example.com',
      callbackHostApproved: false,
    });
    const listed = (await n.api('GET', '/v1/actions/approvals')).json;
    expect(JSON.stringify(listed)).not.toContain('hooks.example.com');
  });
});

describe('what the settings change', () => {
  test('a muted app: the notification is in History only, with no banner and no speech', async () => {
    await n.notify({ app: 'muted', id: 'm1', title: 'Building' });
    expect(n.person.banner('muted', 'm1')).toBeDefined();
    expect((await put({ app: 'muted', muteBanners: true })).status).toBe(200);
    // The same id again: the banner still up goes, and the new one is not shown.
    expect((await n.notify({ app: 'muted', id: 'm1', title: 'Built', speak: true })).status).toBe(200);
    expect(n.person.banner('muted', 'm1')).toBeUndefined();
    const record = await n.record('muted', 'm1');
    expect(record).toMatchObject({ id: 'm1', held: 'app-muted', speech: { suppressed: 'app-muted' } });
    expect(record.dismissedAt).toBeUndefined();
    expect(engine.asked.some((ask) => ask.text.includes('Built'))).toBe(false);
  });

  test('speech off for an app: a notification that asks to be spoken is shown instead, and says why', async () => {
    await put({ app: 'quietvoice', speak: false });
    await n.api('POST', '/v1/speak', { body: { app: 'quietvoice', id: 's1', text: 'Say nothing' } });
    expect(n.person.banner('quietvoice', 's1')).toBeDefined();
    expect((await n.record('quietvoice', 's1')).speech).toEqual({ text: 'Say nothing.', suppressed: 'app-speech-off' });
  });

  test("the app's voice, speed and language are used when the notification names none", async () => {
    await put({ app: 'quietvoice', speak: true, voice: 'en-gb', speed: 1.25, lang: 'en-gb' });
    await n.notify({ app: 'quietvoice', id: 'v1', title: 'Own voice', speak: true });
    await n.notify({ app: 'quietvoice', id: 'v2', title: 'Asked voice', speak: { voice: 'de', speed: 0.75 } });
    const asked = await eventually(() => {
      const own = engine.asked.find((ask) => ask.text.startsWith('Own voice'));
      const given = engine.asked.find((ask) => ask.text.startsWith('Asked voice'));
      return own && given ? { own, given } : null;
    }, 'both to be spoken');
    expect(asked.own.request).toMatchObject({ voice: 'en-gb', speed: 1.25, lang: 'en-gb' });
    expect(asked.given.request).toMatchObject({ voice: 'de', speed: 0.75, lang: 'en-gb' });
  });

  test("the app's timeout and sound are its banners' defaults", async () => {
    await put({ app: 'tuned', timeout: 12, sound: 'bell', persistent: true });
    await n.notify({ app: 'tuned', id: 't1', title: 'Timed' });
    expect(n.person.banner('tuned', 't1')).toMatchObject({ expireSeconds: 12, sound: 'bell' });
    await n.notify({ app: 'tuned', id: 't2', title: 'Own timeout', timeout: 3 });
    expect(n.person.banner('tuned', 't2')!.expireSeconds).toBe(3);
  });

  test('stacking: the app’s own level wins over the global one', async () => {
    await put({ app: 'stacker', stacking: null });
    for (const [id, group] of [
      ['a1', 'alpha'],
      ['a2', 'alpha'],
      ['b1', 'beta'],
    ]) {
      await n.notify({ app: 'stacker', id, title: id, group });
    }
    const stacks = async () => (await n.api('GET', '/v1/stacks?app=stacker')).json.stacks;
    expect(await stacks()).toEqual([expect.objectContaining({ level: 'bySender', group: 'alpha', count: 2 })]);
    await put({ app: 'stacker', stacking: 'byIssuer' });
    expect(await stacks()).toEqual([expect.objectContaining({ level: 'byIssuer', app: 'stacker', count: 3 })]);
    await put({ app: 'stacker', stacking: 'never' });
    expect(await stacks()).toEqual([]);
  });
});

describe('POST /v1/stacks/expand', () => {
  test('opens and closes one stack; the others stay closed; no stack there is 404', async () => {
    for (const [id, group] of [
      ['e1', 'deploys'],
      ['e2', 'deploys'],
      ['e3', undefined],
      ['e4', undefined],
      ['e5', 'alone'],
    ]) {
      await n.notify({ app: 'expander', id, title: id, ...(group ? { group } : {}) });
    }
    const expanded = async () =>
      Object.fromEntries(
        (await n.api('GET', '/v1/stacks?app=expander')).json.stacks.map((stack: { group?: string; expanded: boolean }) => [
          stack.group ?? '-',
          stack.expanded,
        ]),
      );
    expect(await expanded()).toEqual({ deploys: false, '-': false });
    expect(await n.api('POST', '/v1/stacks/expand', { body: { app: 'expander', group: 'deploys' } })).toMatchObject({
      status: 200,
      json: { ok: true },
    });
    expect(await expanded()).toEqual({ deploys: true, '-': false });
    await n.api('POST', '/v1/stacks/expand', { body: { app: 'expander' } }); // group defaults to the app id
    expect(await expanded()).toEqual({ deploys: true, '-': true });
    await n.api('POST', '/v1/stacks/expand', { body: { app: 'expander', group: 'deploys', expanded: false } });
    expect(await expanded()).toEqual({ deploys: false, '-': true });

    expect(await n.api('POST', '/v1/stacks/expand', { body: { app: 'expander', group: 'alone' } })).toMatchObject({
      status: 404,
      json: { error: 'no stack of two or more banners for expander / alone' },
    });
    expect(await n.api('POST', '/v1/stacks/expand', { body: { group: 'deploys' } })).toMatchObject({
      status: 400,
      json: { error: 'missing field: app' },
    });
    expect(await n.api('POST', '/v1/stacks/expand', { body: { app: 'expander', expanded: 'yes' } })).toMatchObject({
      status: 400,
      json: { error: 'invalid field: expanded (true or false)' },
    });
  });
});
