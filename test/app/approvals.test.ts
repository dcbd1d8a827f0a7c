// Approvals in the person's app, in headless Chromium against a real daemon (docs/app.md): a command waiting for the
// person's approval is shown with the exact command, allowed there (and it runs), and revoked; after Revoke, "Deny
// from now on" (nothing asks, nothing runs) and "Ask again", the lists saying what is true; the same question
// shows on its notification in History; and the whole answer can be given with the keyboard alone.

import { beforeAll, describe, expect, test } from '@jest/globals';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { expectAxeClean, focusBecomes, openAppTab, startBrowser, startWebApp } from '../helpers/app-pages.js';
import type { AppDaemon } from '../helpers/app.js';
import { tempFolder, waitFor } from '../helpers/daemon.js';
import { consentFrame, FakeRelay, notifyFrame } from '../helpers/fake-relay.js';

let daemon: AppDaemon;
let browser: Browser;
let page: Page;
let problems: string[];
let folder: string;

/** A notification of the app `deployer` whose button touches `file` (the app asked to run commands). */
async function deployNotification(title: string, file: string): Promise<string> {
  const reply = await daemon.api('POST', '/v1/notify', {
    body: { app: 'deployer', title, buttons: [{ label: 'Deploy', command: `touch '${file}'` }] },
  });
  expect(reply.status).toBe(200);
  return reply.json.id as string;
}

/** Opens the notification in History and presses its Deploy button, as a person would. */
async function pressDeploy(title: string): Promise<void> {
  await page.getByRole('navigation').getByRole('link', { name: 'History', exact: true }).click();
  await page.getByRole('link', { name: title, exact: true }).click();
  await page.getByRole('heading', { level: 2, name: title }).waitFor();
  await page.getByRole('button', { name: 'Deploy', exact: true }).click();
}

/** The question card (its heading names the app; the notification's own article is named by its title). */
const question = () => page.getByRole('article', { name: /^Deployer: / });

beforeAll(async () => {
  [daemon, browser, folder] = await Promise.all([startWebApp(), startBrowser(), tempFolder('notifier-approvals-')]);
  expect((await daemon.api('POST', '/v1/register', { body: { app: 'deployer', appName: 'Deployer', allowCommands: true } })).status).toBe(
    200,
  );
  ({ page, problems } = await openAppTab(browser, daemon));
});

