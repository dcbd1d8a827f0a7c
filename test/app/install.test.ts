// The person's app as an app a person installs (docs/app.md#installing-the-window), in headless Chromium against a
// real daemon: the manifest, its icons and the service worker; Chromium's own verdict that it is installable; the
// shell served by the worker while the daemon is stopped and started again; no /app/api answer ever kept or served
// by the worker; the unread count as the app's badge; History's first-run view (its real port, its test
// notification, and its command run as a script would); and the desktop entry's actions, one per page.

import { spawnSync } from 'node:child_process';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { createCanvas, loadImage } from 'canvas';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { APP_PAGES } from '../../protocol/app-api.js';
import { desktopEntry } from '../../daemon/integrations/login-service.js';
import { axeViolations, signIn, startBrowser, startWebApp, watchProblems } from '../helpers/app-pages.js';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../rigs/chromium.js';
import { type AppDaemon, BUILT_APP, startAppDaemon } from '../helpers/app.js';
import { CLI, tempFolder, waitFor } from '../helpers/daemon.js';

let browser: Browser;
beforeAll(async () => {
  browser = await startBrowser();
});

/** A context of its own (the worker and its caches belong to one profile's origin), closed after the test. */
async function newContext(options: { colorScheme?: 'light' | 'dark'; width?: number } = {}): Promise<BrowserContext> {
  const context = await browser.newContext({
    viewport: { width: options.width ?? 1280, height: 800 },
    colorScheme: options.colorScheme ?? 'light',
  });
  context.setDefaultTimeout(10_000);
  return context;
}

/**
 * A context with a profile folder of its own, as a person's browser has: Chromium offers no install in an
 * off-the-record context (which `browser.newContext` makes), and says so (`in-incognito`).
 */
async function profileContext(): Promise<BrowserContext> {
  const profile = await tempFolder('notifier-profile-');
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1280, height: 800 },
  });
  context.setDefaultTimeout(10_000);
  return context;
}

/** Resolves once the worker controls the page (its first load is not controlled: a reload is). */
async function controlledByWorker(page: Page): Promise<void> {
  const scope = await page.evaluate(async () => {
    const registration = await (globalThis as any).navigator.serviceWorker.ready;
    return registration.scope as string;
  });
  expect(new URL(scope).pathname).toBe('/app/');
  if (!(await page.evaluate(() => Boolean((globalThis as any).navigator.serviceWorker.controller)))) await page.reload();
  await page.waitForFunction(() => Boolean((globalThis as any).navigator.serviceWorker.controller));
  await page.getByRole('heading', { level: 1 }).waitFor();
}

/** Every address the page's origin keeps in its caches (what the worker stored). */
function cachedAddresses(page: Page): Promise<string[]> {
  return page.evaluate(async () => {
    const caches = (globalThis as any).caches;
    const found: string[] = [];
    for (const name of await caches.keys()) {
      const cache = await caches.open(name);
      for (const request of await cache.keys()) found.push(new URL(request.url).pathname);
    }
    return found;
  });
}

