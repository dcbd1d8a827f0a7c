// The Relay page of the person's app, in headless Chromium against a real daemon and the relay of this repository
// as a process (docs/app.md#relay): pairing through the page (its refusals next to their fields), an agent key
// shown once and used at the relay (the notification appears live in History; revoked on the page, the relay
// refuses it), a connector's OAuth request approved on the page (its flow finishes), and Unpair, asked first,
// with the keyboard alone.

import { beforeAll, describe, expect, test } from '@jest/globals';
import * as oauth from 'oauth4webapi';
import type { Browser, Page } from 'playwright-core';
import { axeViolations, focusBecomes, openAppTab, startBrowser, startWebApp } from '../helpers/app-pages.js';
import type { AppDaemon } from '../helpers/app.js';
import { waitFor } from '../helpers/daemon.js';
import { insecure, startDeviceGrant } from '../helpers/oauth.js';
import { type RelayProcess, startRelay } from '../helpers/relay.js';
import { subscribeHook, useWebhookRig } from '../helpers/webhooks.js';

const PAIRING_SECRET = 'correct horse battery';

let daemon: AppDaemon;
let relay: RelayProcess;
let browser: Browser;
let page: Page;
let problems: string[];
/** A webhook receiver the relay reaches through a proxy, for reply-event subscriptions. */
const rig = useWebhookRig();

/** What went wrong in the page, but the refusals a test asked for on purpose (`expected`: parts of their lines). */
const unexpected = (...expected: string[]): string[] => problems.filter((line) => !expected.some((part) => line.includes(part)));

const relayStatus = async () => (await daemon.api('GET', '/v1/relay/status')).json;
const focusOn = (id: string) =>
  page.waitForFunction((wanted) => (globalThis as any).document.activeElement?.id === wanted, id, { timeout: 10_000 });
const dialog = () => page.getByRole('dialog');
const goTo = (name: string) => page.getByRole('navigation').getByRole('link', { name, exact: true }).click();

