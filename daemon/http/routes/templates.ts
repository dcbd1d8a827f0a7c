// docs/api/templates.md#get-v1-templates and the routes after it: list, save, delete, duplicate, rename, default,
// follow-up, export and import.

import type { Core } from '../../core/core.js';
import { ON_CONFLICT, type OnConflict } from '../../core/templates/template-bundles.js';
import type { FollowUpRequest } from '../../core/templates/library.js';
import { isBuiltinName, templateNameProblem } from '../../../templates-renderer/names.js';
import { issueText, templateErrorMessage, validateTemplate } from '../../../templates-renderer/validate.js';
import { errors } from '../../../protocol/errors.js';
import { MANIFEST_LIMITS } from '../../../protocol/limits.js';
import { bodyText, optionalBodyText } from '../params.js';
import { APP_QUERY, onlyApp, query, type Route } from '../route.js';
import { okSchema } from '../../../protocol/schemas/common.js';
import {
  defaultTemplateReplySchema,
  defaultTemplateSchema,
  duplicatedTemplateSchema,
  duplicateTemplateSchema,
  exportedTemplateSchema,
  followUpReplySchema,
  followUpRequestSchema,
  importedTemplateSchema,
  importTemplateSchema,
  renamedTemplateSchema,
  renameTemplateSchema,
  savedTemplateSchema,
  templateSchema,
  templatesSchema,
} from '../../../protocol/schemas/templates.js';

/** A template of two columns (the icon column sized to its content) and three rows. */
const BUILD_TEMPLATE = {
  app: 'com.example.build',
  name: 'build',
  grid: { rows: 3, cols: 2, colSizes: ['auto', 'fill'] },
  cells: [
    { id: 'icon', row: 0, col: 0, component: { type: 'issuerIcon', size: 28 } },
    { id: 'title', row: 0, col: 1, component: { type: 'text', binding: '{title}', style: 'title' } },
    { id: 'bar', row: 1, col: 1, component: { type: 'progress', binding: '{percent}' } },
    { id: 'buttons', row: 2, col: 0, colSpan: 2, component: { type: 'actions' } },
  ],
};

/** A .notifiertemplate bundle of a template named title-only (one title cell), as GET /v1/templates/export makes it. */
const TITLE_ONLY_BUNDLE =
  'UEsDBBQAAAAIAFYxeF0GS/9rgwAAAKMAAAALAAAAYnVuZGxlLmpzb24lzU0OwiAQBeB9T0FYCwFsa8LOO7jSuMB2mpDwFxiNxnh3oSxn3pf3vgMhdIvZG6Sa0BDRbhYygk/OINBDy1+Qi42hArnfJqWGl+g5vE2VwB9P69aug/HQYrTogMXgPv2/ZKiN63kfUkLNTEqmxouYtRR6nPjpOF07NaUAlupu9+H3B1BLAwQUAAAACABWMXhd4VP3JkoBAADUAgAADQAAAHRlbXBsYXRlLmpzb25lkj9PwzAQxfd+isozVAV1qBiR2DIBYkEMTnJNLfmfkrOaUOW7c3cOaQJLq/d7F9+7s6+b7VZ57UA9bRUatHAfvB3UHXMdI+MquB302kULuzIZW2fX6iEk/IC2M8FT3aPQpjU1CT6XVBsuHakHtkhWwS4luW/mGxh9CuGeCYMS8XX76F/VyVi7rmo0Zz1OKuq6Nr7hXocJXUyNZwKH/Z7AKGErsBIon5szE5YJ8jZk1N+wRPezplgrzcNEzYuYxpui/2XamoaJwhAL0BJzNm+5l41cDB48zmsVjEPMlwY9zgcQL42fjlBXGWFcuh0ONNQ83WSM8s+/sk7ObXXs4MVFHKga2wT5RVRIl/2abL6OXE0BWs3h8lLLhBj8ws8PhZsapxso4JQDq+5MO0tljrLowvw51KvOzN6Ngw7pIS4Np3uuLYyXTMfN+ANQSwECFAAUAAAACABWMXhdBkv/a4MAAACjAAAACwAAAAAAAAAAAAAAAAAAAAAAYnVuZGxlLmpzb25QSwECFAAUAAAACABWMXhd4VP3JkoBAADUAgAADQAAAAAAAAAAAAAAAACsAAAAdGVtcGxhdGUuanNvblBLBQYAAAAAAgACAHQAAAAhAgAAAAA=';

type Services = Pick<Core, 'designs' | 'library' | 'bundles'>;

