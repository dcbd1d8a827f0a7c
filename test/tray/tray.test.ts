import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { type DaemonProcess, startDaemon, tempFolder } from '../helpers/daemon.js';
import { type Desktop, startDesktop } from '../helpers/desktop.js';
import { eventually } from '../helpers/in-process.js';
import { startWatcher, type TrayOnBus, trayOnBus } from '../helpers/tray.js';

// The tray as a panel sees it: the built daemon starts its tray companion on a real X display (Xvfb) with a
// private session bus, where a StatusNotifierWatcher (a panel's) runs; the test reads the StatusNotifierItem's
// properties and the dbusmenu layout over D-Bus and clicks items as a panel would. "Open the support folder" runs
// whatever `xdg-open` is on PATH: here a stand-in that writes down its argument.

describe('the tray on the bus', () => {
  let desktop: Desktop;
  let folder: string;
  let daemon: DaemonProcess;
  let tray: TrayOnBus;
  let watcher: Awaited<ReturnType<typeof startWatcher>>;
  const opened = () => readFile(path.join(folder, 'opened.txt'), 'utf8').catch(() => '');
  const windows = async () => (await readFile(path.join(folder, 'windows.txt'), 'utf8').catch(() => '')).split('\n').filter(Boolean);

  /** Starts a daemon (headless banners, so the menu is the only thing shown) whose tray runs with `PATH`. */
  const start = async (PATH: string, supportDir?: string) => {
    const started = await startDaemon({ env: { ...desktop.env, PATH }, ...(supportDir ? { supportDir } : {}) });
    await eventually(() => started.log().includes('tray: tray ready'), 'the tray', 15_000);
    return started;
  };
  const label = async (text: string | RegExp) =>
    eventually(
      async () => (await tray.entries()).find((entry) => (typeof text === 'string' ? entry.label === text : text.test(entry.label))),
      `the menu entry ${text}`,
    );

  beforeAll(async () => {
    desktop = await startDesktop();
    watcher = await startWatcher(desktop);
    folder = await tempFolder('notifier-tray-');
    await mkdir(path.join(folder, 'bin'));
    const standIn = path.join(folder, 'bin', 'xdg-open');
    await writeFile(standIn, `#!/bin/sh\nprintf '%s\\n' "$1" >> "${folder}/opened.txt"\n`);
    await chmod(standIn, 0o755);
    // The browser the person's app opens in (chromium comes first): a stand-in too.
    const browser = path.join(folder, 'bin', 'chromium');
    await writeFile(browser, `#!/bin/sh\nprintf '%s\\n' "$1" >> "${folder}/windows.txt"\n`);
    await chmod(browser, 0o755);
    daemon = await start(`${path.join(folder, 'bin')}${path.delimiter}${process.env.PATH}`);
    tray = await trayOnBus(desktop, daemon.child.pid!);
  }, 40_000);

  afterAll(async () => {
    tray?.close();
    watcher?.stop();
    await daemon?.stop();
    if (daemon) await rm(daemon.supportDir, { recursive: true, force: true });
    await desktop?.stop();
    await rm(folder, { recursive: true, force: true });
  });

  test('the item: id notifier, titled Notifier, a tooltip naming it, and the icon as ARGB pixels', async () => {
    const item = await tray.item();
    expect(item).toMatchObject({ Id: 'notifier', Title: 'Notifier', Status: 'Active', Category: 'ApplicationStatus', ItemIsMenu: true });
    const [, , title, summary] = item.ToolTip;
    expect({ title, summary }).toEqual({ title: 'Notifier', summary: '' });
    const [[width, height, argb]] = item.IconPixmap;
    expect([width, height, argb.length]).toEqual([32, 32, 32 * 32 * 4]);
    // Network byte order, alpha first: a corner of the rounded square is clear, the middle of its left edge is
    // opaque blue.
    expect(argb[0]).toBe(0);
    const left = (16 * 32 + 3) * 4;
    expect(argb[left]).toBe(255);
    expect(argb[left + 3]).toBeGreaterThan(argb[left + 1] + 60);
  });

  test("it registers with the panel's watcher, and again with a watcher that starts later", async () => {
    expect(watcher.registered).toContain(tray.busName);
    watcher.stop();
    watcher = await startWatcher(desktop); // a panel restarted
    await eventually(() => watcher.registered.includes(tray.busName), 'the tray to register again');
  });

  test("recent notifications show the app's display name", async () => {
    await daemon.api('POST', '/v1/register', { body: { app: 'backup', appName: 'Backup' } });
    await daemon.api('POST', '/v1/notify', { body: { app: 'backup', title: 'Nightly backup done' } });
    await daemon.api('POST', '/v1/notify', { body: { app: 'no-name', title: 'From an unregistered app' } });
    await daemon.api('POST', '/v1/notify', { body: { app: 'no-name', title: 'disk_usage at 91%' } });
    expect(await label('Backup: Nightly backup done')).toMatchObject({ visible: true, enabled: true });
    expect(await label('no-name: From an unregistered app')).toMatchObject({ visible: true });
    expect(await label('no-name: disk_usage at 91%')).toMatchObject({ visible: true }); // not taken for an access key
    expect((await tray.entries()).some((entry) => entry.label.startsWith('backup:'))).toBe(false);
  });

  test('the unread count is in the tooltip and on Open Notifier', async () => {
    expect(await label('Open Notifier (3 unread notifications)')).toMatchObject({ visible: true, enabled: true });
    await eventually(async () => ((await tray.item()).ToolTip[3] as string).includes('3 unread notifications'), 'the tooltip');
  });

  test("Open Notifier and an item for each page (History…, Compose…, Approvals…, Settings…, Designer…, Relay…) open the person's app, signed in, at their page", async () => {
    for (const [item, page] of [
      ['Compose…', 'compose'],
      ['Approvals…', 'approvals'],
      ['Settings…', 'settings'],
      ['Designer…', 'designer'],
      ['Relay…', 'relay'],
      ['History…', 'history'],
      [/^Open Notifier/, 'history'],
    ] as const) {
      const before = (await windows()).length;
      await tray.click((await label(item)).id);
      const argument = await eventually(async () => (await windows())[before], `the window of ${item}`);
      expect(argument).toMatch(/^--app=file:\/\/.*\/signin-[A-Za-z0-9_-]+\.html$/);
      const file = new URL(argument.slice('--app='.length)).pathname;
      const link = /url=([^"]+)"/.exec(await readFile(file, 'utf8'))![1]!;
      const signedIn = await daemon.api('GET', new URL(link).pathname + new URL(link).search, { token: null });
      expect([item, signedIn.status]).toEqual([item, 200]);
      expect(signedIn.text).toContain(`url=/app/${page}`);
    }
  });

  test('a click on a recent notification shows it again; deleted, or History cleared, it leaves the list at once', async () => {
    const record = async (id: string) =>
      (await daemon.api('GET', '/v1/history?app=backup&limit=50')).json.items.find((item: { id: string }) => item.id === id);
    await daemon.api('POST', '/v1/notify', { body: { app: 'backup', id: 'again', title: 'Disk almost full' } });
    await daemon.api('POST', '/v1/dismiss', { body: { app: 'backup', id: 'again' } });
    expect((await record('again')).actionUsed).toBe('dismiss');
    const item = await label('Backup: Disk almost full');
    expect(item).toMatchObject({ visible: true, enabled: true });
    await tray.click(item.id);
    // As POST /v1/history/reshow: on screen again, not dismissed, delivered anew.
    await eventually(async () => (await record('again')).dismissedAt === undefined, 'it to be shown again');

    await daemon.api('DELETE', '/v1/history/item?app=backup&id=again');
    const listed = async (text: string) => (await tray.entries()).some((entry) => entry.visible && entry.label === text);
    await eventually(async () => !(await listed('Backup: Disk almost full')), 'the deleted one to leave the list');
    expect(await listed('Backup: Nightly backup done')).toBe(true);
    await daemon.api('DELETE', '/v1/history');
    await eventually(() => listed('No notifications yet'), 'the list to empty');
    expect(await listed('Backup: Nightly backup done')).toBe(false);
  });

  test('quiet is a check item: a click starts an hour and checks it, a second click ends it', async () => {
    const quiet = await label('Quiet for an hour');
    expect(quiet).toMatchObject({ toggleType: 'checkmark', toggleState: 0 });
    const updates = tray.signals.updated.length;
    await tray.click(quiet.id);
    const running = await label(/^Quiet until /);
    expect(running).toMatchObject({ id: quiet.id, toggleType: 'checkmark', toggleState: 1 });
    const { json } = await daemon.api('GET', '/v1/settings/quiet-hours');
    expect(Date.parse(json.adHoc.until) - Date.now()).toBeGreaterThan(59 * 60_000);
    expect(tray.signals.updated.slice(updates).flat()).toContain(quiet.id); // panels are told (ItemsPropertiesUpdated)
    expect((await tray.item()).ToolTip[3]).toMatch(/^Quiet until /);
    await tray.click(quiet.id);
    expect(await label('Quiet for an hour')).toMatchObject({ toggleState: 0 });
    expect((await daemon.api('GET', '/v1/settings/quiet-hours')).json.adHoc).toBeUndefined();
  });

  test('quiet started and ended through the API shows in the check item', async () => {
    await daemon.api('PUT', '/v1/settings/quiet-hours', { body: { adHoc: { minutes: 30 } } });
    expect(await label(/^Quiet until /)).toMatchObject({ toggleState: 1 });
    await daemon.api('PUT', '/v1/settings/quiet-hours', { body: { resume: true } });
    expect(await label('Quiet for an hour')).toMatchObject({ toggleState: 0 });
  });

  test('"Open the support folder" hands the folder to xdg-open', async () => {
    const open = await label('Open the support folder');
    expect(open.visible).toBe(true);
    await tray.click(open.id);
    const line = await eventually(async () => (await opened()).trim() || undefined, 'xdg-open to run');
    expect(line).toBe(pathToFileURL(daemon.supportDir).href);
  });

  /** Stops the daemon and its tray, and starts another (its tray found on the bus) with `PATH` and `supportDir`. */
  const restart = async (PATH: string, supportDir?: string) => {
    tray.close();
    await daemon.stop();
    await rm(daemon.supportDir, { recursive: true, force: true });
    daemon = await start(PATH, supportDir);
    tray = await trayOnBus(desktop, daemon.child.pid!);
  };

  test('a quiet period that runs when the tray starts is checked from the start', async () => {
    const supportDir = await tempFolder();
    const until = new Date(Date.now() + 45 * 60_000).toISOString();
    await writeFile(
      path.join(supportDir, 'quiet-hours.json'),
      JSON.stringify({ windows: [], adHoc: { until, speech: true, sounds: true, banners: false } }),
    );
    await restart(process.env.PATH!, supportDir);
    // No change comes after the tray's start: what it shows, it read then.
    expect((await tray.entries()).find((entry) => entry.toggleType === 'checkmark')).toMatchObject({
      label: expect.stringMatching(/^Quiet until /),
      toggleState: 1,
    });
  }, 30_000);

  test('without xdg-open on PATH, "Open the support folder" is not shown', async () => {
    await restart(path.join(folder, 'empty')); // a PATH with nothing on it
    expect(await label('Open the support folder')).toMatchObject({ visible: false });
    expect(await label('Quit Notifier')).toMatchObject({ visible: true });
  }, 30_000);
});
