// What an app is called and which picture stands for it, wherever it is shown (banners, History, the window, the
// tray): what it registered wins over its manifest (docs/api/apps.md#a2), then its id — but Notifier's own app is
// Notifier, and another program kept from the desktop is called by its own name (docs/desktop.md).

import { OWN_APP, OWN_APP_NAME } from '../../../protocol/app-api.js';
import type { AppRegistry } from '../apps/app-registry.js';
import type { Designs } from './designs.js';

export class AppNames {
  constructor(
    private readonly apps: Pick<AppRegistry, 'get'>,
    private readonly designs: Pick<Designs, 'manifest'>,
    /** The programs seen on the desktop (desktop/desktop-history.ts), by their `desktop.` app ids. */
    private readonly programs: { program(app: string): { name: string } | undefined } = { program: () => undefined },
  ) {}

  /** The app's display name. */
  name(app: string): string {
    const registration = this.apps.get(app);
    // The person's name for it wins over the one the app gave itself (docs/api/apps.md#a8).
    return (
      registration?.settings?.displayName ??
      registration?.appName ??
      this.designs.manifest(app)?.appName ??
      this.programs.program(app)?.name ??
      (app === OWN_APP ? OWN_APP_NAME : app)
    );
  }

  /** The app's icon: the registered one, else the manifest's. */
  icon(app: string): string | undefined {
    return this.apps.get(app)?.icon ?? this.designs.manifest(app)?.icon;
  }
}