/** PUT /v1/templates (the Designer's too): the name rules (scratch names allowed), then every problem of the template at once. */
export async function saveTemplate(services: Services, body: Record<string, unknown>) {
  const app = bodyText(body, 'app');
  // An app id is at most 128 bytes wherever it is given (notify, manifests): a longer one could never send.
  if (Buffer.byteLength(app, 'utf8') > MANIFEST_LIMITS.appBytes)
    throw errors.invalidField('app', `at most ${MANIFEST_LIMITS.appBytes} bytes`);
  const name = bodyText(body, 'name');
  const nameProblem = templateNameProblem(name, { allowScratch: true });
  if (nameProblem) throw errors.invalidTemplateName(nameProblem);
  const manifest = services.designs.manifest(app);
  const {
    template,
    errors: problems,
    warnings,
  } = validateTemplate(body, {
    ...(manifest?.fields.length ? { knownFields: manifest.fields.map((field) => field.key) } : {}),
    ...(manifest ? { offeredActions: manifest.actions } : {}),
  });
  if (!template || problems.length > 0) throw errors.invalidTemplate(templateErrorMessage(problems));
  await services.designs.putTemplate(template);
  return { ok: true, ...(warnings.length > 0 ? { warnings: warnings.map(issueText) } : {}) };
}

