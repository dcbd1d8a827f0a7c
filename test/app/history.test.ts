// History in the person's app, in headless Chromium against a real daemon (docs/app.md): signed in through the
// private channel, a notification sent with HTTP appears without reload, search and filters narrow the list, a
// reply typed here reaches the app's GET /v1/replies/wait, read and unread change the count in the title, deleting
// asks first, the list keeps only the rows in view in the document, and a hostile body runs nothing.

import { beforeAll, describe, expect, test } from '@jest/globals';
import { readFile } from 'node:fs/promises';
import type { Browser, Page, Request } from 'playwright-core';
import { expectAxeClean, focusBecomes, openAppTab, titleBecomes } from '../helpers/app-pages.js';
import type { AppDaemon } from '../helpers/app.js';
import { waitFor } from '../helpers/daemon.js';
import { listShows as listShowsIn, openHistoryTab, rowOf, rowTitles, sendNotification } from '../helpers/history-fixtures.js';

/** How long a burst of 400 notifications may take to show in the list (a wait, never a measure). */
const BURST_SETTLES_MS = 30_000;

let daemon: AppDaemon;
let browser: Browser;
let page: Page;
let problems: string[];

const notify = (body: Record<string, unknown>): Promise<string> => sendNotification(daemon, body);
const row = (title: string) => rowOf(page, title);
const listShows = (titles: string[]): Promise<void> => listShowsIn(page, titles);

beforeAll(async () => {
  ({ daemon, browser, page, problems } = await openHistoryTab({
    apps: [
      { app: 'backup', appName: 'Backup' },
      { app: 'ci', appName: 'CI pipeline' },
    ],
  }));
});

