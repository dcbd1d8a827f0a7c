// Compose in the person's app (docs/app.md): in headless Chromium against a real daemon that shows its banners on a
// real desktop (Xvfb, a private session bus, dunst). "Send" puts the banner on dunst and the row in History; an
// error is shown next to the field it names and nothing typed is lost; the body's preview follows the banner's
// Markdown rules; "Add a button" puts the new button's fields under it, with the focus in its label; a template's
// fields and its card picture come with it.

import { beforeAll, describe, expect, test } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import { axeViolations, focusAfterQuickMove, openAppTab, startBrowser, startWebApp } from '../helpers/app-pages.js';
import type { AppDaemon } from '../helpers/app.js';
import { bannerOnDunst, type Desktop, startDesktop } from '../helpers/desktop.js';

let desktop: Desktop;
let daemon: AppDaemon;
let browser: Browser;
let page: Page;
let problems: string[];

const field = (name: string) => page.getByRole('textbox', { name, exact: true });

beforeAll(async () => {
  [desktop, browser] = await Promise.all([startDesktop(), startBrowser()]);
  daemon = await startWebApp({ env: desktop.env, presenter: 'dbus' });
  const template = { app: 'notifier', name: 'status', title: '{service} is {status}', body: 'Checked by {checker}' };
  expect((await daemon.api('PUT', '/v1/templates', { body: template })).status).toBe(200);
  ({ page, problems } = await openAppTab(browser, daemon, 'compose'));
}, 30_000);

