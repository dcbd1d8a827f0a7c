// Rows that tell apart, in Chromium against a real daemon: high and urgent notifications are marked (in words for
// screen readers); apps without an icon show two letters of their name on a colour of their own (CI, Claude Code,
// Calendar and cron no longer all show "C"), one with an icon shows it; "Group by app" with each group's Mark read
// and Clear (asked first, only that app's go); a row's Mark as read and Delete, shown on hover and on keyboard focus.

import { beforeAll, describe, expect, test } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import { axeViolations, expectAxeClean, focusBecomes, openAppTab, titleBecomes } from '../helpers/app-pages.js';
import type { AppDaemon } from '../helpers/app.js';
import { openHistoryTab, rowOf, sendNotification } from '../helpers/history-fixtures.js';

/** A 1×1 PNG: an app's registered icon. */
const DOT_PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

let daemon: AppDaemon;
let browser: Browser;
let page: Page;
let problems: string[];

const notify = (body: Record<string, unknown>): Promise<string> => sendNotification(daemon, body);
const row = (title: string) => rowOf(page, title);
const pictureOf = (title: string) => row(title).locator('.app-picture');

beforeAll(async () => {
  ({ daemon, browser, page, problems } = await openHistoryTab({
    apps: [
      { app: 'ci', appName: 'CI' },
      { app: 'claude', appName: 'Claude Code' },
      { app: 'calendar', appName: 'Calendar' },
      { app: 'cron', appName: 'cron' },
      { app: 'backup', appName: 'Backup', icon: DOT_PNG },
    ],
    notifications: [
      { app: 'backup', title: 'Backup finished' },
      { app: 'cron', title: 'Disk almost full', priority: 'urgent' },
      { app: 'calendar', title: 'Standup moved' },
      { app: 'claude', title: 'Refactor finished', priority: 'high' },
      { app: 'ci', title: 'Nightly tests passed', priority: 'low' },
    ],
  }));
  await row('Nightly tests passed').waitFor();
});

