// The person's app's door as only a browser shows it (docs/app.md#the-three-doors), in headless Chromium: signing in
// through the forwarding file leaves an HttpOnly, SameSite=Strict cookie and no code in the address bar; the app
// cannot be framed; a page of another local origin (a second server on another port, in the same Chromium) cannot
// change anything through `/app/api`, by form or by fetch, even knowing the CSRF value; and a link from another
// site does not carry the session.

import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium } from '../../rigs/chromium.js';
import { startAppDaemon, type AppDaemon, type AppSession } from '../helpers/app.js';
import { waitFor } from '../helpers/daemon.js';

let daemon: AppDaemon;
/** The test's own view of the state, to check that nothing changed. */
let observer: AppSession;
let browser: Browser;
let context: BrowserContext;
let page: Page;
/** A server of someone else on this computer: it answers whatever page a test puts in `attackerPage`. */
let attacker: http.Server;
let attackerPort: number;
let attackerPage = '';

beforeAll(async () => {
  daemon = await startAppDaemon();
  observer = await daemon.signIn();
  await daemon.api('POST', '/v1/notify', { body: { app: 'victim', id: 'v1', title: 'Keep me unread' } });
  attacker = http.createServer((_req, res) => res.writeHead(200, { 'Content-Type': 'text/html' }).end(attackerPage));
  await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
  attackerPort = (attacker.address() as AddressInfo).port;
  browser = await launchChromium();
  context = await browser.newContext();
  page = await context.newPage();
}, 60_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => attacker?.close(resolve));
  await daemon?.stop();
});

/** The page's document, as functions run in the page see it (the tests are compiled without the DOM's types). */
type InPage = typeof globalThis & { document: { cookie: string; body: { dataset: Record<string, string>; textContent: string } } };
type InStorage = { localStorage: { getItem(key: string): string | null } };

const unread = async (): Promise<number> => (await observer.call('GET', '/app/api/history')).json.unread;
const app = (route: string): string => `http://127.0.0.1:${daemon.port}${route}`;

describe('signing in in the browser', () => {
  test('the forwarding file leads to the page asked for; the cookie is HttpOnly, SameSite=Strict, for /app; the code is gone', async () => {
    const { file, link } = await daemon.signInLink('approvals');
    await page.goto(`file://${file}`);
    await page.waitForURL(app('/app/approvals'));
    expect(await page.textContent('body')).toContain('stand-in app');
    // The app's own script ran under the CSP.
    await page.waitForFunction(() => (globalThis as InPage).document.body.dataset.ran === 'yes');
    expect(await page.evaluate(() => (globalThis as InPage).document.cookie)).toBe('');
    expect(page.url()).not.toContain(new URL(link).searchParams.get('code')!);
    const cookies = await context.cookies(app('/app/'));
    expect(cookies).toEqual([
      expect.objectContaining({ name: 'notifier_session', domain: '127.0.0.1', path: '/app', httpOnly: true, sameSite: 'Strict' }),
    ]);
    // The session opens the API from the app's own page, which took its CSRF value out of the address.
    expect(page.url()).not.toContain('csrf');
    const session = await page.evaluate(async () => {
      const csrf = (globalThis as unknown as InStorage).localStorage.getItem('notifier.csrf') ?? '';
      return (await fetch('/app/api/session', { headers: { 'X-Notifier-CSRF': csrf } })).status;
    });
    expect(session).toBe(200);
  });

  test('the same link a second time shows why it does not sign in', async () => {
    const { link } = await daemon.signInLink();
    const fresh = await browser.newContext();
    const other = await fresh.newPage();
    await other.goto(link);
    await other.waitForURL(app('/app/history'));
    const again = await (await browser.newContext()).newPage();
    const response = await again.goto(link);
    expect(response?.status()).toBe(401);
    expect(await again.textContent('body')).toContain('This sign-in link was already used or has expired.');
    await fresh.close();
    await again.context().close();
  });
});

