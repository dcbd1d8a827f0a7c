// docs/api/templates.md#get-v1-templates and the routes after it: list, save, delete, duplicate, rename, default,
// follow-up, export and import.

import type { Request } from 'express';
import type { NotifierCore } from '../../core/notifier.js';
import { ON_CONFLICT, type OnConflict } from '../../core/templates/template-bundles.js';
import type { FollowUpRequest } from '../../core/templates/library.js';
import { isBuiltinName, templateNameProblem } from '../../../templates-renderer/names.js';
import { issueText, templateErrorMessage, validateTemplate } from '../../../templates-renderer/validate.js';
import { errors } from '../../../protocol/errors.js';
import { MANIFEST_LIMITS } from '../../../protocol/limits.js';
import { bodyObject, bodyText, optionalBodyText, queryText } from '../params.js';
import type { Route } from '../routes.js';

/** PUT /v1/templates: the name rules (scratch names allowed), then every problem of the template at once. */
async function saveTemplate(core: NotifierCore, req: Request) {
  const body = bodyObject(req);
  const app = bodyText(body, 'app');
  // An app id is at most 128 bytes wherever it is given (notify, manifests): a longer one could never send.
  if (Buffer.byteLength(app, 'utf8') > MANIFEST_LIMITS.appBytes) throw errors.invalidField('app', `at most ${MANIFEST_LIMITS.appBytes} bytes`);
  const name = bodyText(body, 'name');
  const nameProblem = templateNameProblem(name, { allowScratch: true });
  if (nameProblem) throw errors.invalidTemplateName(nameProblem);
  const manifest = core.designs.manifest(app);
  const { template, errors: problems, warnings } = validateTemplate(body, {
    ...(manifest?.fields.length ? { knownFields: manifest.fields.map((field) => field.key) } : {}),
    ...(manifest ? { offeredActions: manifest.actions } : {}),
  });
  if (!template || problems.length > 0) throw errors.invalidTemplate(templateErrorMessage(problems));
  await core.designs.putTemplate(template);
  return { ok: true, ...(warnings.length > 0 ? { warnings: warnings.map(issueText) } : {}) };
}

/** The body of PUT /v1/templates/follow-up with its types checked (the rules are the library's). */
function readFollowUp(body: Record<string, unknown>): FollowUpRequest {
  const request: FollowUpRequest = { app: bodyText(body, 'app') };
  for (const key of ['template', 'shortcut', 'script', 'command', 'actionRef', 'input', 'label'] as const) {
    const value = optionalBodyText(body, key);
    if (value !== undefined) request[key] = value;
  }
  // An empty `template` is no template: the app's default is edited, as when it is left out.
  if (request.template === '') delete request.template;
  if (body.after !== undefined && body.after !== null) {
    if (typeof body.after !== 'number' && typeof body.after !== 'string') throw errors.invalidField('after', 'seconds, or a duration such as 90s, 10m, 2h');
    request.after = body.after;
  }
  if (body.enabled !== undefined && body.enabled !== null) {
    if (typeof body.enabled !== 'boolean') throw errors.invalidField('enabled', 'true or false');
    request.enabled = body.enabled;
  }
  return request;
}

function readOnConflict(body: Record<string, unknown>): OnConflict {
  const value = body.onConflict ?? 'keepBoth';
  if (!(ON_CONFLICT as readonly unknown[]).includes(value)) throw errors.invalidChoice('onConflict', ON_CONFLICT);
  return value as OnConflict;
}

export function templateRoutes(core: NotifierCore): Route[] {
  return [
    { method: 'GET', path: '/v1/templates', handle: (req) => ({ items: core.designs.listTemplates(queryText(req, 'app') || undefined) }) },
    { method: 'PUT', path: '/v1/templates', handle: (req) => saveTemplate(core, req) },
    {
      method: 'DELETE',
      path: '/v1/templates',
      handle: async (req) => {
        const app = queryText(req, 'app', { required: true });
        const name = queryText(req, 'name', { required: true });
        if (isBuiltinName(name)) throw errors.builtinReadOnly(name);
        if (!(await core.designs.deleteTemplate(app, name))) throw errors.templateNotFound();
        return { ok: true };
      },
    },
    {
      method: 'POST',
      path: '/v1/templates/duplicate',
      handle: async (req) => {
        const body = bodyObject(req);
        const app = bodyText(body, 'app');
        const name = bodyText(body, 'name');
        const newName = optionalBodyText(body, 'newName');
        const toApp = optionalBodyText(body, 'toApp') || app;
        const copy = await core.library.duplicate(app, name, newName, toApp);
        return { ok: true, ...copy, copiedFrom: { app, name } };
      },
    },
    {
      method: 'POST',
      path: '/v1/templates/rename',
      handle: (req) => {
        const body = bodyObject(req);
        return core.library.rename(bodyText(body, 'app'), bodyText(body, 'name'), bodyText(body, 'newName'));
      },
    },
    {
      method: 'PUT',
      path: '/v1/templates/default',
      handle: async (req) => {
        const body = bodyObject(req);
        const app = bodyText(body, 'app');
        const name = optionalBodyText(body, 'name') || undefined;
        return { ok: true, app, defaultTemplate: await core.library.setDefault(app, name) };
      },
    },
    { method: 'PUT', path: '/v1/templates/follow-up', handle: (req) => core.library.setFollowUp(readFollowUp(bodyObject(req))) },
    {
      method: 'GET',
      path: '/v1/templates/export',
      handle: (req) =>
        core.bundles.export(queryText(req, 'app', { required: true }), queryText(req, 'name', { required: true }), queryText(req, 'path') || undefined),
    },
    {
      method: 'POST',
      path: '/v1/templates/import',
      handle: (req) => {
        const body = bodyObject(req);
        const path = optionalBodyText(body, 'path');
        const base64 = optionalBodyText(body, 'base64');
        const app = optionalBodyText(body, 'app') || undefined;
        return core.bundles.import({ ...(path !== undefined ? { path } : {}), ...(base64 !== undefined ? { base64 } : {}), ...(app ? { app } : {}), onConflict: readOnConflict(body) });
      },
    },
  ];
}
