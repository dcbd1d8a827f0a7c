// `/app/api` for the Designer page (docs/app.md#designer): the template library, the live preview (which names each
// problem's place, for the editor to mark it), "Send test", and — through `/v1`'s own handlers, with their checks
// and errors — saving and deleting templates and manifests, the lookups and the assets.

import type { Response } from 'express';
import { OWN_APP } from '../../../protocol/app-api.js';
import {
  DESIGNER_TEST_TEMPLATE,
  designerPaths,
  type DesignerLibrary,
  type DesignerProblem,
  type DesignerProblems,
} from '../../../protocol/app-api-designer.js';
import { errors } from '../../../protocol/errors.js';
import { LAYOUTS } from '../../../protocol/types.js';
import { builtinTemplateSource } from '../../../templates-renderer/builtins.js';
import type { Issue, Template } from '../../../templates-renderer/model.js';
import { templateErrorMessage, validateTemplate } from '../../../templates-renderer/validate.js';
import type { NotifierCore } from '../../core/notifier.js';
import { bodyObject } from '../params.js';
import { readNotification } from '../routes/notifications.js';
import { readPost, sendPreview } from '../routes/previews.js';
import type { AppRoute } from './api-route.js';
import { fromV1 } from './v1-routes.js';

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
function checkedTemplate(core: NotifierCore, given: Record<string, unknown>, res: Response): Template | null {
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

export function designerRoutes(): AppRoute[] {
  return [
    {
      method: 'GET',
      path: designerPaths.library,
      handle: ({ context }): DesignerLibrary => ({
        // Written as they are sent, for Notifier's own app: the person copies one under a name of their own.
        builtins: LAYOUTS.map((layout) => builtinTemplateSource(layout, OWN_APP) as Record<string, unknown>),
        templates: context.core.designs.listTemplates() as unknown as Record<string, unknown>[],
      }),
    },
    {
      method: 'POST',
      path: designerPaths.preview,
      handle: async ({ req, res, context }) => {
        const body = bodyObject(req);
        const given = objectField(body, 'template', true)!;
        const data = objectField(body, 'data', false);
        const theme = body.theme ?? 'light';
        if (theme !== 'light' && theme !== 'dark') throw errors.invalidChoice('theme', ['light', 'dark']);
        const template = checkedTemplate(context.core, given, res);
        if (!template) return;
        const request = readPost({ app: template.app, template, data: data ?? 'sample', appearance: theme });
        await sendPreview(context.core, request, res);
      },
    },
    {
      method: 'POST',
      path: designerPaths.sendTest,
      handle: async ({ req, res, context }) => {
        const body = bodyObject(req);
        const given = objectField(body, 'template', true)!;
        const data = objectField(body, 'data', false) ?? {};
        const template = checkedTemplate(context.core, given, res);
        if (!template) return;
        // A real banner of Notifier's own app drawn through this template: saved under a scratch name (never listed),
        // then sent as POST /v1/notify sends (the same checks, naming the sample data's fields).
        const notification = readNotification({ ...data, app: OWN_APP, template: DESIGNER_TEST_TEMPLATE });
        await context.core.designs.putTemplate({ ...template, app: OWN_APP, name: DESIGNER_TEST_TEMPLATE });
        return { ok: true, id: await context.core.notify(notification) };
      },
    },
    fromV1('GET', '/v1/templates', designerPaths.templates),
    fromV1('PUT', '/v1/templates', designerPaths.templates),
    fromV1('DELETE', '/v1/templates', designerPaths.templates),
    fromV1('GET', '/v1/components', designerPaths.components),
    fromV1('GET', '/v1/symbols', designerPaths.symbols),
    fromV1('GET', '/v1/shortcuts', designerPaths.shortcuts),
    fromV1('GET', '/v1/assets', designerPaths.assets),
    fromV1('POST', '/v1/assets', designerPaths.assets),
    fromV1('DELETE', '/v1/assets', designerPaths.assets),
    fromV1('GET', '/v1/manifests', designerPaths.manifests),
    fromV1('GET', '/v1/manifest', designerPaths.manifest),
    fromV1('PUT', '/v1/manifest', designerPaths.manifest),
    fromV1('DELETE', '/v1/manifest', designerPaths.manifest),
  ];
}