describe('the manifest, the icons and the worker', () => {
  let daemon: AppDaemon;
  beforeAll(async () => {
    daemon = await startWebApp();
  });
  afterAll(async () => {
    await daemon?.stop();
    if (daemon) await rm(daemon.supportDir, { recursive: true, force: true });
  });

  test('are served without a session, with their types; the pages still are not', async () => {
    const manifestReply = await daemon.raw('GET', '/app/manifest.webmanifest');
    expect(manifestReply.status).toBe(200);
    expect(manifestReply.headers['content-type']).toBe('application/manifest+json');
    const manifest = JSON.parse(manifestReply.text);
    expect(manifest).toMatchObject({
      name: 'Notifier',
      start_url: '/app/history',
      scope: '/app/',
      display: 'standalone',
      theme_color: '#2557c7',
      background_color: '#f5f6f8',
    });
    const sizes: string[] = [];
    for (const icon of manifest.icons as Array<{ src: string; sizes: string; purpose: string }>) {
      const reply = await daemon.raw('GET', icon.src);
      expect([icon.src, reply.status, reply.headers['content-type']]).toEqual([icon.src, 200, 'image/png']);
      const picture = await loadImage(reply.raw);
      expect(`${picture.width}x${picture.height}`).toBe(icon.sizes);
      // A maskable icon fills its square (a launcher cuts it to any shape); the others keep the rounded corners.
      const canvas = createCanvas(picture.width, picture.height);
      canvas.getContext('2d').drawImage(picture, 0, 0);
      const cornerAlpha = canvas.getContext('2d').getImageData(0, 0, 1, 1).data[3];
      expect([icon.purpose, cornerAlpha]).toEqual([icon.purpose, icon.purpose === 'maskable' ? 255 : 0]);
      sizes.push(`${icon.sizes} ${icon.purpose}`);
    }
    expect(sizes).toEqual(['192x192 any', '512x512 any', '512x512 maskable']);
    const worker = await daemon.raw('GET', '/app/sw.js');
    expect([worker.status, worker.headers['content-type'], worker.headers['cache-control']]).toEqual([
      200,
      'text/javascript; charset=utf-8',
      'no-cache',
    ]);
    expect(worker.text).not.toContain('__NOTIFIER_SHELL__'); // the build put the shell's list in
    // The pages and the API stay behind the session.
    expect((await daemon.raw('GET', '/app/history')).status).toBe(401);
    expect((await daemon.raw('GET', '/app/api/first-run')).status).toBe(401);
    // The app's page names the manifest.
    const session = await daemon.signIn();
    const html = (await daemon.raw('GET', '/app/history', { headers: { Cookie: session.cookie } })).text;
    expect(html).toContain('<link rel="manifest" href="/app/manifest.webmanifest">');
  });

  test('Chromium reports the app installable, and no /app/api answer is kept or served by the worker', async () => {
    const context = await profileContext();
    try {
      const page = await signIn(context, daemon);
      const problems = watchProblems(page);
      await controlledByWorker(page);
      const cdp = await context.newCDPSession(page);
      const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as { installabilityErrors: unknown[] };
      expect(installabilityErrors).toEqual([]);
      const { errors: manifestErrors } = (await cdp.send('Page.getAppManifest')) as { errors: unknown[] };
      expect(manifestErrors).toEqual([]);

      // A reload under the worker: the built files come from it, no /app/api answer does.
      const answers: Array<{ path: string; fromWorker: boolean }> = [];
      page.on('response', (response) => answers.push({ path: new URL(response.url()).pathname, fromWorker: response.fromServiceWorker() }));
      await page.reload();
      await page.getByRole('heading', { name: 'No notifications yet' }).waitFor();
      await daemon.api('POST', '/v1/notify', { body: { app: 'backup', title: 'Backup finished' } });
      await page.getByRole('link', { name: 'Backup finished', exact: true }).waitFor();
      const api = answers.filter((answer) => answer.path.startsWith('/app/api/'));
      expect(api.length).toBeGreaterThan(2);
      expect(api.filter((answer) => answer.fromWorker)).toEqual([]);
      expect(answers.filter((answer) => answer.path.startsWith('/app/assets/') && answer.fromWorker).length).toBeGreaterThan(0);

      // What the worker keeps: the shell page and the built files, never the API, never the sign-in.
      const kept = await cachedAddresses(page);
      expect(kept).toContain('/app/');
      expect(kept).toContain('/app/manifest.webmanifest');
      expect(kept.filter((where) => where.startsWith('/app/api') || where.startsWith('/app/signin'))).toEqual([]);

      // An /app/api request after a change answers the change (asked from the page, through the worker's scope).
      const count = () =>
        page.evaluate(async () => {
          const csrf = (globalThis as any).localStorage.getItem('notifier.csrf');
          const reply = await fetch('/app/api/history?limit=1', { headers: { 'X-Notifier-CSRF': csrf } });
          return ((await reply.json()) as { total: number }).total;
        });
      expect(await count()).toBe(1);
      await daemon.api('POST', '/v1/notify', { body: { app: 'backup', title: 'Second backup' } });
      expect(await count()).toBe(2);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test("the unread count is the installed app's badge, cleared when all is read", async () => {
    const context = await newContext();
    // The badge is drawn only on an installed app: the test's stand-in writes down what the page asked for.
    await context.addInitScript(() => {
      const scope = globalThis as any;
      scope.badges = [];
      Object.defineProperty(scope.Navigator.prototype, 'setAppBadge', {
        configurable: true,
        value: (count: number) => (scope.badges.push(count), Promise.resolve()),
      });
      Object.defineProperty(scope.Navigator.prototype, 'clearAppBadge', {
        configurable: true,
        value: () => (scope.badges.push(0), Promise.resolve()),
      });
    });
    try {
      await daemon.api('DELETE', '/v1/history');
      const page = await signIn(context, daemon);
      const badges = () => page.evaluate(() => (globalThis as any).badges as number[]);
      await waitFor(async () => (await badges()).at(-1) === 0, 'the badge to be cleared at first');
      await daemon.api('POST', '/v1/notify', { body: { app: 'backup', title: 'One' } });
      await daemon.api('POST', '/v1/notify', { body: { app: 'backup', title: 'Two' } });
      await waitFor(async () => (await badges()).at(-1) === 2, 'the badge to say 2');
      await page.getByRole('button', { name: 'Mark all read' }).click();
      await waitFor(async () => (await badges()).at(-1) === 0, 'the badge to be cleared');
    } finally {
      await context.close();
    }
  });
});

describe('the shell while the daemon restarts', () => {
  let daemon: AppDaemon | undefined;
  let supportDir: string;
  afterAll(async () => {
    await daemon?.stop();
    await rm(supportDir, { recursive: true, force: true });
  });

  const start = (port: number) =>
    startAppDaemon({
      appDir: BUILT_APP,
      supportDir,
      args: ['--support-dir', supportDir, '--port', String(port), '--presenter', 'headless'],
    });

  test('stopped, a reload still shows the window, which says how to open Notifier again; started again, the window is still signed in', async () => {
    supportDir = await tempFolder();
    daemon = await start(0);
    const port = daemon.port;
    const context = await newContext();
    try {
      const page = await signIn(context, daemon);
      await controlledByWorker(page);

      await daemon.stop();
      daemon = undefined;
      const offline = await page.reload();
      expect(offline?.fromServiceWorker()).toBe(true);
      await page.getByRole('heading', { name: 'History', level: 1 }).waitFor();
      await page
        .getByText('History could not be loaded: Notifier did not answer. Is it still running? To open Notifier, click its icon')
        .waitFor();

      daemon = await start(port);
      // The session was kept on disk: the reload is the window again, signed in, with History.
      const online = await page.reload();
      expect(online?.status()).toBe(200);
      await page.getByRole('heading', { name: 'No notifications yet' }).waitFor();
      // Signed out everywhere in Settings, the window and then the daemon's own page name every way back in.
      await page.getByRole('link', { name: 'Settings' }).click();
      await page.getByRole('button', { name: 'Sign out everywhere' }).click();
      await page.getByText('Signed out', { exact: true }).waitFor();
      const out = await page.reload();
      expect(out?.status()).toBe(401);
      await page
        .getByText(
          /To open Notifier, click its icon in the system tray and choose Open Notifier, start “Notifier” from your list of apps, or run “notifier open” in a terminal/,
        )
        .waitFor();
      // Signing in again works as ever, and the window is whole.
      const again = await signIn(context, daemon);
      await again.getByRole('heading', { name: 'No notifications yet' }).waitFor();
    } finally {
      await context.close();
    }
  });
});

describe("History's first-run view", () => {
  let daemon: AppDaemon;
  let token: string;
  beforeAll(async () => {
    daemon = await startWebApp();
    token = (await readFile(path.join(daemon.supportDir, 'token'), 'utf8')).trim();
  });
  afterAll(async () => {
    await daemon?.stop();
    if (daemon) await rm(daemon.supportDir, { recursive: true, force: true });
  });

  const commandOf = async (page: Page): Promise<string> =>
    (await page.getByRole('region', { name: 'No notifications yet' }).locator('pre code').textContent()) ?? '';

  test('shows the real port and the token file, never the token; its test notification arrives in History', async () => {
    const context = await newContext();
    try {
      const page = await signIn(context, daemon);
      const problems = watchProblems(page);
      const view = page.getByRole('region', { name: 'No notifications yet' });
      await view.waitFor();
      expect(await view.textContent()).toContain('Notifier puts the notifications your apps, scripts and agents send you on screen');
      const command = await commandOf(page);
      expect(command).toContain(`http://127.0.0.1:${daemon.port}/v1/notify`);
      expect(command).toContain(`$(cat ${path.join(daemon.supportDir, 'token')})`);
      expect(await page.content()).not.toContain(token);

      await view.getByRole('button', { name: 'Send a test notification' }).click();
      await page.getByRole('link', { name: 'Notifier works', exact: true }).waitFor();
      const sent = (await daemon.api('GET', '/v1/history?app=notifier')).json.items;
      expect(sent.map((item: { notification: { title: string } }) => item.notification.title)).toEqual(['Notifier works']);
      expect(problems).toEqual([]);
    } finally {
      await context.close();
    }
  });

  test('its command, copied and run as a script runs it, sends a notification that appears in History', async () => {
    await daemon.api('DELETE', '/v1/history');
    const context = await newContext();
    try {
      const page = await signIn(context, daemon);
      await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(page.url()).origin });
      await page.getByRole('button', { name: 'Copy the command' }).click();
      await page.getByRole('status').getByText('Copied.').waitFor();
      const command = await page.evaluate(() => (globalThis as any).navigator.clipboard.readText() as Promise<string>);
      expect(command).toBe(await commandOf(page));
      const ran = spawnSync('sh', ['-c', command], { encoding: 'utf8', timeout: 10_000 });
      expect([ran.status, ran.stdout]).toEqual([0, expect.stringContaining('"ok":true')]);
      await page.getByRole('link', { name: 'Hello from my script', exact: true }).waitFor();
      // The view went with the empty History; a search that finds nothing does not bring it back.
      await page.getByRole('searchbox', { name: 'Search' }).fill('nothing like this');
      await page.getByText('No notification matches.', { exact: false }).waitFor();
      expect(await page.getByRole('region', { name: 'No notifications yet' }).count()).toBe(0);
    } finally {
      await context.close();
    }
  });

  test('axe finds no serious or critical violation on it, light and dark, wide and narrow; the keyboard reaches its buttons', async () => {
    await daemon.api('DELETE', '/v1/history');
    const found: string[] = [];
    for (const colorScheme of ['light', 'dark'] as const) {
      for (const width of [1280, 400]) {
        const context = await newContext({ colorScheme, width });
        try {
          const page = await signIn(context, daemon);
          await page.getByRole('region', { name: 'No notifications yet' }).locator('pre code').waitFor();
          for (const violation of await axeViolations(page))
            found.push(
              `${colorScheme} ${width}: ${violation.impact} ${violation.id} (${violation.help}) at ${violation.targets.join(', ')}`,
            );
          if (colorScheme === 'light' && width === 1280) {
            // Tab goes from the page's own controls to the test button, the offer to keep other programs'
            // notifications, then to Copy.
            const send = page.getByRole('button', { name: 'Send a test notification' });
            await send.focus();
            const focused = () => page.evaluate(() => (globalThis as any).document.activeElement?.textContent?.trim());
            await page.keyboard.press('Tab');
            expect(await focused()).toBe("Keep other programs' notifications here too");
            await page.keyboard.press('Tab');
            expect(await focused()).toBe('Copy the command');
            await page.keyboard.press('Shift+Tab');
            await page.keyboard.press('Shift+Tab');
            await page.keyboard.press('Enter');
            await page.getByRole('link', { name: 'Notifier works', exact: true }).waitFor();
            // The button went with the view: the focus is on the list, not lost.
            await page.waitForFunction(() => (globalThis as any).document.activeElement?.closest('.rows') !== null);
            await daemon.api('DELETE', '/v1/history');
          }
        } finally {
          await context.close();
        }
      }
    }
    expect(found).toEqual([]);
  });
});

describe('the desktop entry', () => {
  test('has an action for every page, each running `notifier open <page>`, which opens the window at that page', async () => {
    const daemon = await startAppDaemon({ appDir: BUILT_APP });
    try {
      const entry = desktopEntry({ execPath: process.execPath, mainScript: CLI, options: { supportDir: daemon.supportDir } });
      const lines = entry.split('\n');
      expect(lines).toContain(`Actions=${APP_PAGES.join(';')};`);
      const groups = entry.split(/\n(?=\[)/).slice(2); // the comment, [Desktop Entry], then the actions
      expect(groups.map((group) => group.split('\n')[0])).toEqual(APP_PAGES.map((page) => `[Desktop Action ${page}]`));
      for (const page of APP_PAGES) {
        const group = groups.find((text) => text.startsWith(`[Desktop Action ${page}]`))!;
        const name = /^Name=(.+)$/m.exec(group)![1];
        expect(name).toBe(page.charAt(0).toUpperCase() + page.slice(1));
        // The Exec line, run as the desktop runs it (its words: the temporary paths have no spaces).
        const words = /^Exec=(.+)$/m.exec(group)![1]!.split(' ');
        expect(words.slice(-2)).toEqual(['open', page]);
        const before = (await daemon.opened()).length;
        const ran = spawnSync(words[0]!, words.slice(1), { encoding: 'utf8', timeout: 30_000 });
        expect([page, ran.status, ran.stdout]).toEqual([page, 0, `Notifier opens ${page} in a window.\n`]);
        const args = await waitFor(async () => (await daemon.opened())[before], `the window of ${page}`);
        const file = new URL(args.find((arg) => arg.startsWith('--app='))!.slice('--app='.length)).pathname;
        const link = /url=([^"]+)"/.exec(await readFile(file, 'utf8'))![1]!.replace(/&amp;/g, '&');
        const signedIn = await daemon.raw('GET', new URL(link).pathname + new URL(link).search);
        expect([page, signedIn.status]).toEqual([page, 200]);
        expect(signedIn.text).toContain(`url=/app/${page}#`);
      }
    } finally {
      await daemon.stop();
      await rm(daemon.supportDir, { recursive: true, force: true });
    }
  });
});