describe('History in the app', () => {
  test('signing in lands on History: its title, its heading, the six pages in the navigation, no code in the address', async () => {
    expect(new URL(page.url()).pathname).toBe('/app/history');
    expect(page.url()).not.toContain('code=');
    expect(await page.title()).toBe('Notifier — History');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('History');
    const navigation = page.getByRole('navigation');
    for (const name of ['History', 'Approvals', 'Compose', 'Settings', 'Designer', 'Relay']) {
      const link = navigation.getByRole('link', { name, exact: true });
      expect(await link.getAttribute('href')).toBe(`/app/${name.toLowerCase()}`);
    }
    await page.getByText('No notifications yet').waitFor();
    // The session's CSRF value came in the address's fragment; the page took it out, into its origin's storage.
    expect(page.url()).not.toContain('csrf');
  });

  test('a notification sent with HTTP appears without reload, unread, and its count is in the title', async () => {
    const loads: string[] = [];
    page.on('load', () => loads.push(page.url()));
    await notify({ app: 'backup', title: 'Backup finished', body: '18,204 files copied to **nas.local**.\nSecond line.' });
    await row('Backup finished').waitFor();
    await titleBecomes(page, '(1) Notifier — History');
    const shown = row('Backup finished');
    expect(await shown.textContent()).toContain('Backup'); // the app's display name
    expect(await shown.textContent()).toContain('18,204 files copied to nas.local.'); // the first line, plain
    expect(await shown.textContent()).not.toContain('Second line');
    expect(await shown.getByText('Unread').count()).toBe(1);
    expect(await shown.locator('time').getAttribute('title')).toMatch(/\d{4}/); // the exact time on hover
    expect(loads).toEqual([]);
  });

  test('opening the details marks it read; Mark as unread and Mark all read change the count', async () => {
    await notify({ app: 'ci', title: 'Build 4821 failed', body: 'Step `npm test` failed.' });
    await titleBecomes(page, '(2) Notifier — History');
    await page.getByRole('link', { name: 'Build 4821 failed', exact: true }).click();
    await page.getByRole('heading', { level: 2, name: 'Build 4821 failed' }).waitFor();
    expect(new URL(page.url()).pathname).toMatch(/^\/app\/history\/ci\/[\w-]+$/);
    await titleBecomes(page, '(1) Notifier — History');
    await page.getByRole('button', { name: 'Mark as unread' }).click();
    await titleBecomes(page, '(2) Notifier — History');
    await page.waitForURL((url) => url.pathname === '/app/history'); // it closes, as a mail client does
    await row('Build 4821 failed').getByTitle('Unread').waitFor();
    await page.getByRole('button', { name: 'Mark all read' }).click();
    await titleBecomes(page, 'Notifier — History');
    expect(await row('Backup finished').getByText('Unread').count()).toBe(0);
  });

  test('a reply typed in History reaches the app waiting on GET /v1/replies/wait', async () => {
    const id = await notify({
      app: 'ci',
      title: 'Deploy to production?',
      body: 'Reply go or wait.',
      buttons: [{ label: 'Answer', reply: { placeholder: 'go or wait' } }],
    });
    const waiting = daemon.api('GET', `/v1/replies/wait?app=ci&id=${id}&timeout=30`, { timeoutMs: 35_000 });
    await page.getByRole('link', { name: 'Deploy to production?', exact: true }).click();
    await row('Deploy to production?').getByText('Waiting for you').waitFor();
    const field = page.getByRole('textbox', { name: 'Reply', exact: true });
    expect(await field.getAttribute('placeholder')).toBe('go or wait');
    await field.fill('go — ship it');
    await page.getByRole('button', { name: 'Send reply' }).click();
    const reply = await waiting;
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({ replied: true, reply: { notificationId: id, app: 'ci', text: 'go — ship it' } });
    await row('Deploy to production?').getByText('Replied').waitFor();
    await page.getByText('go — ship it').first().waitFor(); // the details show what was replied
  });

  test('search, the state and app filters and the date range narrow the list, as the daemon searches', async () => {
    await notify({ app: 'backup', title: 'Café order ready', body: 'Your flat white is waiting.' });
    await notify({ app: 'ci', title: 'Nightly tests passed', body: 'All 1,204 tests passed.' });
    await row('Nightly tests passed').waitFor();
    const search = page.getByRole('searchbox', { name: 'Search' });
    const everything = ['Nightly tests passed', 'Café order ready', 'Deploy to production?', 'Build 4821 failed', 'Backup finished'];
    await search.fill('cafe order'); // every word, accents folded
    await listShows(['Café order ready']);
    // What the count counts: the matches, not History ("1 notification · 2 unread" read as if one was unread twice).
    await page.getByText(/^1 found · \d+ unread$/).waitFor();
    await search.fill('');
    await listShows(everything);
    await page.getByText(/^5 notifications · \d+ unread$/).waitFor();

    await page.getByRole('radio', { name: 'Replied' }).check();
    await listShows(['Deploy to production?']);
    await page.getByRole('radio', { name: 'Unread' }).check();
    await listShows(['Nightly tests passed', 'Café order ready']);
    // None of these is another program's: the list says where keeping those is turned on.
    await page.getByRole('radio', { name: 'From other programs' }).check();
    await listShows([]);
    await page.getByText('No notification from another program.', { exact: false }).getByRole('link', { name: 'Settings' }).waitFor();
    await page.getByRole('radio', { name: 'All' }).check();

    await page.getByRole('combobox', { name: 'App' }).selectOption({ label: 'CI pipeline' });
    await listShows(['Nightly tests passed', 'Deploy to production?', 'Build 4821 failed']);
    await page.getByRole('combobox', { name: 'App' }).selectOption({ label: 'All apps' });

    const yesterday = new Date(Date.now() - 86_400_000);
    const day = `${yesterday.getFullYear()}-${String(yesterday.getMonth() + 1).padStart(2, '0')}-${String(yesterday.getDate()).padStart(2, '0')}`;
    await page.getByRole('combobox', { name: 'Dates' }).selectOption({ label: 'Custom dates' });
    await page.getByLabel('To', { exact: true }).fill(day);
    await page.getByLabel('To', { exact: true }).press('Enter');
    await page.getByText('No notification matches').waitFor();
    await page.getByRole('combobox', { name: 'Dates' }).selectOption({ label: 'Any time' });
    await listShows(everything);
  });

  test('a narrow window shows the active filters as chips, counted on More filters; a chip removed with the keyboard updates the list, the count and the focus', async () => {
    await page.setViewportSize({ width: 400, height: 800 });
    await page.getByRole('link', { name: 'Back to History' }).click(); // the list, not the details open earlier
    const more = page.getByRole('button', { name: /^More filters/ });
    expect(await more.textContent()).toBe('More filters');
    const chips = page.getByRole('list', { name: 'Active filters' }).getByRole('button');
    expect(await chips.count()).toBe(0);
    await page.getByRole('radio', { name: 'Unread' }).check();
    await more.click();
    await page.getByRole('combobox', { name: 'App' }).selectOption({ label: 'CI pipeline' });
    await more.click(); // folded again: the chips say what narrows the list
    await listShows(['Nightly tests passed']);
    await page.getByRole('button', { name: 'More filters (2 active)', exact: true }).waitFor();
    // What they show: their names but for the words only screen readers read.
    const shown = await chips.evaluateAll((buttons) =>
      buttons.map((button) => {
        const drawn = button.cloneNode(true) as typeof button;
        for (const hidden of drawn.querySelectorAll('.visually-hidden')) hidden.remove();
        return drawn.textContent;
      }),
    );
    expect(shown).toEqual(['Show: Unread', 'App: CI pipeline']);
    await page.getByRole('button', { name: 'Remove filter: Show is Unread', exact: true }).waitFor();
    const appChip = page.getByRole('button', { name: 'Remove filter: App is CI pipeline', exact: true });
    await expectAxeClean(page);
    expect(await appChip.isVisible()).toBe(false); // a wide window shows every filter's control, no chips
    await page.setViewportSize({ width: 400, height: 800 });

    // From the chips' list with Tab, Enter on the second: the first is left, and has the focus.
    await page.getByRole('button', { name: 'Remove filter: Show is Unread', exact: true }).focus();
    await page.keyboard.press('Tab');
    await focusBecomes(page, 'Remove filter: App is: CI pipeline'); // its text: the name's words, and the colon shown
    await page.keyboard.press('Enter');
    await listShows(['Nightly tests passed', 'Café order ready']);
    await page.getByRole('button', { name: 'More filters (1 active)', exact: true }).waitFor();
    await focusBecomes(page, 'Remove filter: Show is: Unread');
    // The last one: the focus goes to More filters, beside the chips.
    await page.keyboard.press('Space');
    await listShows(['Nightly tests passed', 'Café order ready', 'Deploy to production?', 'Build 4821 failed', 'Backup finished']);
    await focusBecomes(page, 'More filters');
    expect(await page.getByRole('radio', { name: 'All' }).isChecked()).toBe(true);
    expect(await chips.count()).toBe(0);
    await page.setViewportSize({ width: 1280, height: 800 });
    expect(problems).toEqual([]);
  });

  test('export gives the rows as CSV and JSON', async () => {
    await page.getByRole('button', { name: 'Export or delete' }).click();
    const [csv] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export as CSV' }).click()]);
    const text = await readFile((await csv.path())!, 'utf8');
    expect(text).toContain('Café order ready');
    expect(text).toContain('Backup finished');
    await page.getByRole('button', { name: 'Export or delete' }).click();
    const [json] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export as JSON' }).click()]);
    expect(await readFile((await json.path())!, 'utf8')).toContain('Nightly tests passed');
  });

  test('snooze and unsnooze from the details', async () => {
    await page.getByRole('link', { name: 'Nightly tests passed', exact: true }).click();
    await page.getByRole('button', { name: 'Snooze' }).click();
    await page.getByRole('button', { name: '1 hour' }).click();
    await row('Nightly tests passed')
      .getByText(/^Snoozed until/)
      .waitFor();
    await page.getByRole('button', { name: 'Unsnooze' }).click();
    await page.getByRole('button', { name: 'Snooze' }).waitFor();
    await row('Nightly tests passed')
      .getByText(/^Snoozed until/)
      .waitFor({ state: 'detached' });
  });

  test('the Snooze and Export menus with the keyboard: Escape and choosing give the focus back, Tab out closes them', async () => {
    await page.getByRole('link', { name: 'Nightly tests passed', exact: true }).click();
    const snooze = page.getByRole('button', { name: 'Snooze' });
    await snooze.focus();
    await page.keyboard.press('Enter');
    await focusBecomes(page, '15 minutes');
    await page.keyboard.press('Escape');
    await page.getByRole('group', { name: 'Snooze for' }).waitFor({ state: 'detached' });
    await focusBecomes(page, 'Snooze');
    await page.keyboard.press('Enter');
    await focusBecomes(page, '15 minutes');
    for (let presses = 0; presses < 3; presses++) await page.keyboard.press('Tab');
    await focusBecomes(page, 'Delete'); // past the menu's three items: the menu is closed behind the focus
    expect(await page.getByRole('group', { name: 'Snooze for' }).count()).toBe(0);
    await snooze.focus();
    await page.keyboard.press('Enter');
    await focusBecomes(page, '15 minutes');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter'); // 1 hour
    await page.getByRole('button', { name: 'Unsnooze' }).waitFor();
    await focusBecomes(page, 'Unsnooze');
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Snooze' }).waitFor();
    await focusBecomes(page, 'Snooze');
    const more = page.getByRole('button', { name: 'Export or delete' });
    await more.focus();
    await page.keyboard.press('Enter');
    await focusBecomes(page, 'Export as JSON');
    await page.keyboard.press('Escape');
    await focusBecomes(page, 'Export or delete');
  });

  test('the list is one stop for Tab: from a row, Tab goes through its own actions on to the details, not through every row', async () => {
    await page.getByRole('link', { name: 'Backup finished', exact: true }).click();
    await page.getByRole('button', { name: 'Mark as unread' }).waitFor();
    await page.getByRole('searchbox', { name: 'Search' }).focus();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    const second = (await rowTitles(page))[1]!;
    await focusBecomes(page, second);
    for (const action of [`Mark “${second}” as read`, `Delete “${second}”`]) {
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => (globalThis as any).document.activeElement.getAttribute('aria-label'))).toBe(action);
    }
    await page.keyboard.press('Tab');
    await focusBecomes(page, 'Mark as unread');
    await page.keyboard.press('Shift+Tab');
    await focusBecomes(page, second); // back to the row the person was on (its actions show only while it has the focus)
  });

  test('show again puts it on top, and dismiss closes its banner', async () => {
    await page.getByRole('link', { name: 'Backup finished', exact: true }).click();
    await page.getByRole('button', { name: 'Show again' }).click();
    await page.waitForFunction(
      () =>
        (globalThis as unknown as { document: { querySelector(s: string): { textContent: string } | null } }).document.querySelector(
          '.rows .row-title',
        )?.textContent === 'Backup finished',
    );
    const shown = async () =>
      (await daemon.api('GET', '/v1/history?app=backup')).json.items.find(
        (item: { notification: { title: string } }) => item.notification.title === 'Backup finished',
      );
    expect((await shown()).dismissedAt).toBeUndefined();
    await page.getByRole('button', { name: 'Dismiss' }).click();
    await waitFor(async () => ((await shown()).dismissedAt ? true : undefined), 'the banner to close');
    await page.getByRole('button', { name: 'Dismiss' }).waitFor({ state: 'detached' }); // nothing left to dismiss
  });

  test('deleting one notification from its details: at once, with Undo, which puts it back; the focus stays in the list', async () => {
    await page.getByRole('link', { name: 'Café order ready', exact: true }).click();
    await page.getByRole('button', { name: 'Delete', exact: true }).focus();
    await page.keyboard.press('Enter');
    await row('Café order ready').waitFor({ state: 'detached' });
    await page.waitForURL((url) => url.pathname === '/app/history');
    // The button pressed went with the details: the focus is back in the list, not lost to the page.
    await page.waitForFunction(() => (globalThis as any).document.activeElement?.className === 'row-title');
    expect((await daemon.api('GET', '/v1/history/search?q=cafe')).json.items).toEqual([]);
    const undo = page.getByRole('status').filter({ hasText: 'Deleted “Café order ready”.' }).getByRole('button', { name: 'Undo' });
    await undo.click();
    await row('Café order ready').waitFor();
    expect((await daemon.api('GET', '/v1/history/search?q=cafe')).json.items.length).toBe(1);
    // For good this time.
    await row('Café order ready').hover();
    await row('Café order ready').getByRole('button', { name: 'Delete “Café order ready”' }).click();
    await row('Café order ready').waitFor({ state: 'detached' });
    expect((await daemon.api('GET', '/v1/history/search?q=cafe')).json.items).toEqual([]);
  });

  test('a notification deleted elsewhere while its details are open: they say it is gone, in plain words', async () => {
    const id = await notify({ app: 'ci', title: 'Soon gone', body: 'Deleted by its app.' });
    await page.getByRole('link', { name: 'Soon gone', exact: true }).click();
    await page.getByRole('button', { name: 'Show again' }).waitFor();
    // The person has looked at it: its card picture is loaded. Deleted while the picture is still on its way, the
    // picture's request would end in a 404 that has nothing to do with what this test is about.
    const picture = page.getByRole('img', { name: 'The card of “Soon gone”' });
    await picture.waitFor();
    await page.waitForFunction((img) => (img as unknown as { complete: boolean }).complete, await picture.elementHandle());
    expect((await daemon.api('DELETE', `/v1/history/item?app=ci&id=${encodeURIComponent(id)}`)).status).toBe(200);
    await page.getByRole('alert').getByText('This notification is no longer in History.').waitFor();
    expect(await page.getByRole('button', { name: 'Show again' }).count()).toBe(0);
    await row('Soon gone').waitFor({ state: 'detached' });
  });

  test('details read again show the newest read, whatever order the answers come in, and take the focus once drawn', async () => {
    await notify({ app: 'ci', id: 'late-read', title: 'Deploy started' });
    const details = (url: URL) => url.pathname === '/app/api/history/ci/late-read';
    const settled = () =>
      page.evaluate(() => new Promise((resolve) => (globalThis as any).requestAnimationFrame(() => setTimeout(resolve, 100))));
    const signal = () => {
      let done!: () => void;
      const promise = new Promise<void>((resolve) => (done = resolve));
      return { promise, done };
    };
    // Each read of the details takes the next gate, if any is left: what it waits for before it is answered.
    const gates: Array<(request: Request) => { sent?: () => void; answered: () => Promise<unknown> }> = [];
    await page.route(details, async (route) => {
      const gate = gates.shift()?.(route.request());
      gate?.sent?.();
      const answer = await route.fetch();
      await gate?.answered();
      await route.fulfill({ response: answer });
    });

    // Opening reads the details, which marks them read, which reads them again: the first answer comes once the
    // second read is on its way, and the second once the page has had the first.
    const secondSent = signal();
    let firstRead!: Request;
    gates.push(
      (request) => ((firstRead = request), { answered: () => secondSent.promise }),
      () => ({ sent: secondSent.done, answered: async () => (await firstRead.response(), await settled()) }),
    );
    await page.getByRole('link', { name: 'Deploy started', exact: true }).click();
    await page.getByRole('heading', { level: 2, name: 'Deploy started' }).waitFor();
    await page.waitForFunction(() => (globalThis as any).document.activeElement?.id === 'details-title');

    // A read of an older content answered after a read of the newest: the newest stays.
    const olderFetched = signal();
    const newestShown = signal();
    let olderRead!: Request;
    gates.push((request) => ((olderRead = request), { answered: () => (olderFetched.done(), newestShown.promise) }));
    await notify({ app: 'ci', id: 'late-read', title: 'Deploy running' });
    await olderFetched.promise;
    await notify({ app: 'ci', id: 'late-read', title: 'Deploy finished' });
    await page.getByRole('heading', { level: 2, name: 'Deploy finished' }).waitFor();
    newestShown.done();
    await olderRead.response();
    await settled();
    await page.unroute(details);
    for (const older of ['Deploy started', 'Deploy running'])
      expect(await page.getByRole('heading', { level: 2, name: older }).count()).toBe(0);
    expect(await page.getByRole('heading', { level: 2, name: 'Deploy finished' }).count()).toBe(1);
    // The tests after this one count the list's rows.
    expect((await daemon.api('DELETE', '/v1/history/item?app=ci&id=late-read')).status).toBe(200);
    await row('Deploy finished').waitFor({ state: 'detached' });
  });

  test('a body with HTML and a javascript: link runs nothing and makes no element', async () => {
    await page.evaluate(() => ((globalThis as unknown as { pwned: number[] }).pwned = []));
    const hostile = {
      app: 'ci',
      title: 'Hostile <img src=x onerror="window.pwned.push(1)">',
      body:
        '<img src=x onerror="window.pwned.push(2)"><script>window.pwned.push(3)</script> ' +
        '[click me](javascript:window.pwned.push(4)) <a href="javascript:window.pwned.push(5)">raw</a> **bold**',
    };
    await notify(hostile);
    const title = 'Hostile <img src=x onerror="window.pwned.push(1)">';
    await page.getByRole('link', { name: title, exact: true }).click();
    const details = page.getByRole('article', { name: title });
    await details.waitFor();
    const body = details.locator('.details-body');
    expect(await body.textContent()).toBe(
      '<img src=x onerror="window.pwned.push(2)"><script>window.pwned.push(3)</script> click me <a href="javascript:window.pwned.push(5)">raw</a> bold',
    );
    expect(await body.locator('strong').textContent()).toBe('bold'); // Markdown is drawn, HTML is not
    expect(await page.locator('img[src="x"], script:not([src]), a[href^="javascript:"]').count()).toBe(0);
    await body.getByText('click me').click();
    await page.waitForTimeout(300);
    expect(await page.evaluate(() => (globalThis as unknown as { pwned: number[] }).pwned)).toEqual([]);
    expect(problems).toEqual([]); // no dialog, no script error, no refused request
  });

  test(
    'the list holds only the rows in view, and fetches the others as they are scrolled to',
    async () => {
      await page.goto(new URL('/app/history', page.url()).href);
      const many = Array.from({ length: 400 }, (_, index) => ({ app: 'bulk', title: `Bulk ${String(index).padStart(3, '0')}` }));
      for (let start = 0; start < many.length; start += 50) await Promise.all(many.slice(start, start + 50).map(notify));
      // 400 live rows and the count's reload take their time when the other test files load both CPUs.
      await row('Bulk 399').waitFor({ timeout: BURST_SETTLES_MS });
      await page.getByText(/^405 notifications/).waitFor({ timeout: BURST_SETTLES_MS });
      expect(await page.locator('.rows > li').count()).toBeLessThan(40);
      await page.locator('.list-scroller').evaluate((element) => (element.scrollTop = element.scrollHeight));
      await row('Bulk 000').waitFor();
      expect(await page.locator('.rows > li').count()).toBeLessThan(40);
      expect(await row('Bulk 000').getAttribute('aria-posinset')).toBe('400'); // five older ones below it
      expect(problems).toEqual([]);
    },
    3 * BURST_SETTLES_MS,
  );

  test('deleting all of an app asks first, and takes only that app', async () => {
    await page.getByRole('combobox', { name: 'App' }).selectOption({ label: 'bulk' });
    await page.getByRole('button', { name: 'Export or delete' }).click();
    await page.getByRole('button', { name: 'Delete all of bulk…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete all of bulk?' });
    await dialog.getByRole('button', { name: 'Delete all' }).click();
    await page.getByText('No notification matches').waitFor();
    expect((await daemon.api('GET', '/v1/history?app=bulk')).json.items).toEqual([]);
    expect((await daemon.api('GET', '/v1/history?app=ci')).json.items.length).toBeGreaterThan(0);
    await page.getByRole('combobox', { name: 'App' }).selectOption({ label: 'All apps' });
    await row('Nightly tests passed').waitFor();
  });

  test('the details say in words what its buttons do and why it was not read aloud', async () => {
    expect((await daemon.api('POST', '/v1/register', { body: { app: 'quietci', appName: 'Quiet CI' } })).status).toBe(200);
    expect((await daemon.api('PUT', '/v1/apps/settings', { body: { app: 'quietci', speak: false } })).status).toBe(200);
    await notify({
      app: 'quietci',
      title: 'Spoken build report',
      speak: true,
      buttons: [
        { label: 'Rerun', command: 'make test' },
        { label: 'Notify the team', callback: { url: 'http://127.0.0.1:9/team' } },
      ],
    });
    await page.getByRole('link', { name: 'Spoken build report', exact: true }).click();
    const buttons = page.getByRole('region', { name: 'Buttons' });
    await buttons.waitFor();
    expect(await buttons.locator('code').allTextContents()).toEqual(['make test']); // the command as code, no backticks
    expect(await buttons.textContent()).toContain('Tells http://127.0.0.1:9/team what you chose');
    const happened = page.getByRole('region', { name: 'What happened' });
    expect(await happened.textContent()).toContain('Read aloudNo: reading aloud is off for this app'); // not "app-speech-off"
  });

  test('Sign out ends the session, and the window says so, in its title too, and how to open it again', async () => {
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { level: 1, name: 'Signed out' }).waitFor();
    await page.getByText('You signed out of Notifier in this window.').waitFor();
    const howToOpen =
      'To open Notifier, click its icon in the system tray and choose Open Notifier, start “Notifier” from your list of apps, or run “notifier open” in a terminal.';
    await page.getByText(howToOpen).waitFor();
    await titleBecomes(page, 'Notifier — Signed out'); // not the unread count of a window that shows none
    await focusBecomes(page, 'Signed out'); // the button pressed is gone: a screen reader says where the person is
    await page.reload();
    expect(await page.locator('body').textContent()).toContain(howToOpen);
    expect(await page.locator('body').textContent()).toContain('There is no password.');
  });
});

