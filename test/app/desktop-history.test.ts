// Other programs' notifications in the person's window (docs/app.md#settings, #history), in headless Chromium
// against the built daemon watching a real desktop: Xvfb, a private session bus and dunst, with other programs'
// notifications sent by the real notify-send. History's first-run view offers to keep them; the Settings switch,
// found by its name, turns it off and on; a program's notification shows under "From other programs", read-only
// in its details (who sent it, its buttons' labels as text, the button chosen on dunst, how its banner ended);
// "Titles only" changes what the next one keeps; a password manager is listed as left out by default; axe finds
// nothing serious on Settings and on the details, light and dark.

import { execFile } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import { axeViolations, openAppTab, startBrowser, startWebApp } from '../helpers/app-pages.js';
import type { AppDaemon, AppSession } from '../helpers/app.js';
import { waitFor } from '../helpers/daemon.js';
import { type Desktop, startDesktop } from '../helpers/desktop.js';

const EVOLUTION = 'desktop.org.gnome.evolution';
const SWITCH = 'Keep every desktop notification in History';

let desktop: Desktop;
let daemon: AppDaemon;
let session: AppSession;
let browser: Browser;
let page: Page;
let problems: string[];

/**
 * notify-send as another program sends it. With buttons (-A) it waits until one is chosen or the banner closes, as
 * the program would: the test does not wait for it.
 */
function notifySend(...args: string[]): Promise<void> {
  return new Promise((resolve, reject) =>
    execFile('notify-send', args, { env: { ...process.env, ...desktop.env } }, (error) => (error ? reject(error) : resolve())),
  );
}
const asEvolution = ['-a', 'Evolution', '-h', 'string:desktop-entry:org.gnome.Evolution'];

const desktopSettings = async (): Promise<any> => (await session.call('GET', '/app/api/settings/desktop')).json;
const section = () => page.getByRole('region', { name: "Other programs' notifications" });
const details = () => page.getByRole('article');

async function openPage(name: 'history' | 'settings'): Promise<void> {
  await page.goto(new URL(`/app/${name}`, page.url()).href);
  await page.getByRole('heading', { level: 1 }).waitFor();
}

/** axe's serious and critical violations on the page as it is, in light and in dark. */
async function axeBothThemes(where: string): Promise<string[]> {
  const found: string[] = [];
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme });
    for (const violation of await axeViolations(page))
      found.push(`${where} ${colorScheme}: ${violation.id} (${violation.help}) at ${violation.targets.join(', ')}`);
  }
  await page.emulateMedia({ colorScheme: 'light' });
  return found;
}

beforeAll(async () => {
  desktop = await startDesktop();
  [daemon, browser] = await Promise.all([startWebApp({ presenter: 'dbus', env: desktop.env }), startBrowser()]);
  session = await daemon.signIn();
  ({ page, problems } = await openAppTab(browser, daemon, 'history', ['clipboard-read', 'clipboard-write']));
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await daemon?.stop();
  await desktop?.stop();
});

