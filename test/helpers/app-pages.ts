import { afterAll, expect } from '@jest/globals';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { AppPage } from '../../protocol/app-api.js';
import { type AppDaemon, BUILT_APP, startAppDaemon } from './app.js';
import { launchChromium } from '../../rigs/chromium.js';
import { ROOT, tempFolder } from './daemon.js';

// The person's app in a real browser: a daemon serving the built front end, headless Chromium signed in through
// the private channel, and what a test checks on every page (script errors, refused requests, axe-core). What
// these start is stopped after the test file by the helper that started it, whatever happens.

const browsers = new Set<Browser>();
afterAll(async () => {
  for (const browser of browsers) await browser.close();
});

/** Headless Chromium, closed after the test file whatever happens. */
export async function startBrowser(): Promise<Browser> {
  const browser = await launchChromium();
  browsers.add(browser);
  return browser;
}

/**
 * A daemon serving the built front end (headless banners unless `presenter` says otherwise, no tray), with a desktop
 * to open the app on (test/helpers/app.ts).
 */
export async function startWebApp(options: { presenter?: string; env?: Record<string, string> } = {}): Promise<AppDaemon> {
  const supportDir = await tempFolder();
  const args = ['--support-dir', supportDir, '--port', '0', '--presenter', options.presenter ?? 'headless'];
  return startAppDaemon({ appDir: BUILT_APP, supportDir, args, ...(options.env ? { env: options.env } : {}) });
}

/** Opens the app at `page` in a new tab of `context`, signed in as the tray does it; resolves once it is there. */
export async function signIn(context: BrowserContext, daemon: AppDaemon, page: AppPage = 'history'): Promise<Page> {
  const tab = await context.newPage();
  await tab.goto((await daemon.signInLink(page)).link);
  await tab.waitForURL((url) => url.pathname === `/app/${page}`);
  await tab.getByRole('heading', { level: 1 }).waitFor();
  return tab;
}

/** A tab of the app signed in, in a browser context of its own, and what went wrong in it since (watchProblems). */
export interface AppTab {
  page: Page;
  problems: string[];
}

/**
 * Opens the app at `page` as the person's window shows it (1280×800, 10 s for anything to show), in a new context
 * of `browser` (closed with it after the test file), `permissions` granted to the daemon's origin first.
 */
export async function openAppTab(browser: Browser, daemon: AppDaemon, page?: AppPage, permissions: string[] = []): Promise<AppTab> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  context.setDefaultTimeout(10_000);
  if (permissions.length > 0) await context.grantPermissions(permissions, { origin: `http://127.0.0.1:${daemon.port}` });
  const tab = await signIn(context, daemon, page);
  return { page: tab, problems: watchProblems(tab) };
}

/**
 * What went wrong in a page from now on: script errors, console errors (a CSP refusal is one) and answers of 400
 * and more. The browser's own favicon request is not the app's (the server's sign-in page has no icon).
 */
export function watchProblems(page: Page): string[] {
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`script error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) problems.push(`console: ${message.text()}`);
  });
  page.on('response', (response) => {
    if (response.status() >= 400 && !response.url().endsWith('/favicon.ico')) problems.push(`${response.status()} ${response.url()}`);
  });
  page.on('dialog', (dialog) => {
    problems.push(`dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
  return problems;
}

/** Resolves once the document's title is `title`. */
export async function titleBecomes(page: Page, title: string): Promise<void> {
  await page
    .waitForFunction((wanted) => (globalThis as unknown as { document: { title: string } }).document.title === wanted, title, {
      timeout: 10_000,
    })
    .catch(async (error: Error) => {
      throw new Error(`${error.message}: the title is "${await page.title()}", not "${title}"`);
    });
}

type FocusedDocument = { document: { body: unknown; activeElement: { textContent: string | null } | null } };

