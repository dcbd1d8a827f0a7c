// `/app/api/first-run` (docs/app.md#the-first-run-view): what History's first-run view needs to show how a script
// sends a notification — this daemon's real port and where its token's file is. The token itself is never
// answered: the line the page shows reads it from its file (`$(cat …)`).

import path from 'node:path';
import { type FirstRunAnswer, firstRunPaths } from '../../../protocol/app-api-first-run.js';
import { firstRunSchema } from '../../../protocol/schemas/app-api.js';
import type { Route } from '../route.js';
import type { Services as AllServices } from '../services.js';
import { windowRoute } from './window-route.js';

/** The API token's file in the support folder (daemon/support-dir.ts, loadOrCreateToken: 0600). */
const TOKEN_FILE = 'token';

type Services = Pick<AllServices, 'place'>;

export function firstRunRoutes(): Route<Services>[] {
  return [
    windowRoute({
      method: 'GET',
      path: firstRunPaths.firstRun,
      summary: 'Where a script reaches this daemon: its port and the file of its token',
      reply: firstRunSchema,
      // The place is read when asked: the port can move with a setting.
      handle: ({ services }): FirstRunAnswer => {
        const { supportDir, port } = services.place();
        return { port: port(), tokenFile: path.join(path.resolve(supportDir), TOKEN_FILE) };
      },
    }),
  ];
}