describe("other programs' notifications in the window", () => {
  test("History's first-run view offers to keep them, and says it did", async () => {
    const view = page.getByRole('region', { name: 'No notifications yet' });
    const offer = view.getByRole('button', { name: "Keep other programs' notifications here too" });
    await offer.click();
    await view.getByText('Done: from now on, History keeps every notification your other programs show.').waitFor();
    // The button went: the focus is on what it did, not lost.
    expect(await page.evaluate(() => (globalThis as any).document.activeElement?.textContent)).toContain('Done: from now on');
    await view.getByRole('status').getByText('On: each new notification of another program is kept in History.').waitFor();
    expect(await desktopSettings()).toMatchObject({ keep: true, monitor: { state: 'on' } });
    expect(problems).toEqual([]);
  });

  test('Settings: the switch, by its name, turns it off and on; the section says what is kept, where, and who sees it', async () => {
    await openPage('settings');
    const keep = section().getByRole('switch', { name: SWITCH });
    expect(await keep.isChecked()).toBe(true);
    const words = await section().textContent();
    expect(words).toContain(path.join(daemon.supportDir, 'history'));
    expect(words).toContain('the title, the text, its picture, the labels of its buttons, how its banner ended and which button you chose');
    expect(words).toContain('The programs, scripts and agents that use Notifier never see them.');

    await keep.uncheck();
    await page.getByRole('status').getByText("No more of other programs' notifications are kept.", { exact: false }).waitFor();
    expect(await desktopSettings()).toMatchObject({ keep: false, monitor: { state: 'off' } });
    await keep.check();
    await section().getByText('On: each new notification of another program is kept in History.').waitFor();
    expect(await desktopSettings()).toMatchObject({ keep: true, monitor: { state: 'on' } });
    expect(problems).toEqual([]);
  });

  test('a program’s notification in History: marked in its row; its details read-only, with who sent it, its buttons as text, the one chosen', async () => {
    await daemon.api('POST', '/v1/notify', { body: { app: 'ci', title: 'Build 12 passed' } });
    await openPage('history');
    // Critical: dunst leaves it on screen until the person chooses on it.
    void notifySend(
      ...asEvolution,
      '-u',
      'critical',
      '-A',
      'open=Open',
      '-A',
      'archive=Archive',
      'New mail',
      'From <b>Ann</b>: <a href="https://mail.example/inbox/1">lunch?</a>',
    );
    const link = page.getByRole('link', { name: 'New mail', exact: true });
    const row = page.getByRole('listitem').filter({ has: link });
    await row.getByText('From another program').waitFor();
    const own = page.getByRole('listitem').filter({ has: page.getByRole('link', { name: 'Build 12 passed', exact: true }) });
    expect(await own.getByText('From another program').count()).toBe(0);

    await link.click();
    await details().getByText('Sent by Evolution to your desktop.').waitFor();
    await details().getByText('Its buttons: Open, Archive.').waitFor();
    expect(await details().locator('.details-body strong').textContent()).toBe('Ann');
    // Its buttons are Evolution's: nothing here answers, presses, shows again, closes or snoozes its banner.
    for (const name of ['Show again', 'Dismiss', 'Snooze', 'Send reply', 'Open', 'Archive'])
      expect({ name, count: await details().getByRole('button', { name, exact: true }).count() }).toEqual({ name, count: 0 });
    expect(await details().getByRole('textbox', { name: 'Reply' }).count()).toBe(0);
    expect(await details().getByRole('link', { name: 'Open link' }).getAttribute('href')).toBe('https://mail.example/inbox/1');
    for (const name of ['Mark as unread', 'Copy', 'Delete']) await details().getByRole('button', { name, exact: true }).waitFor();
    await details().getByRole('button', { name: 'Copy', exact: true }).click();
    await page.getByRole('status').getByText('The notification was copied.').waitFor();
    expect(await page.evaluate(() => (globalThis as any).navigator.clipboard.readText())).toBe('New mail\n\nFrom Ann: lunch?');

    // The person chooses Archive on Evolution's banner (dunst's menu): the details say so, and how it ended.
    await desktop.choose('Archive (New mail)');
    await details().getByText('You chose Archive.').waitFor();
    await details().getByText('Evolution closed it.').waitFor(); // notify-send closes its banner once an action is chosen
    expect(await axeBothThemes('details')).toEqual([]);
    expect(problems).toEqual([]);
  });

  test('"From other programs" shows only other programs’ notifications', async () => {
    // The daemon's answer to the filter first: the list shows what it answers.
    const filtered = (await session.call('GET', '/app/api/history?state=programs')).json.items.map((row: any) => row.title);
    expect(filtered).toEqual(['New mail']);
    await openPage('history');
    await page.getByRole('radio', { name: 'From other programs' }).check();
    await page.getByRole('link', { name: 'New mail', exact: true }).waitFor();
    expect(await page.locator('.rows .row-title').allTextContents()).toEqual(['New mail']); // not Notifier's own "Build 12 passed"
    expect(problems).toEqual([]);
  });

  test('each program has its choice: "Titles only" keeps the next one without its text; a password manager is left out by default', async () => {
    await notifySend('-a', 'KeePassXC', 'Password copied', 'bank.example: cleared in 10 seconds');
    await waitFor(
      async () => ((await desktopSettings()).programs.some((program: any) => program.name === 'KeePassXC') ? true : undefined),
      'KeePassXC listed',
    );
    await openPage('settings');
    const keepass = section().getByRole('combobox', { name: 'Keep from KeePassXC' });
    expect(await keepass.inputValue()).toBe('none');
    const note = await keepass.getAttribute('aria-describedby');
    expect(await page.locator(`[id="${note}"]`).textContent()).toMatch(/^Left out by default — a password manager/);

    await section().getByRole('combobox', { name: 'Keep from Evolution' }).selectOption({ label: 'Titles only' });
    await page.getByRole('status').getByText('Evolution: only the titles are kept from now on.').waitFor();
    expect((await desktopSettings()).programs.find((program: any) => program.app === EVOLUTION).keep).toBe('titles');
    expect(await axeBothThemes('settings')).toEqual([]);

    await notifySend(...asEvolution, 'Private subject', 'private text');
    await openPage('history');
    await page.getByRole('link', { name: 'Private subject', exact: true }).click();
    await details().getByText('Sent by Evolution to your desktop.').waitFor();
    expect(await details().textContent()).not.toContain('private text');
    expect(await page.getByRole('link', { name: 'Password copied' }).count()).toBe(0);
    expect(problems).toEqual([]);
  });
});
