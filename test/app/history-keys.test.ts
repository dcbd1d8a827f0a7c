// Undo, the selection and the keys of History, in Chromium against a real daemon: Delete, Mark all read and Dismiss
// offer Undo for 10 seconds and Undo takes them back on the daemon; several rows selected (a checkbox, Shift+click
// for a range, Space for the row with the focus) are marked read, unread or deleted together; j, k, Enter, r, e, #,
// z and ? do what the help dialog lists, never while the person types in a field or an editor; "/" goes to the
// search only from outside a field.

import { beforeAll, describe, expect, test } from '@jest/globals';
import type { Page } from 'playwright-core';
import { axeViolations, focusBecomes, titleBecomes } from '../helpers/app-pages.js';
import type { AppDaemon } from '../helpers/app.js';
import { waitFor } from '../helpers/daemon.js';
import { openHistoryTab, rowOf, rowTitles, sendNotification } from '../helpers/history-fixtures.js';

let daemon: AppDaemon;
let page: Page;
let problems: string[];

const notify = (body: Record<string, unknown>): Promise<string> => sendNotification(daemon, body);
const row = (title: string) => rowOf(page, title);
const v1Titles = async (app: string): Promise<string[]> =>
  (await daemon.api('GET', `/v1/history?app=${app}`)).json.items.map(
    (item: { notification: { title: string } }) => item.notification.title,
  );
const unread = (title: string) => row(title).getByTitle('Unread', { exact: true });
/** The Undo offered now, with what it takes back. */
const undoOffer = (text: string | RegExp) => page.getByRole('status').filter({ hasText: text }).getByRole('button', { name: 'Undo' });
/** What the focus is on: a row's title, a field's name. */
const focused = (): Promise<string> =>
  page.evaluate(() => {
    const element = (globalThis as any).document.activeElement;
    return element?.getAttribute('aria-label') || element?.textContent?.trim() || '';
  });

beforeAll(async () => {
  ({ daemon, page, problems } = await openHistoryTab({
    apps: [
      { app: 'ci', appName: 'CI' },
      { app: 'claude', appName: 'Claude Code' },
    ],
    notifications: [
      ...['Alpha', 'Bravo', 'Charlie', 'Delta', 'Echo'].map((title) => ({ app: 'ci', title })),
      { app: 'claude', title: 'Open the pull request?', buttons: [{ label: 'Answer', reply: { placeholder: 'yes or no' } }] },
    ],
  }));
  await row('Alpha').waitFor();
});

describe('Undo', () => {
  test('Delete offers Undo, which puts it back on the daemon; after 10 seconds the offer is gone and it stays deleted', async () => {
    await row('Echo').hover();
    await row('Echo').getByRole('button', { name: 'Delete “Echo”' }).click();
    await row('Echo').waitFor({ state: 'detached' });
    expect(await v1Titles('ci')).not.toContain('Echo');
    await undoOffer('Deleted “Echo”.').click();
    await row('Echo').waitFor();
    expect(await v1Titles('ci')).toContain('Echo');
    expect(await unread('Echo').count()).toBe(1); // unread, as it was

    await row('Echo').hover();
    await row('Echo').getByRole('button', { name: 'Delete “Echo”' }).click();
    const offer = undoOffer('Deleted “Echo”.');
    await offer.waitFor();
    const shown = Date.now();
    // The offer has a strip of its own under the list: it covers no row.
    const list = (await page.getByRole('region', { name: 'Notifications list' }).boundingBox())!;
    expect((await offer.boundingBox())!.y).toBeGreaterThanOrEqual(list.y + list.height);
    await offer.waitFor({ state: 'detached', timeout: 15_000 });
    expect(Date.now() - shown).toBeGreaterThan(8_000); // offered for 10 seconds
    expect(await v1Titles('ci')).not.toContain('Echo');
  }, 30_000);

  test('Mark all read offers Undo: what was unread is unread again', async () => {
    await titleBecomes(page, '(5) Notifier — History');
    await page.getByRole('button', { name: 'Mark all read' }).click();
    await titleBecomes(page, 'Notifier — History');
    await undoOffer('All marked as read.').click();
    await titleBecomes(page, '(5) Notifier — History');
    await unread('Alpha').waitFor();
  });

  test('Dismiss offers Undo: its banner comes back', async () => {
    const id = await notify({ app: 'ci', title: 'Foxtrot' });
    await page.getByRole('link', { name: 'Foxtrot', exact: true }).click();
    await page.getByRole('button', { name: 'Dismiss' }).click();
    const record = async () => (await daemon.api('GET', '/v1/history?app=ci')).json.items.find((item: { id: string }) => item.id === id);
    await waitFor(async () => ((await record()).dismissedAt ? true : undefined), 'the banner to close');
    await page.getByRole('button', { name: 'Dismiss' }).waitFor({ state: 'detached' });
    await undoOffer('Dismissed').click();
    await waitFor(async () => ((await record()).dismissedAt ? undefined : true), 'the banner to come back');
    await page.getByRole('button', { name: 'Dismiss' }).waitFor(); // it can be dismissed again
  });
});

