// History's times and days in Chromium against a real daemon whose History reaches back a year: every row says when
// in words that stay true ("2:05 PM", "Yesterday 12:00 PM", "Thu 12:00 PM", then the date), each day's rows are
// headed by the day (Today, Yesterday, the weekday within the week, else the date) and the bar above the list names
// the day of the rows at the top while they scroll; the date presets; and custom dates typed in From and To, where
// Tab goes from From to To (a browser date field keeps Tab for its own parts).

import { beforeAll, describe, expect, test } from '@jest/globals';
import type { Page } from 'playwright-core';
import { axeViolations } from '../helpers/app-pages.js';
import type { AppDaemon } from '../helpers/app.js';
import { listShows as listShowsIn, noonDaysAgo, openHistoryTab, type PastRecord, rowOf } from '../helpers/history-fixtures.js';

let daemon: AppDaemon;
let page: Page;
let problems: string[];

/** Today's earlier notifications: enough rows that yesterday's start below the fold. */
const TODAY_COUNT = 12;
const PAST: PastRecord[] = [
  { app: 'calendar', id: 'standup', deliveredAt: noonDaysAgo(1), title: 'Standup moved' },
  { app: 'calendar', id: 'review', deliveredAt: new Date(noonDaysAgo(1).getTime() - 3_600_000), title: 'Review notes' },
  { app: 'ci', id: 'release', deliveredAt: noonDaysAgo(3), title: 'Release 2.3 built' },
  { app: 'cron', id: 'dentist', deliveredAt: noonDaysAgo(10), title: 'Dentist on Friday' },
  { app: 'claude', id: 'old', deliveredAt: noonDaysAgo(400), title: 'Old refactor' },
  // Older rows below, so that the list scrolls yesterday's and the weekday's rows up to its top.
  ...Array.from({ length: 10 }, (_, index) => ({
    app: 'cron',
    id: `archive-${index}`,
    deliveredAt: new Date(noonDaysAgo(500).getTime() - index * 60_000),
    title: `Archived ${index}`,
  })),
];

const rowTime = (title: string) => rowOf(page, title).locator('time').textContent();
const listShows = (titles: string[]): Promise<void> => listShowsIn(page, titles);

/** What the browser writes for a date: its weekday's name, or the whole date. */
const browserWrites = (date: Date, options: Intl.DateTimeFormatOptions): Promise<string> =>
  page.evaluate(({ time, options }) => new Intl.DateTimeFormat(undefined, options).format(time), { time: date.getTime(), options });

const isFocused = (name: string): Promise<boolean> =>
  page.getByLabel(name, { exact: true }).evaluate((element) => element === (globalThis as any).document.activeElement);

beforeAll(async () => {
  const now = Date.now();
  const today = Array.from({ length: TODAY_COUNT }, (_, index) => ({
    app: 'ci',
    id: `today-${index}`,
    // Minutes ago, so that they are today's whenever the test runs (but in its first minutes).
    deliveredAt: new Date(Math.max(now - (index + 1) * 60_000, noonDaysAgo(0).getTime() - 12 * 3_600_000 + index)),
    title: `Pipeline ${100 - index} passed`,
  }));
  ({ daemon, page, problems } = await openHistoryTab({
    past: [...PAST, ...today],
    apps: [
      { app: 'calendar', appName: 'Calendar' },
      { app: 'ci', appName: 'CI' },
      { app: 'cron', appName: 'cron' },
      { app: 'claude', appName: 'Claude Code' },
    ],
  }));
});