/** The message shown next to a field: the text of what describes it. */
const describedBy = (label: string) =>
  page.getByLabel(label, { exact: true }).evaluate((element) => {
    const doc = (globalThis as unknown as { document: { getElementById(id: string): { textContent: string | null } | null } }).document;
    return (element.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .map((id: string) => doc.getElementById(id)?.textContent ?? '')
      .join(' ');
  });

beforeAll(async () => {
  [daemon, relay, browser] = await Promise.all([
    startWebApp(),
    startRelay({ backend: 'sqlite', env: { ...rig().env, PAIRING_SECRET, REGISTER_PER_HOUR: '1000' } }),
    startBrowser(),
  ]);
  ({ page, problems } = await openAppTab(browser, daemon, 'relay', ['clipboard-read', 'clipboard-write']));
}, 60_000);

describe('the Relay page', () => {
  test('pairing: the https rule and the missing pairing secret are said next to their fields, nothing typed is lost; then online', async () => {
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Relay');
    expect(await describedBy('Relay address')).toContain('Only a relay running on this computer may use http://');

    // http to another computer: refused next to the address, in words; the secret typed stays.
    await page.getByLabel('Relay address', { exact: true }).fill('http://relay.example.org');
    await page.getByLabel('Pairing secret (optional)', { exact: true }).fill(PAIRING_SECRET);
    await page.getByRole('button', { name: 'Pair', exact: true }).click();
    await page.getByText('This address cannot be used').waitFor();
    expect(await describedBy('Relay address')).toContain('http:// is only for a relay on this computer');
    expect(await page.getByLabel('Relay address', { exact: true }).getAttribute('aria-invalid')).toBe('true');
    await focusOn('relay-url'); // the field in error
    expect(await page.getByLabel('Pairing secret (optional)', { exact: true }).inputValue()).toBe(PAIRING_SECRET);

    // The relay wants its pairing secret: said next to that field; the address stays.
    await page.getByLabel('Relay address', { exact: true }).fill(relay.baseUrl);
    await page.getByLabel('Pairing secret (optional)', { exact: true }).fill('');
    await page.getByRole('button', { name: 'Pair', exact: true }).click();
    await page.getByText('Check the pairing secret with whoever runs the relay.').waitFor();
    expect(await describedBy('Pairing secret (optional)')).toContain('The relay refused');
    expect(await page.getByLabel('Relay address', { exact: true }).inputValue()).toBe(relay.baseUrl);
    expect((await relayStatus()).paired).toBe(false);

    // With the secret: paired, and the page says so with the relay's addresses; online once the socket is up.
    await page.getByLabel('Pairing secret (optional)', { exact: true }).fill(PAIRING_SECRET);
    await page.getByRole('button', { name: 'Pair', exact: true }).click();
    await page.getByRole('heading', { name: 'Connection' }).waitFor();
    await page.getByRole('status').getByText(`Paired with ${relay.baseUrl}.`).waitFor();
    expect(await relayStatus()).toMatchObject({ paired: true, relayURL: relay.baseUrl });
    const connection = page.getByRole('region', { name: 'Connection' });
    await connection.getByText('Online', { exact: true }).waitFor({ timeout: 30_000 });
    expect(await connection.getByText(relay.baseUrl, { exact: true }).count()).toBe(1);
    expect(await connection.getByText(`${relay.baseUrl}/mcp`, { exact: true }).count()).toBe(1);
    expect(unexpected('/app/api/relay/pair')).toEqual([]);
    expect(problems.filter((line) => line.includes('/app/api/relay/pair'))).toHaveLength(2); // the two refusals
  }, 60_000);

  test('an agent key: made with the keyboard, shown once with Copy and its set-ups; it sends live into History; revoked here, the relay refuses it', async () => {
    problems.length = 0;
    const name = page.getByLabel('Name', { exact: true });
    await name.focus();
    await page.keyboard.type('build-bot');
    await page.getByLabel('For', { exact: true }).selectOption({ label: 'Claude Code' });
    await name.press('Enter');
    await focusBecomes(page, 'The key “build-bot”');
    const shown = page.getByRole('region', { name: 'The key “build-bot”' });
    const key = (await shown.locator('#relay-new-key-value').textContent())!.trim();
    expect(key).toMatch(/^hrk_/);
    const mcpURL = `${relay.baseUrl}/mcp`;
    const setup = (title: string) =>
      shown
        .locator('details')
        .filter({ has: page.locator('summary', { hasText: title }) })
        .locator('pre')
        .textContent();
    expect(await setup('Claude Code')).toBe(`claude mcp add --transport http notifier ${mcpURL} --header "Authorization: Bearer ${key}"`);
    expect(await setup('Codex')).toContain(`export NOTIFIER_RELAY_KEY=${key}`);
    expect(JSON.parse((await setup('Another MCP client'))!)).toEqual({
      mcpServers: { notifier: { type: 'http', url: mcpURL, headers: { Authorization: `Bearer ${key}` } } },
    });
    expect(await setup('A script (curl)')).toContain(`curl -s ${relay.baseUrl}/v1/notify -H "Authorization: Bearer ${key}"`);
    // The set-up of the agent it was made for comes first.
    expect(await shown.locator('details[open] > summary').allTextContents()).toEqual(['Claude Code']);

    await shown.getByRole('button', { name: 'Copy the key', exact: true }).click();
    await page.getByRole('status').getByText('The key was copied.').waitFor();
    expect(await page.evaluate(() => (globalThis as any).navigator.clipboard.readText())).toBe(key);
    await shown.getByText('Codex', { exact: true }).click(); // its set-up, folded, opens
    await shown.getByRole('button', { name: 'Copy the Codex set-up', exact: true }).click();
    expect(await page.evaluate(() => (globalThis as any).navigator.clipboard.readText())).toContain(`export NOTIFIER_RELAY_KEY=${key}`);

    // The page paired, with a key shown: axe finds nothing serious, in light and in dark.
    const violations = [...(await axeViolations(page))];
    await page.emulateMedia({ colorScheme: 'dark' });
    violations.push(...(await axeViolations(page)));
    await page.emulateMedia({ colorScheme: 'light' });
    expect(violations).toEqual([]);

    // Never kept: not in the page's storage, and a reload no longer shows it; the key is listed, without itself.
    expect(await page.evaluate(() => JSON.stringify({ ...(globalThis as any).localStorage }))).not.toContain(key);
    await page.reload();
    const inUse = page.getByRole('list', { name: 'Keys in use' });
    await inUse.getByText('build-bot').waitFor();
    expect(await page.getByRole('region', { name: 'The key “build-bot”' }).count()).toBe(0);
    expect(await page.content()).not.toContain(key);

    // An agent sends with it at the relay: the row appears in History without a reload.
    await goTo('History');
    const sent = await relay.call('POST', '/v1/notify', { token: key, body: { title: 'Deployed from the cloud' } });
    expect(sent.status).toBe(202);
    await page.getByRole('link', { name: 'Deployed from the cloud', exact: true }).waitFor({ timeout: 20_000 });

    // Revoked on the page (asked first): the relay refuses the key.
    await goTo('Relay');
    await inUse.getByRole('button', { name: 'Revoke' }).click();
    await dialog().getByRole('heading', { name: 'Revoke the key “build-bot”?' }).waitFor();
    await dialog().getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('status').getByText('The key “build-bot” was revoked.').waitFor();
    expect((await relay.call('POST', '/v1/notify', { token: key, body: { title: 'Too late' } })).status).toBe(401);
    await page.getByText('Revoked keys (1)').waitFor(); // folded away, below the keys in use
    expect(await inUse.count()).toBe(0);
    expect(unexpected()).toEqual([]);
  }, 60_000);

  test("a connector's OAuth request shows here with its 6-digit code; Approve lets its flow finish; revoked, it is refused", async () => {
    problems.length = 0;
    const issuer = new URL(relay.baseUrl);
    const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { algorithm: 'oauth2', ...insecure }));
    const { client, started } = await startDeviceGrant(as, 'Night job', { scope: 'notify' });
    const card = page.getByRole('article', { name: 'Night job asks to send you notifications' });
    await card.waitFor(); // live, from the approvals event
    expect(await card.getByText(started.user_code, { exact: true }).count()).toBe(1);
    expect(await card.locator('.approval-code').textContent()).toMatch(/^\d{6}$/);
    await card.getByRole('button', { name: 'Approve' }).click();
    await card.waitFor({ state: 'detached' });
    const tokens = await oauth.processDeviceCodeResponse(
      as,
      client,
      await oauth.deviceCodeGrantRequest(as, client, oauth.None(), started.device_code, insecure),
    );
    expect(tokens.access_token).toMatch(/^hra_/);
    expect((await relay.call('POST', '/v1/notify', { token: tokens.access_token, body: { title: 'From the job' } })).status).toBe(202);

    // Approved, it is listed with Revoke (the list is the relay's: read again on a reload).
    await page.reload();
    const approved = page.getByRole('list', { name: 'Approved connectors' });
    await approved.getByText('Night job').waitFor();
    await approved.getByRole('button', { name: 'Revoke' }).click();
    await dialog().getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('status').getByText('Night job was revoked.').waitFor();
    await waitFor(
      async () => (await relay.call('POST', '/v1/notify', { token: tokens.access_token, body: { title: 'Again' } })).status === 401,
      'the relay to refuse the revoked connector',
    );
    expect(unexpected()).toEqual([]);
  }, 60_000);

  test("today's use against the relay's limits; a reply-event subscription, ended on the page (asked first)", async () => {
    problems.length = 0;
    const made = await daemon.api('POST', '/v1/relay/keys', { body: { name: 'hooks-bot' } });
    expect(made.status).toBe(201);
    const subscribed = await subscribeHook(relay, made.json.key, rig().hook('/relay-page/replies'));
    expect(subscribed.json.result?.id).toMatch(/^sub_[0-9a-f]{20}$/);

    await page.reload(); // read now: the notifications sent so far are counted, the subscription listed
    const use = page.getByRole('region', { name: 'Today’s use' });
    const notifications = use.getByRole('meter', { name: 'Notifications' });
    await notifications.waitFor();
    expect(Number(await notifications.getAttribute('value'))).toBeGreaterThanOrEqual(2); // the key's and the connector's
    expect(Number(await notifications.getAttribute('max'))).toBeGreaterThan(0);
    expect(await use.getByText(/^\d+ of [\d,]+$/).count()).toBeGreaterThanOrEqual(3);

    const events = page.getByRole('region', { name: 'Reply events' });
    const row = events.getByRole('listitem').filter({ hasText: 'hooks-bot is told of your replies at hooks.example.com' });
    await row.waitFor();
    await row.getByRole('button', { name: 'End' }).click();
    await dialog().getByRole('heading', { name: 'End this subscription?' }).waitFor();
    await dialog().getByRole('button', { name: 'End' }).click();
    await events.getByText('No connector asked for your replies.').waitFor();
    await focusBecomes(page, 'Reply events'); // the row went: the focus is on its section, not lost
    expect((await daemon.api('GET', '/v1/relay/events')).json.subscriptions).toEqual([]);
    expect(unexpected()).toEqual([]);
  });

  test('Unpair asks first, with the keyboard: Cancel (which has the focus) keeps the pairing; Unpair forgets it', async () => {
    problems.length = 0;
    const unpair = page.getByRole('button', { name: 'Unpair', exact: true });
    await unpair.focus();
    await page.keyboard.press('Enter');
    await dialog().getByRole('heading', { name: 'Unpair this computer?' }).waitFor();
    await focusBecomes(page, 'Cancel');
    await page.keyboard.press('Escape');
    await focusBecomes(page, 'Unpair');
    expect((await relayStatus()).paired).toBe(true);

    await page.keyboard.press('Enter');
    await focusBecomes(page, 'Cancel');
    await page.keyboard.press('Tab');
    await focusBecomes(page, 'Unpair');
    await page.keyboard.press('Enter');
    await focusBecomes(page, 'Pair this computer with a relay');
    expect(await relayStatus()).toMatchObject({ paired: false, state: 'unpaired' });
    await page.getByRole('status').getByText('This computer is no longer paired with a relay.').waitFor();
    expect(unexpected()).toEqual([]);
  });
});