describe('Approvals in the app', () => {
  test('a command waiting for approval shows its exact command; Allow in Approvals runs it', async () => {
    const file = path.join(folder, 'deployed-1');
    await deployNotification('Ship release 2.4?', file);
    await pressDeploy('Ship release 2.4?');
    // The question shows on its notification too, with the same buttons.
    await question().getByRole('button', { name: 'Allow', exact: true }).waitFor();
    await page.getByRole('navigation').getByRole('link', { name: 'Approvals', exact: true }).click();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Approvals');
    expect(await page.title()).toBe('Notifier — Approvals');
    await question().waitFor();
    expect(await question().locator('code').allTextContents()).toContain(`touch '${file}'`);
    expect(existsSync(file)).toBe(false); // nothing ran before the person allowed it
    await question().getByRole('button', { name: 'Allow', exact: true }).click();
    await waitFor(() => (existsSync(file) ? true : undefined), 'the command to run');
    await question().waitFor({ state: 'detached' });
    await page.getByText('Nothing is waiting for your answer.').waitFor();
    expect(problems).toEqual([]);
  });

  test('what was allowed is listed with Revoke; after revoking, the next press asks again', async () => {
    const granted = page.getByRole('listitem').filter({ hasText: 'Deployer may run commands' });
    await granted.waitFor();
    await granted.getByRole('button', { name: 'Revoke' }).click();
    await granted.waitFor({ state: 'detached' });
    expect((await daemon.api('GET', '/v1/apps')).json.apps.find((app: { app: string }) => app.app === 'deployer')).toBeDefined();

    const file = path.join(folder, 'deployed-2');
    await deployNotification('Ship release 2.5?', file);
    await pressDeploy('Ship release 2.5?');
    await question().waitFor(); // asked again, on the notification
    await question().getByRole('button', { name: 'Deny', exact: true }).focus();
    await page.keyboard.press('Enter');
    await question().waitFor({ state: 'detached' });
    await focusBecomes(page, 'Ship release 2.5?'); // not lost with the card: on the notification's heading
    await page.waitForTimeout(300);
    expect(existsSync(file)).toBe(false);
  });

  test('a question is answered with the keyboard alone', async () => {
    const file = path.join(folder, 'deployed-3');
    await deployNotification('Ship release 2.6?', file);
    await pressDeploy('Ship release 2.6?');
    await question().waitFor();
    await page.getByRole('navigation').getByRole('link', { name: 'Approvals', exact: true }).focus();
    await page.keyboard.press('Enter');
    await page.waitForURL((url) => url.pathname === '/app/approvals');
    // Tab from the page's heading to the question's Allow button, and press it with Enter.
    let steps = 0;
    for (; steps < 20; steps++) {
      const focused = await page.evaluate(() => {
        const active = (globalThis as unknown as { document: { activeElement: { textContent: string | null; tagName: string } | null } })
          .document.activeElement;
        return `${active?.tagName}:${active?.textContent}`;
      });
      if (focused === 'BUTTON:Allow') break;
      await page.keyboard.press('Tab');
    }
    expect(steps).toBeLessThan(20);
    await page.keyboard.press('Enter');
    await waitFor(() => (existsSync(file) ? true : undefined), 'the command to run');
    await question().waitFor({ state: 'detached' });
    // The focus is not lost with the card: it goes to the page's heading.
    await page.waitForFunction(
      () => (globalThis as unknown as { document: { activeElement: { tagName: string } | null } }).document.activeElement?.tagName === 'H1',
    );
    expect(problems).toEqual([]);
  });

  test('after Revoke, "Deny from now on": nothing can be pressed, asks or runs, the lists say so, and "Ask again" undoes it — with the keyboard', async () => {
    await page.getByRole('navigation').getByRole('link', { name: 'Approvals', exact: true }).click();
    const allowed = page.getByRole('region', { name: 'Allowed' });
    const denied = page.getByRole('region', { name: 'Denied' });
    await allowed.getByRole('listitem').filter({ hasText: 'Deployer may run commands' }).getByRole('button', { name: 'Revoke' }).focus();
    await page.keyboard.press('Enter');
    // The row says what revoking did and offers the denial, with the focus; the list does not claim nothing was ever allowed.
    await allowed.getByText('Deployer will ask you again before it runs commands, scripts or shortcuts').waitFor();
    await focusBecomes(page, 'Deny from now on');
    expect(await page.getByText('You have not allowed anything yet.').count()).toBe(0);
    expect(await allowed.getByText(/^Nothing is allowed/).count()).toBe(0);
    expect(await denied.getByText('Nothing is denied from now on.').count()).toBe(1);
    await expectAxeClean(page);

    await page.getByRole('button', { name: 'Deny from now on' }).focus();
    await page.keyboard.press('Enter');
    await denied.getByText(/^Deployer may not run commands, scripts or shortcuts/).waitFor();
    await focusBecomes(page, 'Ask again');
    await allowed.getByText('Nothing is allowed now: every app asks you first.').waitFor();
    expect((await daemon.api('GET', '/v1/actions/approvals')).json.apps).toEqual([]);
    await expectAxeClean(page);

    // Denied: the notification's Deploy cannot be pressed, and says why (the daemon refuses a press that still
    // comes, from a banner: test/daemon/window-api.test.ts); nothing asks and nothing runs.
    const file = path.join(folder, 'deployed-denied');
    await deployNotification('Ship release 2.7?', file);
    await page.getByRole('navigation').getByRole('link', { name: 'History', exact: true }).click();
    await page.getByRole('link', { name: 'Ship release 2.7?', exact: true }).click();
    await page.getByRole('heading', { level: 2, name: 'Ship release 2.7?' }).waitFor();
    expect(await page.getByRole('button', { name: 'Deploy', exact: true }).isDisabled()).toBe(true);
    await page.getByText('it cannot run: You denied Deployer running commands, scripts and shortcuts on this computer.').waitFor();
    expect(await question().count()).toBe(0);
    expect(existsSync(file)).toBe(false);

    // Ask again: the denial goes, and the next press asks.
    await page.getByRole('navigation').getByRole('link', { name: 'Approvals', exact: true }).click();
    await denied.getByRole('button', { name: 'Ask again' }).focus();
    await page.keyboard.press('Enter');
    await denied.getByText('Nothing is denied from now on.').waitFor();
    await page.waitForFunction(() => (globalThis as any).document.activeElement?.id === 'denied-heading');
    await pressDeploy('Ship release 2.7?');
    await question().getByRole('button', { name: 'Deny', exact: true }).click();
    await question().waitFor({ state: 'detached' });
    expect(existsSync(file)).toBe(false);
    expect(problems).toEqual([]);
  });

  test("an app's standing request to run commands says what Allow and Deny mean; once allowed, the list says it asks no more", async () => {
    expect((await daemon.api('POST', '/v1/register', { body: { app: 'helper', appName: 'Helper', allowCommands: true } })).status).toBe(
      200,
    );
    await page.getByRole('navigation').getByRole('link', { name: 'Approvals', exact: true }).click();
    const request = page.getByRole('article', { name: 'Helper: Permission to run commands' });
    await request.waitFor(); // live, from the approvals event
    expect(await request.textContent()).toContain(
      'Nothing runs now. If you allow it, buttons on Helper’s notifications can run commands on this computer without asking you ' +
        'first. You can revoke this at any time. If you deny it, those buttons do nothing and Helper stops asking.',
    );
    await request.getByRole('button', { name: 'Allow', exact: true }).click();
    await request.waitFor({ state: 'detached' });
    // What the grant really is: every command of the app from now on, without asking (not "each one asks first").
    const granted = page.getByRole('listitem').filter({ hasText: 'Helper may run commands, scripts and shortcuts on this computer' });
    expect(await granted.textContent()).toContain('without asking each time');
    await granted.getByRole('button', { name: 'Revoke' }).click();
    await page.getByRole('status').getByText('Revoked. Helper will ask you again next time.').waitFor();
    expect(problems).toEqual([]);
  });

  test('a read of the approvals answered after a live change does not put back what was before', async () => {
    const register = (app: string, appName: string) =>
      daemon.api('POST', '/v1/register', { body: { app, appName, allowCommands: true } }).then((reply) => expect(reply.status).toBe(200));
    await register('watcher', 'Watcher');
    await page.getByRole('navigation').getByRole('link', { name: 'Approvals', exact: true }).click();
    const watcher = page.getByRole('article', { name: 'Watcher: Permission to run commands' });
    await watcher.getByRole('button', { name: 'Allow', exact: true }).click();
    await watcher.waitFor({ state: 'detached' });
    // Revoke reads the list again; the daemon answers that read at once, and the answer is held here until a
    // change made after it has come live (the answer travels on its own connection, the event on the stream).
    let fetched!: () => void;
    const answerFetched = new Promise<void>((resolve) => (fetched = resolve));
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/app/api/approvals', async (route) => {
      if (route.request().method() !== 'GET') return route.continue();
      const answer = await route.fetch();
      fetched();
      await released;
      await route.fulfill({ response: answer });
    });
    await page.getByRole('listitem').filter({ hasText: 'Watcher may run commands' }).getByRole('button', { name: 'Revoke' }).click();
    await answerFetched;
    await register('latecomer', 'Latecomer');
    const latecomer = page.getByRole('article', { name: 'Latecomer: Permission to run commands' });
    await latecomer.waitFor(); // live, from the approvals event
    const lateAnswer = page.waitForResponse(
      (response) => response.url().endsWith('/app/api/approvals') && response.request().method() === 'GET',
    );
    release();
    await lateAnswer;
    await page.unroute('**/app/api/approvals');
    await page.evaluate(() => new Promise((resolve) => (globalThis as any).requestAnimationFrame(() => setTimeout(resolve, 100))));
    expect(await latecomer.count()).toBe(1);
    await latecomer.getByRole('button', { name: 'Deny', exact: true }).click();
    await latecomer.waitFor({ state: 'detached' });
    expect(problems).toEqual([]);
  });

  test('a connector asking through the cloud relay shows with its 6-digit code; Approve answers the relay', async () => {
    const relay = await FakeRelay.start();
    const paired = await daemon.api('POST', '/v1/relay/pair', { body: { relayURL: relay.url } });
    expect(paired.status).toBe(200);
    await relay.connected();
    await page.getByRole('navigation').getByRole('link', { name: 'Approvals', exact: true }).click();
    const frame = consentFrame({ clientName: 'Claude', redirectHost: 'claude.ai', code: '493817' });
    relay.send(frame);
    const card = page.getByRole('article', { name: 'Claude asks to send you notifications' });
    await card.waitFor(); // live, from the approvals event
    expect(await card.getByText('493817').count()).toBe(1);
    expect(await card.getByText('claude.ai').count()).toBe(1);
    await card.getByRole('button', { name: 'Approve' }).click();
    await waitFor(() => relay.decisions.find((decision) => decision.id === frame.id), 'the answer at the relay');
    expect(relay.decisions.find((decision) => decision.id === frame.id)).toMatchObject({ decision: 'approve' });
    await card.waitFor({ state: 'detached' });
    expect(problems).toEqual([]);

    // A notification through that relay: its details say, in words, what this computer reported back.
    relay.send(notifyFrame({ title: 'Build 77 passed', body: 'From the cloud.' }));
    await page.getByRole('navigation').getByRole('link', { name: 'History', exact: true }).click();
    await page.getByRole('link', { name: 'Build 77 passed', exact: true }).click();
    const happened = page.getByRole('region', { name: 'What happened' });
    await happened.getByText('Reported to the cloud relay').waitFor();
    expect(await happened.getByRole('listitem').allTextContents()).toContain('Shown on screen'); // not "displayed"
  });
});