describe('rows that tell apart', () => {
  test('high and urgent are marked, seen and named; the others are not', async () => {
    await row('Refactor finished').getByText('High priority').waitFor();
    expect(await row('Refactor finished').getByTitle('High priority').isVisible()).toBe(true);
    await row('Disk almost full').getByText('Urgent', { exact: true }).waitFor();
    for (const title of ['Standup moved', 'Nightly tests passed']) {
      expect(
        await row(title)
          .getByText(/High priority|Urgent/)
          .count(),
      ).toBe(0);
    }
    // The details say it too.
    await page.getByRole('link', { name: 'Disk almost full', exact: true }).click();
    await page.getByRole('article', { name: 'Disk almost full' }).getByText('Urgent', { exact: true }).waitFor();
  });

  test('two letters of the name on a colour of its own; an app with an icon shows its icon', async () => {
    const letters = await Promise.all(
      ['Nightly tests passed', 'Refactor finished', 'Standup moved', 'Disk almost full'].map((title) => pictureOf(title).textContent()),
    );
    expect(letters).toEqual(['CI', 'CC', 'Ca', 'cr']);
    const colours = await Promise.all(
      ['Nightly tests passed', 'Refactor finished', 'Standup moved', 'Disk almost full'].map((title) =>
        pictureOf(title).evaluate((element) => (globalThis as any).getComputedStyle(element).backgroundColor as string),
      ),
    );
    expect(new Set(colours).size).toBe(4);
    expect(await pictureOf('Backup finished').evaluate((element) => element.tagName)).toBe('IMG');
    // The same app, the same colour, in another window too.
    const again = await openAppTab(browser, daemon);
    const colour = await again.page
      .getByRole('listitem')
      .filter({ has: again.page.getByRole('link', { name: 'Standup moved', exact: true }) })
      .locator('.app-picture')
      .evaluate((element) => (globalThis as any).getComputedStyle(element).backgroundColor as string);
    expect(colour).toBe(colours[2]);
    await again.page.close();
  });

  test('axe: the list with its marks and pictures, light and dark, wide and 400 px', async () => {
    await expectAxeClean(page, async () => {
      await page.goto(new URL('/app/history', page.url()).href);
      await row('Disk almost full').waitFor();
    });
  });

  test('a row’s actions show on hover and on keyboard focus; Mark as read and Delete from the row', async () => {
    const markRead = row('Standup moved').getByRole('button', { name: 'Mark “Standup moved” as read' });
    expect(await markRead.count()).toBe(0); // hidden until the row is hovered or focused
    await row('Standup moved').hover();
    await markRead.waitFor();
    await page.mouse.move(900, 700); // away
    await markRead.waitFor({ state: 'hidden' });
    // With the keyboard: on the row, Tab goes to its actions.
    await page.getByRole('searchbox', { name: 'Search' }).focus();
    await page.keyboard.press('ArrowDown');
    const rows = await page.locator('.rows .row-title').allTextContents();
    for (let index = 0; rows[index] !== 'Standup moved'; index++) await page.keyboard.press('ArrowDown');
    await focusBecomes(page, 'Standup moved');
    await markRead.waitFor();
    await page.keyboard.press('Tab');
    expect(await markRead.evaluate((element) => element === (globalThis as any).document.activeElement)).toBe(true);
    await page.keyboard.press('Enter');
    await row('Standup moved').getByText('Unread').waitFor({ state: 'detached' });
    await row('Standup moved').getByRole('button', { name: 'Mark “Standup moved” as unread' }).waitFor();
    // Delete, at once (with Undo: test/app/history-keys.test.ts).
    await row('Nightly tests passed').hover();
    await row('Nightly tests passed').getByRole('button', { name: 'Delete “Nightly tests passed”' }).click();
    await row('Nightly tests passed').waitFor({ state: 'detached' });
    expect((await daemon.api('GET', '/v1/history?app=ci')).json.items).toEqual([]);
  });
});

describe('Group by app', () => {
  test('a section per app with its newest rows; Mark read and Clear (asked first) of that app only', async () => {
    await notify({ app: 'cron', title: 'Backup of /etc done' });
    await row('Backup of /etc done').waitFor();
    await page.getByRole('switch', { name: 'Group by app' }).check();
    const cron = page.getByRole('region', { name: 'cron' });
    await cron.getByRole('link', { name: 'Backup of /etc done', exact: true }).waitFor();
    expect(await cron.getByRole('link').allTextContents()).toEqual(['Backup of /etc done', 'Disk almost full']);
    expect(await cron.textContent()).toContain('2 notifications');
    await page.getByRole('region', { name: 'Claude Code' }).getByRole('link', { name: 'Refactor finished', exact: true }).waitFor();
    const session = await daemon.signIn();
    const unreadApps = async (): Promise<string[]> =>
      (await session.call('GET', '/app/api/history?state=unread')).json.items.map((item: { app: string }) => item.app);
    expect(await unreadApps()).toContain('cron');
    await cron.getByRole('button', { name: 'Mark read: cron' }).click();
    await cron.getByText('Unread').first().waitFor({ state: 'detached' });
    expect(await unreadApps()).not.toContain('cron');
    expect(await unreadApps()).toContain('claude');

    await cron.getByRole('button', { name: 'Clear cron' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete all of cron?' });
    await focusBecomes(page, 'Cancel'); // the safe answer first
    await dialog.getByRole('button', { name: 'Delete all' }).click();
    await cron.waitFor({ state: 'detached' });
    expect((await daemon.api('GET', '/v1/history?app=cron')).json.items).toEqual([]);
    expect((await daemon.api('GET', '/v1/history?app=claude')).json.items.length).toBe(1);
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('switch', { name: 'Group by app' }).uncheck();
    await row('Refactor finished').waitFor();
    await titleBecomes(page, '(2) Notifier — History');
    expect(problems).toEqual([]);
  });
});
