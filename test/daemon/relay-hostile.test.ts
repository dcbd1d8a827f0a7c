import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { mkdir, writeFile, chmod } from 'node:fs/promises';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { CLI, type DaemonProcess, ROOT, startDaemon, tempFolder } from '../helpers/daemon.js';
import { runProgram } from '../helpers/process.js';
import { consentFrame, FakeRelay, notifyFrame, relayId } from '../helpers/fake-relay.js';
import { callbackServer, channel, eventually } from '../helpers/in-process.js';
import { channelPath } from '../../daemon/control/channel.js';
import { exists } from '../helpers/support.js';

// A hostile relay: the computer pairs with a relay of the test's own (test/helpers/fake-relay.ts), which then sends
// what a compromised deployment could — forbidden fields, commands, scripts and callbacks as buttons, file paths as
// sound and picture, huge frames, broken JSON, unknown frames, a flood. Nothing may run, nothing outside the
// whitelist may reach History, and the daemon (the built `notifier daemon`, as its own process) stays up.

/** The keys a relayed notification's record may hold (docs/api/relay-connection.md#rl21); `template` is the daemon's choice. */
const LOCAL_FIELDS = new Set([
  'app',
  'id',
  'title',
  'subtitle',
  'body',
  'url',
  'group',
  'priority',
  'persistent',
  'timeout',
  'sound',
  'image',
  'speak',
  'presentation',
  'metadata',
  'buttons',
  'template',
]);
const METADATA_FIELDS = new Set([
  'source',
  'relayKey',
  'relayNotificationId',
  'status',
  'project',
  'session',
  'task',
  'tool',
  'duration',
  'link',
  'tags',
  'needsInput',
]);

const MCP_MAIN = path.join(ROOT, 'dist', 'cli', 'mcp', 'main.js');