describe('what waits for its time', () => {
  test('an ntfy publish with a delay is listed above History with when it shows, and cancelled there (asked first)', async () => {
    ({ page, problems } = await openAppTab(browser, daemon)); // the tests above signed out
    const { key } = (await daemon.api('POST', '/v1/keys', { body: { app: 'backup' } })).json;
    const reply = await daemon.api('POST', '/backup', {
      token: null,
      headers: { Authorization: `Bearer ${key}`, Title: 'Backup starts soon', 'X-Delay': '1h', 'Content-Type': 'text/plain' },
      body: 'in one hour',
    });
    expect(reply.status).toBe(200);
    // A notification arriving makes the page read the list again.
    await notify({ app: 'ci', title: 'Pipeline 88 passed' });
    const strip = page.getByRole('region', { name: 'Waiting to show (1)' });
    await strip.waitFor();
    const item = strip.getByRole('listitem').filter({ hasText: 'Backup starts soon' });
    expect(await item.textContent()).toContain('Backup');
    await item.getByRole('button', { name: 'Cancel' }).click();
    const dialog = page.getByRole('dialog', { name: 'Cancel “Backup starts soon”?' });
    await dialog.getByRole('button', { name: 'Cancel it' }).click();
    await strip.waitFor({ state: 'detached' });
    expect((await daemon.api('GET', '/v1/scheduled')).json.scheduled).toEqual([]);
    expect(problems).toEqual([]);
  });
});
