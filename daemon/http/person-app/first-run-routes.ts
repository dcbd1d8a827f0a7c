// `/app/api/first-run` (docs/app.md#the-first-run-view): what History's first-run view needs to show how a script
// sends a notification — this daemon's real port and where its token's file is. The token itself is never
// answered: the line the page shows reads it from its file (`$(cat …)`).

import path from 'node:path';
import { type FirstRunAnswer, firstRunPaths } from '../../../protocol/app-api-first-run.js';
import type { AppRoute } from './api-route.js';

/** The API token's file in the support folder (daemon/support-dir.ts, loadOrCreateToken: 0600). */
const TOKEN_FILE = 'token';

export interface DaemonPlace {
  supportDir: string;
  port: () => number;
}

/** `place` is read when asked: the port can move with a setting. */
export function firstRunRoutes(place: () => DaemonPlace): AppRoute[] {
  return [
    {
      method: 'GET',
      path: firstRunPaths.firstRun,
      handle: (): FirstRunAnswer => {
        const { supportDir, port } = place();
        return { port: port(), tokenFile: path.join(path.resolve(supportDir), TOKEN_FILE) };
      },
    },
  ];
}
