import { stat, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, test } from '@jest/globals';
import * as oauth from 'oauth4webapi';
import { channelPath } from '../../daemon/control/channel.js';
import { CLI, startDaemon } from '../helpers/daemon.js';
import { displayed, dunstHistory, replyWindow, typeInto, useDesktopDaemon } from '../helpers/desktop.js';
import { channel, eventually } from '../helpers/in-process.js';
import { insecure, openAuthorizePage, pageRid, startDeviceGrant } from '../helpers/oauth.js';
import { runProgram } from '../helpers/process.js';
import { pairDevice, useRelay } from '../helpers/relay.js';
import { trayOnBus } from '../helpers/tray.js';

// The desktop on the relay, end to end with real parts (docs/api/relay-connection.md, docs/relay-desktop.md): the relay of
// this repository as a process, the built `notifier daemon` with the D-Bus presenter and its tray, and dunst on
// Xvfb with a private session bus. Agents speak HTTP (and OAuth, with oauth4webapi) to the relay; the person acts
// only through dunst's own controls, the reply window (typed into with xdotool) and the tray's menu over D-Bus.

const CALLBACK = 'http://127.0.0.1:9/callback';

describe('the desktop on a real relay', () => {
  const { desktop, daemon } = useDesktopDaemon(async (desktop) => {
    const started = await startDaemon({ env: desktop.env, presenter: 'dbus' });
    await eventually(() => started.log().includes('tray: tray ready'), 'the tray');
    return started;
  }, 60_000);
  const relay = useRelay({ backend: 'sqlite', env: { REGISTER_PER_HOUR: '1000' } });
  /** The agent key made for build-bot. */
  let botKey = '';

  const status = async () => (await daemon().api('GET', '/v1/relay/status')).json;
  const online = () => eventually(async () => (await status()).online === true, 'the socket to be online');
  const relayCLI = (...args: string[]) =>
    runProgram(process.execPath, [CLI, 'relay', ...args], { env: { NOTIFIER_SUPPORT_DIR: daemon().supportDir } });
  const tokenFile = () => path.join(daemon().supportDir, 'secrets', 'relay-device-token');
  const connectors = async () => (await channel(channelPath(daemon().supportDir), { op: 'connectors' })).connectors;
  /** The one request the person has in front of them, once it is there. */
  const pendingOne = () => eventually(async () => ((await connectors()).length === 1 ? (await connectors())[0] : undefined), 'the request');

  test('notifier relay pair: the token in a 0600 file (no Secret Service here), the socket online, the status', async () => {
    const paired = await relayCLI('pair', relay().baseUrl);
    expect([paired.code, JSON.parse(paired.stdout)]).toEqual([0, { paired: true, deviceId: expect.stringMatching(/^[0-9a-f]{48}$/) }]);
    await online();
    expect(await status()).toMatchObject({
      paired: true,
      state: 'online',
      relayURL: relay().baseUrl,
      mcpURL: `${relay().baseUrl}/mcp`,
      deviceId: JSON.parse(paired.stdout).deviceId,
      tokenStore: 'file',
      waitingReceipts: 0,
      pendingApprovals: 0,
    });
    expect((await stat(tokenFile())).mode & 0o777).toBe(0o600);
    expect((await stat(path.dirname(tokenFile()))).mode & 0o777).toBe(0o700);
    expect(await readFile(tokenFile(), 'utf8')).toMatch(/^hrd_/);
    // The relay knows this computer by its name, connected.
    const token = (await readFile(tokenFile(), 'utf8')).trim();
    const { devices } = (await relay().call('GET', '/v1/device/devices', { token })).json;
    expect(devices).toEqual([expect.objectContaining({ name: os.hostname().slice(0, 60), online: true, thisDevice: true })]);
  });

  test("an agent's notification is a banner on dunst; the reply typed into the reply window reaches the agent's wait", async () => {
    await desktop().dunstctl('close-all');
    const made = await daemon().api('POST', '/v1/relay/keys', { body: { name: 'build-bot' } });
    expect([made.status, made.json]).toMatchObject([
      201,
      { name: 'build-bot', client: 'other', scope: 'notify', mcpURL: `${relay().baseUrl}/mcp` },
    ]);
    const key = (botKey = made.json.key as string);
    const sent = await relay().call('POST', '/v1/notify', {
      token: key,
      body: { title: 'Deploy to production?', body: 'v2.3 passed every check', notificationId: 'deploy-7', expectReply: true },
    });
    expect(sent.status).toBe(202);
    await eventually(async () => (await displayed(desktop())) === 1, 'the banner on dunst');
    // The agent waits for the answer while the person reads the banner and chooses Reply on it.
    const waiting = relay().call('GET', '/v1/replies/deploy-7?wait=30', { token: key, timeoutMs: 40_000 });
    await desktop().choose('Reply (Deploy to production?)');
    // The window says who asks, and that it came through the relay, above the whole notification.
    expect(await replyWindow(desktop(), 'build-bot')).toEqual({
      title: 'Reply to build-bot',
      text: 'build-bot asks, through the cloud relay:\n\nDeploy to production?\nv2.3 passed every check\n(Reply to build-bot…)',
    });
    await typeInto(desktop(), 'build-bot', 'Ship it after lunch');
    // The banner's one button is Reply (no Open link: the agent sent no link), and no click action (nothing to open).
    expect((await desktop().lastMenu()).trim().split('\n')).toEqual([
      expect.stringMatching(/^#Reply \(Deploy to production\?\) \[\d+,reply\]$/),
    ]);
    const answer = await waiting;
    expect([answer.status, answer.json]).toMatchObject([200, { notificationId: 'deploy-7', replied: true, reply: 'Ship it after lunch' }]);
    expect(answer.json.timedOut).toBeUndefined();
    const receipt = (await relay().call('GET', '/v1/receipts/deploy-7', { token: key })).json;
    expect(receipt).toMatchObject({ displayed: true, replied: true, reply: 'Ship it after lunch', queued: false, suppressed: false });
    // What dunst showed, as its history keeps it once the reply closed the banner.
    await eventually(async () => (await displayed(desktop())) === 0, 'the banner to close');
    expect((await dunstHistory(desktop())).find((banner) => banner.summary === 'Deploy to production?')).toMatchObject({
      appname: 'build-bot',
      body: 'v2.3 passed every check',
    });
    // Here too: History, and the app's reply queue.
    const { items } = (await daemon().api('GET', '/v1/history?app=cloud.build-bot')).json;
    expect(items[0]).toMatchObject({
      reply: 'Ship it after lunch',
      notification: { metadata: { needsInput: true, source: 'cloud-relay' } },
    });
    const { replies } = (await daemon().api('GET', '/v1/replies?app=cloud.build-bot')).json;
    expect(replies).toEqual([expect.objectContaining({ notificationId: items[0].id, text: 'Ship it after lunch' })]);
  }, 60_000);

  test("notifications with one collapse id are one on the computer: each takes the place of the one before, and a reply answers the newest's wait", async () => {
    await desktop().dunstctl('close-all');
    const send = (body: Record<string, unknown>) => relay().call('POST', '/v1/notify', { token: botKey, body });
    const records = async () =>
      ((await daemon().api('GET', '/v1/history?app=cloud.build-bot')).json.items as any[]).filter((item) => item.id === 'backup');
    expect((await send({ title: 'Backup at 40%', collapseId: 'backup', notificationId: 'backup-1' })).status).toBe(202);
    await eventually(async () => (await records())[0]?.notification.title === 'Backup at 40%', 'the first under its collapse id');
    await eventually(async () => (await displayed(desktop())) === 1, 'its banner');
    const last = { title: 'Backup done: keep the old one?', collapseId: 'backup', notificationId: 'backup-2', expectReply: true };
    expect((await send(last)).status).toBe(202);
    await eventually(async () => (await records())[0]?.notification.title === last.title, 'the second in its place');
    expect(await records()).toHaveLength(1);
    // Replaced in place on dunst too: still one banner, the newest.
    expect(await displayed(desktop())).toBe(1);
    const waiting = relay().call('GET', '/v1/replies/backup-2?wait=30', { token: botKey, timeoutMs: 40_000 });
    await desktop().choose(`Reply (${last.title})`);
    await replyWindow(desktop(), 'build-bot');
    await typeInto(desktop(), 'build-bot', 'Keep it');
    expect((await waiting).json).toMatchObject({ notificationId: 'backup-2', replied: true, reply: 'Keep it' });
    // The first was shown and is answered by nothing: the reply belongs to the one that took its place.
    expect((await relay().call('GET', '/v1/receipts/backup-1', { token: botKey })).json).toMatchObject({ displayed: true, replied: false });
  }, 60_000);

  test('a notification with showAt waits on the computer among the scheduled ones, then shows; its receipt says so when it does', async () => {
    const showAt = new Date(Date.now() + 4000).toISOString();
    const sent = await relay().call('POST', '/v1/notify', {
      token: botKey,
      body: { title: 'Stand-up in 5 minutes', showAt, notificationId: 'standup' },
    });
    expect(sent.status).toBe(202);
    // The computer took it (nothing waits on the relay), and keeps it until its time.
    const receipt = async () => (await relay().call('GET', '/v1/receipts/standup', { token: botKey })).json;
    await eventually(async () => (await receipt()).queued === false, 'the computer to take it');
    const { scheduled } = (await daemon().api('GET', '/v1/scheduled?app=cloud.build-bot')).json;
    expect(scheduled).toEqual([expect.objectContaining({ title: 'Stand-up in 5 minutes', at: showAt })]);
    expect(await receipt()).toMatchObject({ displayed: false, suppressed: false });
    await eventually(async () => (await receipt()).displayed === true, 'it to show at its time', 15_000);
    const { items } = (await daemon().api('GET', '/v1/history?app=cloud.build-bot')).json;
    expect(items[0].notification).toMatchObject({ title: 'Stand-up in 5 minutes' });
    expect(Date.parse(items[0].deliveredAt)).toBeGreaterThanOrEqual(Date.parse(showAt) - 1000);
    expect((await daemon().api('GET', '/v1/scheduled?app=cloud.build-bot')).json.scheduled).toEqual([]);
  }, 40_000);

  describe('a connector asking through OAuth', () => {
    let as: oauth.AuthorizationServer;
    let client: oauth.Client;

    beforeAll(async () => {
      const issuer = new URL(relay().baseUrl);
      as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }));
      const registered = await oauth.processDynamicClientRegistrationResponse(
        await oauth.dynamicClientRegistrationRequest(as, { client_name: 'Claude Test', redirect_uris: [CALLBACK] }, insecure),
      );
      client = { client_id: registered.client_id };
    });

    /** The browser flow up to the consent page: the request waits for the person. */
    async function startBrowserFlow() {
      const { verifier, state, page } = await openAuthorizePage(relay(), as, client, {
        redirect_uri: CALLBACK,
        scope: 'notify',
        resource: `${relay().baseUrl}/mcp`,
      });
      expect(page.status).toBe(200);
      return { verifier, state, rid: pageRid(page.text) };
    }

    /** The page's poll, until the request is closed: where the browser goes. */
    const redirectOf = (rid: string) =>
      eventually(
        async () => (await relay().call('GET', `/authorize/status?rid=${rid}`)).json.redirect as string | undefined,
        'the redirect',
      );

    test('Approve on the dunst banner lets it in; its access token then sends a banner', async () => {
      await desktop().dunstctl('close-all');
      const { verifier, state, rid } = await startBrowserFlow();
      await eventually(async () => (await displayed(desktop())) === 1, 'the consent banner on dunst');
      // The person's tray lists it with the 6-digit code for the relay's page; the API lists it without.
      const request = await pendingOne();
      expect(request).toMatchObject({ id: rid, clientName: 'Claude Test', redirectHost: '127.0.0.1:9', flow: 'code' });
      const spaced = `${request.code.slice(0, 3)} ${request.code.slice(3)}`;
      const tray = await trayOnBus(desktop(), daemon().child.pid!);
      const labels = () => tray.entries().then((entries) => entries.filter((entry) => entry.visible).map((entry) => entry.label));
      await eventually(async () => (await labels()).includes('Approve Claude Test'), 'the request in the tray');
      const lines = await labels();
      expect(lines.slice(lines.indexOf('Approve Claude Test') - 1, lines.indexOf('Approve Claude Test') + 3)).toEqual([
        'Claude Test asks to send you notifications',
        'Approve Claude Test',
        'Deny Claude Test',
        `Or type ${spaced} on the page in your browser.`,
      ]);
      expect((await tray.item()).Status).toBe('NeedsAttention');
      const listed = await daemon().api('GET', '/v1/relay/connectors');
      expect(listed.json.pending).toEqual([
        { id: rid, clientName: 'Claude Test', redirectHost: '127.0.0.1:9', flow: 'code', expiresAt: expect.any(String) },
      ]);
      expect(listed.text).not.toContain(request.code);

      await desktop().choose('Approve (Let Claude Test send you notifications?)');
      const params = oauth.validateAuthResponse(as, client, new URL(await redirectOf(rid)), state);
      // Exactly two answers were on the banner.
      expect((await desktop().lastMenu()).trim().split('\n')).toEqual([
        expect.stringMatching(/^#Approve \(Let Claude Test send you notifications\?\) \[\d+,allow\]$/),
        expect.stringMatching(/^#Deny \(Let Claude Test send you notifications\?\) \[\d+,deny\]$/),
      ]);
      const tokens = await oauth.processAuthorizationCodeResponse(
        as,
        client,
        await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, CALLBACK, verifier, {
          ...insecure,
          additionalParameters: { resource: `${relay().baseUrl}/mcp` },
        }),
      );
      expect(tokens.access_token).toMatch(/^hra_/);
      // The banner went, and with it the tray's entry; what the banner said is in dunst's history.
      await eventually(async () => (await displayed(desktop())) === 0, 'the consent banner to go');
      await eventually(async () => (await connectors()).length === 0, 'the request to close');
      await eventually(async () => (await tray.item()).Status === 'Active', 'the tray to be calm');
      const consent = (await dunstHistory(desktop())).find((banner) => banner.summary === 'Let Claude Test send you notifications?');
      expect(consent?.appname).toBe('Notifier');
      expect(consent?.body).toContain('Your browser then returns to 127.0.0.1:9.');
      expect(consent?.body).toContain('Nothing else is granted');
      expect(consent?.body).toContain(spaced);
      tray.close();

      const sent = await relay().call('POST', '/v1/notify', { token: tokens.access_token, body: { title: 'Hello from the connector' } });
      expect(sent.status).toBe(202);
      await eventually(async () => (await displayed(desktop())) === 1, 'its banner on dunst');
      await desktop().choose('Nothing matches this line');
      await eventually(async () => /^#Reply \(Hello from the connector\) \[\d+,reply\]$/m.test(await desktop().lastMenu()), 'its Reply');
      const { apps } = (await daemon().api('GET', '/v1/apps')).json;
      expect(apps).toContainEqual(expect.objectContaining({ app: 'cloud.claude-test', appName: 'Claude Test' }));
      const approved = (await daemon().api('GET', '/v1/relay/connectors')).json;
      expect(approved).toMatchObject({ pending: [], connectors: [expect.objectContaining({ kind: 'oauth', displayName: 'Claude Test' })] });
    }, 60_000);

    test('Deny on the dunst banner denies: the browser returns with access_denied', async () => {
      await desktop().dunstctl('close-all');
      const { state, rid } = await startBrowserFlow();
      await eventually(async () => (await displayed(desktop())) === 1, 'the consent banner on dunst');
      await pendingOne();
      await desktop().choose('Deny (Let Claude Test send you notifications?)');
      const redirect = new URL(await redirectOf(rid));
      expect(redirect.searchParams.get('error')).toBe('access_denied');
      expect(() => oauth.validateAuthResponse(as, client, redirect, state)).toThrow(oauth.AuthorizationResponseError);
      await eventually(async () => (await connectors()).length === 0, 'the request to close');
      await eventually(async () => (await displayed(desktop())) === 0, 'the banner to go');
    }, 60_000);

    test("the device flow's banner shows the agent's code; the tray's Approve lets it in", async () => {
      await desktop().dunstctl('close-all');
      const { client: job, started } = await startDeviceGrant(as, 'Night job', { scope: 'notify' });
      await eventually(async () => (await displayed(desktop())) === 1, 'the consent banner on dunst');
      const question = `Approve Night job to send you notifications? Code ${started.user_code}`;
      await desktop().choose('Nothing matches this line');
      await eventually(async () => (await desktop().lastMenu()).includes(`#Approve (${question})`), 'the question on dunst');
      const request = await pendingOne();
      expect(request).toMatchObject({ flow: 'device', userCode: started.user_code, clientName: 'Night job' });
      const spaced = `${request.code.slice(0, 3)} ${request.code.slice(3)}`;
      const tray = await trayOnBus(desktop(), daemon().child.pid!);
      const approve = await eventually(
        async () => (await tray.entries()).find((entry) => entry.visible && entry.label === 'Approve Night job'),
        'the request in the tray',
      );
      const labels = (await tray.entries()).filter((entry) => entry.visible).map((entry) => entry.label);
      expect(labels).toContain(`Night job (code ${started.user_code}) asks to send you notifications`);
      expect(labels).toContain(`Or type ${spaced} on the relay's activation page.`);
      await tray.click(approve.id);
      await eventually(async () => (await connectors()).length === 0, 'the request to close');
      await eventually(async () => (await displayed(desktop())) === 0, 'the banner to go');
      tray.close();
      const poll = async () =>
        oauth.processDeviceCodeResponse(as, job, await oauth.deviceCodeGrantRequest(as, job, oauth.None(), started.device_code, insecure));
      const tokens = await poll();
      expect(tokens.access_token).toMatch(/^hra_/);
    }, 60_000);
  });

  test('keys, usage, events and instructions through the real relay; a revoked key stops at once, its app stays', async () => {
    const { keys } = (await daemon().api('GET', '/v1/relay/keys')).json;
    const bot = keys.find((key: { name: string }) => key.name === 'build-bot');
    expect(bot).toMatchObject({ id: expect.stringMatching(/^[0-9a-f]{8}$/), kind: 'static', scope: 'notify' });
    const usage = (await daemon().api('GET', '/v1/relay/usage')).json;
    expect(usage).toMatchObject({ day: expect.any(String), notifications: expect.any(Number), queued: 0 });
    expect(usage.limits).toBeUndefined();
    expect((await daemon().api('GET', '/v1/relay/events')).json).toEqual({ restrictedTo: [], subscriptions: [] });
    const ended = await daemon().api('DELETE', '/v1/relay/events/subscriptions/sub_0123456789abcdef0123');
    expect([ended.status, ended.json]).toEqual([200, { removed: true, id: 'sub_0123456789abcdef0123' }]);
    const instructions = (await daemon().api('GET', '/v1/relay/instructions?client=claude')).json;
    expect(instructions.text).toContain(`claude mcp add --transport http notifier ${relay().baseUrl}/mcp`);

    const revoked = await relayCLI('keys', 'revoke', bot.id);
    expect([revoked.code, JSON.parse(revoked.stdout)]).toEqual([0, { revoked: true, id: bot.id }]);
    const key = (await daemon().api('GET', '/v1/relay/keys')).json.keys.find((item: { id: string }) => item.id === bot.id);
    expect(key.revokedAt).toEqual(expect.any(String));
    // The relay refuses the key from now on; the app and its History stay here.
    expect((await relay().call('POST', '/v1/notify', { token: botKey, body: { title: 'Too late' } })).status).toBe(401);
    expect((await daemon().api('GET', '/v1/history?app=cloud.build-bot')).json.items.length).toBeGreaterThan(0);
  });

  test('the relay forgets this computer: the token is rejected, pairing again works; then unpair', async () => {
    const before = (await status()).deviceId as string;
    // Another computer pairs under this one's name (a reinstall): the relay removes this one (docs/relay-api.md#ra11).
    await pairDevice(relay(), os.hostname());
    await eventually(async () => (await status()).state === 'rejected', 'the token to be rejected');
    expect(await status()).toMatchObject({ paired: true, online: false, problem: "the relay rejected this computer's token; pair again" });
    const refused = await daemon().api('GET', '/v1/relay/keys');
    expect([refused.status, refused.json.error]).toEqual([
      502,
      "the relay rejected this computer's token: pair again with notifier relay pair <relay-url> (POST /v1/relay/pair)",
    ]);

    const again = await daemon().api('POST', '/v1/relay/pair', { body: { relayURL: relay().baseUrl } });
    expect([again.status, again.json.paired]).toEqual([200, true]);
    expect(again.json.deviceId).not.toBe(before);
    await online();
    const key = (await daemon().api('POST', '/v1/relay/keys', { body: { name: 'after-repair' } })).json.key as string;
    await desktop().dunstctl('close-all');
    expect((await relay().call('POST', '/v1/notify', { token: key, body: { title: 'Paired again' } })).status).toBe(202);
    await eventually(async () => (await displayed(desktop())) === 1, 'the banner on dunst');

    const token = (await readFile(tokenFile(), 'utf8')).trim();
    const unpaired = await relayCLI('unpair');
    expect([unpaired.code, JSON.parse(unpaired.stdout)]).toEqual([0, { unpaired: true }]);
    expect(await status()).toMatchObject({ paired: false, state: 'unpaired', online: false });
    await expect(stat(tokenFile())).rejects.toMatchObject({ code: 'ENOENT' });
    expect((await relay().call('GET', '/v1/device/keys', { token })).status).toBe(401); // the relay forgot it too
    const notPaired = await daemon().api('GET', '/v1/relay/keys');
    expect(notPaired.status).toBe(409);
  }, 60_000);
});
