import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, test } from '@jest/globals';
import { tempFolder } from '../helpers/daemon.js';
import { type Running, answerQuestion, callbackServer, channel, eventually, startInProcess } from '../helpers/in-process.js';
import { writeSupportFile, exists } from '../helpers/support.js';

// docs/api/notifications.md#follow-up-object, rules N19-N29. `after` is at least 5 s, so every case starts at once in
// one daemon and the assertions come after the timers have had their chance.

const AFTER = 5;

describe('follow-ups', () => {
  let n: Running;
  let server: Awaited<ReturnType<typeof callbackServer>>;
  let refusing: Awaited<ReturnType<typeof callbackServer>>;
  let out: string;
  const sentAt = new Map<string, number>();

  beforeAll(async () => {
    server = await callbackServer();
    refusing = await callbackServer(() => 404);
    out = await tempFolder('notifier-follow-');
    const supportDir = await tempFolder('notifier-follow-support-');
    await writeSupportFile(supportDir, 'manifests/fromManifest.json', {
      app: 'fromManifest',
      actions: [{ id: 'page', label: 'Page on-call', kind: 'callback', callback: { url: server.url('/manifest') } }],
      followUp: { after: AFTER, actionRef: 'page' },
    });
    n = await startInProcess({ supportDir });
    await n.api('POST', '/v1/register', { body: { app: 'asker', allowCommands: true } });

    const page = { label: 'Page', callback: { url: server.url('/page'), payload: { level: 2 } } };
    const followUp = { after: AFTER, actionRef: 'page' };
    const send = async (id: string, extra: Record<string, unknown> = {}, app = 'fu') => {
      sentAt.set(id, Date.now());
      expect(
        (await n.notify({ app, id, title: id, buttons: [page, { label: 'Got it' }, { label: 'Answer', reply: {} }], followUp, ...extra }))
          .status,
      ).toBe(200);
    };
    await send('fires');
    await send('refused-callback', {
      followUp: { after: AFTER, action: { label: 'Page', kind: 'callback', callback: { url: refusing.url() } } },
    });
    await send('dismissed');
    await send('pressed');
    await send('replied');
    await send('clicked');
    await send('snoozed');
    await send('short', { timeout: 3 });
    await send('off', { followUp: { enabled: false } });
    await send(
      'waits',
      { followUp: { after: AFTER, action: { label: 'Touch', kind: 'command', command: `touch ${out}/approved` } } },
      'asker',
    );
    await send(
      'refused',
      { followUp: { after: AFTER, action: { label: 'Touch', kind: 'command', command: `touch ${out}/never` } } },
      'stranger',
    );
    await n.notify({ app: 'fromManifest', id: 'manifest', title: 't' });
    await n.notify({ app: 'fromManifest', id: 'own', title: 't', buttons: [page], followUp });

    await new Promise((resolve) => setTimeout(resolve, 1000));
    await n.api('POST', '/v1/dismiss', { body: { app: 'fu', id: 'dismissed' } });
    n.person.press('fu', 'pressed', 'got-it');
    n.person.reply('fu', 'replied', 'answer', 'seen it');
    n.person.click('fu', 'clicked');
    await n.api('POST', '/v1/snooze', { body: { app: 'fu', id: 'snoozed', minutes: 0.05 } }); // back after 3 s
    // Wait past every first firing (5 s after sending), and past the snoozed one's second chance (4 s + 5 s).
    await new Promise((resolve) => setTimeout(resolve, 9_600));
  }, 30_000);

  const calls = (id: string) => server.received.filter((call) => call.body?.notificationId === id);

  test('unattended for `after`: the callback is sent once with event unattended, and History records it', async () => {
    expect(calls('fires')).toHaveLength(1);
    const [call] = calls('fires');
    expect(call!.body).toEqual({
      notificationId: 'fires',
      app: 'fu',
      action: 'Page',
      payload: { level: 2 },
      event: 'unattended',
      unattendedSeconds: AFTER,
    });
    expect(call!.at - sentAt.get('fires')!).toBeGreaterThanOrEqual(AFTER * 1000 - 50);
    const record = await n.record('fu', 'fires');
    expect(record.followUp).toEqual({
      ranAt: expect.any(String),
      action: 'Page',
      actionId: 'page',
      kind: 'callback',
      outcome: 'ran',
      unattendedSeconds: AFTER,
    });
    // docs/api/replies.md#r11: the 2xx closes the banner, with the action's label as actionUsed.
    expect(record).toMatchObject({ dismissedAt: expect.any(String), actionUsed: 'Page' });
    expect(n.person.banner('fu', 'fires')).toBeUndefined();
  });

  test('a callback follow-up that is not answered with a 2xx leaves the banner up', async () => {
    expect(refusing.received.map((call) => call.body.notificationId)).toEqual(['refused-callback']);
    const record = await n.record('fu', 'refused-callback');
    expect(record.followUp).toMatchObject({ outcome: 'failed', detail: 'HTTP 404' });
    expect(record.dismissedAt).toBeUndefined();
    expect(n.person.banner('fu', 'refused-callback')).toBeDefined();
  });

  test.each(['dismissed', 'pressed', 'replied', 'clicked'])('%s before `after`: cancelled, nothing sent', async (id) => {
    expect(calls(id)).toEqual([]);
    expect((await n.record('fu', id)).followUp).toBeUndefined();
  });

  test('a snooze restarts the timer when the banner returns', async () => {
    expect(calls('snoozed')).toHaveLength(1);
    expect(calls('snoozed')[0]!.at - sentAt.get('snoozed')!).toBeGreaterThan(8_500);
  });

  test('N26: when the banner closes before `after`, the follow-up never runs', async () => {
    expect(calls('short')).toEqual([]);
    expect(await n.record('fu', 'short')).toMatchObject({ actionUsed: 'timeout' });
  });

  test('enabled: false switches it off', async () => {
    expect(calls('off')).toEqual([]);
  });

  test("N22: the notification's follow-up comes before the manifest's, which applies when it has none", async () => {
    expect(server.received.filter((call) => call.path === '/manifest').map((call) => call.body.notificationId)).toEqual(['manifest']);
    expect(calls('own').map((call) => call.path)).toEqual(['/page']);
  });

  test('code waiting for approval is recorded as waitingForApproval, and runs once the person allows it', async () => {
    expect((await n.record('asker', 'waits')).followUp).toMatchObject({
      outcome: 'waitingForApproval',
      kind: 'command',
      action: 'Touch',
      actionId: 'touch',
    });
    expect(await exists(`${out}/approved`)).toBe(false);
    expect((await channel(n.daemon.channelPath, { op: 'questions' })).questions).toEqual([
      expect.objectContaining({ app: 'asker', kind: 'commands' }),
    ]);
    await answerQuestion(n, 'asker', true);
    await eventually(async () => (await n.record('asker', 'waits')).followUp.outcome === 'ran', 'the follow-up to run');
    expect(await exists(`${out}/approved`)).toBe(true);
    const log = await readFile(path.join(n.daemon.supportDir, 'logs', 'actions.log'), 'utf8');
    expect(log).toMatch(/\[asker\] waits command "Touch" \(follow-up\): ran/);
  });

  test('N25: a follow-up cannot run code the app may not run', async () => {
    expect((await n.record('stranger', 'refused')).followUp).toMatchObject({
      outcome: 'failed',
      detail: 'stranger is not allowed to run commands, scripts and shortcuts',
    });
    expect(await exists(`${out}/never`)).toBe(false);
    // N48: the person sees it, on the banner still up or on a short banner of its own.
    const shown = n.person.calls.filter((call) => call.key.app === 'stranger' && call.banner?.problem !== undefined);
    expect(shown.map((call) => call.banner!.problem)).toEqual([
      'Follow-up Touch did not work: stranger is not allowed to run commands, scripts and shortcuts',
    ]);
  });
});

