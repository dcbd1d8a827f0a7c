import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { type DaemonProcess, startDaemon, tempFolder } from './helpers/daemon.js';
import { type Desktop, startDesktop } from './helpers/desktop.js';
import { eventually } from './helpers/in-process.js';
import { type TrayOnBus, trayOnBus } from './helpers/tray.js';
import { TRAY_ICON_PNG_BASE64 } from '../tray/icon.js';

// The tray as a panel sees it: the built daemon starts its tray companion on a real X display (Xvfb) with a
// private session bus; the test reads the StatusNotifierItem's properties and the dbusmenu layout over D-Bus and
// clicks items as a panel would. "Open the support folder" runs whatever `xdg-open` is on PATH: here a stand-in
// that writes down its argument.

describe('the tray on the bus', () => {
  let desktop: Desktop;
  let folder: string;
  let daemon: DaemonProcess;
  let tray: TrayOnBus;
  const opened = () => readFile(path.join(folder, 'opened.txt'), 'utf8').catch(() => '');

  /** Starts a daemon (headless banners, so the menu is the only thing shown) whose tray runs with `PATH`. */
  const start = async (PATH: string) => {
    const started = await startDaemon({ env: { ...desktop.env, PATH } });
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
    folder = await tempFolder('notifier-tray-');
    await mkdir(path.join(folder, 'bin'));
    const standIn = path.join(folder, 'bin', 'xdg-open');
    await writeFile(standIn, `#!/bin/sh\nprintf '%s\\n' "$1" >> "${folder}/opened.txt"\n`);
    await chmod(standIn, 0o755);
    daemon = await start(`${path.join(folder, 'bin')}${path.delimiter}${process.env.PATH}`);
    tray = await trayOnBus(desktop, daemon.child.pid!);
  }, 40_000);

  afterAll(async () => {
    tray?.close();
    await daemon?.stop();
    if (daemon) await rm(daemon.supportDir, { recursive: true, force: true });
    await desktop?.stop();
    await rm(folder, { recursive: true, force: true });
  });

  test('the item is titled Notifier and has an icon', async () => {
    const item = await tray.item();
    expect(item).toMatchObject({ Title: 'Notifier', Status: 'Active', Category: 'ApplicationStatus' });
    // The binary writes the icon to a file and names it; the id is fixed inside the binary (docs/desktop.md).
    expect(await readFile(item.IconName as string)).toEqual(Buffer.from(TRAY_ICON_PNG_BASE64, 'base64'));
    expect(item.Id).toBe('systray');
  });

  test("recent notifications show the app's display name", async () => {
    await daemon.api('POST', '/v1/register', { body: { app: 'backup', appName: 'Backup' } });
    await daemon.api('POST', '/v1/notify', { body: { app: 'backup', title: 'Nightly backup done' } });
    await daemon.api('POST', '/v1/notify', { body: { app: 'no-name', title: 'From an unregistered app' } });
    expect(await label('Backup: Nightly backup done')).toMatchObject({ visible: true, enabled: false });
    expect(await label('no-name: From an unregistered app')).toMatchObject({ visible: true });
    expect((await tray.entries()).some((entry) => entry.label.startsWith('backup:'))).toBe(false);
  });

  test('the quiet hour: its label says whether it runs, and a second click ends it', async () => {
    const quiet = await label('Quiet for an hour');
    expect((await tray.entries()).some((entry) => entry.label.includes('(√)'))).toBe(false);
    await tray.click(quiet.id);
    const running = await label(/^Quiet until \d{1,2}:\d\d( [AP]M)? \(click to end it\)$/);
    expect(running.id).toBe(quiet.id);
    const { json } = await daemon.api('GET', '/v1/settings/quiet-hours');
    expect(Date.parse(json.adHoc.until) - Date.now()).toBeGreaterThan(59 * 60_000);
    await tray.click(quiet.id);
    await label('Quiet for an hour');
    expect((await daemon.api('GET', '/v1/settings/quiet-hours')).json.adHoc).toBeUndefined();
  });

  test('"Open the support folder" hands the folder to xdg-open', async () => {
    const open = await label('Open the support folder');
    expect(open.visible).toBe(true);
    await tray.click(open.id);
    const line = await eventually(async () => (await opened()).trim() || undefined, 'xdg-open to run');
    expect(line).toBe(pathToFileURL(daemon.supportDir).href);
  });

  test('without xdg-open on PATH, "Open the support folder" is not shown', async () => {
    tray.close();
    await daemon.stop();
    await rm(daemon.supportDir, { recursive: true, force: true });
    daemon = await start(path.join(folder, 'empty')); // a PATH with nothing on it
    tray = await trayOnBus(desktop, daemon.child.pid!);
    expect(await label('Open the support folder')).toMatchObject({ visible: false });
    expect(await label('Quit Notifier')).toMatchObject({ visible: true });
  }, 30_000);
});
