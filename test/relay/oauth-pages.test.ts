// The consent page and /activate in a real browser (docs/relay-api.md#ra105, #ra113): headless Chromium (Debian's
// `chromium`, driven by playwright-core). The page names the client and the return host, follows the redirect
// once the computer approves, takes the 6-digit code, denies after 5 wrong codes, and shows a hostile client name
// as text. Screenshots go to the test's temporary folder (and to $RELAY_PAGE_SCREENSHOTS when it is set, to look
// at them).

import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { copyFile, mkdir, stat } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium } from '../../rigs/chromium.js';
import { tempFolder } from '../helpers/daemon.js';
import { DeviceSocket } from '../helpers/device-socket.js';
import { authorizeQuery, consentFrame, decide, DEVICE_GRANT, pkce, postForm, register } from '../helpers/oauth.js';
import { BACKENDS, pairDevice, useRelay, type RelayProcess } from '../helpers/relay.js';

let browser: Browser;
/** Pages with JavaScript, the way people browse. */
let context: BrowserContext;
let shots: string;
/** The client's redirect address: a local server that keeps the query of each visit. */
let callback: http.Server;
let callbackBase: string;
const visits: URLSearchParams[] = [];

beforeAll(async () => {
  shots = await tempFolder('notifier-pages-');
  browser = await launchChromium();
  context = await browser.newContext({ viewport: { width: 760, height: 900 } });
  callback = http.createServer((req, res) => {
    visits.push(new URL(req.url!, 'http://x').searchParams);
    res.writeHead(200, { 'Content-Type': 'text/html' }).end('<h1>Back in the app</h1>');
  });
  await new Promise<void>((resolve) => callback.listen(0, '127.0.0.1', resolve));
  callbackBase = `http://127.0.0.1:${(callback.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => callback?.close(resolve));
});

async function screenshot(page: Page, name: string): Promise<void> {
  const file = path.join(shots, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  expect((await stat(file)).size).toBeGreaterThan(5000);
  const keep = process.env.RELAY_PAGE_SCREENSHOTS;
  if (keep) {
    await mkdir(keep, { recursive: true });
    await copyFile(file, path.join(keep, `${name}.png`));
  }
}

/** The redirect's query, once the browser arrived at the callback. */
async function arrival(page: Page): Promise<URLSearchParams> {
  await page.waitForURL((url) => url.href.startsWith(callbackBase), { timeout: 15_000 });
  return new URL(page.url()).searchParams;
}

describe.each(BACKENDS)('the OAuth pages in Chromium (%s)', (backend) => {
  const relay = useRelay({ backend, env: { REGISTER_PER_HOUR: '1000' } });

  async function setUp(relayProcess: RelayProcess, clientName: string) {
    const device = await pairDevice(relayProcess, 'Studio Mac');
    const socket = await DeviceSocket.online(relayProcess.port, device.token);
    const { devices } = (await relayProcess.call('GET', '/v1/device/devices', { token: device.token })).json;
    const index = String(devices.findIndex((d: { thisDevice: boolean }) => d.thisDevice) + 1);
    const client = (await register(relayProcess, { client_name: clientName, redirect_uris: [`${callbackBase}/callback`] })).client_id;
    const query = authorizeQuery(client, pkce().challenge, { redirect_uri: `${callbackBase}/callback`, device: index, state: 'xyz' });
    return { device, socket, client, url: `${relayProcess.baseUrl}/authorize?${query}` };
  }

  test('the page names the client and the host, and follows the redirect when the computer approves', async () => {
    const { device, socket, url } = await setUp(relay(), 'Claude');
    const page = await context.newPage();
    const errors: string[] = [];
    // Script errors and CSP refusals (a console error), and failed requests other than the browser's own favicon.
    page.on('pageerror', (error) => errors.push(error.message));
    page.on(
      'console',
      (message) => message.type() === 'error' && !message.text().startsWith('Failed to load resource') && errors.push(message.text()),
    );
    page.on('response', (response) => response.status() >= 400 && !response.url().endsWith('/favicon.ico') && errors.push(response.url()));
    await page.goto(url);
    await expect(page.locator('h1').textContent()).resolves.toBe('Connect Claude to Notifier?');
    await expect(page.locator('dd').first().textContent()).resolves.toBe(new URL(callbackBase).host);
    await expect(page.locator('#status').textContent()).resolves.toContain('Waiting for your approval');
    // Where the person finds the 6-digit code: the banner that asks, and the tray menu (nowhere in the settings).
    const codeSection = page.locator('section', { has: page.getByRole('heading', { name: 'Or type the approval code' }) });
    await expect(codeSection.locator('p').first().textContent()).resolves.toBe(
      'On Studio Mac, Notifier shows a 6-digit code on the banner that asks you to approve Claude, in its tray menu and on the Approvals page of its window.',
    );
    expect(await page.getByText('settings').count()).toBe(0);
    await screenshot(page, `consent-${backend}`);
    const rid = await page.locator('#status').getAttribute('data-rid');
    await consentFrame(socket, rid!);
    await new Promise((resolve) => setTimeout(resolve, 2500)); // a poll or two: nothing happens by itself
    expect(page.url()).toBe(url);
    await decide(relay(), device.token, rid!, 'approve');
    const query = await arrival(page);
    expect(query.get('code')).toMatch(/^hrc_/);
    expect(query.get('state')).toBe('xyz');
    expect(errors).toEqual([]); // no CSP violation, no script error
    await page.close();
  });

  test('the page takes the 6-digit code (without JavaScript too)', async () => {
    const { socket, url } = await setUp(relay(), 'Cursor');
    const noScript = await browser.newContext({ javaScriptEnabled: false });
    const page = await noScript.newPage();
    await page.goto(url);
    const rid = await page.locator('input[name=rid]').first().getAttribute('value');
    const frame = await consentFrame(socket, rid!);
    await page.fill('input[name=code]', `${frame.code.slice(0, 3)} ${frame.code.slice(3)}`);
    await page.click('form[action="/authorize/code"] button');
    const query = await arrival(page);
    expect(query.get('code')).toMatch(/^hrc_/);
    await noScript.close();
  });

  test('five wrong codes deny; a hostile client name stays text', async () => {
    const hostile = `<img src=x onerror="window.pwned=1">Evil "Bot" & co`;
    const { socket, url } = await setUp(relay(), hostile);
    const page = await context.newPage();
    await page.goto(url);
    await expect(page.locator('h1 b').textContent()).resolves.toBe('img src=x onerror="window.pwned=1"Evil "Bot" & co');
    expect(await page.locator('img').count()).toBe(0);
    expect(await page.evaluate(() => (globalThis as unknown as { pwned?: number }).pwned)).toBeUndefined();
    const rid = await page.locator('#status').getAttribute('data-rid');
    const frame = await consentFrame(socket, rid!);
    const wrong = frame.code === '000000' ? '111111' : '000000';
    for (let i = 1; i <= 4; i++) {
      await page.fill('input[name=code]', wrong);
      await page.click('form[action="/authorize/code"] button');
      await expect(page.locator('.message').textContent()).resolves.toBe(
        `That code is wrong: ${5 - i} ${5 - i === 1 ? 'try' : 'tries'} left.`,
      );
    }
    await screenshot(page, `wrong-code-${backend}`);
    await page.fill('input[name=code]', wrong);
    await page.click('form[action="/authorize/code"] button');
    const query = await arrival(page);
    expect(query.get('error')).toBe('access_denied');
    await page.close();
  });

  test('/activate: the user code, then the approval code from the computer', async () => {
    const device = await pairDevice(relay(), 'Build box');
    const socket = await DeviceSocket.online(relay().port, device.token);
    const { devices } = (await relay().call('GET', '/v1/device/devices', { token: device.token })).json;
    const index = String(devices.findIndex((d: { thisDevice: boolean }) => d.thisDevice) + 1);
    const client = (await register(relay(), { client_name: 'Nightly deploy', grant_types: [DEVICE_GRANT] })).client_id;
    const started = (await postForm(relay(), '/device_authorization', { client_id: client, device: index })).json;
    const frame = await socket.waitFor((f) => typeof f === 'object' && f.type === 'consent' && f.userCode === started.user_code, 'consent');
    const page = await context.newPage();
    await page.goto(`${relay().baseUrl}/activate`);
    await page.fill('input[name=user_code]', started.user_code.toLowerCase());
    await page.click('button');
    await expect(page.locator('h1').textContent()).resolves.toBe('Let Nightly deploy send you notifications?');
    const codeSection = page.locator('section', { has: page.getByRole('heading', { name: 'Type the approval code' }) });
    await expect(codeSection.locator('p').first().textContent()).resolves.toBe(
      'On Build box, Notifier shows a 6-digit code on the banner that asks you to approve Nightly deploy, in its tray menu and on the Approvals page of its window (or press Approve there).',
    );
    await screenshot(page, `activate-${backend}`);
    await page.fill('input[name=code]', (frame as { code: string }).code);
    await page.click('form[action="/activate/approve"] button');
    await expect(page.locator('h1').textContent()).resolves.toBe('Approved');
    await screenshot(page, `activate-approved-${backend}`);
    const tokens = await postForm(relay(), '/token', { grant_type: DEVICE_GRANT, client_id: client, device_code: started.device_code });
    expect(tokens.json.access_token).toMatch(/^hra_/);
    await page.close();
  });
});
