// Saved templates, the default and the follow-up, and template bundles (daemon/http/routes/templates.ts).

import { APP, APP_FILTER, flag, inputs, object, objectInputs, route, text, whole } from './common.js';

const TEMPLATE_NAME = text('Template name.');

export const listTemplates = route('list_templates', 'List templates', 'GET /v1/templates', {
  description: 'Saved templates, whole (GET /v1/templates). Built-in layouts and scratch (_name) templates are not listed.',
  inputSchema: inputs({ app: APP_FILTER }),
  kind: 'read',
});

export const putTemplate = route('put_template', 'Save a template', 'PUT /v1/templates', {
  description:
    'Save a template, replacing one of the same name for the app (PUT /v1/templates); the arguments are the template object. See component_schema.',
  inputSchema: objectInputs(
    {
      app: APP,
      name: TEMPLATE_NAME,
      layoutVersion: whole('2.'),
      collapseEmpty: flag('Cells with missing fields collapse.'),
      grid: object('rows, cols, rowSizes, colSizes, gap, padding, width.'),
      cells: { type: 'array', items: { type: 'object' }, description: 'Each: id, row, col, rowSpan?, component.' },
    },
    ['app', 'name'],
  ),
  kind: 'replace',
});

export const deleteTemplate = route('delete_template', 'Delete a template', 'DELETE /v1/templates', {
  description: 'Delete a saved template (DELETE /v1/templates).',
  inputSchema: inputs({ app: APP, name: TEMPLATE_NAME }, ['app', 'name']),
  kind: 'replace',
});

export const duplicateTemplate = route('duplicate_template', 'Duplicate a template', 'POST /v1/templates/duplicate', {
  description: 'Copy a saved or built-in template, to the same or another app (POST /v1/templates/duplicate).',
  inputSchema: inputs(
    {
      app: APP,
      name: text('Saved or builtin.* template.'),
      newName: text('Default: "<name> copy".'),
      toApp: text('Default: the same app.'),
    },
    ['app', 'name'],
  ),
  kind: 'add',
});

export const renameTemplate = route('rename_template', 'Rename a template', 'POST /v1/templates/rename', {
  description: 'Rename a saved template (POST /v1/templates/rename). Command approvals belong to the old name: the person is asked again.',
  inputSchema: inputs({ app: APP, name: TEMPLATE_NAME, newName: text('The new name.') }, ['app', 'name', 'newName']),
  kind: 'replace',
});

export const setDefaultTemplate = route('set_default_template', 'Set the default template', 'PUT /v1/templates/default', {
  description: "Set (name) or clear (no name) the app's default template; the app needs a manifest (PUT /v1/templates/default).",
  inputSchema: inputs({ app: APP, name: text('Saved or built-in template; leave out to clear.') }, ['app']),
  kind: 'set',
});

export const setFollowUp = route('set_follow_up', 'Set a follow-up', 'PUT /v1/templates/follow-up', {
  description:
    'Set or switch off (enabled: false) the action a template runs when a banner stays unattended (PUT /v1/templates/follow-up). ' +
    'Nothing is approved here: the person approves the code when a banner asks.',
  inputSchema: inputs(
    {
      app: APP,
      template: text("Template to edit. Default: the app's default."),
      after: { type: ['number', 'string'], description: '5 to 604800 seconds, or 90s, 10m, 2h.' },
      shortcut: text('A shortcut name (give exactly one of shortcut, script, command, actionRef).'),
      script: text('A plain script file name in the scripts folder.'),
      command: text('A shell command.'),
      actionRef: text("The id of one of the manifest's actions."),
      input: text('Text for a shortcut or script; {tokens} are filled.'),
      label: text('Name in the banner line about the follow-up.'),
      enabled: flag('false switches it off (send it alone with app and template).'),
    },
    ['app'],
  ),
  kind: 'set',
});

export const exportTemplateBundle = route('export_template_bundle', 'Export a template bundle', 'GET /v1/templates/export', {
  description:
    'Pack a template and its Rive files into a .notifiertemplate bundle (GET /v1/templates/export): written to path, or returned as base64.',
  inputSchema: inputs({ app: APP, name: TEMPLATE_NAME, path: text('A file ending in .notifiertemplate; its folder must exist.') }, [
    'app',
    'name',
  ]),
  kind: 'replace',
});

export const importTemplateBundle = route('import_template_bundle', 'Import a template bundle', 'POST /v1/templates/import', {
  description: 'Install a .notifiertemplate bundle from path or base64 (POST /v1/templates/import).',
  inputSchema: inputs({
    path: text('A bundle file on this computer (give path or base64).'),
    base64: text('The bundle bytes (request bodies are limited to 1 MB).'),
    app: text('Default: the app named in the bundle.'),
    onConflict: { type: 'string', enum: ['keepBoth', 'replace', 'fail'], description: 'Default keepBoth.' },
  }),
  kind: 'replace',
});
