// A body's Markdown on the details page, in Chromium against a real daemon (docs/api/notifications.md#n46): its
// headings under the page's own (no level skipped), its lists, code, quote and rule as elements built from text (the
// sender's HTML stays text), a code block scrolling sideways in a narrow window rather than widening the page, and
// History's row showing the first line without its marks. axe, light and dark, wide and 400 px.

import { beforeAll, describe, expect, test } from '@jest/globals';
import type { Browser, Page } from 'playwright-core';
import { axeViolations, openAppTab, startBrowser, startWebApp } from '../helpers/app-pages.js';
import type { AppDaemon } from '../helpers/app.js';

let daemon: AppDaemon;
let browser: Browser;
let page: Page;
let problems: string[];

const TITLE = 'Build 88 failed';
const LONG_COMMAND = `npm test -- ${'--filter=history-and-its-details '.repeat(6)}`;
const BODY = [
  'Build **failed** on `main`:',
  '',
  '# What broke',
  '- lint: 3 errors',
  '- tests:',
  '  - `history.test.ts`',
  '',
  '### Next',
  '3. fix',
  '4. push',
  '',
  '```sh',
  LONG_COMMAND,
  '```',
  '> Retry *later*',
  '---',
  '## Done <script>window.pwned = 1</script>',
].join('\n');

let id: string;
const details = () => page.getByRole('article', { name: TITLE });
const body = () => details().locator('.details-body');

beforeAll(async () => {
  [daemon, browser] = await Promise.all([startWebApp(), startBrowser()]);
  id = (await daemon.api('POST', '/v1/notify', { body: { app: 'ci', title: TITLE, body: BODY } })).json.id;
  await daemon.api('POST', '/v1/notify', { body: { app: 'ci', title: 'Steps', body: '- check the **log**\n- retry' } });
  ({ page, problems } = await openAppTab(browser, daemon));
});

const openDetails = async (): Promise<void> => {
  await page.goto(new URL(`/app/history/ci/${encodeURIComponent(id)}`, page.url()).href);
  await page.getByRole('heading', { level: 2, name: TITLE }).waitFor();
};

describe("a body's Markdown on the details page", () => {
  test("History's rows show the first line without its marks", async () => {
    const row = (title: string) => page.getByRole('listitem').filter({ has: page.getByRole('link', { name: title, exact: true }) });
    await row(TITLE).getByText('Build failed on main:', { exact: true }).waitFor();
    await row('Steps').getByText('• check the log', { exact: true }).waitFor();
  });

  test("headings one level under the page's title and never skipping one, whatever the sender's levels", async () => {
    await openDetails();
    const headings = await body()
      .getByRole('heading')
      .evaluateAll((found) => found.map((heading) => `${heading.tagName} ${heading.textContent}`));
    // `#` under the title (h2) is h3; `###` after it only one deeper; `##` after that stays at h4.
    expect(headings).toEqual(['H3 What broke', 'H4 Next', 'H4 Done <script>window.pwned = 1</script>']);
    expect(await page.evaluate(() => (globalThis as unknown as { pwned?: number }).pwned)).toBeUndefined();
  });

  test('lists, a list in an item, numbered from their first number', async () => {
    const [bullets, numbered] = [body().getByRole('list').first(), body().getByRole('list').last()];
    const items = bullets.locator(':scope > li');
    expect(await items.count()).toBe(2);
    expect(await items.first().textContent()).toBe('lint: 3 errors');
    const inner = items.last().getByRole('list');
    expect(await inner.getByRole('listitem').allTextContents()).toEqual(['history.test.ts']);
    expect(await inner.getByRole('code').textContent()).toBe('history.test.ts');
    expect(await numbered.evaluate((list) => [list.tagName, list.getAttribute('start')])).toEqual(['OL', '3']);
    expect(await numbered.getByRole('listitem').allTextContents()).toEqual(['fix', 'push']);
  });

  test('inline code and a code block with its label, a quote and a rule; no marks left', async () => {
    await body().getByRole('paragraph').first().getByRole('code').filter({ hasText: 'main' }).waitFor();
    const block = body().getByRole('figure', { name: 'sh' });
    expect(await block.getByRole('code').textContent()).toBe(LONG_COMMAND);
    const quote = body().getByRole('blockquote');
    expect(await quote.textContent()).toBe('Retry later');
    expect(await quote.getByRole('emphasis').textContent()).toBe('later');
    expect(await body().getByRole('separator').count()).toBe(1);
    // The body's text but its code block's (whose command has dashes of its own).
    const text = await body().evaluate((element) => {
      const copy = element.cloneNode(true) as typeof element;
      for (const pre of copy.querySelectorAll('pre')) pre.remove();
      return copy.textContent ?? '';
    });
    for (const mark of ['**', '`', '```', '# ', '- ', '> ', '---'])
      expect({ mark, shown: text.includes(mark) }).toEqual({ mark, shown: false });
  });

  test('axe (heading order included) light and dark, 1280 and 400 px; a long code line scrolls inside its block', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      for (const width of [1280, 400]) {
        await page.emulateMedia({ colorScheme });
        await page.setViewportSize({ width, height: 800 });
        await openDetails();
        expect({ colorScheme, width, violations: await axeViolations(page, ['heading-order']) }).toEqual({
          colorScheme,
          width,
          violations: [],
        });
        const code = body().locator('pre');
        const sizes = await code.evaluate((pre) => ({
          scrolls: pre.scrollWidth > pre.clientWidth,
          focusable: pre.tabIndex === 0,
          fits: pre.getBoundingClientRect().right <= pre.ownerDocument.documentElement.clientWidth,
          pageFits: pre.ownerDocument.documentElement.scrollWidth <= pre.ownerDocument.documentElement.clientWidth,
        }));
        expect({ colorScheme, width, ...sizes }).toEqual({
          colorScheme,
          width,
          scrolls: true,
          focusable: true,
          fits: true,
          pageFits: true,
        });
      }
    }
    expect(problems).toEqual([]);
  });
});
