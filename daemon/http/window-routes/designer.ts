// `/app/api` for the Designer page (docs/app.md#designer): the template library, the live preview (which names each
// problem's place, for the editor to mark it), "Send test", and — as `/v1`'s routes at the window's paths, calling
// the same functions, with their checks and errors — saving and deleting templates and manifests, the lookups and
// the assets.

import type { Response } from 'express';
import { type ComposeAnswer, OWN_APP } from '../../../protocol/app-api.js';
import {
  DESIGNER_TEST_TEMPLATE,
  type DesignerLibrary,
  designerPaths,
  type DesignerPreviewRequest,
  type DesignerProblem,
  type DesignerProblems,
} from '../../../protocol/app-api-designer.js';
import { errors } from '../../../protocol/errors.js';
import { LAYOUTS } from '../../../protocol/types.js';
import { builtinTemplateSource } from '../../../templates-renderer/builtins.js';
import type { Issue, Template } from '../../../templates-renderer/model.js';
import { templateErrorMessage, validateTemplate } from '../../../templates-renderer/validate.js';
import { designerLibrarySchema } from '../../../protocol/schemas/app-api.js';
import { notifyReplySchema } from '../../../protocol/schemas/notifications.js';
import type { Route } from '../route.js';
import { addAsset, assetList, assetRoutes, removeAsset } from '../routes/assets.js';
import { listShortcuts, lookupRoutes, symbolsOf } from '../routes/lookups.js';
import { componentsDocument } from '../../../templates-renderer/components-doc.js';
import { manifestOf, manifestRoutes, removeManifest, saveManifest } from '../routes/manifests.js';
import { readNotification } from '../routes/notifications.js';
import { readPost, sendPreview } from '../routes/previews.js';
import { deleteTemplate, saveTemplate, templateRoutes } from '../routes/templates.js';
import type { Services as AllServices } from '../services.js';
import { asWindowRoute, v1Route, windowRoute } from './window-route.js';

type Services = Pick<AllServices, 'designs' | 'library' | 'bundles' | 'assets' | 'history' | 'names' | 'notifications'>;

const asProblem = ({ path, cellId, message }: Issue): DesignerProblem => ({ path, ...(cellId !== undefined ? { cellId } : {}), message });

/** An object field of the body (`template`, `data`), or 400 naming it. */
function objectField(body: Record<string, unknown>, field: string, required: boolean): Record<string, unknown> | undefined {
  const value = body[field] ?? undefined;
  if (value === undefined && !required) return undefined;
  if (value === undefined) throw errors.missingField(field);
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw errors.invalidField(field, 'an object');
  return value as Record<string, unknown>;
}

/**
 * The edited template checked as `PUT /v1/templates` checks it (with its app's manifest: undeclared tokens are
 * warnings). Its problems are answered as data (400 `DesignerProblems`), each with its path and cell, so the editor
 * marks the very place; null then.
 */
function checkedTemplate(core: Services, given: Record<string, unknown>, res: Response): Template | null {
  const app = typeof given.app === 'string' && given.app !== '' ? given.app : OWN_APP;
  const manifest = core.designs.manifest(app);
  const {
    template,
    errors: problems,
    warnings,
  } = validateTemplate(
    { name: '_preview', ...given, app },
    {
      ...(manifest?.fields.length ? { knownFields: manifest.fields.map((field) => field.key) } : {}),
      ...(manifest ? { offeredActions: manifest.actions } : {}),
    },
  );
  if (template && problems.length === 0) return template;
  const answer: DesignerProblems = {
    error: templateErrorMessage(problems),
    code: 'invalid_template',
    problems: problems.map(asProblem),
    warnings: warnings.map(asProblem),
  };
  const body = JSON.stringify(answer);
  res.writeHead(400, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(body),
    'Cache-Control': 'no-store',
  });
  res.end(body);
  return null;
}