describe('several rows together', () => {
  test('a checkbox, Shift+click for a range, Space for the row with the focus; Mark read, Mark unread, Delete together', async () => {
    await page.goto(new URL('/app/history', page.url()).href);
    await row('Delta').waitFor();
    await row('Delta').getByRole('checkbox', { name: 'Select “Delta”' }).click();
    await row('Bravo')
      .getByRole('checkbox', { name: 'Select “Bravo”' })
      .click({ modifiers: ['Shift'] });
    const bar = page.getByRole('group', { name: 'Selected notifications' });
    await bar.getByText('3 selected').waitFor();
    for (const title of ['Delta', 'Charlie', 'Bravo']) expect(await row(title).getByRole('checkbox').isChecked()).toBe(true);
    expect(await row('Alpha').getByRole('checkbox').isChecked()).toBe(false);
    // Space on the row with the focus adds it; the selection is kept for the next action.
    await page.getByRole('searchbox', { name: 'Search' }).focus();
    await page.keyboard.press('ArrowDown');
    while ((await focused()) !== 'Alpha') await page.keyboard.press('ArrowDown');
    await page.keyboard.press(' ');
    await bar.getByText('4 selected').waitFor();

    await bar.getByRole('button', { name: 'Mark read' }).click();
    for (const title of ['Alpha', 'Bravo', 'Charlie', 'Delta']) await unread(title).waitFor({ state: 'detached' });
    await bar.getByRole('button', { name: 'Mark unread' }).click();
    for (const title of ['Alpha', 'Bravo', 'Charlie', 'Delta']) await unread(title).waitFor();
    await bar.getByRole('button', { name: 'Delete' }).click();
    await undoOffer('Deleted 4 notifications.').waitFor();
    await bar.waitFor({ state: 'detached' }); // they are gone, and so is the selection
    expect(await v1Titles('ci')).toEqual(['Foxtrot']);
    await page.keyboard.press('z'); // Undo, with its key
    for (const title of ['Alpha', 'Bravo', 'Charlie', 'Delta']) await row(title).waitFor();
    expect((await v1Titles('ci')).sort()).toEqual(['Alpha', 'Bravo', 'Charlie', 'Delta', 'Foxtrot']);
    await unread('Bravo').waitFor(); // unread, as they were
  });
});

