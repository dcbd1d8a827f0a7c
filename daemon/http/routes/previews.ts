// docs/api/templates.md#t24: POST /v1/preview and GET /v1/preview answer a PNG of a template drawn with data, drawn
// by the same code as real banners (daemon/core/previews.ts). docs/api/templates.md#post-v1-preview and
// #get-v1-preview give the messages.

import type { Response } from 'express';
import type { Core } from '../../core/core.js';
import { type PreviewOptions, drawCard, sampleNotification } from '../../core/templates/previews.js';
import type { Notification } from '../../../protocol/types.js';
import { CONFIRMATION_KINDS, CONFIRMATION_STRINGS, type Confirmation } from '../../../templates-renderer/confirmation.js';
import type { Template } from '../../../templates-renderer/model.js';
import { SCALE_RANGE, STACK_COUNT_RANGE } from '../../../protocol/limits.js';
import { templateErrorMessage, validateTemplate } from '../../../templates-renderer/validate.js';
import { ApiError, errors } from '../../../protocol/errors.js';
import { APP_QUERY, query, type Route } from '../route.js';
import { flag } from '../../../protocol/schemas/json-schema.js';
import { appearance, pngReply, previewQueryData, previewSchema, scale, stackCount } from '../../../protocol/schemas/previews.js';
import { readNotification } from './notifications.js';

type Services = Pick<Core, 'designs' | 'history' | 'names'>;

const BUILTIN_DEFAULT = 'builtin.imageLeft';

interface PreviewRequest {
  app: string;
  template?: string | Template;
  data: 'sample' | 'last' | Record<string, unknown>;
  options: PreviewOptions;
}

// ---------------------------------------------------------------------------------------------------------------
// Reading the options (each message names its field)

function readAppearance(value: unknown): PreviewOptions['appearance'] {
  if (value === undefined || value === null || value === '') return 'light';
  const text = typeof value === 'string' ? value.toLowerCase() : '';
  if (text !== 'light' && text !== 'dark') throw errors.invalidField('appearance', 'light or dark');
  return text;
}

function readScale(value: unknown): number {
  if (value === undefined || value === null || value === '') return SCALE_RANGE.default;
  // A numeric string is written in decimals ("2", "1.5"); Number() alone would also read "0x2" and "2e0".
  const number = typeof value === 'number' ? value : typeof value === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(value) ? Number(value) : NaN;
  if (!Number.isFinite(number) || number < SCALE_RANGE.min || number > SCALE_RANGE.max)
    throw errors.invalidField('scale', `a number from ${SCALE_RANGE.min} to ${SCALE_RANGE.max}`);
  return number;
}

function readStackCount(value: unknown): number {
  if (value === undefined || value === null || value === '') return STACK_COUNT_RANGE.default;
  const number = typeof value === 'number' ? value : typeof value === 'string' && /^\s*\d+\s*$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(number) || number < STACK_COUNT_RANGE.min || number > STACK_COUNT_RANGE.max) {
    throw errors.invalidField('stackCount', `a whole number from ${STACK_COUNT_RANGE.min} to ${STACK_COUNT_RANGE.max}`);
  }
  return number;
}

/** A JSON boolean; from a query string, `true|1|yes` and `false|0|no` (docs/api/README.md#g16). */
function readFlag(value: unknown, field: string): boolean {
  if (value === undefined || value === null || value === '') return false;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && /^(true|1|yes)$/i.test(value)) return true;
  if (typeof value === 'string' && /^(false|0|no)$/i.test(value)) return false;
  throw errors.invalidField(field, 'true or false');
}

function readConfirmation(value: unknown): Confirmation | undefined {
  if (value === undefined || value === null) return undefined;
  const kinds = CONFIRMATION_KINDS.join(', ');
  const kind =
    typeof value === 'string'
      ? value
      : typeof value === 'object' && !Array.isArray(value)
        ? (value as Record<string, unknown>).kind
        : undefined;
  if (!(CONFIRMATION_KINDS as readonly unknown[]).includes(kind))
    throw errors.invalidField('confirmation', `a kind (${kinds}) or an object with one`);
  const confirmation = { kind } as Confirmation;
  if (typeof value === 'object') {
    for (const key of CONFIRMATION_STRINGS) {
      const text = (value as Record<string, unknown>)[key];
      if (text === undefined || text === null) continue;
      if (typeof text !== 'string') throw errors.invalidField(`confirmation.${key}`, 'must be a string');
      confirmation[key] = text;
    }
  }
  return confirmation;
}