describe('times and days', () => {
  test('every row has a readable time: the clock today, then Yesterday, the weekday, the date', async () => {
    expect((await daemon.api('POST', '/v1/notify', { body: { app: 'ci', title: 'Build 4821 failed' } })).status).toBe(200);
    await page.getByRole('link', { name: 'Build 4821 failed', exact: true }).waitFor();
    expect(await rowTime('Build 4821 failed')).toMatch(/^\d{1,2}[:.]\d{2}( [AP]M)?$/); // not "just now"
    expect(await rowTime('Standup moved')).toBe(`Yesterday ${await browserWrites(noonDaysAgo(1), { hour: 'numeric', minute: '2-digit' })}`);
    expect(await rowTime('Release 2.3 built')).toBe(
      await browserWrites(noonDaysAgo(3), { weekday: 'short', hour: 'numeric', minute: '2-digit' }),
    );
    await page.locator('.list-scroller').evaluate((element) => (element.scrollTop = element.scrollHeight));
    await page.getByRole('link', { name: 'Old refactor', exact: true }).waitFor();
    expect(await rowTime('Dentist on Friday')).toContain(await browserWrites(noonDaysAgo(10), { day: 'numeric', month: 'short' }));
    expect(await rowTime('Old refactor')).toContain(String(noonDaysAgo(400).getFullYear()));
  });

  test('each day is headed in the list; the bar above it names the day of the rows at the top as they scroll', async () => {
    const list = page.getByRole('list', { name: 'Notifications' });
    const headings = async (): Promise<string[]> => list.getByRole('heading', { level: 2 }).allTextContents();
    // Scrolled down: the days of the older rows.
    const weekday = await browserWrites(noonDaysAgo(3), { weekday: 'long' });
    const tenDaysAgo = await browserWrites(noonDaysAgo(10), { weekday: 'short', day: 'numeric', month: 'long' });
    expect(await headings()).toEqual(expect.arrayContaining(['Yesterday', weekday, expect.stringContaining(tenDaysAgo)]));
    const bar = page.locator('.day-bar');
    const scrollTo = async (title: string): Promise<void> => {
      const position = Number(
        await page
          .getByRole('listitem')
          .filter({ has: page.getByRole('link', { name: title, exact: true }) })
          .getAttribute('aria-posinset'),
      );
      await page.locator('.list-scroller').evaluate((element, top) => (element.scrollTop = top), (position - 1) * 72 + 20);
    };
    await scrollTo('Review notes'); // Yesterday's second row at the top: its heading has scrolled away, the bar stays
    await page.waitForFunction(() => (globalThis as any).document.querySelector('.day-bar')?.textContent === 'Yesterday');
    const [barBox, listBox] = await Promise.all([bar.boundingBox(), page.locator('.list-scroller').boundingBox()]);
    expect(barBox!.y + barBox!.height).toBeLessThanOrEqual(listBox!.y + 1); // above the rows, where it stays
    await scrollTo('Release 2.3 built');
    await page.waitForFunction((day) => (globalThis as any).document.querySelector('.day-bar')?.textContent === day, weekday);
    await page.locator('.list-scroller').evaluate((element) => (element.scrollTop = 0));
    await page.waitForFunction(() => (globalThis as any).document.querySelector('.day-bar')?.textContent === 'Today');
    expect(await headings()).toContain('Today');
  });

  test('the date presets: Today, Last 7 days, This month; Any time again', async () => {
    const dates = page.getByRole('combobox', { name: 'Dates' });
    await dates.selectOption({ label: 'Today' });
    await page.getByText(/^13 found/).waitFor();
    expect(await page.getByLabel('From', { exact: true }).count()).toBe(0); // From and To are for custom dates
    await dates.selectOption({ label: 'Last 7 days' });
    await page.getByText(/^16 found/).waitFor();
    await dates.selectOption({ label: 'This month' });
    const firstOfMonth = new Date(new Date().getFullYear(), new Date().getMonth(), 1);
    const inMonth = [1, 1, 3, 10, 400].filter((days) => noonDaysAgo(days) >= firstOfMonth).length;
    await page.getByText(new RegExp(`^${13 + inMonth} found`)).waitFor();
    await dates.selectOption({ label: 'Any time' });
    await page.getByText(/^28 notifications/).waitFor();
  });

  test('custom dates: a date typed in From, then Tab, is in To; either the browser’s way or YYYY-MM-DD', async () => {
    await page.getByRole('combobox', { name: 'Dates' }).selectOption({ label: 'Custom dates' });
    const from = page.getByLabel('From', { exact: true });
    const to = page.getByLabel('To', { exact: true });
    await from.click();
    const threeDaysAgo = noonDaysAgo(3);
    const iso = (date: Date): string =>
      `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
    await page.keyboard.type(iso(threeDaysAgo));
    await page.keyboard.press('Tab');
    expect(await isFocused('To')).toBe(true);
    await page.getByText(/^16 found/).waitFor(); // from three days ago on
    // The browser's own way of writing a date, as its placeholder shows it (MM/DD/YYYY here).
    const pattern = (await to.getAttribute('placeholder'))!;
    const yesterday = noonDaysAgo(1);
    const typed = pattern
      .replace('YYYY', String(yesterday.getFullYear()))
      .replace('MM', String(yesterday.getMonth() + 1).padStart(2, '0'))
      .replace('DD', String(yesterday.getDate()).padStart(2, '0'));
    await page.keyboard.type(typed);
    await page.keyboard.press('Tab');
    expect(await isFocused('To')).toBe(false); // on to the next control, not into the field's parts
    await listShows(['Standup moved', 'Review notes', 'Release 2.3 built']);
    expect(await from.inputValue()).toBe(await browserWrites(threeDaysAgo, { year: 'numeric', month: '2-digit', day: '2-digit' }));
    // Not a date: said under the field, which says it is invalid; the list keeps the last good dates.
    await to.fill('45/45/2020');
    await to.press('Enter');
    await page.getByRole('alert').getByText(`Write the date as ${pattern}.`).waitFor();
    expect(await to.getAttribute('aria-invalid')).toBe('true');
    await listShows(['Standup moved', 'Review notes', 'Release 2.3 built']);
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('combobox', { name: 'Dates' }).selectOption({ label: 'Any time' });
    await page.getByText(/^28 notifications/).waitFor();
    expect(problems).toEqual([]);
  });
});
