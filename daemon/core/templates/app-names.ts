// What an app is called and which picture stands for it, wherever it is shown (banners, History, the window, the
// tray): what it registered wins over its manifest (docs/api/apps.md#a2), then its id — but Notifier's own app is
// Notifier.

import { OWN_APP, OWN_APP_NAME } from '../../../protocol/app-api.js';
import type { AppRegistry } from '../apps/app-registry.js';
import type { Designs } from './designs.js';

export class AppNames {
  constructor(
    private readonly apps: Pick<AppRegistry, 'get'>,
    private readonly designs: Pick<Designs, 'manifest'>,
  ) {}

  /** The app's display name. */
  name(app: string): string {
    return this.apps.get(app)?.appName ?? this.designs.manifest(app)?.appName ?? (app === OWN_APP ? OWN_APP_NAME : app);
  }

  /** The app's icon: the registered one, else the manifest's. */
  icon(app: string): string | undefined {
    return this.apps.get(app)?.icon ?? this.designs.manifest(app)?.icon;
  }
}
