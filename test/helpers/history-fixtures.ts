// History for the window's tests: History open in a signed-in tab against a daemon serving the built front end, with
// its apps registered and its notifications sent (the set-up every History test file starts with); a History with a
// past (records delivered on earlier days, written into the support folder as History keeps them before the daemon
// starts: a notification sent now is delivered now); and the list's rows as a person finds them.

import { expect } from '@jest/globals';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { type AppDaemon, BUILT_APP, startAppDaemon } from './app.js';
import { type AppTab, openAppTab, startBrowser, startWebApp } from './app-pages.js';
import { tempFolder } from './daemon.js';

/** A record of History as the daemon keeps it. */
export interface PastRecord {
  app: string;
  id: string;
  deliveredAt: Date;
  title: string;
  body?: string;
  /** Any other notification field (priority, buttons). */
  more?: Record<string, unknown>;
}

/** Local noon `days` days before today: a time whose day no test run near midnight can mistake. */
export function noonDaysAgo(days: number): Date {
  const now = new Date();
  return new Date(now.getFullYear(), now.getMonth(), now.getDate() - days, 12, 0, 0);
}

/** A daemon serving the built front end, its History holding `records` before it starts. */
export async function startWithHistory(records: PastRecord[]): Promise<AppDaemon> {
  const supportDir = await tempFolder();
  await mkdir(path.join(supportDir, 'history'), { recursive: true, mode: 0o700 });
  const byApp = new Map<string, PastRecord[]>();
  for (const record of records) byApp.set(record.app, [...(byApp.get(record.app) ?? []), record]);
  for (const [app, list] of byApp) {
    // Oldest first, as History keeps an app's records.
    const kept = [...list]
      .sort((a, b) => a.deliveredAt.getTime() - b.deliveredAt.getTime())
      .map(({ id, deliveredAt, title, body, more }) => ({
        id,
        app,
        notification: { app, id, title, ...(body ? { body } : {}), ...more },
        deliveredAt: deliveredAt.toISOString(),
      }));
    await writeFile(path.join(supportDir, 'history', `${app}.json`), JSON.stringify({ app, records: kept }), { mode: 0o600 });
  }
  const args = ['--support-dir', supportDir, '--port', '0', '--presenter', 'headless'];
  return startAppDaemon({ appDir: BUILT_APP, supportDir, args });
}

/** An app a test registers: its id and name, and any other field of `POST /v1/register` (an icon, `allowCommands`). */
export type TestApp = { app: string; appName: string } & Record<string, unknown>;

export interface HistoryTab extends AppTab {
  daemon: AppDaemon;
  browser: Browser;
}

/**
 * History signed in, in a tab of headless Chromium (closed after the test file): the daemon started (its History
 * holding `past`, when given), `apps` registered, then `notifications` sent, in order.
 */
export async function openHistoryTab(
  options: { apps: TestApp[]; notifications?: Record<string, unknown>[]; past?: PastRecord[] } = { apps: [] },
): Promise<HistoryTab> {
  const [daemon, browser] = await Promise.all([options.past ? startWithHistory(options.past) : startWebApp(), startBrowser()]);
  for (const app of options.apps) await daemon.api('POST', '/v1/register', { body: app });
  for (const body of options.notifications ?? []) await sendNotification(daemon, body);
  return { daemon, browser, ...(await openAppTab(browser, daemon)) };
}

/** Sends a notification with `POST /v1/notify`; its id. */
export async function sendNotification(daemon: AppDaemon, body: Record<string, unknown>): Promise<string> {
  const reply = await daemon.api('POST', '/v1/notify', { body });
  expect(reply.status).toBe(200);
  return reply.json.id as string;
}

/** The row of a notification in the list, found by its title link, as a person finds it. */
export const rowOf = (page: Page, title: string) =>
  page.getByRole('listitem').filter({ has: page.getByRole('link', { name: title, exact: true }) });

/** The titles of the rows in the document, top to bottom. */
export const rowTitles = (page: Page): Promise<string[]> => page.locator('.rows .row-title').allTextContents();

/** Waits until the list shows exactly these titles, top to bottom (10 seconds at the most). */
export async function listShows(page: Page, titles: string[]): Promise<void> {
  const started = Date.now();
  for (;;) {
    const shown = await rowTitles(page);
    if (JSON.stringify(shown) === JSON.stringify(titles)) return;
    if (Date.now() - started > 10_000) expect(shown).toEqual(titles);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
