// GET/PUT /v1/settings (docs/api/settings.md#settings): one table of keys, each change all or nothing, each key in
// effect at once. The table is tried on the built daemon, run with HOME and XDG_CONFIG_HOME in temporary folders and
// a fake `systemctl` first on PATH, so `launchAtLogin` writes its unit there and never touches this user's services.
// What the settings change in notifications and speech is tried in-process with a speech engine that listens.

import { chmod, mkdir, readFile, readlink, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { systemdQuote } from '../../daemon/integrations/login-service.js';
import { CLI, type DaemonProcess, startDaemon, tempFolder } from '../helpers/daemon.js';
import { freePort, request } from '../helpers/http.js';
import { eventually, startInProcess } from '../helpers/in-process.js';
import { ListeningEngine } from '../helpers/speech.js';
import { exists } from '../helpers/support.js';

const KEYS = [
  'bannerCardImage',
  'historyCapPerApp',
  'launchAtLogin',
  'muteAllSounds',
  'port',
  'stacking',
  'tooltipLevel',
  'voiceDefault',
  'voiceEngine',
  'voiceLang',
  'voiceSpeed',
];

let root: string;
let configHome: string;
let callsFile: string;
let env: Record<string, string>;

beforeAll(async () => {
  root = await tempFolder('notifier-settings-');
  configHome = path.join(root, 'config');
  callsFile = path.join(root, 'systemctl-calls');
  const fakeBin = path.join(root, 'bin');
  await Promise.all([mkdir(path.join(root, 'home')), mkdir(fakeBin)]);
  await writeFile(path.join(fakeBin, 'systemctl'), `#!/bin/sh\nprintf '%s\\n' "$*" >> '${callsFile}'\nexit 0\n`);
  await chmod(path.join(fakeBin, 'systemctl'), 0o755);
  env = { HOME: path.join(root, 'home'), XDG_CONFIG_HOME: configHome, PATH: `${fakeBin}${path.delimiter}${process.env.PATH}` };
});

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const settingsFile = async (daemon: DaemonProcess) =>
  JSON.parse(await readFile(path.join(daemon.supportDir, 'settings.json'), 'utf8').catch(() => '{}'));

describe('the settings table on the built daemon', () => {
  let daemon: DaemonProcess;
  beforeAll(async () => {
    daemon = await startDaemon({ env });
  });
  afterAll(async () => {
    await daemon.stop();
    await rm(daemon.supportDir, { recursive: true, force: true });
  });

  test('GET gives every value, a schema entry per key with its limits and default, and the lists to choose from', async () => {
    const reply = await daemon.api('GET', '/v1/settings');
    expect(reply.status).toBe(200);
    expect(reply.json.settings).toEqual({
      port: daemon.port,
      launchAtLogin: false,
      muteAllSounds: false,
      stacking: 'bySender',
      historyCapPerApp: 1000,
      tooltipLevel: 'nameAndDescription',
      bannerCardImage: false,
      voiceEngine: 'system',
      voiceDefault: 'default',
      voiceSpeed: 1,
      voiceLang: 'en-us',
    });
    const schema = Object.fromEntries(reply.json.schema.map((entry: { key: string }) => [entry.key, entry]));
    expect(Object.keys(schema).sort()).toEqual(KEYS);
    for (const entry of reply.json.schema) {
      expect(entry).toMatchObject({ group: expect.any(String), type: expect.any(String), description: expect.any(String) });
      expect(entry).toHaveProperty('default');
    }
    expect(schema.port).toMatchObject({ type: 'integer', min: 1024, max: 65535, restartsServer: true, default: 48617 });
    expect(schema.historyCapPerApp).toMatchObject({ type: 'integer', min: 1, max: 100000, default: 1000 });
    expect(schema.stacking).toMatchObject({ type: 'choice', values: ['byApp', 'byIssuer', 'bySender', 'never'], default: 'bySender' });
    expect(schema.voiceEngine).toMatchObject({ type: 'choice', values: ['system', 'off'] });
    expect(schema.voiceSpeed).toMatchObject({ type: 'number', min: 0.5, max: 2 });
    expect(schema.voiceDefault).toMatchObject({ type: 'string', maxLength: 64, group: 'Voice' });
    expect(schema.voiceLang).toMatchObject({ type: 'string', maxLength: 16 });
    expect(schema.muteAllSounds).toMatchObject({ type: 'boolean', default: false });
    expect(reply.json.options).toMatchObject({
      stackingLevels: ['byApp', 'byIssuer', 'bySender', 'never'],
      voiceEngines: ['system', 'off'],
      tooltipLevels: ['nameOnly', 'nameAndDescription'],
      historyCapChoices: [100, 250, 500, 1000, 2500, 5000],
    });
    expect(reply.json.options.voices[0]).toEqual({ id: 'default', name: expect.any(String) });
  });

  test.each([
    ['muteAllSounds', true],
    ['stacking', 'byApp'],
    ['stacking', 'never'],
    ['historyCapPerApp', 250],
    ['tooltipLevel', 'nameOnly'],
    ['bannerCardImage', true],
    ['voiceEngine', 'off'],
    ['voiceEngine', 'system'],
    ['voiceDefault', 'en-gb'],
    ['voiceSpeed', 1.5],
    ['voiceSpeed', 0.5],
    ['voiceLang', 'de'],
    ['launchAtLogin', true],
    ['launchAtLogin', false],
  ])('%s = %j applies, is returned, and is kept in settings.json', async (key, value) => {
    const reply = await daemon.api('PUT', '/v1/settings', { body: { [key]: value } });
    expect(reply.status).toBe(200);
    expect(reply.json.applied).toEqual([key]);
    expect(reply.json.settings[key]).toEqual(value);
    expect(reply.json.schema).toHaveLength(KEYS.length);
    expect(reply.json.note).toBeUndefined();
    expect((await daemon.api('GET', '/v1/settings')).json.settings[key]).toEqual(value);
    expect((await settingsFile(daemon))[key]).toEqual(value);
  });

  test('several keys at once: all applied, listed sorted', async () => {
    const reply = await daemon.api('PUT', '/v1/settings', { body: { voiceSpeed: 1.25, muteAllSounds: false, stacking: 'byIssuer' } });
    expect(reply.status).toBe(200);
    expect(reply.json.applied).toEqual(['muteAllSounds', 'stacking', 'voiceSpeed']);
    expect(reply.json.settings).toMatchObject({ voiceSpeed: 1.25, muteAllSounds: false, stacking: 'byIssuer' });
  });

  const refusals: Array<[string, unknown, string]> = [
    ['port', '8080', 'an integer from 1024 to 65535'],
    ['port', 80, 'an integer from 1024 to 65535'],
    ['port', 1023, 'an integer from 1024 to 65535'],
    ['port', 65536, 'an integer from 1024 to 65535'],
    ['port', 5000.5, 'an integer from 1024 to 65535'],
    ['port', null, 'null is not allowed'],
    ['launchAtLogin', 1, 'true or false'],
    ['launchAtLogin', 'yes', 'true or false'],
    ['muteAllSounds', 'true', 'true or false'],
    ['muteAllSounds', 0, 'true or false'],
    ['stacking', 'byTopic', 'one of byApp, byIssuer, bySender, never'],
    ['stacking', null, 'null is not allowed'],
    ['historyCapPerApp', 0, 'an integer from 1 to 100000'],
    ['historyCapPerApp', 100001, 'an integer from 1 to 100000'],
    ['historyCapPerApp', 50000.5, 'an integer from 1 to 100000'],
    ['historyCapPerApp', '100', 'an integer from 1 to 100000'],
    ['tooltipLevel', 'everything', 'one of nameOnly, nameAndDescription'],
    ['bannerCardImage', 'no', 'true or false'],
    ['voiceEngine', 'kokoro', 'one of system, off'],
    ['voiceEngine', true, 'one of system, off'],
    ['voiceDefault', '', 'a non-empty string of at most 64 bytes'],
    ['voiceDefault', 'x'.repeat(65), 'a non-empty string of at most 64 bytes'],
    ['voiceDefault', 'bad voice!', 'not a valid voice name'],
    ['voiceDefault', 5, 'a non-empty string of at most 64 bytes'],
    ['voiceDefault', null, 'null is not allowed'],
    ['voiceSpeed', 0.4, 'a number from 0.5 to 2'],
    ['voiceSpeed', 2.1, 'a number from 0.5 to 2'],
    ['voiceSpeed', '1', 'a number from 0.5 to 2'],
    ['voiceSpeed', true, 'a number from 0.5 to 2'],
    ['voiceLang', 'en us', 'not a valid language code'],
    ['voiceLang', 'x'.repeat(17), 'a non-empty string of at most 16 bytes'],
    ['voiceLang', '', 'a non-empty string of at most 16 bytes'],
  ];

  test.each(refusals)('%s = %j is refused (%s) and nothing changes', async (key, value, why) => {
    const before = (await daemon.api('GET', '/v1/settings')).json.settings;
    const stored = await settingsFile(daemon);
    // A good key sent with it (sorted before or after it) is not applied either.
    const other = key === 'muteAllSounds' ? { voiceSpeed: before.voiceSpeed === 2 ? 1 : 2 } : { muteAllSounds: !before.muteAllSounds };
    const reply = await daemon.api('PUT', '/v1/settings', { body: { ...other, [key]: value } });
    expect([reply.status, reply.json]).toEqual([
      400,
      { error: `invalid value for ${key}: ${why}`, code: 'invalid_setting', field: key, reason: why },
    ]);
    expect((await daemon.api('GET', '/v1/settings')).json.settings).toEqual(before);
    expect(await settingsFile(daemon)).toEqual(stored);
  });

  test('keys are checked in sorted order: the first bad one is named', async () => {
    const reply = await daemon.api('PUT', '/v1/settings', { body: { voiceSpeed: 9, historyCapPerApp: -1, muteAllSounds: 'x' } });
    expect(reply.json).toEqual({
      error: 'invalid value for historyCapPerApp: an integer from 1 to 100000',
      code: 'invalid_setting',
      field: 'historyCapPerApp',
      reason: 'an integer from 1 to 100000',
    });
  });

  test('an unknown key, an empty body or a body that is not an object is a 400 and changes nothing', async () => {
    const before = (await daemon.api('GET', '/v1/settings')).json.settings;
    const unknown = await daemon.api('PUT', '/v1/settings', { body: { muteAllSounds: !before.muteAllSounds, colour: 'blue' } });
    expect([unknown.status, unknown.json]).toEqual([
      400,
      { error: `unknown setting: colour (known: ${KEYS.join(', ')})`, code: 'unknown_setting', field: 'colour' },
    ]);
    for (const body of [{}, undefined]) {
      const empty = await daemon.api('PUT', '/v1/settings', { body });
      expect([empty.status, empty.json]).toEqual([
        400,
        { error: 'no settings given; send an object such as {"muteAllSounds":true}', code: 'no_settings_given' },
      ]);
    }
    const list = await daemon.api('PUT', '/v1/settings', { body: [{ muteAllSounds: true }] });
    expect([list.status, list.json]).toEqual([400, { error: 'invalid JSON: the body must be a JSON object', code: 'body_not_object' }]);
    expect((await daemon.api('GET', '/v1/settings')).json.settings).toEqual(before);
  });

  test('launchAtLogin writes the systemd user unit for this daemon and enables it; false removes both', async () => {
    const unit = path.join(configHome, 'systemd', 'user', 'notifier.service');
    const link = path.join(configHome, 'systemd', 'user', 'default.target.wants', 'notifier.service');
    const on = await daemon.api('PUT', '/v1/settings', { body: { launchAtLogin: true } });
    expect(on.json.settings.launchAtLogin).toBe(true);
    const text = await readFile(unit, 'utf8');
    expect(text.split('\n')).toContain(
      `ExecStart=${systemdQuote(process.execPath)} ${systemdQuote(CLI)} daemon --support-dir ${systemdQuote(daemon.supportDir)}`,
    );
    expect(await readlink(link)).toBe(unit);
    expect(await readFile(callsFile, 'utf8')).toContain('--user daemon-reload');
    // Nothing was started or stopped: this daemon is the one that asked.
    expect(await readFile(callsFile, 'utf8')).not.toMatch(/enable --now|start|stop/);

    const off = await daemon.api('PUT', '/v1/settings', { body: { launchAtLogin: false } });
    expect(off.json.settings.launchAtLogin).toBe(false);
    expect(await exists(unit)).toBe(false);
    expect(await exists(link)).toBe(false);
    expect((await daemon.api('GET', '/v1/settings')).json.settings.launchAtLogin).toBe(false);
  });

  test('historyCapPerApp trims every app at once, oldest first', async () => {
    for (let k = 1; k <= 5; k++) await daemon.api('POST', '/v1/notify', { body: { app: 'cap.a', id: `a${k}`, title: `${k}` } });
    for (let k = 1; k <= 3; k++) await daemon.api('POST', '/v1/notify', { body: { app: 'cap.b', id: `b${k}`, title: `${k}` } });
    expect((await daemon.api('PUT', '/v1/settings', { body: { historyCapPerApp: 2 } })).status).toBe(200);
    const ids = async (app: string) =>
      (await daemon.api('GET', `/v1/history?app=${app}`)).json.items.map((item: { id: string }) => item.id);
    expect(await ids('cap.a')).toEqual(['a5', 'a4']);
    expect(await ids('cap.b')).toEqual(['b3', 'b2']);
    await daemon.api('POST', '/v1/notify', { body: { app: 'cap.b', id: 'b4', title: '4' } });
    expect(await ids('cap.b')).toEqual(['b4', 'b3']);
    await daemon.api('PUT', '/v1/settings', { body: { historyCapPerApp: 1000 } });
  });
});

describe('the port setting', () => {
  test('moves the server to the new port at once, rewrites the port file and keeps the port for the next start', async () => {
    const daemon = await startDaemon({ env });
    try {
      const port = await freePort();
      const reply = await daemon.api('PUT', '/v1/settings', { body: { port } });
      expect(reply.status).toBe(200);
      expect(reply.json.applied).toEqual(['port']);
      expect(reply.json.settings.port).toBe(port);
      expect(reply.json.note).toContain(`port ${port}`);
      expect((await readFile(path.join(daemon.supportDir, 'port'), 'utf8')).trim()).toBe(String(port));
      const health = await request(port, 'GET', '/v1/health');
      expect(health.json.pid).toBe(daemon.child.pid);
      expect((await request(port, 'GET', '/v1/settings', { token: daemon.token })).json.settings.port).toBe(port);
      await eventually(
        () =>
          request(daemon.port, 'GET', '/v1/health', { timeoutMs: 1000 }).then(
            () => false,
            () => true,
          ),
        'the old port to close',
      );
      expect((await settingsFile(daemon)).port).toBe(port);
      // The same port again changes nothing and moves nothing.
      const same = await request(port, 'PUT', '/v1/settings', { token: daemon.token, body: { port } });
      expect([same.status, same.json.note]).toEqual([200, undefined]);

      // Started again without --port, it listens on the port of the setting.
      await daemon.stop();
      const again = await startDaemon({
        env,
        supportDir: daemon.supportDir,
        args: ['--support-dir', daemon.supportDir, '--presenter', 'headless'],
      });
      expect(again.port).toBe(port);
      await again.stop();
    } finally {
      await daemon.stop();
      await rm(daemon.supportDir, { recursive: true, force: true });
    }
  });

  test('a port another program holds is a 409, and nothing changes', async () => {
    const daemon = await startDaemon({ env });
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const busy = (taken.address() as net.AddressInfo).port;
    try {
      const reply = await daemon.api('PUT', '/v1/settings', { body: { port: busy, muteAllSounds: true } });
      expect([reply.status, reply.json]).toEqual([
        409,
        { error: `port ${busy} is in use by another program; Notifier stays on ${daemon.port}`, code: 'port_in_use', field: 'port' },
      ]);
      expect((await daemon.api('GET', '/v1/settings')).json.settings).toMatchObject({ port: daemon.port, muteAllSounds: false });
      expect((await readFile(path.join(daemon.supportDir, 'port'), 'utf8')).trim()).toBe(String(daemon.port));
    } finally {
      await new Promise((resolve) => taken.close(resolve));
      await daemon.stop();
      await rm(daemon.supportDir, { recursive: true, force: true });
    }
  });
});

describe('settings take effect without a restart', () => {
  test('voiceDefault, voiceSpeed and voiceLang are what speech uses when a request gives none of its own', async () => {
    const engine = new ListeningEngine();
    const n = await startInProcess({ speech: engine });
    const said = async (speak: unknown) => {
      const before = engine.asked.length;
      await n.notify({ app: 'voice', title: 'Hello', speak });
      await eventually(() => engine.asked.length > before, 'the speech');
      return engine.asked.at(-1)!.request;
    };
    expect(await said(true)).toEqual({ speed: 1, lang: 'en-us' }); // the engine's own voice

    expect((await n.api('PUT', '/v1/settings', { body: { voiceDefault: 'robot', voiceSpeed: 1.5, voiceLang: 'en-gb' } })).status).toBe(200);
    expect(await said(true)).toEqual({ voice: 'robot', speed: 1.5, lang: 'en-gb' });
    expect(await said({ voice: 'own', speed: 0.8, lang: 'fr' })).toEqual({ voice: 'own', speed: 0.8, lang: 'fr' });
    // A language of its own picks that language's voice, not the default voice.
    expect(await said({ lang: 'de' })).toEqual({ speed: 1.5, lang: 'de' });
  });

  test('voiceEngine off: speech falls back to a banner marked unavailable; system speaks again', async () => {
    const engine = new ListeningEngine();
    const n = await startInProcess({ speech: engine });
    await n.api('PUT', '/v1/settings', { body: { voiceEngine: 'off' } });
    await n.api('POST', '/v1/speak', { body: { app: 'voice', id: 'off', text: 'Not said' } });
    expect(n.person.banner('voice', 'off')).toBeDefined();
    expect((await n.record('voice', 'off')).speech).toEqual({ text: 'Not said.', suppressed: 'unavailable' });
    await n.api('PUT', '/v1/settings', { body: { voiceEngine: 'system' } });
    await n.api('POST', '/v1/speak', { body: { app: 'voice', id: 'on', text: 'Said' } });
    await eventually(() => engine.asked.some((ask) => ask.text === 'Said.'), 'the speech');
    expect(engine.asked.map((ask) => ask.text)).toEqual(['Said.']);
    expect(n.person.banner('voice', 'on')).toBeUndefined();
  });

  test('muteAllSounds silences the next banner and speech at once; off brings the sound back', async () => {
    const n = await startInProcess({ speech: new ListeningEngine() });
    await n.api('PUT', '/v1/settings', { body: { muteAllSounds: true } });
    await n.notify({ app: 'mute', id: 'one', title: 'Silent', speak: true });
    expect(n.person.banner('mute', 'one')!.sound).toBeNull();
    expect((await n.record('mute', 'one')).speech.suppressed).toBe('muted');
    await n.api('PUT', '/v1/settings', { body: { muteAllSounds: false } });
    await n.notify({ app: 'mute', id: 'two', title: 'Heard' });
    expect(n.person.banner('mute', 'two')!.sound).toBe('default');
  });

  test('stacking is stored and read by the core', async () => {
    const n = await startInProcess();
    expect(n.daemon.core.settings.stacking).toBe('bySender');
    await n.api('PUT', '/v1/settings', { body: { stacking: 'never' } });
    expect(n.daemon.core.settings.stacking).toBe('never');
  });
});
