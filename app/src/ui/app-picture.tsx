// An app's picture: its icon when it registered one (GET /app/api/apps/<app>/icon), else its initial on a calm
// colour of its own. Drawn in History's rows and details, and on Settings' app cards.

import type { VNode } from 'preact';
import { appPaths } from '../../../protocol/app-api.js';
import { useModels } from '../models/context.js';
import './app-picture.css';

/** A calm colour per app for its initial when it has no icon (the same app always gets the same one). */
const AVATAR_HUES = 8;
function hueOf(app: string): number {
  let hash = 2166136261; // FNV-1a: similar ids (ci, claude, calendar) still spread over the colours
  for (const char of app) hash = Math.imul(hash ^ char.charCodeAt(0), 16777619);
  hash ^= hash >>> 15; // FNV's low bits change little: mix the high ones in
  hash = Math.imul(hash, 0x2c1b3c6d);
  hash ^= hash >>> 12;
  return (hash >>> 0) % AVATAR_HUES;
}

export function AppPicture({ app, appName, size = 'small' }: { app: string; appName: string; size?: 'small' | 'large' }): VNode {
  const { apps, api } = useModels();
  const summary = apps.apps.value.find((known) => known.app === app);
  if (summary?.hasIcon) return <img class={`app-picture app-picture-${size}`} src={api.withCsrf(appPaths.appIcon(app))} alt="" />;
  const initial = ([...(appName || app).trim()][0] ?? '?').toUpperCase();
  return (
    <span class={`app-picture app-picture-${size} avatar-${hueOf(app)}`} aria-hidden="true">
      {initial}
    </span>
  );
}
