import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { type DaemonProcess, ROOT, startDaemon, tempFolder } from '../helpers/daemon.js';
import { type Desktop, displayed, dunstHistory, startDesktop, watchNotify } from '../helpers/desktop.js';
import { callbackServer, eventually } from '../helpers/in-process.js';

// dunst as a person has it: a dunstrc naming the menu program it opens (`dmenu`), which may not be installed, and
// dunst restarted after the dunstrc changed. The real dunst on Xvfb; its menu program is looked up on dunst's own
// PATH, which here holds nothing.

const MENU_WARNING = "dunst's menu program dmenu is not installed";

describe('the daemon and the dunst it shows banners on', () => {
  let desktop: Desktop;
  let daemon: DaemonProcess;
  let emptyBin: string;

  beforeAll(async () => {
    emptyBin = await tempFolder('notifier-empty-bin-');
    // dunst's shipped setting names dmenu by path; this one lets dunst look it up on its PATH, which lacks it.
    desktop = await startDesktop({ dunst: { settings: { dmenu: 'dmenu -p dunst:', markup: 'no' }, env: { PATH: emptyBin } } });
    daemon = await startDaemon({ env: desktop.env, presenter: 'dbus', tray: false });
  }, 30_000);

  afterAll(async () => {
    await daemon?.stop();
    await desktop?.stop();
    if (daemon) await rm(daemon.supportDir, { recursive: true, force: true });
    await rm(emptyBin, { recursive: true, force: true });
  });

  const record = async (app: string, id: string) =>
    (await daemon.api('GET', `/v1/history?app=${app}&limit=50`)).json.items.find((item: { id: string }) => item.id === id);

  test("when dunst's menu program is missing, the daemon says so at start: one line in its log, one banner", async () => {
    await eventually(() => daemon.log().includes(MENU_WARNING), 'the log line');
    expect(daemon.log()).toContain('sudo apt-get install suckless-tools');
    await eventually(async () => (await displayed(desktop)) === 1, 'the banner');
    await desktop.dunstctl('close-all');
    const [shown] = await dunstHistory(desktop);
    expect(shown).toMatchObject({ appname: 'Notifier', summary: 'Buttons on banners cannot be pressed' });
    expect(shown!.body).toContain('dunst shows buttons in a menu it opens with dmenu, which is not installed');
    expect(shown!.body).toContain('sudo apt-get install suckless-tools');
    expect(daemon.log().split(MENU_WARNING)).toHaveLength(2);
  });

  test('after dunst restarts with body markup and a menu program, links reach it as markup and its buttons work', async () => {
    const body = '**Acme** daily: [Join call](https://meet.example/abc)';
    await daemon.api('POST', '/v1/notify', { body: { app: 'meet', id: 'before', title: 'Before', body } });
    await eventually(async () => (await displayed(desktop)) === 1);
    await desktop.dunstctl('close-all');
    expect((await dunstHistory(desktop))[0]).toMatchObject({ summary: 'Before', body: 'Acme daily: Join call' });

    await desktop.restartDunst(); // the rig's own dunstrc: markup = full, its menu program there
    await eventually(() => daemon.log().includes('notification server dunst took over'), 'the daemon to notice');
    await daemon.api('POST', '/v1/notify', { body: { app: 'meet', id: 'after', title: 'After', body } });
    await eventually(async () => (await displayed(desktop)) === 1);
    await desktop.dunstctl('close-all');
    expect((await dunstHistory(desktop))[0]).toMatchObject({
      summary: 'After',
      body: '<b>Acme</b> daily: <a href="https://meet.example/abc">Join call</a>',
    });

    // The new dunst's answers are heard, and its menu program is there: no second warning.
    const server = await callbackServer();
    await daemon.api('POST', '/v1/notify', {
      body: { app: 'deploys', id: 'd', title: 'Deploy?', buttons: [{ label: 'Approve', callback: { url: server.url('/approve') } }] },
    });
    await eventually(async () => (await displayed(desktop)) === 1);
    await desktop.choose('Approve (Deploy?)');
    await eventually(async () => (await record('deploys', 'd'))?.actionUsed === 'Approve', 'the button to work');
    expect(server.received).toHaveLength(1);
    expect(daemon.log().split(MENU_WARNING)).toHaveLength(2);
  }, 30_000);

  test("the card goes where dunst shows it whole: not as a thumbnail at dunst's max_icon_size, but once it is raised", async () => {
    const watch = await watchNotify(desktop);
    await daemon.api('PUT', '/v1/settings', { body: { bannerCardImage: true } });
    const image = path.join(ROOT, 'fixtures', 'images', 'sample.png');
    const picture = async (id: string) => {
      await daemon.api('POST', '/v1/notify', { body: { app: 'cards', id, title: `Card ${id}`, image } });
      return (await eventually(() => watch.sent.find((call) => call.summary === `Card ${id}`), `Card ${id}`)).hints['image-path'];
    };
    // The rig's dunst keeps dunst's default, pictures at most 128 pixels: the notification's own picture.
    expect(await picture('small')).toMatch(new RegExp(`^${daemon.supportDir}/images/`));
    const restarts = () => daemon.log().split('notification server dunst took over').length;
    const before = restarts();
    await desktop.restartDunst({ settings: { max_icon_size: '400' } });
    await eventually(() => restarts() > before, 'the daemon to notice');
    expect(await picture('whole')).toMatch(new RegExp(`^${daemon.supportDir}/cards/cards/[0-9a-f]{32}\\.png$`));
    watch.stop();
  }, 30_000);
});
