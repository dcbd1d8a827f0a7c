// Templates: the template object (GET /v1/components has the full schema of every component) and the bodies and
// replies of the template routes.

import { BUTTON_KINDS, ON_CONFLICT } from '../types.js';
import { appId, okWith } from './common.js';
import { flag, integer, list, map, object, oneOfText, text } from './json-schema.js';
import { followUpSchema } from './notification.js';

const sizes = list({ type: ['string', 'number'] }, 'auto, fill or a number of points, per row or column');

export const templateSchema = object(
  {
    app: appId,
    name: text('not empty, no / or :, not starting with ., _ or builtin.; at most 128 bytes'),
    layoutVersion: integer('2 for grid templates'),
    grid: object(
      {
        rows: integer('1 to 12'),
        cols: integer('1 to 12'),
        rowSizes: sizes,
        colSizes: sizes,
        gap: integer('0 to 64'),
        padding: integer('0 to 64'),
        width: integer('160 to 800'),
      },
      ['rows', 'cols'],
    ),
    cells: list(
      object(
        {
          id: text(),
          row: integer(),
          col: integer(),
          rowSpan: integer(),
          colSpan: integer(),
          align: text(),
          padding: integer(),
          emptyBehavior: text(),
          component: object(
            {
              type: text(
                'text, image, issuerIcon, timestamp, button, actions, iconButton, badge, stackBadge, progress, rive, spacer or symbol',
              ),
            },
            ['type'],
          ),
        },
        ['id', 'row', 'col', 'component'],
      ),
    ),
    collapseEmpty: flag('drop cells whose binding is empty (default true)'),
    extra: map({}, 'values for {extra.<key>} bindings'),
    buttons: list(object({ label: text() }, ['label']), "the template's own buttons"),
    actionRules: list(object({})),
    followUp: followUpSchema,
    layout: text('the built-in layout of a version-1 template'),
    showSubtitle: flag(),
    showBody: flag(),
    showTimestamp: flag(),
    maxBodyLines: integer(),
  },
  ['app', 'name'],
  'a grid of cells, each holding one component bound to {tokens}; GET /v1/components is the full schema of every component',
);

export const templatesSchema = object({ items: list(templateSchema, "the app's saved templates (built-in layouts are never listed)") }, [
  'items',
]);

export const savedTemplateSchema = okWith({ warnings: list(text(), 'tokens the manifest does not declare, unknown keys') });

export const duplicateTemplateSchema = object(
  {
    app: appId,
    name: text('the template to copy (a built-in layout too)'),
    newName: text('default: "<name> copy"'),
    toApp: text('copy to this app (default: the same)'),
  },
  ['app', 'name'],
);

export const duplicatedTemplateSchema = okWith(
  { app: appId, name: text(), copiedFrom: object({ app: appId, name: text() }, ['app', 'name']) },
  ['app', 'name', 'copiedFrom'],
);

export const renameTemplateSchema = object({ app: appId, name: text(), newName: text() }, ['app', 'name', 'newName']);

export const renamedTemplateSchema = okWith(
  {
    app: appId,
    name: text(),
    renamedFrom: text(),
    isDefault: flag("the manifest's default followed the name"),
    note: text(),
    unchanged: flag(),
  },
  ['app', 'name'],
);

export const defaultTemplateSchema = object({ app: appId, name: text('absent or empty: no default') }, ['app']);

export const defaultTemplateReplySchema = okWith({ app: appId, defaultTemplate: { type: ['string', 'null'] } }, ['app']);

export const followUpRequestSchema = object(
  {
    app: appId,
    template: text("the template to change; absent: the app's default (made from its built-in layout when it has none)"),
    after: { type: ['number', 'string'], description: 'seconds, or a duration such as 90s, 10m, 2h' },
    command: text(),
    script: text('a file name in <support>/scripts/'),
    shortcut: text(),
    input: text('for a script or shortcut: the text it receives'),
    actionRef: text('an action the app offers in its manifest'),
    label: text(),
    enabled: flag('false turns the follow-up off'),
  },
  ['app'],
);

export const followUpReplySchema = object(
  {
    saved: { const: true },
    app: appId,
    template: text(),
    createdTemplate: flag(),
    manifestCreated: flag(),
    defaultTemplate: text(),
    followUp: object({ after: { type: 'number' }, enabled: flag() }),
    action: { type: ['object', 'null'], properties: { id: text(), label: text(), kind: oneOfText(BUTTON_KINDS) } },
    origin: { type: ['string', 'null'], enum: ['template', 'issuer', null] },
    approval: oneOfText(['approved', 'needs-approval', 'none', 'app-not-allowed', 'app-needs-approval']),
    needsApproval: flag(),
    note: text(),
  },
  ['saved', 'app', 'template', 'createdTemplate', 'followUp', 'action', 'origin', 'approval', 'needsApproval', 'note'],
);

export const exportedTemplateSchema = okWith(
  {
    app: appId,
    name: text(),
    file: text('a file name for the bundle'),
    bytes: integer(),
    assets: list(text(), 'the Rive files packed'),
    warnings: list(text()),
    base64: text('the .notifiertemplate bundle, when no path was given'),
    path: text('the file written, when a path was given'),
  },
  ['app', 'name', 'file', 'bytes', 'assets', 'warnings'],
);

export const importTemplateSchema = object({
  base64: text('a .notifiertemplate bundle (give base64 or path)'),
  path: text('a .notifiertemplate file on this computer'),
  app: text("import for this app (default: the bundle's)"),
  onConflict: oneOfText(ON_CONFLICT, 'when the name is taken: keepBoth (default) names it "<name> 2", fail answers 409'),
});

export const importedTemplateSchema = okWith(
  {
    app: appId,
    name: text(),
    renamedFrom: { type: ['string', 'null'] },
    replaced: flag(),
    installedAssets: list(text()),
    reusedAssets: list(text()),
    missingAssets: list(text()),
    warnings: list(text()),
  },
  ['app', 'name', 'renamedFrom', 'replaced', 'installedAssets', 'reusedAssets', 'missingAssets', 'warnings'],
);