describe('another page on this computer', () => {
  test('cannot frame the app', async () => {
    attackerPage = `<!doctype html><title>frame</title><iframe id="f" src="${app('/app/history')}"></iframe>`;
    const framed = page.waitForResponse((response) => response.url() === app('/app/history'));
    await page.goto(`http://127.0.0.1:${attackerPort}/frame`);
    const response = await framed;
    expect(response.headers()['x-frame-options']).toBe('DENY');
    await page.waitForTimeout(300);
    const child = page.frames().find((frame) => frame !== page.mainFrame());
    expect(child).toBeDefined();
    const text = await child!.evaluate(() => (globalThis as InPage).document.body?.textContent ?? '').catch(() => '');
    expect(text).not.toContain('stand-in app');
  });

  test('cannot change anything with a form posted to /app/api', async () => {
    const before = await unread();
    attackerPage =
      '<!doctype html><title>form</title>' +
      `<form id="f" method="POST" enctype="text/plain" action="${app('/app/api/history/read-all')}">` +
      '<input name=\'{"app":"victim","x":"\' value=\'"}\'></form><script>document.getElementById("f").submit()</script>';
    const posted = page.waitForResponse((response) => response.url() === app('/app/api/history/read-all'));
    await page.goto(`http://127.0.0.1:${attackerPort}/form`);
    const response = await posted;
    expect(response.status()).toBe(403);
    expect(await response.json()).toMatchObject({ code: 'app_cross_site' });
    expect(await unread()).toBe(before);
  });

  test('cannot change anything with fetch, not even with the right CSRF value', async () => {
    const before = await unread();
    attackerPage = '<!doctype html><title>fetch</title><p>nothing to see</p>';
    await page.goto(`http://127.0.0.1:${attackerPort}/fetch`);
    const outcome = await page.evaluate(
      async ({ target, csrf }) => {
        const results: string[] = [];
        // A simple request: sent with the cookie (same site), its answer unreadable here.
        await fetch(target, { method: 'POST', mode: 'no-cors', credentials: 'include', body: '{"app":"victim"}' }).then(
          (r) => results.push(`no-cors:${r.type}`),
          (e) => results.push(`no-cors failed:${e}`),
        );
        // With the CSRF header: the browser asks first (CORS), and is not allowed.
        await fetch(target, {
          method: 'POST',
          credentials: 'include',
          headers: { 'Content-Type': 'application/json', 'X-Notifier-CSRF': csrf },
          body: '{"app":"victim"}',
        }).then(
          (r) => results.push(`cors:${r.status}`),
          () => results.push('cors refused'),
        );
        return results;
      },
      { target: app('/app/api/history/read-all'), csrf: observer.csrf },
    );
    expect(outcome).toEqual(['no-cors:opaque', 'cors refused']);
    expect(await unread()).toBe(before);
  });

  test('a page served on another port is sent the cookie, but the cookie alone opens nothing', async () => {
    // Browsers do not keep cookies apart by port: a page the person visits on another local server gets the session
    // cookie as soon as it goes to a path under /app of its own port. Its server can then call the daemon as it likes
    // (any header), but without the session's CSRF value, which only the app's own origin holds, nothing answers.
    await daemon.api('POST', '/v1/register', { body: { app: 'thief', allowCommands: true } });
    await waitFor(async () => {
      const { questions } = (await observer.call('GET', '/app/api/approvals')).json;
      return questions.some((question: { app: string }) => question.app === 'thief');
    }, "the thief's request to run commands");
    const { file } = await daemon.signInLink('history');
    await page.goto(`file://${file}`);
    await page.waitForURL(app('/app/history'));
    const cookies: string[] = [];
    attacker.once('request', (req: http.IncomingMessage) => cookies.push(String(req.headers.cookie ?? '')));
    attackerPage = '<!doctype html><title>steal</title><p>nothing to see</p>';
    await page.goto(`http://127.0.0.1:${attackerPort}/app/anything`);
    const stolen = cookies[0]!;
    expect(stolen).toMatch(/^notifier_session=/);
    const before = await unread();
    const asThePage = { Cookie: stolen, 'Sec-Fetch-Site': 'same-origin' };
    const session = await daemon.raw('GET', '/app/api/session', { headers: asThePage });
    expect(session.status).toBe(403);
    const approvals = await daemon.raw('GET', '/app/api/approvals', { headers: asThePage });
    expect(approvals.status).toBe(403);
    const events = await daemon.raw('GET', '/app/api/events', { headers: asThePage });
    expect(events.status).toBe(403);
    const change = { ...asThePage, Origin: app(''), 'X-Notifier-CSRF': String(session.json?.csrf ?? '') };
    const question = (await observer.call('GET', '/app/api/approvals')).json.questions.find(
      (each: { app: string }) => each.app === 'thief',
    );
    expect(
      (await daemon.raw('POST', `/app/api/approvals/questions/${question.id}`, { headers: change, body: { allow: true } })).status,
    ).toBe(403);
    expect((await daemon.raw('POST', '/app/api/history/read-all', { headers: change, body: {} })).status).toBe(403);
    expect(await unread()).toBe(before);
    expect((await observer.call('GET', '/app/api/approvals')).json.questions).toContainEqual(expect.objectContaining({ app: 'thief' }));
  });

  test('a link from another site does not carry the session: the page says how to open Notifier', async () => {
    // `localhost` is another site than `127.0.0.1`: SameSite=Strict keeps the cookie at home.
    attackerPage = `<!doctype html><title>link</title><a id="go" href="${app('/app/history')}">History</a>`;
    await page.goto(`http://localhost:${attackerPort}/link`);
    await Promise.all([page.waitForURL(app('/app/history')), page.click('#go')]);
    expect(await page.textContent('body')).toContain(
      'To open Notifier, click its icon in the system tray and choose Open Notifier, start “Notifier” from your list of apps, or run “notifier open” in a terminal. There is no password.',
    );
    // The same page opened from the app's own origin has the session.
    await page.goto(app('/app/history'));
    expect(await page.textContent('body')).toContain('stand-in app');
  });
});
