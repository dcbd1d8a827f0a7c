// What is done to an app as a whole (docs/api/apps.md): registering it, and removing it with everything the service
// keeps of it. Both reach several areas, which is why they stand above them.

import { errors } from '../../../protocol/errors.js';
import type { AppRegistration } from '../../../protocol/types.js';
import type { AppRegistry } from '../apps/app-registry.js';
import type { Approvals } from '../approvals/approvals.js';
import type { InFlight } from '../notifications/in-flight.js';
import type { Screen } from '../notifications/screen.js';
import type { AppNames } from '../templates/app-names.js';
import { timestamp } from '../timers.js';
import { appIsKnown, deleteAppFiles, type AppParts } from './app-removal.js';

export interface AppAdminParts extends AppParts {
  apps: AppRegistry;
  approvals: Approvals;
  names: Pick<AppNames, 'name'>;
  inFlight: InFlight;
  screen: Pick<Screen, 'takeDown'>;
}

export class AppAdmin {
  constructor(private readonly parts: AppAdminParts) {}

  /** POST /v1/register (docs/api/apps.md#post-v1-register). `allowCommands: false` withdraws the request and the person's confirmation. */
  async register(registration: AppRegistration): Promise<void> {
    const { apps, approvals, names } = this.parts;
    await apps.register(registration);
    if (registration.allowCommands === false) await approvals.withdrawRequest(registration.app);
    if (registration.allowCommands === true) approvals.requestCommands(registration.app, names.name(registration.app));
  }

  /**
   * DELETE /v1/apps/{id} (docs/api/apps.md#a7): its banners close and its timers and speech stop, then everything the
   * service keeps of the app goes. 404 for an app it knows nothing of.
   */
  async remove(app: string): Promise<void> {
    const { history, inFlight, screen } = this.parts;
    await history.ready;
    const records = history.query({ app, limit: Number.MAX_SAFE_INTEGER });
    if (!appIsKnown(this.parts, app, records)) throw errors.unknownApp(app);
    inFlight.dismiss(timestamp(), app);
    for (const record of records) screen.takeDown(app, record.id);
    await deleteAppFiles(this.parts, app, records);
  }
}
