// Every page of the person's app, checked by axe-core in headless Chromium (docs/app.md): no serious or critical
// violation, in light and in dark, wide and 400 px narrow (where nothing may stick out sideways either). The theme
// follows the desktop until the person picks one, and the pick is remembered.

import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { loadImage, createCanvas } from 'canvas';
import type { Browser, Page } from 'playwright-core';
import { axeViolations, startWebApp, signIn, startBrowser, watchProblems } from '../helpers/app-pages.js';
import type { AppDaemon } from '../helpers/app.js';
import { DEPLOY_QUESTION } from '../../rigs/person-app.js';

let daemon: AppDaemon;
let browser: Browser;
/** A notification with a reply field, a command button and the question its press asked: the fullest details. */
let waitingId: string;

const PAGES = ['history', 'approvals', 'compose', 'settings', 'designer', 'relay'];

beforeAll(async () => {
  [daemon, browser] = await Promise.all([startWebApp(), startBrowser()]);
  await daemon.api('POST', '/v1/register', { body: { app: 'deployer', appName: 'Deployer', allowCommands: true } });
  await daemon.api('POST', '/v1/notify', { body: { app: 'backup', title: 'Backup finished', body: '18,204 files copied.' } });
  await daemon.api('POST', '/v1/notify', { body: { app: 'ci', title: 'Build failed', body: 'See [the log](https://ci.example.com/1).' } });
  waitingId = (await daemon.api('POST', '/v1/notify', { body: { app: 'deployer', ...DEPLOY_QUESTION } })).json.id;
});

afterAll(async () => {
  await daemon?.stop();
});

/** Signs in with these browser settings and goes through every page, collecting what axe and the page complain of. */
async function checkEveryPage(options: { colorScheme: 'light' | 'dark'; width: number }): Promise<string[]> {
  const context = await browser.newContext({ viewport: { width: options.width, height: 800 }, colorScheme: options.colorScheme });
  context.setDefaultTimeout(10_000);
  const found: string[] = [];
  try {
    const page = await signIn(context, daemon);
    const problems = watchProblems(page);
    const check = async (where: string): Promise<void> => {
      for (const violation of await axeViolations(page))
        found.push(`${where}: ${violation.impact} ${violation.id} (${violation.help}) at ${violation.targets.join(', ')}`);
      const overflow = await sideways(page);
      if (overflow > 0) found.push(`${where}: ${overflow} px wider than the window`);
    };
    for (const name of PAGES) {
      await page.goto(new URL(`/app/${name}`, page.url()).href);
      await page.getByRole('heading', { level: 1 }).waitFor();
      if (name === 'history') await page.getByRole('link', { name: 'Build failed', exact: true }).waitFor();
      if (name === 'approvals') await page.getByRole('heading', { name: 'Waiting for you' }).waitFor();
      if (name === 'settings') await page.getByRole('region', { name: 'ci', exact: true }).waitFor(); // its apps drawn too
      if (name === 'designer') await page.getByRole('img', { name: 'Preview', exact: true }).waitFor(); // the editor and its card
      await check(name);
    }
    await page.goto(new URL(`/app/history/deployer/${waitingId}`, page.url()).href);
    await page.getByRole('textbox', { name: 'Reply', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Deploy', exact: true }).click();
    await page.getByRole('article', { name: /^Deployer: / }).waitFor(); // the question it asked, on the notification
    await check('details');
    found.push(...problems);
  } finally {
    await context.close();
  }
  return found;
}

/** How far the page sticks out to the right of the window (0 when it fits). */
const sideways = (page: Page): Promise<number> =>
  page.evaluate(() => {
    const root = (globalThis as unknown as { document: { documentElement: { scrollWidth: number; clientWidth: number } } }).document
      .documentElement;
    return Math.max(0, root.scrollWidth - root.clientWidth);
  });

describe('accessibility of the app', () => {
  test('no serious or critical axe violation on any page, light, at 1280 px', async () => {
    expect(await checkEveryPage({ colorScheme: 'light', width: 1280 })).toEqual([]);
  });

  test('none in dark either', async () => {
    expect(await checkEveryPage({ colorScheme: 'dark', width: 1280 })).toEqual([]);
  });

  test('none at 400 px wide, where nothing sticks out sideways', async () => {
    expect(await checkEveryPage({ colorScheme: 'light', width: 400 })).toEqual([]);
  });

  test('nothing is drawn above the logo: the skip link and its shadow stay out of sight until it has the focus', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme });
      try {
        const page = await signIn(context, daemon);
        // The strip above the logo is the navigation's plain background: every pixel alike.
        const strip = await loadImage(await page.screenshot({ clip: { x: 0, y: 0, width: 200, height: 14 } }));
        const canvas = createCanvas(strip.width, strip.height);
        canvas.getContext('2d').drawImage(strip, 0, 0);
        const pixels = canvas.getContext('2d').getImageData(0, 0, strip.width, strip.height).data;
        const colours = new Set<string>();
        for (let at = 0; at < pixels.length; at += 4) colours.add(pixels.slice(at, at + 3).join(','));
        expect({ colorScheme, colours: [...colours] }).toEqual({ colorScheme, colours: [expect.any(String)] });
        // Tab shows it, in view.
        await page.keyboard.press('Tab');
        const link = page.getByRole('link', { name: 'Skip to the page' });
        expect(await link.evaluate((element) => element.getBoundingClientRect().top)).toBeGreaterThanOrEqual(0);
      } finally {
        await context.close();
      }
    }
  });

  test('the theme follows the desktop until the person picks one, and the pick is remembered', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: 'dark' });
    context.setDefaultTimeout(10_000);
    try {
      const page = await signIn(context, daemon);
      const background = () =>
        page.evaluate(() => {
          const window = globalThis as unknown as {
            getComputedStyle(element: unknown): { backgroundColor: string };
            document: { body: unknown; documentElement: { dataset: Record<string, string> } };
          };
          return {
            color: window.getComputedStyle(window.document.body).backgroundColor,
            theme: window.document.documentElement.dataset.theme,
          };
        });
      const dark = await background();
      expect(dark.theme).toBeUndefined();
      await page.getByRole('radio', { name: 'Light' }).check();
      const light = await background();
      expect(light).toMatchObject({ theme: 'light' });
      expect(light.color).not.toBe(dark.color);
      await page.reload();
      await page.getByRole('heading', { level: 1 }).waitFor();
      expect(await background()).toEqual(light);
      expect(await page.getByRole('radio', { name: 'Light' }).isChecked()).toBe(true);
      await page.getByRole('radio', { name: 'Like the desktop' }).check();
      expect(await background()).toEqual(dark);
    } finally {
      await context.close();
    }
  });
});