describe('N27: a follow-up timer is lost when the daemon stops', () => {
  test('a banner restored after a restart, and one a snooze brings back after it, run no follow-up', async () => {
    const server = await callbackServer();
    const supportDir = await tempFolder('notifier-follow-restart-');
    const followUp = { after: AFTER, actionRef: 'page' };
    const buttons = [{ label: 'Page', callback: { url: server.url('/page') } }];
    const before = await startInProcess({ supportDir });
    await before.notify({ app: 'fu', id: 'restored', title: 'restored', persistent: true, buttons, followUp });
    await before.notify({ app: 'fu', id: 'snoozed', title: 'snoozed', persistent: true, buttons, followUp });
    await before.api('POST', '/v1/snooze', { body: { app: 'fu', id: 'snoozed', minutes: 0.05 } }); // back 3 s later
    await before.stop();

    const after = await startInProcess({ supportDir });
    await eventually(() => after.person.banner('fu', 'restored'), 'the restored banner');
    await eventually(() => after.person.banner('fu', 'snoozed'), 'the snoozed banner to come back', 8_000);
    await new Promise((resolve) => setTimeout(resolve, AFTER * 1000 + 1_500));
    expect(server.received).toEqual([]);
    expect((await after.record('fu', 'restored')).followUp).toBeUndefined();
    expect((await after.record('fu', 'snoozed')).followUp).toBeUndefined();
  }, 30_000);
});
