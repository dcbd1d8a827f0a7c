// History as the API reads and changes it (docs/api/history.md): the records, newest first, one app's or everyone's,
// searched; a record deleted, or an app's History cleared — their banners close too, so nothing on screen outlives
// its record. Other programs' notifications, kept from the desktop, are the person's alone (docs/desktop.md): the
// API neither reads nor changes them; the person's window (`person`) does.

import { errors } from '../../../protocol/errors.js';
import { isDesktopApp } from '../../../protocol/notification-rules.js';
import { queryWords } from '../../../protocol/search-text.js';
import type { HistoryRecord } from '../../../protocol/types.js';
import type { History } from '../history/history.js';
import type { AppNames } from '../templates/app-names.js';
import type { Banners } from './banners.js';
import type { Screen } from './screen.js';

/** Who asks: the API (the token's door), or the person in the window. */
export type Asker = 'api' | 'person';

/** What the API sees of History: everything but other programs' notifications. */
const apiSees = (app: string): boolean => !isDesktopApp(app);

export class Records {
  constructor(
    private readonly history: History,
    private readonly names: Pick<AppNames, 'name'>,
    private readonly banners: Pick<Banners, 'list'>,
    private readonly screen: Pick<Screen, 'takeDown' | 'requireRecord'>,
  ) {}

  /** GET /v1/history and GET /v1/history/search (docs/api/history.md#get-v1-history, #get-v1-history-search). */
  async list(query: { app?: string; limit: number; q?: string }): Promise<HistoryRecord[]> {
    await (query.app === undefined ? this.history.ready : this.history.load(query.app));
    return this.history.query({
      app: query.app,
      limit: query.limit,
      words: query.q === undefined ? [] : queryWords(query.q),
      appName: (app) => this.names.name(app),
      apps: apiSees,
    });
  }

  /** DELETE /v1/history/item (docs/api/history.md#h15): a banner still on screen is closed. */
  async remove(app: string, id: string, asker: Asker = 'api'): Promise<void> {
    if (asker === 'api' && !apiSees(app)) throw errors.notificationNotFound();
    await this.screen.requireRecord(app, id);
    this.screen.takeDown(app, id);
    await this.history.remove(app, id);
  }

  /** DELETE /v1/history (docs/api/history.md#h16): one app's History or everyone's; their banners are closed too. */
  async clear(app?: string, asker: Asker = 'api'): Promise<void> {
    await (app === undefined ? this.history.ready : this.history.load(app));
    for (const banner of this.banners.list(app === undefined ? {} : { app })) this.screen.takeDown(banner.app, banner.id);
    if (asker === 'person') return this.history.clear(app);
    const apps = (app === undefined ? this.history.appIds() : [app]).filter(apiSees);
    await Promise.all(apps.map((one) => this.history.clear(one)));
  }
}
