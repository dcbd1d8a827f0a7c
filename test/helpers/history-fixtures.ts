// History with a past, for the window's tests: records delivered on earlier days, written into the support folder
// as History keeps them before the daemon starts (a notification sent now is delivered now), and the daemon serving
// the built front end on that folder.

import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { type AppDaemon, BUILT_APP, startAppDaemon } from './app.js';
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