export function designerRoutes(): Route<Services>[] {
  const templates = templateRoutes();
  const lookups = lookupRoutes();
  const assets = assetRoutes();
  const manifests = manifestRoutes();
  return [
    windowRoute<Services, DesignerLibrary>({
      method: 'GET',
      path: designerPaths.library,
      summary: 'The built-in layouts, as written, and every saved template',
      reply: designerLibrarySchema,
      handle: ({ services }): DesignerLibrary => ({
        // Written as they are sent, for Notifier's own app: the person copies one under a name of their own.
        builtins: LAYOUTS.map((layout) => builtinTemplateSource(layout, OWN_APP) as Record<string, unknown>),
        templates: services.designs.listTemplates() as unknown as Record<string, unknown>[],
      }),
    }),
    windowRoute<Services, void, DesignerPreviewRequest>({
      method: 'POST',
      path: designerPaths.preview,
      summary: 'The template being edited, drawn; or 400 naming the place of each problem',
      reply: { file: 'the card', contentType: 'image/png' },
      errors: { 400: 'the template does not pass the checks: DesignerProblems, each problem with its path and cell' },
      handle: async ({ services, body, res }) => {
        const given = objectField(body, 'template', true)!;
        const data = objectField(body, 'data', false);
        const theme = body.theme ?? 'light';
        if (theme !== 'light' && theme !== 'dark') throw errors.invalidChoice('theme', ['light', 'dark']);
        const template = checkedTemplate(services, given, res);
        if (!template) return;
        const request = readPost({ app: template.app, template, data: data ?? 'sample', appearance: theme });
        await sendPreview(services, request, res);
      },
    }),
    windowRoute<Services, ComposeAnswer | void, DesignerPreviewRequest>({
      method: 'POST',
      path: designerPaths.sendTest,
      summary: 'The template being edited, as a real banner of Notifier itself',
      reply: notifyReplySchema,
      errors: { 400: 'the template does not pass the checks (DesignerProblems), or the sample data does not' },
      handle: async ({ services, body, res }) => {
        const given = objectField(body, 'template', true)!;
        const data = objectField(body, 'data', false) ?? {};
        const template = checkedTemplate(services, given, res);
        if (!template) return;
        // A real banner of Notifier's own app drawn through this template: saved under a scratch name (never listed),
        // then sent as POST /v1/notify sends (the same checks, naming the sample data's fields).
        const notification = readNotification({ ...data, app: OWN_APP, template: DESIGNER_TEST_TEMPLATE });
        await services.designs.putTemplate({ ...template, app: OWN_APP, name: DESIGNER_TEST_TEMPLATE });
        return { ok: true, id: await services.notifications.notify(notification) };
      },
    }),
    asWindowRoute(v1Route(templates, 'GET', '/v1/templates'), designerPaths.templates, ({ services, query }) => ({
      items: services.designs.listTemplates(query.app as string | undefined),
    })),
    asWindowRoute(v1Route(templates, 'PUT', '/v1/templates'), designerPaths.templates, ({ services, body }) =>
      saveTemplate(services, body),
    ),
    asWindowRoute(v1Route(templates, 'DELETE', '/v1/templates'), designerPaths.templates, ({ services, query }) =>
      deleteTemplate(services, query.app as string, query.name as string),
    ),
    asWindowRoute(v1Route(lookups, 'GET', '/v1/components'), designerPaths.components, () => componentsDocument()),
    asWindowRoute(v1Route(lookups, 'GET', '/v1/symbols'), designerPaths.symbols, ({ query }) => symbolsOf(query)),
    asWindowRoute(v1Route(lookups, 'GET', '/v1/shortcuts'), designerPaths.shortcuts, () => listShortcuts()),
    asWindowRoute(v1Route(assets, 'GET', '/v1/assets'), designerPaths.assets, ({ services, query }) =>
      assetList(services, query.app as string),
    ),
    asWindowRoute(v1Route(assets, 'POST', '/v1/assets'), designerPaths.assets, ({ services, body }) => addAsset(services, body)),
    asWindowRoute(v1Route(assets, 'DELETE', '/v1/assets'), designerPaths.assets, ({ services, query }) =>
      removeAsset(services, query.app as string, query.file as string),
    ),
    asWindowRoute(v1Route(manifests, 'GET', '/v1/manifests'), designerPaths.manifests, ({ services }) => ({
      items: services.designs.allManifests(),
    })),
    asWindowRoute(v1Route(manifests, 'GET', '/v1/manifest'), designerPaths.manifest, ({ services, query }) =>
      manifestOf(services, query.app as string),
    ),
    asWindowRoute(v1Route(manifests, 'PUT', '/v1/manifest'), designerPaths.manifest, ({ services, req }) =>
      saveManifest(services, req.body),
    ),
    asWindowRoute(v1Route(manifests, 'DELETE', '/v1/manifest'), designerPaths.manifest, ({ services, query }) =>
      removeManifest(services, query.app as string),
    ),
  ];
}
