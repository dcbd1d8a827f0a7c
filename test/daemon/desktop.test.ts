import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from '@jest/globals';
import { startDaemon, tempFolder, tempFolderSync } from '../helpers/daemon.js';
import { displayed as displayedOn, typeInto, useDesktopDaemon } from '../helpers/desktop.js';
import { channelPath } from '../../daemon/control/channel.js';
import { callbackServer, channel, eventually } from '../helpers/in-process.js';
import { trayOnBus } from '../helpers/tray.js';
import { exists } from '../helpers/support.js';

// End to end on a real desktop: Xvfb, a private session bus and dunst. The daemon is the built `notifier daemon`
// with the D-Bus presenter and its tray; the person acts through dunst's own controls (dunstctl, its context
// menu), a real reply window typed into with xdotool, and the tray's menu clicked over D-Bus.

describe('the real desktop', () => {
  const out = tempFolderSync('notifier-desktop-out-');
  const { desktop, daemon } = useDesktopDaemon(async (desktop) => {
    const supportDir = await tempFolder();
    const scripts = path.join(supportDir, 'scripts');
    await mkdir(scripts, { recursive: true });
    await writeFile(path.join(scripts, 'touch.sh'), `#!/bin/sh\ntouch "${out}/ran-$NOTIFIER_NOTIFICATION_ID"\n`);
    // Links go to a stand-in xdg-open that writes them down (no browser starts on the test's screen).
    await mkdir(path.join(out, 'bin'));
    await writeFile(path.join(out, 'bin', 'xdg-open'), `#!/bin/sh\nprintf '%s\\n' "$1" >> "${out}/opened.txt"\n`, { mode: 0o755 });
    const started = await startDaemon({
      supportDir,
      env: { ...desktop.env, PATH: `${path.join(out, 'bin')}${path.delimiter}${process.env.PATH}` },
      presenter: 'dbus',
    });
    await eventually(() => started.log().includes('tray: tray ready'), 'the tray');
    return started;
  });

  const notify = (body: Record<string, unknown>) => daemon().api('POST', '/v1/notify', { body });
  const record = async (app: string, id: string) =>
    (await daemon().api('GET', `/v1/history?app=${app}&limit=100`)).json.items.find((item: { id: string }) => item.id === id);
  const displayed = () => displayedOn(desktop());
  const choose = (text: string) => desktop().choose(text);

  test('a notification with two buttons reaches dunst; the one chosen there posts the callback and History says so', async () => {
    const server = await callbackServer();
    await desktop().dunstctl('close-all');
    await notify({
      app: 'deploys',
      id: 'd1',
      title: 'Deploy to production?',
      buttons: [{ label: 'Approve', callback: { url: server.url('/approve') } }, { label: 'Later' }],
    });
    await eventually(async () => (await displayed()) === 1, 'the banner in dunst');
    await choose('Approve (Deploy to production?)');
    await eventually(() => server.received.length > 0, 'the callback');
    const menu = await desktop().lastMenu();
    expect(menu).toMatch(/^#Approve \(Deploy to production\?\) \[\d+,approve\]$/m);
    expect(menu).toMatch(/^#Later \(Deploy to production\?\) \[\d+,later\]$/m);
    expect(server.received[0]!.body).toEqual({ notificationId: 'd1', app: 'deploys', action: 'Approve' });
    await eventually(async () => (await record('deploys', 'd1')).actionUsed === 'Approve', 'History');
    await eventually(async () => (await displayed()) === 0, 'the banner to go');
  });

  test('dismissing through the API removes the banner from dunst', async () => {
    await notify({ app: 'dismiss', id: 'x', title: 'Going away' });
    await eventually(async () => (await displayed()) === 1);
    await daemon().api('POST', '/v1/dismiss', { body: { app: 'dismiss', id: 'x' } });
    await eventually(async () => (await displayed()) === 0, 'dunst to close it');
    expect((await record('dismiss', 'x')).actionUsed).toBe('dismiss');
  });

  test('a reused id replaces the banner in place: no second banner', async () => {
    await notify({ app: 'reuse', id: 'build', title: 'Build running', buttons: [{ label: 'Details' }] });
    await eventually(async () => (await displayed()) === 1);
    await notify({ app: 'reuse', id: 'build', title: 'Build passed', buttons: [{ label: 'Details' }] });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await displayed()).toBe(1);
    await choose('Details (Build passed)');
    await eventually(async () => (await record('reuse', 'build')).actionUsed === 'Details');
    expect(await desktop().lastMenu()).not.toContain('Build running');
  });

  test('a click on a banner with a link records open; a banner whose time is up records timeout', async () => {
    await desktop().dunstctl('close-all');
    await notify({ app: 'clicks', id: 'c', title: 'Click me', url: 'https://docs.example/clicked' });
    await eventually(async () => (await displayed()) === 1);
    await desktop().dunstctl('action', '0');
    await eventually(async () => (await record('clicks', 'c')).actionUsed === 'open', 'the click');
    expect(await readFile(path.join(out, 'opened.txt'), 'utf8')).toBe('https://docs.example/clicked\n');
    await notify({ app: 'clicks', id: 't', title: 'Short-lived', timeout: 1 });
    await eventually(async () => (await record('clicks', 't')).actionUsed === 'timeout', 'the expiry', 8_000);
  });

  test('a reply typed into the reply window with xdotool lands in the reply queue', async () => {
    await desktop().dunstctl('close-all');
    await notify({
      app: 'questions',
      id: 'q',
      title: 'Ship it today?',
      buttons: [{ label: 'Reply', reply: { placeholder: 'yes or no' } }],
    });
    await eventually(async () => (await displayed()) === 1);
    await choose('Reply (Ship it today?)');
    await typeInto(desktop(), 'questions', 'Yes, after lunch');
    const replies = await eventually(
      async () => {
        const { json } = await daemon().api('GET', '/v1/replies?app=questions');
        return json.count > 0 && json.replies;
      },
      'the reply',
      15_000,
    );
    expect(replies[0]).toMatchObject({ notificationId: 'q', text: 'Yes, after lunch' });
  }, 30_000);

  /** Chooses, in dunst, the touch.sh button of a new banner of an app that may ask to run commands: the daemon asks first. */
  async function chooseScriptButton(sent: { app: string; appName: string; id: string; title: string; label: string }): Promise<void> {
    await desktop().dunstctl('close-all');
    await daemon().api('POST', '/v1/register', { body: { app: sent.app, appName: sent.appName, allowCommands: true } });
    await notify({ app: sent.app, id: sent.id, title: sent.title, buttons: [{ label: sent.label, script: 'touch.sh' }] });
    await eventually(async () => (await displayed()) === 1);
    await choose(`${sent.label} (${sent.title})`);
  }

  test("the tray's Allow, clicked over dbusmenu, lets a waiting script run", async () => {
    await chooseScriptButton({ app: 'runner', appName: 'Runner', id: 'job1', title: 'Nightly job', label: 'Run now' });
    const menu = await trayOnBus(desktop(), daemon().child.pid!);
    const allow = await eventually(
      async () => (await menu.entries()).find((item) => item.label.startsWith('Allow: Let Runner run commands')),
      'the question in the tray',
    );
    expect(await exists(`${out}/ran-job1`)).toBe(false); // nothing ran before the person allowed it
    // The icon asks for attention while the question waits, and its tooltip says so.
    expect(await menu.item()).toMatchObject({
      Status: 'NeedsAttention',
      // (and, under it, how many notifications are unread: the earlier tests' that the person did not act on)
      ToolTip: ['', [], 'Notifier', expect.stringMatching(/^1 question waits for your approval\n\d+ unread notifications?$/)],
    });
    expect((await menu.item()).AttentionIconPixmap).toHaveLength(1); // the icon with an orange dot
    await menu.click(allow.id);
    await eventually(() => exists(`${out}/ran-job1`), 'the script to run');
    const calm = await eventually(async () => {
      const item = await menu.item();
      return item.Status === 'Active' ? item : undefined;
    }, 'the icon to be calm again');
    expect(calm.AttentionIconPixmap).toEqual([]); // a panel that keeps the last attention icon drops it
    await eventually(async () => (await record('runner', 'job1')).actionUsed === 'Run now');
    menu.close();
  });

  test("the approval banner's own Allow (in dunst) works too", async () => {
    await chooseScriptButton({ app: 'runner2', appName: 'Second runner', id: 'job2', title: 'Weekly job', label: 'Go' });
    await eventually(
      async () =>
        (await channel(channelPath(daemon().supportDir), { op: 'questions' })).questions.some((q: { app: string }) => q.app === 'runner2'),
      'the question',
    );
    await eventually(async () => (await displayed()) >= 2, 'the question banner');
    await choose('Allow (Let Second runner run commands');
    await eventually(() => exists(`${out}/ran-job2`), 'the script to run');
  });
});