describe('the keys', () => {
  test('j and k move, Enter opens, r goes to the reply field, e marks read, # deletes (the focus stays in the list)', async () => {
    await page.goto(new URL('/app/history', page.url()).href);
    await row('Alpha').waitFor();
    expect(await rowTitles(page)).toEqual(['Foxtrot', 'Open the pull request?', 'Delta', 'Charlie', 'Bravo', 'Alpha']);
    await page.locator('main h1').focus();
    await page.keyboard.press('j'); // into the list
    await focusBecomes(page, 'Foxtrot');
    await page.keyboard.press('j');
    await page.keyboard.press('j');
    await focusBecomes(page, 'Delta');
    await page.keyboard.press('k');
    await focusBecomes(page, 'Open the pull request?');
    await page.keyboard.press('r');
    const reply = page.getByRole('textbox', { name: 'Reply', exact: true });
    await page.waitForFunction(() => (globalThis as any).document.activeElement?.id === 'reply-text');
    // In the field, the keys are the person's letters.
    await page.keyboard.type('yes #e/j? ok');
    expect(await reply.inputValue()).toBe('yes #e/j? ok');
    expect(await page.getByRole('dialog', { name: 'Keyboard shortcuts' }).count()).toBe(0);

    await page.getByRole('link', { name: 'Delta', exact: true }).focus();
    await unread('Delta').waitFor();
    await page.keyboard.press('e');
    await unread('Delta').waitFor({ state: 'detached' });
    await page.keyboard.press('#');
    await row('Delta').waitFor({ state: 'detached' });
    await undoOffer('Deleted “Delta”.').waitFor();
    await focusBecomes(page, 'Charlie'); // the next row took its place, and the focus
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 2, name: 'Charlie' }).waitFor();
    await page.keyboard.press('z');
    await row('Delta').waitFor();
  });

  test('? lists the keys in a dialog; Escape closes it and gives the focus back', async () => {
    await page.getByRole('link', { name: 'Bravo', exact: true }).focus();
    await page.keyboard.press('?');
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    await help.waitFor();
    const table = await help.getByRole('table').textContent();
    for (const key of ['j', 'k', 'Enter', 'r', 'e', '#', 'z', 'Space', '/', '?']) expect(table).toContain(key);
    expect(table).toContain('Delete it (Undo for 10 seconds)');
    expect(await axeViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await help.waitFor({ state: 'hidden' });
    await focusBecomes(page, 'Bravo');
    await page.getByRole('button', { name: 'Keyboard shortcuts' }).click(); // and with its button
    await help.waitFor();
    await help.getByRole('button', { name: 'Close' }).click();
    await help.waitFor({ state: 'hidden' });
  });

  test('"/" goes to the search only from outside a field: not from the search itself, a date, the reply, nor the Designer’s editor', async () => {
    const search = page.getByRole('searchbox', { name: 'Search' });
    await page.getByRole('link', { name: 'Bravo', exact: true }).focus();
    await page.keyboard.press('/');
    await page.waitForFunction(() => (globalThis as any).document.activeElement?.getAttribute('aria-label') === 'Search');
    await page.keyboard.type('j#');
    expect(await search.inputValue()).toBe('j#');
    await search.fill('');
    await page.getByRole('combobox', { name: 'Dates' }).selectOption({ label: 'Custom dates' });
    const from = page.getByLabel('From', { exact: true });
    await from.click();
    await page.keyboard.type('2025/03/01');
    expect(await from.inputValue()).toBe('2025/03/01');
    expect(await from.evaluate((element) => element === (globalThis as any).document.activeElement)).toBe(true);
    await page.getByRole('combobox', { name: 'Dates' }).selectOption({ label: 'Any time' });

    // The Designer's editor lives in a shadow root: a "/" typed there is the template's.
    await page.goto(new URL('/app/designer', page.url()).href);
    const editor = page.getByRole('textbox', { name: 'Template' });
    await editor.click();
    await page.keyboard.press('End');
    await page.keyboard.type('/');
    expect(await page.evaluate(() => (globalThis as any).document.activeElement?.tagName)).not.toBe('INPUT');
    expect(await editor.textContent()).toContain('/');
    await page.goto(new URL('/app/history', page.url()).href);
    await row('Bravo').waitFor();
    expect(problems).toEqual([]);
  });

  test('axe: a selection with its actions, the Undo offer, light and dark, wide and 400 px', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      for (const width of [1280, 400]) {
        await page.emulateMedia({ colorScheme });
        await page.setViewportSize({ width, height: 800 });
        await page.goto(new URL('/app/history', page.url()).href);
        await row('Bravo').getByRole('checkbox').click();
        await row('Charlie').getByRole('checkbox').click();
        await page.getByRole('group', { name: 'Selected notifications' }).getByRole('button', { name: 'Mark read' }).click();
        await page.getByRole('button', { name: 'Mark all read' }).click();
        await undoOffer('All marked as read.').waitFor();
        expect(await axeViolations(page)).toEqual([]);
        await undoOffer('All marked as read.').click();
      }
    }
  });
});