describe('Compose in the app', () => {
  test('Send shows the banner on the desktop and the row in History', async () => {
    expect(await page.title()).toBe('Notifier — Compose');
    await field('Title').fill('Water the plants');
    await field('Body').fill('The **ficus** and the *basil*.');
    // The preview draws the body as the banner reads it.
    const preview = page.getByRole('complementary', { name: 'Preview' });
    expect(await preview.locator('strong').textContent()).toBe('ficus');
    expect(await preview.locator('em').textContent()).toBe('basil');
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByText('Sent.').waitFor();
    const banner = await bannerOnDunst(desktop, 'Water the plants');
    expect(banner.body).toBe('The <b>ficus</b> and the <i>basil</i>.');
    expect(banner.appname).toBe('Notifier'); // sent as "Notifier (you)": its name, not its id "notifier"
    await page.getByRole('link', { name: /See “Water the plants” in History/ }).click();
    await page.getByRole('heading', { level: 2, name: 'Water the plants' }).waitFor();
    const row = page.getByRole('listitem').filter({ has: page.getByRole('link', { name: 'Water the plants', exact: true }) });
    expect(await row.locator('.row-app').textContent()).toBe('Notifier');
    const history = await daemon.api('GET', '/v1/history?app=notifier');
    expect(history.json.items[0].notification).toMatchObject({
      app: 'notifier',
      title: 'Water the plants',
      body: 'The **ficus** and the *basil*.',
    });
    expect(problems).toEqual([]);
  });

  test('an error is shown next to the field it names, and nothing typed is lost', async () => {
    // Back to Compose: the new page's heading takes the focus once painted, unless the person is in a field already.
    expect(await focusAfterQuickMove(page, 'nav a[href$="compose"]', 'compose-title')).toBe('compose-title');
    await page.getByRole('button', { name: 'New notification' }).click();
    await field('Title').fill('Read the report');
    await field('Body').fill('Before Friday.');
    await field('Link').fill('javascript:alert(1)');
    await page.getByRole('button', { name: 'Add a button' }).click();
    await field('Button 1 label').fill('Open');
    await field('Button 1 link').fill('https://example.com/report');
    const before = (await daemon.api('GET', '/v1/history?app=notifier')).json.items.length;
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const link = field('Link');
    await page.waitForFunction(() => {
      const element = (globalThis as unknown as { document: { activeElement: { id: string } | null } }).document.activeElement;
      return element?.id === 'compose-link';
    });
    expect(await link.getAttribute('aria-invalid')).toBe('true');
    const describedBy = (await link.getAttribute('aria-describedby'))!.split(' ');
    const message = await page.locator(`[id="${describedBy[0]}"]`).textContent();
    // In the form's words, what to do: not the API's "invalid field: url (…)".
    expect(message).toBe('Use a web address that starts with https:// or http://, or mailto: for an email address.');
    expect(await field('Title').inputValue()).toBe('Read the report');
    expect(await field('Body').inputValue()).toBe('Before Friday.');
    expect(await link.inputValue()).toBe('javascript:alert(1)');
    expect(await field('Button 1 link').inputValue()).toBe('https://example.com/report');
    expect((await daemon.api('GET', '/v1/history?app=notifier')).json.items.length).toBe(before);
    expect(problems.splice(0)).toEqual([expect.stringMatching(/^400 .*\/app\/api\/compose$/)]); // the refusal, and nothing else

    // Each refusal the form can meet, in words a person acts on, next to its field.
    const refusal = async (name: string): Promise<string> => {
      await page.getByRole('button', { name: 'Send', exact: true }).click();
      await page.waitForFunction(
        (wanted) => {
          const { document } = globalThis as unknown as {
            document: { activeElement: { getAttribute(name: string): string | null } | null };
          };
          return document.activeElement?.getAttribute('aria-invalid') === 'true' && document.activeElement.getAttribute('id') === wanted;
        },
        await field(name).getAttribute('id'),
      );
      const [id] = (await field(name).getAttribute('aria-describedby'))!.split(' ');
      return (await page.locator(`[id="${id}"]`).textContent())!;
    };
    await link.fill('https://example.com/report');
    await field('Button 1 link').fill('ftp://example.com/report');
    expect(await refusal('Button 1 link')).toBe(
      'Button 1: Use a web address that starts with https:// or http://, or mailto: for an email address.',
    );
    await field('Button 1 link').fill('https://example.com/report');
    await field('Button 1 label').fill('');
    expect(await refusal('Button 1 label')).toBe('Give button 1 a label.');
    // The message under the label moves neither the link's field nor the Remove button out of line.
    const tops = await Promise.all(
      [field('Button 1 label'), field('Button 1 link'), page.getByRole('button', { name: 'Remove button 1' })].map(
        async (control) => (await control.boundingBox())!.y,
      ),
    );
    expect(new Set(tops).size).toBe(1);
    await field('Button 1 label').fill('Open');
    await field('Title').fill('');
    expect(await refusal('Title')).toBe('Give the notification a title.');
    await field('Title').fill('Read the report');
    expect(problems.splice(0)).toEqual(Array(3).fill(expect.stringMatching(/^400 .*\/app\/api\/compose$/)));

    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByText('Sent.').waitFor();
    expect(await link.getAttribute('aria-invalid')).toBeNull();
    const sent = (await daemon.api('GET', '/v1/history?app=notifier')).json.items[0].notification;
    expect(sent).toMatchObject({
      title: 'Read the report',
      url: 'https://example.com/report',
      buttons: [{ label: 'Open', url: 'https://example.com/report' }],
    });
  });

  test("Add a button: the new button's fields appear under it, with the focus in its label; Remove hands the focus on", async () => {
    await page.getByRole('button', { name: 'New notification' }).click();
    const add = page.getByRole('button', { name: 'Add a button' });
    const focusedId = (): Promise<string> => page.evaluate(() => (globalThis as any).document.activeElement?.id ?? '');
    const isFocused = async (name: string): Promise<void> => {
      const id = await field(name).getAttribute('id');
      await page.waitForFunction((wanted) => (globalThis as any).document.activeElement?.id === wanted, id);
    };
    /** Where it is on the page (not in the window: the page scrolls to show the focused field). */
    const top = (locator: ReturnType<typeof field>): Promise<number> =>
      locator.evaluate((element) => element.getBoundingClientRect().top + (element.closest('main') as any).scrollTop);

    await add.focus();
    await page.keyboard.press('Enter');
    await isFocused('Button 1 label');
    await page.keyboard.type('Open'); // typed where the person is: in the new label
    expect(await field('Button 1 label').inputValue()).toBe('Open');
    expect(await top(field('Button 1 label'))).toBeGreaterThan(await top(add));
    await add.click();
    await isFocused('Button 2 label');
    expect(await top(field('Button 2 label'))).toBeGreaterThan(await top(field('Button 1 label')));
    const addTop = await top(add);
    await add.click();
    await isFocused('Button 3 label');
    expect(await top(add)).toBe(addTop); // the button stays where it was pressed
    await page.keyboard.type('Later');

    // A person who clicks into another field before the new label took the focus is left there, typing where they
    // are (on a slow machine the two frames the page waits can be longer than a click).
    expect(await focusAfterQuickMove(page, '#compose-add-button', 'compose-title')).toBe('compose-title');
    await page.getByRole('button', { name: 'Remove button 4' }).click();
    await isFocused('Button 3 label');

    // Removing one: the focus goes to the button that took its place, and from the last to "Add a button".
    await page.getByRole('button', { name: 'Remove button 2' }).click();
    await isFocused('Button 2 label');
    expect(await field('Button 2 label').inputValue()).toBe('Later');
    await page.getByRole('button', { name: 'Remove button 2' }).click();
    await isFocused('Button 1 label');
    await page.getByRole('button', { name: 'Remove button 1' }).click();
    await page.waitForFunction(() => (globalThis as any).document.activeElement?.id === 'compose-add-button');
    expect(await focusedId()).toBe('compose-add-button');
    for (const width of [1280, 400]) {
      await page.setViewportSize({ width, height: 800 });
      await add.click();
      for (const colorScheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme });
        expect({ width, colorScheme, violations: await axeViolations(page) }).toEqual({ width, colorScheme, violations: [] });
      }
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.emulateMedia({ colorScheme: 'light' });
    expect(problems).toEqual([]);
  });

  test('buttons stop at the most a notification has, and the form says why', async () => {
    await page.getByRole('button', { name: 'New notification' }).click();
    await page.getByRole('checkbox', { name: /Ask for a reply/ }).check();
    const add = page.getByRole('button', { name: 'Add a button' });
    for (let added = 0; added < 7; added++) await add.click();
    await add.waitFor({ state: 'detached' }); // 7 and the reply's: 8
    await page.getByText('A notification has 8 buttons at most; “Ask for a reply” adds one.').waitFor();
    await page.getByRole('button', { name: 'Remove button 7' }).click();
    await add.waitFor();
    await page.getByRole('button', { name: 'New notification' }).click();
  });

  test("a template's fields are asked for, and the card it draws is previewed", async () => {
    await page.getByRole('button', { name: 'New notification' }).click();
    await page.getByRole('combobox', { name: 'Template' }).selectOption('status');
    await field('service').fill('The backup server');
    await field('status').fill('up');
    await field('checker').fill('the night watch');
    const card = page.getByRole('img', { name: 'Preview of the card this template draws' });
    await card.waitFor();
    await page.waitForFunction(() => {
      const image = (
        globalThis as unknown as { document: { querySelector(s: string): { naturalWidth: number } | null } }
      ).document.querySelector('.card-preview img');
      return (image?.naturalWidth ?? 0) > 100;
    });
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    await page.getByText('Sent.').waitFor();
    const sent = (await daemon.api('GET', '/v1/history?app=notifier')).json.items[0];
    expect(sent.notification.template).toBe('status');
    expect(sent.fields).toMatchObject({ service: 'The backup server', status: 'up', checker: 'the night watch' });
    expect(problems).toEqual([]);
  });
});