/** DELETE /v1/templates (the Designer's too): a built-in layout is read-only; 404 for no such template. */
export async function deleteTemplate(services: Services, app: string, name: string) {
  if (isBuiltinName(name)) throw errors.builtinReadOnly(name);
  if (!(await services.designs.deleteTemplate(app, name))) throw errors.templateNotFound();
  return { ok: true };
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
    if (typeof body.after !== 'number' && typeof body.after !== 'string')
      throw errors.invalidField('after', 'seconds, or a duration such as 90s, 10m, 2h');
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

export function templateRoutes(): Route<Services>[] {
  return [
    {
      method: 'GET',
      door: 'token',
      path: '/v1/templates',
      summary: 'The saved templates',
      description:
        'Built-in layouts (builtin.imageLeft, builtin.imageRight, builtin.hero, builtin.compact) and scratch templates are never listed.',
      tag: 'Templates',
      query: [onlyApp("only this app's")],
      reply: templatesSchema,
      errors: {},
      examples: [{ summary: "One app's templates", query: { app: 'com.example.build' } }],
      handle: ({ services, query }) => ({ items: services.designs.listTemplates(query.app as string | undefined) }),
    },
    {
      method: 'PUT',
      door: 'token',
      path: '/v1/templates',
      summary: 'Save a template',
      description: 'Checked whole: every problem is reported at once. Tokens the manifest does not declare and unknown keys are warnings.',
      tag: 'Templates',
      body: templateSchema,
      reply: savedTemplateSchema,
      errors: { 400: 'app or name is missing, the name is not allowed, or the template is invalid (every problem is named)' },
      examples: [
        { summary: 'An icon, a title, a progress bar and the buttons', body: BUILD_TEMPLATE },
        {
          summary: 'One cell',
          body: {
            app: 'com.example.build',
            name: 'old',
            grid: { rows: 1, cols: 1 },
            cells: [{ id: 'title', row: 0, col: 0, component: { type: 'text', binding: '{title}' } }],
          },
        },
      ],
      handle: ({ services, body }) => saveTemplate(services, body),
    },
    {
      method: 'DELETE',
      door: 'token',
      path: '/v1/templates',
      summary: 'Delete a template',
      description: 'A manifest naming it as its default keeps the name; notifications then use the built-in layout.',
      tag: 'Templates',
      query: [APP_QUERY, query.text('name', 'the template', { required: true })],
      reply: okSchema,
      errors: { 400: 'app or name is missing, or the name is a built-in layout', 404: 'no such template' },
      examples: [{ summary: 'An old template', query: { app: 'com.example.build', name: 'old' } }],
      handle: ({ services, query }) => deleteTemplate(services, query.app as string, query.name as string),
    },
    {
      method: 'POST',
      door: 'token',
      path: '/v1/templates/duplicate',
      summary: 'Copy a template',
      description:
        'Under "<name> copy" (then "<name> copy 2"...) unless newName is given; built-in layouts can be copied, and toApp copies to another app.',
      tag: 'Templates',
      body: duplicateTemplateSchema,
      reply: duplicatedTemplateSchema,
      errors: { 400: 'app or name is missing', 404: 'no such template', 409: 'newName is taken' },
      examples: [{ summary: 'A copy to change', body: { app: 'com.example.build', name: 'build' } }],
      handle: async ({ services, body }) => {
        const app = bodyText(body, 'app');
        const name = bodyText(body, 'name');
        const newName = optionalBodyText(body, 'newName');
        const toApp = optionalBodyText(body, 'toApp') || app;
        const copy = await services.library.duplicate(app, name, newName, toApp);
        return { ok: true, ...copy, copiedFrom: { app, name } };
      },
    },
    {
      method: 'POST',
      door: 'token',
      path: '/v1/templates/rename',
      summary: 'Rename a template',
      description: "The manifest's default follows; approvals of its code stay with the old name.",
      tag: 'Templates',
      body: renameTemplateSchema,
      reply: renamedTemplateSchema,
      errors: {
        400: 'a field is missing, the new name is not allowed, or it is a built-in layout',
        404: 'no such template',
        409: 'newName is taken',
      },
      examples: [{ summary: 'The copy gets a name', body: { app: 'com.example.build', name: 'build copy', newName: 'build-wide' } }],
      handle: ({ services, body }) => {
        return services.library.rename(bodyText(body, 'app'), bodyText(body, 'name'), bodyText(body, 'newName'));
      },
    },
    {
      method: 'PUT',
      door: 'token',
      path: '/v1/templates/default',
      summary: "Set the app's default template",
      description: 'Kept in its manifest; no name clears it.',
      tag: 'Templates',
      body: defaultTemplateSchema,
      reply: defaultTemplateReplySchema,
      errors: { 400: 'app is missing, or the app has no manifest', 404: 'no such template' },
      examples: [{ summary: 'The build template', body: { app: 'com.example.build', name: 'build' } }],
      handle: async ({ services, body }) => {
        const app = bodyText(body, 'app');
        const name = optionalBodyText(body, 'name') || undefined;
        return { ok: true, app, defaultTemplate: await services.library.setDefault(app, name) };
      },
    },
    {
      method: 'PUT',
      door: 'token',
      path: '/v1/templates/follow-up',
      summary: "Set a template's follow-up",
      description:
        "An action run when a banner is left unattended. A template's own code runs only once the person approved it; approval says where that stands.",
      tag: 'Templates',
      body: followUpRequestSchema,
      reply: followUpReplySchema,
      errors: {
        400: 'a field is missing or invalid, the action is given twice or not at all, or the template is a built-in layout',
        404: 'no such template',
        429: 'a manifest would be made for a new app and 200 exist already',
      },
      examples: [
        {
          summary: 'A command after ten minutes',
          body: { app: 'com.example.build', template: 'build', after: '10m', command: 'open-dashboard', label: 'Open dashboard' },
        },
        { summary: 'Off', body: { app: 'com.example.build', template: 'build', enabled: false } },
      ],
      handle: ({ services, body }) => services.library.setFollowUp(readFollowUp(body)),
    },
    {
      method: 'GET',
      door: 'token',
      path: '/v1/templates/export',
      summary: 'Pack a template as a .notifiertemplate bundle',
      description: 'A zip of the template and its Rive files, answered as base64 or written to path.',
      tag: 'Templates',
      query: [
        APP_QUERY,
        query.text('name', 'the template (a built-in layout too)', { required: true }),
        query.text('path', 'write the bundle to this .notifiertemplate file instead of answering it'),
      ],
      reply: exportedTemplateSchema,
      errors: { 400: 'app or name is missing, or path is not a .notifiertemplate file in an existing folder', 404: 'no such template' },
      examples: [
        { summary: 'As base64', query: { app: 'com.example.build', name: 'build' } },
        { summary: 'To a file in the home folder', query: { app: 'com.example.build', name: 'build', path: '~/build.notifiertemplate' } },
      ],
      handle: ({ services, query }) => services.bundles.export(query.app as string, query.name as string, query.path as string | undefined),
    },
    {
      method: 'POST',
      door: 'token',
      path: '/v1/templates/import',
      summary: 'Install a .notifiertemplate bundle',
      description:
        'The template is validated; identical Rive files are reused, a different one of the same name is installed under a new name.',
      tag: 'Templates',
      body: importTemplateSchema,
      reply: importedTemplateSchema,
      errors: {
        400: 'neither or both of base64 and path, or the bundle cannot be read',
        409: 'the name is taken and onConflict is fail',
        413: 'the bundle is too large',
      },
      examples: [{ summary: 'For another app', body: { base64: TITLE_ONLY_BUNDLE, app: 'com.example.chat', onConflict: 'keepBoth' } }],
      handle: ({ services, body }) => {
        const path = optionalBodyText(body, 'path');
        const base64 = optionalBodyText(body, 'base64');
        const app = optionalBodyText(body, 'app') || undefined;
        return services.bundles.import({
          ...(path !== undefined ? { path } : {}),
          ...(base64 !== undefined ? { base64 } : {}),
          ...(app ? { app } : {}),
          onConflict: readOnConflict(body),
        });
      },
    },
  ];
}
