// `/app/api/session` and `/app/api/apps…` (docs/app.md#the-api): the session (this computer's name) and Sign out;
// the apps History knows, with their names, icons, counts and templates. The session's CSRF value is never answered
// here: the page has it from the sign-in alone (docs/app.md#the-three-doors).

import os from 'node:os';
import type { AppSummary } from '../../../protocol/app-api.js';
import { errors } from '../../../protocol/errors.js';
import { MAX_IMAGE_BYTES } from '../../../protocol/limits.js';
import { readSource } from '../../core/media/images.js';
import { sniffImage } from '../../core/media/image-sniff.js';
import { endedCookieHeader, sessionCookie } from './door.js';
import type { AppContext, AppRoute } from './api-route.js';

/** An icon the app page can show: a file on this computer or a data: URI (never fetched from the network here). */
async function iconBytes(icon: string | undefined): Promise<Buffer | null> {
  if (!icon || /^https?:\/\//i.test(icon)) return null;
  const bytes = await readSource(icon, MAX_IMAGE_BYTES).catch(() => null);
  return bytes && sniffImage(bytes) ? bytes : null;
}

const IMAGE_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  bmp: 'image/bmp',
  tiff: 'image/tiff',
  heic: 'image/heic',
  avif: 'image/avif',
};

function appsOf(context: AppContext): AppSummary[] {
  const { core } = context;
  const ids = new Set([...core.history.appIds(), ...core.apps.list().map((registration) => registration.app)]);
  return [...ids]
    .map((app) => ({
      app,
      appName: core.appName(app),
      hasIcon: core.appIcon(app) !== undefined,
      count: core.history.recordsOf(app).length,
      unread: core.readState.unreadCount(app),
      templates: core.designs.listTemplates(app).map((template) => template.name),
    }))
    .sort((a, b) => a.appName.localeCompare(b.appName));
}

export function sessionRoutes(): AppRoute[] {
  return [
    { method: 'GET', path: '/app/api/session', handle: () => ({ computerName: os.hostname() }) },
    {
      method: 'DELETE',
      path: '/app/api/session',
      handle: ({ req, res, context }) => {
        context.sessions.end(sessionCookie(req)!);
        res.setHeader('Set-Cookie', endedCookieHeader());
        return { ok: true };
      },
    },
    {
      method: 'GET',
      path: '/app/api/apps',
      handle: async ({ context }) => {
        await context.core.history.ready;
        return { apps: appsOf(context) };
      },
    },
    {
      method: 'GET',
      path: '/app/api/apps/:app/icon',
      handle: async ({ res, params, context }) => {
        const bytes = await iconBytes(context.core.appIcon(params.app!));
        if (!bytes) throw errors.noIcon(params.app!);
        res.writeHead(200, {
          'Content-Type': IMAGE_TYPES[sniffImage(bytes)!] ?? 'application/octet-stream',
          'Content-Length': bytes.length,
          'Cache-Control': 'private, max-age=300',
        });
        res.end(bytes);
      },
    },
  ];
}