function readData(value: unknown): PreviewRequest['data'] {
  if (value === undefined || value === null || value === 'sample') return 'sample';
  if (value === 'last') return 'last';
  if (typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  throw errors.invalidField('data', 'an object, "sample" or "last"');
}

/** POST /v1/preview's body (the person's app's preview reads the same). */
export function readPost(body: Record<string, unknown>): PreviewRequest {
  const template = body.template ?? undefined;
  if (template !== undefined && typeof template !== 'string' && (typeof template !== 'object' || Array.isArray(template))) {
    throw errors.invalidField('template', 'a name or a template object');
  }
  let app: unknown = body.app ?? undefined;
  if (app !== undefined && (typeof app !== 'string' || app === '')) throw errors.invalidField('app');
  if (app === undefined && typeof template === 'object' && typeof (template as Record<string, unknown>).app === 'string')
    app = (template as Record<string, unknown>).app;
  if (app === undefined) throw errors.missingField('app');
  const replySample = body.replySample ?? undefined;
  if (replySample !== undefined && typeof replySample !== 'string') throw errors.invalidField('replySample', 'must be a string');
  const confirmation = readConfirmation(body.confirmation);
  return {
    app: app as string,
    ...(template !== undefined ? { template: inlineTemplate(template, app as string) } : {}),
    data: readData(body.data),
    options: {
      appearance: readAppearance(body.appearance),
      scale: readScale(body.scale),
      stackCount: readStackCount(body.stackCount),
      stackExpanded: readFlag(body.stackExpanded, 'stackExpanded'),
      replying: readFlag(body.replying, 'replying'),
      ...(confirmation ? { confirmation } : {}),
      ...(replySample !== undefined ? { replySample } : {}),
    },
  };
}

/** A template sent whole is validated like a saved one (its problems name their cells); a name is looked up later. */
function inlineTemplate(template: unknown, app: string): string | Template {
  if (typeof template === 'string') return template;
  const given = template as Record<string, unknown>;
  const { template: valid, errors: problems } = validateTemplate({ name: '_preview', ...given, app: given.app ?? app }, { app });
  if (!valid || problems.length > 0) throw errors.invalidTemplate(templateErrorMessage(problems));
  return valid;
}

/** A query string cannot carry a data object: only the two names, `sample` (the default) and `last`. */
function readQueryData(value: string | undefined): 'sample' | 'last' {
  if (value === undefined || value === '' || value === 'sample') return 'sample';
  if (value === 'last') return 'last';
  throw errors.invalidField('data', '"sample" or "last"');
}

/** GET /v1/preview's query, read by its contract: the manifest's sample data, or the app's last notification. */
function readGet(query: Readonly<Record<string, unknown>>): PreviewRequest {
  const template = query.template as string | undefined;
  return {
    app: query.app as string,
    ...(template ? { template } : {}),
    data: query.data as 'sample' | 'last',
    options: {
      appearance: query.appearance as PreviewOptions['appearance'],
      scale: query.scale as number,
      stackCount: query.stackCount as number,
      stackExpanded: query.stackExpanded as boolean,
      replying: false,
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Drawing

/** The data as a notification: the manifest's samples, the app's last notification, or one written inline. */
async function notificationOf(services: Services, request: PreviewRequest): Promise<{ notification: Notification; deliveredAt: string }> {
  const now = new Date().toISOString();
  if (request.data === 'sample')
    return { notification: sampleNotification(request.app, services.designs.manifest(request.app)), deliveredAt: now };
  if (request.data === 'last') {
    await services.history.load(request.app);
    const last = services.history.query({ app: request.app, limit: 1 })[0];
    if (!last) throw errors.nothingDelivered(request.app);
    return { notification: last.notification, deliveredAt: last.deliveredAt };
  }
  try {
    const input = readNotification({ ...request.data, app: request.app });
    const { speak: _speak, followUp: _followUp, ...drawn } = input;
    return { notification: { ...drawn, id: input.id ?? 'preview' } as Notification, deliveredAt: now };
  } catch (error) {
    // The fields of the data are fields of the body's `data`, and are named so.
    if (error instanceof ApiError && error.code === 'missing_field') throw errors.missingField(`data.${error.field}`, error.reason);
    if (error instanceof ApiError && error.code === 'invalid_field') throw errors.invalidField(`data.${error.field}`, error.reason);
    throw error;
  }
}

/** The template asked for, the app's default, else builtin.imageLeft; a name that names none is 404, the caller's mistake. */
function templateOf(services: Services, request: PreviewRequest): Template {
  if (typeof request.template === 'object') return request.template;
  const name = request.template ?? services.designs.manifest(request.app)?.defaultTemplate ?? BUILTIN_DEFAULT;
  const found =
    services.designs.templateOrBuiltin(request.app, name) ??
    (request.template === undefined ? services.designs.templateOrBuiltin(request.app, BUILTIN_DEFAULT) : undefined);
  if (!found) throw errors.templateNotFound(name);
  return found;
}

export async function sendPreview(services: Services, request: PreviewRequest, res: Response): Promise<void> {
  const template = templateOf(services, request);
  const { notification, deliveredAt } = await notificationOf(services, request);
  const manifest = services.designs.manifest(request.app);
  const appIcon = services.names.icon(request.app);
  const { png } = await drawCard(
    template,
    {
      notification,
      deliveredAt,
      appName: services.names.name(request.app),
      ...(appIcon ? { appIcon } : {}),
      ...(manifest ? { manifest } : {}),
    },
    request.options,
  );
  res.writeHead(200, { 'Content-Type': 'image/png', 'Content-Length': png.length, 'Cache-Control': 'no-store' });
  res.end(png);
}

const PREVIEW_ERRORS = {
  400: 'app is missing, an option is out of range, the inline template or data is invalid, or data is last and the app has sent nothing yet',
  404: 'template not found: the template named is neither saved for the app nor built in',
  500: 'the drawing failed',
};

export function previewRoutes(): Route<Services>[] {
  return [
    {
      method: 'POST',
      door: 'token',
      path: '/v1/preview',
      summary: 'Draw a template as a PNG',
      description: 'Drawn by the same code as the card pictures of real banners, with sample, last or given data and every option.',
      tag: 'Previews',
      body: previewSchema,
      reply: { file: pngReply, contentType: 'image/png' },
      errors: PREVIEW_ERRORS,
      examples: [
        {
          summary: "A saved template with the manifest's samples, dark",
          body: { app: 'com.example.build', template: 'build', data: 'sample', appearance: 'dark' },
        },
        {
          summary: 'A template sent whole, with its data',
          body: {
            app: 'com.example.build',
            template: {
              grid: { rows: 1, cols: 1 },
              cells: [{ id: 'title', row: 0, col: 0, component: { type: 'text', binding: '{title}', style: 'title' } }],
            },
            data: { title: 'Deploy finished' },
            scale: 1,
          },
        },
        {
          summary: 'A stack of three, open',
          body: { app: 'com.example.build', template: 'builtin.compact', stackCount: 3, stackExpanded: true },
        },
      ],
      handle: ({ services, body, res }) => sendPreview(services, readPost(body), res),
    },
    {
      method: 'GET',
      door: 'token',
      path: '/v1/preview',
      summary: "Draw a template as a PNG with the manifest's samples or the app's last notification",
      description:
        'POST /v1/preview for a client that would rather not send a body (`curl -o card.png`); it needs the token like every route.',
      tag: 'Previews',
      query: [
        APP_QUERY,
        query.text('template', "a template's name; default: the app's default, else builtin.imageLeft"),
        query.read(
          'data',
          "sample (the manifest's samples, the default) or last (the app's newest History notification)",
          previewQueryData,
          readQueryData,
        ),
        query.read('appearance', 'light or dark', appearance, readAppearance),
        query.read('scale', "the picture's scale", scale, readScale),
        query.read('stackCount', 'draw the top card of a stack', stackCount, readStackCount),
        query.read('stackExpanded', 'the stack open as a list (true, 1, yes / false, 0, no)', flag(), (text: string | undefined) =>
          readFlag(text, 'stackExpanded'),
        ),
      ],
      reply: { file: pngReply, contentType: 'image/png' },
      errors: PREVIEW_ERRORS,
      examples: [{ summary: 'A built-in layout at scale 2', query: { app: 'com.example.build', template: 'builtin.hero', scale: 2 } }],
      handle: ({ services, query, res }) => sendPreview(services, readGet(query), res),
    },
  ];
}
