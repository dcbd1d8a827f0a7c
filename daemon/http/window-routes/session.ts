// `/app/api/session` and `/app/api/apps…` (docs/app.md#the-api): the session (this computer's name) and Sign out;
// the apps History knows, with their names, icons, counts and templates. The session's CSRF value is never answered
// here: the page has it from the sign-in alone (docs/app.md#the-three-doors).

import os from 'node:os';
import {
  APP_API,
  type AppsAnswer,
  type AppSummary,
  type OkAnswer,
  type SessionAnswer,
  type SessionsAnswer,
} from '../../../protocol/app-api.js';
import { errors } from '../../../protocol/errors.js';
import { MAX_IMAGE_BYTES } from '../../../protocol/limits.js';
import { appsAnswerSchema, sessionAnswerSchema, sessionsAnswerSchema } from '../../../protocol/schemas/app-api.js';
import { okSchema } from '../../../protocol/schemas/common.js';
import { readSource } from '../../core/media/images.js';
import { sniffImage } from '../../core/media/image-sniff.js';
import type { Route } from '../route.js';
import type { Services as AllServices } from '../services.js';
import { endedCookieHeader, sessionCookie } from '../window/door.js';
import { windowRoute } from './window-route.js';

type Services = Pick<AllServices, 'history' | 'apps' | 'names' | 'readState' | 'designs' | 'sessions'>;

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

function appsOf(core: Services): AppSummary[] {
  const ids = new Set([...core.history.appIds(), ...core.apps.list().map((registration) => registration.app)]);
  return [...ids]
    .map((app) => ({
      app,
      appName: core.names.name(app),
      hasIcon: core.names.icon(app) !== undefined,
      count: core.history.recordsOf(app).length,
      unread: core.readState.unreadCount(app),
      templates: core.designs.listTemplates(app).map((template) => template.name),
    }))
    .sort((a, b) => a.appName.localeCompare(b.appName));
}

export function sessionRoutes(): Route<Services>[] {
  return [
    windowRoute<Services, SessionAnswer>({
      method: 'GET',
      path: APP_API.session,
      summary: "The session: this computer's name (never the session's CSRF value)",
      reply: sessionAnswerSchema,
      handle: () => ({ computerName: os.hostname() }),
    }),
    windowRoute<Services, OkAnswer>({
      method: 'DELETE',
      path: APP_API.session,
      summary: 'Sign out',
      reply: okSchema,
      handle: ({ services, req, res }) => {
        services.sessions.end(sessionCookie(req)!);
        res.setHeader('Set-Cookie', endedCookieHeader());
        return { ok: true };
      },
    }),
    windowRoute<Services, SessionsAnswer>({
      method: 'GET',
      path: APP_API.sessions,
      summary: 'The signed-in windows (sessions), newest use first',
      reply: sessionsAnswerSchema,
      handle: ({ services, session }) => ({
        sessions: services.sessions.list().map((open) => ({
          handle: open.handle,
          browser: open.browser,
          signedInAt: new Date(open.createdAt).toISOString(),
          lastUsedAt: new Date(open.lastUsed).toISOString(),
          thisWindow: open === session,
        })),
      }),
    }),
    windowRoute<Services, OkAnswer>({
      method: 'DELETE',
      path: APP_API.sessions,
      summary: 'Sign out everywhere: every window, this one too',
      reply: okSchema,
      handle: ({ services, res }) => {
        services.sessions.endAll();
        res.setHeader('Set-Cookie', endedCookieHeader());
        return { ok: true };
      },
    }),
    windowRoute<Services, OkAnswer>({
      method: 'DELETE',
      path: APP_API.sessionOne,
      summary: 'Sign out one window, by its handle',
      params: { handle: { description: 'the handle GET /app/api/sessions lists' } },
      reply: okSchema,
      errors: { 404: 'no signed-in window has that handle' },
      handle: ({ services, params, session, res }) => {
        const mine = session?.handle === params.handle;
        if (!services.sessions.endHandle(params.handle!)) throw errors.noSuchSession();
        if (mine) res.setHeader('Set-Cookie', endedCookieHeader());
        return { ok: true };
      },
    }),
    windowRoute<Services, AppsAnswer>({
      method: 'GET',
      path: APP_API.apps,
      summary: 'The apps History knows, with their names, icons, counts and templates',
      reply: appsAnswerSchema,
      handle: async ({ services }) => {
        await services.history.ready;
        return { apps: appsOf(services) };
      },
    }),
    windowRoute({
      method: 'GET',
      path: APP_API.appIcon,
      summary: "An app's icon",
      params: { app: { description: 'the app' } },
      reply: { file: 'the picture', contentType: 'image/png' },
      handle: async ({ services, params, res }) => {
        const bytes = await iconBytes(services.names.icon(params.app!));
        if (!bytes) throw errors.noIcon(params.app!);
        res.writeHead(200, {
          'Content-Type': IMAGE_TYPES[sniffImage(bytes)!] ?? 'application/octet-stream',
          'Content-Length': bytes.length,
          'Cache-Control': 'private, max-age=300',
        });
        res.end(bytes);
      },
    }),
  ];
}
