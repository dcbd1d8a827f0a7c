import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { Store } from '../../store/store.js';
import type { AppRegistry } from '../apps/app-registry.js';
import type { Approvals } from '../approvals/approvals.js';
import type { Assets } from '../templates/assets.js';
import type { CardPictures } from '../templates/cards.js';
import { templatePath, type Designs } from '../templates/designs.js';
import type { History } from '../history/history.js';
import type { ReplyQueue } from '../notifications/replies.js';
import type { SendKeys } from '../keys/send-keys.js';
import type { ScheduledNotifications } from '../scheduled/scheduled.js';
import type { HistoryRecord } from '../../../protocol/types.js';

/** The parts of the core that hold something of an app. */
export interface AppParts {
  store: Store;
  apps: AppRegistry;
  history: History;
  replies: ReplyQueue;
  designs: Designs;
  assets: Assets;
  approvals: Approvals;
  cards: CardPictures;
  sendKeys: Pick<SendKeys, 'revokeApp'>;
  scheduled: Pick<ScheduledNotifications, 'removeApp'>;
}

/**
 * DELETE /v1/apps/{id} (docs/api/apps.md#a7), once its banners are closed: everything the service keeps of the app
 * goes — History (and the speech and recordings made for it), the reply queue, templates, the manifest, assets,
 * card pictures, approvals, its sending keys, what waits for its time and the registration. A recording another app also sent stays for that app.
 */
export async function deleteAppFiles(parts: AppParts, app: string, records: HistoryRecord[]): Promise<void> {
  const sound = soundFiles(records, otherAppsRecordings(parts.history, app));
  await parts.history.removeApp(app);
  await Promise.all([
    parts.replies.clear(app),
    removeTemplates(parts, app),
    removeManifest(parts, app),
    parts.cards.removeApp(app),
    parts.approvals.forgetApp(app),
    parts.sendKeys.revokeApp(app),
    parts.scheduled.removeApp(app),
    ...sound.map((file) => rm(file, { force: true })),
  ]);
  await parts.apps.remove(app);
}

/** Is there anything of this app to remove? */
export function appIsKnown(parts: Pick<AppParts, 'apps' | 'designs' | 'history'>, app: string, records: HistoryRecord[]): boolean {
  return (
    parts.apps.get(app) !== undefined ||
    parts.designs.manifest(app) !== undefined ||
    parts.designs.templatesOf(app).length > 0 ||
    records.length > 0
  );
}

function soundFiles(records: HistoryRecord[], keep: Set<string>): string[] {
  const files = records.flatMap((record) => [record.speech?.audioPath, record.recordingPath]);
  return [...new Set(files.filter((file): file is string => file !== undefined && !keep.has(file)))];
}

/** Recordings are stored once by their bytes: one another app sent too must stay. */
function otherAppsRecordings(history: History, app: string): Set<string> {
  const others = history.query({
    limit: Number.MAX_SAFE_INTEGER,
    filter: (record) => record.app !== app && record.recordingPath !== undefined,
  });
  return new Set(others.map((record) => record.recordingPath!));
}

async function removeTemplates(parts: AppParts, app: string): Promise<void> {
  await Promise.all(parts.designs.templatesOf(app).map((template) => parts.designs.deleteTemplate(app, template.name)));
  await rm(path.dirname(parts.store.resolve(templatePath(app, 'any'))), { recursive: true, force: true });
}

/** The manifest and the app's whole asset folder (the copies the manifest declared and files added by hand). */
async function removeManifest(parts: AppParts, app: string): Promise<void> {
  await parts.designs.deleteManifest(app);
  await rm(parts.assets.folder(app), { recursive: true, force: true });
}