/** The text of the element that has the focus now ('' when nothing has it): what a keyboard user is on. */
export function focusedText(page: Page): Promise<string> {
  return page.evaluate(() => {
    const { activeElement, body } = (globalThis as unknown as FocusedDocument).document;
    return activeElement && activeElement !== body ? (activeElement.textContent?.trim() ?? '') : '';
  });
}

/** Resolves once the element with the focus reads `text` (the focus can move after an answer arrives). */
export async function focusBecomes(page: Page, text: string): Promise<void> {
  await page
    .waitForFunction((wanted) => (globalThis as unknown as FocusedDocument).document.activeElement?.textContent?.trim() === wanted, text, {
      timeout: 10_000,
    })
    .catch(async (error: Error) => {
      throw new Error(`${error.message}: the focus is on "${await focusedText(page)}", not "${text}"`);
    });
}

/**
 * A person quicker than the page's own focus move: clicks `selector` and, as soon as the field `fieldId` is in the
 * page (a mutation observer answers before the next frame), moves into it. Answers the id of what has the focus
 * four frames later, when every focus move the click started (they wait one or two frames, or a paint) is done.
 */
export function focusAfterQuickMove(page: Page, selector: string, fieldId: string): Promise<string> {
  return page.evaluate(
    async ([selector, fieldId]) => {
      const { document, requestAnimationFrame, MutationObserver } = globalThis as any;
      const drawn = new Promise<void>((done) => {
        if (document.getElementById(fieldId)) return done();
        const watch = new MutationObserver(() => document.getElementById(fieldId) && (watch.disconnect(), done()));
        watch.observe(document.body, { childList: true, subtree: true });
      });
      document.querySelector(selector).click();
      await drawn;
      document.getElementById(fieldId).focus();
      for (let frame = 0; frame < 4; frame += 1) await new Promise((done) => requestAnimationFrame(done));
      return document.activeElement?.id ?? '';
    },
    [selector, fieldId] as const,
  );
}

const AXE = readFileSync(path.join(ROOT, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string;
  help: string;
  targets: string[];
}

/**
 * axe-core's serious and critical violations on the page as it is now, and those of the rules `anyImpact` names
 * whatever their impact (`heading-order` is only "moderate"). The script is evaluated through the browser's
 * debugging protocol, so the page's Content-Security-Policy stays as strict as the person gets it.
 */
export async function axeViolations(page: Page, anyImpact: string[] = []): Promise<AxeViolation[]> {
  await page.evaluate(AXE);
  const violations = await page.evaluate(async () => {
    const page = globalThis as unknown as { axe: { run(context: unknown): Promise<{ violations: any[] }> }; document: unknown };
    const result = await page.axe.run(page.document);
    return result.violations.map((violation) => ({
      id: violation.id as string,
      impact: violation.impact as string,
      help: violation.help as string,
      targets: (violation.nodes as Array<{ target: string[] }>).map((node) => node.target.join(' ')),
    }));
  });
  return violations.filter(
    (violation) => violation.impact === 'serious' || violation.impact === 'critical' || anyImpact.includes(violation.id),
  );
}

/** The looks a page is checked in: the person's window and a narrow one, each light and dark. */
const LOOKS = [1280, 400].flatMap((width) => (['light', 'dark'] as const).map((colorScheme) => ({ width, colorScheme })));

/**
 * Expects no serious or critical axe violation on `page` at 1280 and 400 px wide, light and dark — each look set up
 * by `prepare` first, when given — a violation named with its look; then puts the page back at 1280 px, light.
 */
export async function expectAxeClean(page: Page, prepare?: () => Promise<void>): Promise<void> {
  for (const { width, colorScheme } of LOOKS) {
    await page.setViewportSize({ width, height: 800 });
    await page.emulateMedia({ colorScheme });
    await prepare?.();
    expect({ width, colorScheme, violations: await axeViolations(page) }).toEqual({ width, colorScheme, violations: [] });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: 'light' });
}