/** No Secret Service in these tests: the token goes to the support folder's file (the Secret Service test is elsewhere). */
const NO_SESSION_BUS = { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/notifier-test-bus' };

describe('a hostile relay', () => {
  let relay: FakeRelay;
  let daemon: DaemonProcess;
  let out: string;
  let marker: string;

  const record = async (id: string) =>
    (await daemon.api('GET', '/v1/history?app=cloud.build-bot&limit=1000')).json.items.find((item: { id: string }) => item.id === id);

  beforeAll(async () => {
    relay = await FakeRelay.start();
    out = await tempFolder('notifier-hostile-');
    marker = path.join(out, 'ran');
    const supportDir = await tempFolder();
    // A script the relay names: it would leave the marker if anything ran it.
    await mkdir(path.join(supportDir, 'scripts'), { recursive: true });
    await writeFile(path.join(supportDir, 'scripts', 'touch.sh'), `#!/bin/sh\ntouch "${marker}"\n`);
    await chmod(path.join(supportDir, 'scripts', 'touch.sh'), 0o755);
    daemon = await startDaemon({ supportDir, env: NO_SESSION_BUS });
    await daemon.api('PUT', '/v1/settings', { body: { voiceEngine: 'off' } });
    const paired = await daemon.api('POST', '/v1/relay/pair', { body: { relayURL: relay.url } });
    expect([paired.status, paired.json]).toEqual([200, { paired: true, deviceId: relay.deviceId }]);
    await relay.connected();
  });

  afterAll(async () => {
    await daemon?.stop();
  });

  test('forbidden fields, commands, scripts, callbacks and paths: nothing runs, History keeps the whitelist', async () => {
    const callbacks = await callbackServer();
    const run = `touch ${marker}`;
    const frame = notifyFrame(
      {
        title: 'Deploy finished',
        body: 'all green',
        command: run,
        script: 'touch.sh',
        shortcut: 'Open Terminal',
        callback: { url: callbacks.url('/callback') },
        webhook: callbacks.url('/webhook'),
        buttons: [
          { label: 'Run', command: run },
          { label: 'Script', script: 'touch.sh' },
          { label: 'Call', callback: { url: callbacks.url('/button') } },
        ],
        actions: [{ id: 'run', label: 'Run', kind: 'command', command: run }],
        actionIds: ['run'],
        url: 'file:///etc/passwd',
        audio: '/usr/share/sounds/alsa/Front_Center.wav',
        image: '/etc/passwd',
        template: 'evil',
        templateName: 'evil',
        app: 'com.evil',
        appId: 'com.evil',
        metadata: { command: run },
        accentColor: '#ff0000',
        snooze: true,
        reminder: { title: 'x', due: '2030-01-01' },
        path: '/etc',
        exec: run,
        run,
        open: 'file:///',
        openApp: { path: '/usr/bin/xterm' },
        followUp: { after: 1, action: { label: 'Run', kind: 'command', command: run } },
        sound: '/usr/share/sounds/freedesktop/stereo/bell.oga',
        imageURL: 'file:///etc/passwd',
        icon: 'file:///etc/passwd',
        link: 'javascript:alert(1)',
        speak: { text: 'hello', command: run },
        tags: ['ok', 'has,comma'],
      },
      { command: run, buttons: [{ label: 'Frame button', command: run }], app: 'com.evil', script: 'touch.sh' },
    );
    relay.send(frame);
    const receipts = await relay.receiptsOf(frame.id, 2);
    expect(receipts.map((receipt) => receipt.kind)).toEqual(['displayed', 'suppressed']); // the speech: voice engine off
    const stored = await record(frame.id);
    const notification = stored.notification;
    expect(Object.keys(notification).filter((key) => !LOCAL_FIELDS.has(key))).toEqual([]);
    expect(Object.keys(notification.metadata).filter((key) => !METADATA_FIELDS.has(key))).toEqual([]);
    expect(notification).toMatchObject({ app: 'cloud.build-bot', id: frame.id, title: 'Deploy finished', body: 'all green' });
    expect(notification.buttons).toEqual([{ label: 'Reply', id: 'reply', reply: { placeholder: 'Reply to build-bot…' } }]);
    expect(notification.template).not.toBe('evil');
    for (const absent of ['sound', 'image', 'url', 'followUp', 'actionIds'])
      expect([absent, notification[absent]]).toEqual([absent, undefined]);
    expect(notification.speak).toEqual({ text: 'hello' }); // speak.command dropped
    expect(notification.metadata).not.toHaveProperty('tags'); // one tag broke its rule: the list goes
    // Nothing ran or was called, and no app of the relay's naming exists.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(await exists(marker)).toBe(false);
    expect(callbacks.received).toEqual([]);
    const { apps } = (await daemon.api('GET', '/v1/apps')).json;
    expect(apps.map((app: { app: string }) => app.app)).toEqual(['cloud.build-bot']);
  });

  test('a sound is a name, a picture and a link are https only: the allowed forms pass', async () => {
    const frame = notifyFrame({
      title: 'Nightly',
      sound: 'message-new-instant',
      imageURL: 'https://127.0.0.1:1/picture.png',
      link: 'https://example.org/build/7',
      priority: 'urgent',
      timeoutSeconds: 30,
      group: 'ci',
    });
    relay.send(frame);
    await relay.receiptsOf(frame.id);
    const { notification } = await record(frame.id);
    expect(notification).toMatchObject({
      sound: 'message-new-instant',
      image: 'https://127.0.0.1:1/picture.png',
      url: 'https://example.org/build/7',
      priority: 'urgent',
      timeout: 30,
      group: 'ci',
    });
    expect(notification.persistent).toBeUndefined(); // a timeout given: the banner is not kept up
    expect(notification.buttons.map((button: { label: string }) => button.label)).toEqual(['Reply', 'Open link']);
    expect(notification.buttons[1]).toMatchObject({ url: 'https://example.org/build/7' });
  });

  test('malformed, unknown and oversized frames are ignored, and the daemon stays up', async () => {
    const before = relay.connections;
    for (const junk of ['not json {', '[]', 'null', '"text"', '{"type":"nope"}', '{"type":"notify"}', '{"type":"notify","id":"r_zz"}']) {
      relay.send(junk);
    }
    relay.send(Buffer.from('binary frame') as unknown as string);
    // A notification without a usable title is acknowledged and reported, never shown.
    const untitled = notifyFrame({ title: '   ', body: 'no title' });
    relay.send(untitled);
    expect((await relay.receiptsOf(untitled.id))[0]).toMatchObject({ kind: 'suppressed', reason: 'unreadable', scope: 'all' });
    expect(await record(untitled.id)).toBeUndefined();
    // Over 16 KiB but under the message limit: read, its body cut to the whitelist's 8000 characters.
    const long = notifyFrame({ title: 'Long', body: 'x'.repeat(200_000) });
    relay.send(long);
    await relay.receiptsOf(long.id);
    expect((await record(long.id)).notification.body).toHaveLength(8000);
    // Over the message limit (1 MiB): the socket closes (1009) and the computer connects again.
    relay.send(notifyFrame({ title: 'Huge', body: 'y'.repeat(2 * 1024 * 1024) }));
    await relay.connected(before);
    expect((await daemon.api('GET', '/v1/health')).status).toBe(200);
    expect(daemon.child.exitCode).toBeNull();
  }, 30_000);

  test('a flood of frames: each notification once, and the daemon answers throughout', async () => {
    const frames = Array.from({ length: 300 }, (_, index) => notifyFrame({ title: `Flood ${index}` }));
    for (const frame of frames) relay.send(frame);
    for (let index = 0; index < 200; index++) relay.send(`{"type":"flood","n":${index}}`);
    const health = await daemon.api('GET', '/v1/health');
    expect(health.status).toBe(200);
    await eventually(
      () => frames.every((frame) => relay.framesOf('receipt').some((receipt) => receipt.id === frame.id)),
      'every receipt',
      30_000,
    );
    // Sent again (as a relay does after a reconnect): acknowledged, never shown twice.
    const again = frames[0]!;
    const first = await record(again.id);
    const acks = relay.framesOf('ack').filter((ack) => ack.id === again.id).length;
    relay.send(again);
    await eventually(() => relay.framesOf('ack').filter((ack) => ack.id === again.id).length > acks, 'the second ack');
    expect((await record(again.id)).deliveredAt).toBe(first.deliveredAt);
    expect(daemon.log().split(`banner [cloud.build-bot] ${again.id}:`)).toHaveLength(2); // shown once
    const { items } = (await daemon.api('GET', '/v1/history?app=cloud.build-bot&limit=1000')).json;
    expect(items.filter((item: { notification: { title: string } }) => item.notification.title.startsWith('Flood '))).toHaveLength(300);
  }, 60_000);

  test('status frames only when quiet hours or mute change', async () => {
    const connection = relay.connections;
    const statuses = () => relay.framesOf('status', connection);
    const hello = relay.framesOf('hello', connection).at(-1)!;
    expect(hello).toEqual({ type: 'hello', quietActive: false, muted: false });
    await daemon.api('PUT', '/v1/settings/quiet-hours', { body: { adHoc: { minutes: 30 } } });
    await eventually(() => statuses().length === 1, 'a status frame');
    expect(statuses()[0]).toMatchObject({ type: 'status', quietActive: true, muted: false });
    expect(statuses()[0]!.quietUntil).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/); // no fractions
    await daemon.api('PUT', '/v1/settings', { body: { muteAllSounds: true } });
    await eventually(() => statuses().length === 2, 'a second status frame');
    expect(statuses()[1]).toMatchObject({ quietActive: true, muted: true });
    await daemon.api('PUT', '/v1/settings', { body: { muteAllSounds: true } }); // no change: nothing sent
    // A window on another day changes the configuration, not what is silenced now: nothing sent.
    const otherDay = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'][(new Date().getDay() + 3) % 7];
    const window = { days: [otherDay], start: '03:00', end: '04:00', speech: true, sounds: true, banners: false };
    expect((await daemon.api('PUT', '/v1/settings/quiet-hours', { body: { windows: [window] } })).status).toBe(200);
    await daemon.api('PUT', '/v1/settings/quiet-hours', { body: { resume: true, windows: [] } });
    await daemon.api('PUT', '/v1/settings', { body: { muteAllSounds: false } });
    await eventually(() => statuses().length === 4, 'two more status frames');
    expect(statuses()[3]).toEqual({ type: 'status', quietActive: false, muted: false });
  });

  test('quiet hours and mute are applied with the real settings: suppressed receipts', async () => {
    await daemon.api('PUT', '/v1/settings/quiet-hours', { body: { adHoc: { minutes: 30, banners: true } } });
    const quiet = notifyFrame({ title: 'During quiet hours' });
    relay.send(quiet);
    expect(await relay.receiptsOf(quiet.id)).toEqual([
      { type: 'receipt', id: quiet.id, kind: 'suppressed', reason: 'quiet-hours', scope: 'all' },
    ]);
    expect((await record(quiet.id)).held).toBe('quiet-hours');
    await daemon.api('PUT', '/v1/settings/quiet-hours', { body: { resume: true } });
    await daemon.api('PUT', '/v1/apps/settings', { body: { app: 'cloud.build-bot', muteBanners: true } });
    const muted = notifyFrame({ title: 'While muted' });
    relay.send(muted);
    expect(await relay.receiptsOf(muted.id)).toEqual([
      { type: 'receipt', id: muted.id, kind: 'suppressed', reason: 'muted', scope: 'all' },
    ]);
    await daemon.api('PUT', '/v1/apps/settings', { body: { app: 'cloud.build-bot', muteBanners: false } });
  });

  test('receipts that cannot be sent wait on disk, survive kill -9, and go after the next hello', async () => {
    relay.refuse = { status: 500 };
    const before = relay.connections;
    const frame = notifyFrame({ title: 'Receipt in waiting' });
    relay.sendAndClose(frame);
    await eventually(async () => (await daemon.api('GET', '/v1/relay/status')).json.waitingReceipts >= 1, 'the receipt to wait');
    expect(await record(frame.id)).toBeDefined();
    await daemon.kill9();
    daemon = await startDaemon({ supportDir: daemon.supportDir, env: NO_SESSION_BUS });
    expect((await daemon.api('GET', '/v1/relay/status')).json).toMatchObject({ paired: true, waitingReceipts: 1 });
    relay.refuse = null;
    const connection = await relay.connected(before);
    const receipt = await relay.waitFor(
      (item) => typeof item.frame === 'object' && item.frame.type === 'receipt' && item.frame.id === frame.id,
      'the receipt',
      15_000,
    );
    expect(receipt.connection).toBe(connection);
    const onThatSocket = relay.received.filter((item) => item.connection === connection).map((item) => item.frame);
    expect(onThatSocket[0]).toMatchObject({ type: 'hello' }); // hello first, then what waited
    expect(receipt.frame).toEqual({ type: 'receipt', id: frame.id, kind: 'displayed' });
    await eventually(async () => (await daemon.api('GET', '/v1/relay/status')).json.waitingReceipts === 0, 'the queue to empty');
  }, 40_000);

  describe('connector approvals', () => {
    const pending = async () => (await channel(channelPath(daemon.supportDir), { op: 'connectors' })).connectors;

    test('a consent frame waits for the person; the tray sees the code, the API never does', async () => {
      const frame = consentFrame();
      relay.send(frame);
      const [request] = await eventually(async () => ((await pending()).length === 1 ? pending() : undefined), 'the request');
      expect(request).toMatchObject({ id: frame.id, clientName: 'Claude', redirectHost: 'claude.ai', flow: 'code', code: '493817' });
      expect(daemon.log()).toContain(`question ${frame.id} [notifier]: Let Claude send you notifications?`);
      expect((await daemon.api('GET', '/v1/relay/status')).json.pendingApprovals).toBe(1);
      relay.consents = [{ ...frame, type: undefined }];
      const listed = await daemon.api('GET', '/v1/relay/connectors');
      expect(listed.json.pending).toEqual([
        { id: frame.id, clientName: 'Claude', redirectHost: 'claude.ai', flow: 'code', expiresAt: frame.expiresAt },
      ]);
      expect(listed.text).not.toContain('493817');
      // The same request with new codes (the client asked again) replaces it; the person answers in the tray.
      relay.send({ ...frame, code: '102938' });
      await eventually(async () => (await pending())[0]?.code === '102938', 'the new code');
      const decided = await channel(channelPath(daemon.supportDir), { op: 'decide', id: frame.id, approve: true });
      expect(decided).toEqual({ ok: true });
      expect(relay.decisions.at(-1)).toEqual({ id: frame.id, decision: 'approve', authorization: `Bearer ${relay.token}` });
      expect(await pending()).toEqual([]);
      relay.consents = [];
    });

    test('consent_resolved and expiry remove a request; an answer the relay calls closed (409) just clears it', async () => {
      const resolved = consentFrame({ clientName: 'ChatGPT' });
      const expiring = consentFrame({ clientName: 'Short-lived', flow: 'device', redirectHost: '', userCode: 'BDFG-HJKM' }, 2);
      const closed = consentFrame({ clientName: 'Decided elsewhere' });
      for (const frame of [resolved, expiring, closed]) relay.send(frame);
      await eventually(async () => (await pending()).length === 3, 'three requests');
      expect((await pending()).find((request: { id: string }) => request.id === expiring.id)).toMatchObject({ userCode: 'BDFG-HJKM' });
      relay.send({ type: 'consent_resolved', id: resolved.id, status: 'denied' });
      await eventually(
        async () => !(await pending()).some((request: { id: string }) => request.id === resolved.id),
        'the resolved one to go',
      );
      await eventually(
        async () => !(await pending()).some((request: { id: string }) => request.id === expiring.id),
        'the expired one to go',
        8_000,
      );
      relay.decisionStatus = 409;
      expect(await channel(channelPath(daemon.supportDir), { op: 'decide', id: closed.id, approve: false })).toEqual({ ok: true });
      expect(relay.decisions.at(-1)).toMatchObject({ id: closed.id, decision: 'deny' });
      expect(await pending()).toEqual([]);
      relay.decisionStatus = 200;
    });

    test('no route, command or tool answers with the device token or a 6-digit code', async () => {
      const frame = consentFrame({ code: '761204' });
      relay.consents = [{ ...frame, type: undefined }];
      relay.send(frame);
      await eventually(async () => (await pending()).length === 1, 'the request');
      const secrets = [relay.token, '761204', '761 204'];
      const leaks = (what: string, text: string) => secrets.filter((secret) => text.includes(secret)).map((secret) => `${what}: ${secret}`);
      const found: string[] = [];
      for (const route of ['status', 'keys', 'connectors', 'usage', 'events', 'instructions?client=claude', 'instructions?client=device']) {
        const reply = await daemon.api('GET', `/v1/relay/${route}`);
        expect([route, reply.status]).toEqual([route, 200]);
        found.push(...leaks(`GET /v1/relay/${route}`, reply.text));
      }
      const env = { NOTIFIER_SUPPORT_DIR: daemon.supportDir };
      for (const args of [
        ['status'],
        ['keys'],
        ['connectors'],
        ['usage'],
        ['events'],
        ['instructions', 'claude'],
        ['instructions', 'chatgpt'],
      ]) {
        const run = await runProgram(process.execPath, [CLI, 'relay', ...args], { env });
        expect([args, run.code]).toEqual([args, 0]);
        found.push(...leaks(`notifier relay ${args.join(' ')}`, run.stdout + run.stderr));
      }
      const transport = new StdioClientTransport({
        command: process.execPath,
        args: [MCP_MAIN, '--support-dir', daemon.supportDir],
        stderr: 'pipe',
      });
      const client = new Client({ name: 'notifier-test', version: '1.0.0' });
      await client.connect(transport);
      try {
        for (const [name, args] of [
          ['relay_status', {}],
          ['list_agent_keys', {}],
          ['list_connectors', {}],
          ['relay_usage', {}],
          ['relay_events', {}],
          ['relay_instructions', { client: 'codex' }],
        ] as const) {
          const result = await client.callTool({ name, arguments: args });
          expect([name, result.isError ?? false]).toEqual([name, false]);
          found.push(...leaks(name, JSON.stringify(result)));
        }
      } finally {
        await client.close();
      }
      found.push(...leaks('the daemon log', daemon.log()));
      expect(found).toEqual([]);
      // The person's own channel (the tray) is where the code is shown.
      expect((await pending())[0].code).toBe('761204');
      relay.send({ type: 'consent_resolved', id: frame.id, status: 'expired' });
      await eventually(async () => (await pending()).length === 0, 'it to go');
      relay.consents = [];
    }, 40_000);

    test('an answer the relay calls expired (410) or unknown (404) clears the request; a failure keeps it, saying so', async () => {
      const decide = (id: string) => channel(channelPath(daemon.supportDir), { op: 'decide', id, approve: true });
      const has = async (id: string) => (await pending()).find((request: { id: string }) => request.id === id);
      for (const status of [410, 404]) {
        const frame = consentFrame({ clientName: `Closed ${status}` });
        relay.send(frame);
        await eventually(() => has(frame.id), 'the request');
        relay.decisionStatus = status;
        expect(await decide(frame.id)).toEqual({ ok: true });
        expect([status, await has(frame.id)]).toEqual([status, undefined]);
      }
      const failing = consentFrame({ clientName: 'Relay in trouble' });
      relay.send(failing);
      await eventually(() => has(failing.id), 'the request');
      relay.decisionStatus = 500;
      expect(await decide(failing.id)).toEqual({ ok: true });
      expect((await has(failing.id)).problem).toMatch(/^Your answer did not reach the relay \(.+\)\. Answer again\.$/);
      relay.decisionStatus = 200;
      expect(await decide(failing.id)).toEqual({ ok: true }); // answered again: taken
      expect(await has(failing.id)).toBeUndefined();
    });

    test('a malformed consent frame is dropped', async () => {
      for (const broken of [
        consentFrame({ code: '12345' }),
        consentFrame({ code: 'abcdef' }),
        consentFrame({ flow: 'device', userCode: undefined }),
        consentFrame({ expiresAt: 'soon' }),
        { ...consentFrame(), clientName: '' },
        { type: 'consent_resolved', id: 'x', status: 'whatever' },
      ]) {
        relay.send(broken);
      }
      const ping = consentFrame({ clientName: 'After the broken ones' });
      relay.send(ping);
      await eventually(async () => (await pending()).length === 1, 'the good one');
      expect((await pending())[0].clientName).toBe('After the broken ones');
      relay.send({ type: 'consent_resolved', id: ping.id, status: 'expired' });
      await eventually(async () => (await pending()).length === 0, 'it to go');
    });
  });

  test("a collapse id or a withdrawal reaches only its own key's notifications; a time years ahead shows at once", async () => {
    const otherKey = { key: { id: '9f8e7d6c', name: 'other-bot', client: 'other' } };
    const mine = notifyFrame({ title: 'Mine', collapseId: 'shared' });
    const theirs = notifyFrame({ title: 'Theirs', collapseId: 'shared' }, otherKey);
    relay.send(mine);
    relay.send(theirs);
    await Promise.all([relay.receiptsOf(mine.id), relay.receiptsOf(theirs.id)]);
    const under = async (app: string) =>
      (await daemon.api('GET', `/v1/history?app=${app}`)).json.items.find((item: any) => item.id === 'shared');
    expect((await under('cloud.build-bot')).notification.title).toBe('Mine');
    expect((await under('cloud.other-bot')).notification.title).toBe('Theirs');
    // The other key takes back its own "shared", never this key's.
    const withdrawal = notifyFrame({ title: '', withdraw: 'delete', collapseId: 'shared', expectReply: false }, otherKey);
    relay.send(withdrawal);
    await relay.waitFor(
      (item) => typeof item.frame === 'object' && item.frame.type === 'ack' && item.frame.id === withdrawal.id,
      'its ack',
    );
    expect(await under('cloud.other-bot')).toBeUndefined();
    expect((await under('cloud.build-bot')).notification.title).toBe('Mine');
    // A withdrawal that also carries a notification's fields is read without them: it still shows nothing.
    const mixed = notifyFrame({ title: 'Shown?', body: 'no', withdraw: 'clear', collapseId: 'shared' });
    relay.send(mixed);
    await relay.waitFor((item) => typeof item.frame === 'object' && item.frame.type === 'ack' && item.frame.id === mixed.id, 'its ack');
    expect((await under('cloud.build-bot')).notification.title).toBe('Mine');
    const titles = (await daemon.api('GET', '/v1/history?app=cloud.build-bot&limit=1000')).json.items.map(
      (item: any) => item.notification.title,
    );
    expect(titles).not.toContain('Shown?');
    // A time far past what the relay allows is broken: shown now, never kept for years.
    const years = notifyFrame({ title: 'In ten years', showAt: new Date(Date.now() + 10 * 365 * 86_400_000).toISOString() });
    relay.send(years);
    expect(await relay.receiptsOf(years.id)).toEqual([expect.objectContaining({ kind: 'displayed' })]);
    expect((await daemon.api('GET', '/v1/scheduled')).json.scheduled).toEqual([]);
  });

  test('a relay id never becomes an app, a path or a second record', async () => {
    const frame = notifyFrame({ title: 'Key name as a path' }, { key: { id: '../..', name: '../../etc/passwd', client: 'x' } });
    relay.send(frame);
    await relay.receiptsOf(frame.id);
    const { apps } = (await daemon.api('GET', '/v1/apps')).json;
    expect(apps.map((app: { app: string }) => app.app)).toContain('cloud.etc-passwd');
    expect(relayId()).toMatch(/^r_[0-9a-f]{24}$/);
  });
});
