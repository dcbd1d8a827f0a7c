// The rendered card as a banner's picture (docs/templates.md). With the `bannerCardImage` setting on, each banner shown carries a PNG of its card drawn through its
// template, so a notification server that shows pictures shows the designed banner. The files are a cache in
// `<support>/cards/<app>/`: the newest CARDS_KEPT of each app are kept; a banner re-shown after a restart is drawn
// without one. One folder per app, so removing an app removes its pictures.

import { createHash } from 'node:crypto';
import { mkdir, readdir, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { LIVE_BANNER_WIDTH } from '../../../templates-renderer/render.js';
import { log } from '../../log.js';
import { safeFileName } from '../../store/safe-name.js';
import type { Designs } from './designs.js';
import { drawCard } from './previews.js';
import type { HistoryRecord } from '../../../protocol/types.js';
import { recordKey } from '../../../protocol/record-key.js';

/** How many card pictures of one app stay on disk (a banner on screen needs its file; older ones are long gone). */
const CARDS_KEPT = 50;
/** Drawn at twice the size of a live banner, for sharp pictures on high-density screens. */
const CARD_SCALE = 2;

export class CardPictures {
  private readonly byBanner = new Map<string, string>();

  constructor(
    private readonly folder: string,
    private readonly designs: Designs,
  ) {}

  /** The card picture of a banner drawn earlier, if any. */
  get(app: string, id: string): string | undefined {
    return this.byBanner.get(recordKey(app, id));
  }

  /** Whether a record is drawn as a card: it names a template or a layout (its own, or its app's default template). */
  hasCard(record: HistoryRecord): boolean {
    return this.designs.chooseTemplate(record.notification).wanted !== undefined || record.notification.layout !== undefined;
  }

  /** A record's card as a PNG, as its banner shows it, light or dark; null when there is no template to draw it with. */
  async render(record: HistoryRecord, appName: string, appIcon: string | undefined, appearance: 'light' | 'dark'): Promise<Buffer | null> {
    const chosen = this.designs.chooseTemplate(record.notification);
    const template = chosen.saved ?? this.designs.templateOrBuiltin(record.app, chosen.name);
    if (!template) return null;
    const manifest = this.designs.manifest(record.app);
    const { png } = await drawCard(
      template,
      {
        notification: record.notification,
        deliveredAt: record.deliveredAt,
        appName,
        ...(appIcon ? { appIcon } : {}),
        ...(manifest ? { manifest } : {}),
      },
      { appearance, scale: CARD_SCALE, stackCount: 1, stackExpanded: false, replying: false, width: LIVE_BANNER_WIDTH },
    );
    return png;
  }

  /** Draws a record's card and remembers its file for the banner; null (logged) when it cannot be drawn. */
  async draw(record: HistoryRecord, appName: string, appIcon: string | undefined): Promise<string | null> {
    try {
      const png = await this.render(record, appName, appIcon, 'light');
      if (!png) return null;
      const folder = this.folderOf(record.app);
      const file = path.join(folder, `${createHash('sha256').update(png).digest('hex').slice(0, 32)}.png`);
      await mkdir(folder, { recursive: true, mode: 0o700 });
      await writeFile(file, png, { mode: 0o600 });
      this.byBanner.set(recordKey(record.app, record.id), file);
      void this.prune(folder);
      return file;
    } catch (error) {
      log.warn(`[${record.app}] ${record.id}: the card picture could not be drawn: ${(error as Error).message}`);
      return null;
    }
  }

  forget(app: string, id: string): void {
    this.byBanner.delete(recordKey(app, id));
  }

  /** An app removed: its pictures go. */
  async removeApp(app: string): Promise<void> {
    for (const key of this.byBanner.keys()) if (key.startsWith(`${app}\u0000`)) this.byBanner.delete(key);
    await rm(this.folderOf(app), { recursive: true, force: true });
  }

  private folderOf(app: string): string {
    return path.join(this.folder, safeFileName(app));
  }

  /** Keeps the newest CARDS_KEPT files of an app's folder. */
  private async prune(folder: string): Promise<void> {
    const names = await readdir(folder).catch(() => [] as string[]);
    if (names.length <= CARDS_KEPT) return;
    const dated = await Promise.all(
      names.map(async (name) => ({ name, time: (await stat(path.join(folder, name)).catch(() => null))?.mtimeMs ?? 0 })),
    );
    dated.sort((a, b) => b.time - a.time);
    for (const { name } of dated.slice(CARDS_KEPT)) await rm(path.join(folder, name), { force: true });
  }
}
