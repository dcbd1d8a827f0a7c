// App manifests: the fields, actions and Rive files an app declares (daemon/http/routes/manifests.ts).

import { APP, inputs, object, objectInputs, route, text } from './common.js';

export const listManifests = route('list_manifests', 'List manifests', 'GET /v1/manifests', {
  description: 'Every app manifest (GET /v1/manifests).',
  kind: 'read',
});

export const getManifest = route('get_manifest', 'Read a manifest', 'GET /v1/manifest', {
  description: "One app's manifest: its fields, actions, Rive files, default template (GET /v1/manifest).",
  inputSchema: inputs({ app: APP }, ['app']),
  kind: 'read',
});

export const putManifest = route('put_manifest', 'Save a manifest', 'PUT /v1/manifest', {
  description: "Create or replace an app's manifest (PUT /v1/manifest); the arguments are the manifest object.",
  inputSchema: objectInputs(
    {
      app: APP,
      appName: text('Display name.'),
      fields: { type: 'array', items: { type: 'object' }, description: 'Items: key, type (text, url, ...), required, sample.' },
      actions: {
        type: 'array',
        items: { type: 'object' },
        description: 'Items: id, label, kind (url, callback, shortcut, script, command), ...',
      },
      followUp: object('after (seconds) and actionRef or action.'),
      assets: { type: 'array', items: { type: 'object' }, description: 'Rive files to install: id, type, path.' },
      defaultTemplate: text('Template used when a notification names none.'),
    },
    ['app'],
  ),
  kind: 'replace',
});

export const deleteManifest = route('delete_manifest', 'Delete a manifest', 'DELETE /v1/manifest', {
  description: "Delete an app's manifest and its copied Rive files; the app, templates and History stay (DELETE /v1/manifest).",
  inputSchema: inputs({ app: APP }, ['app']),
  kind: 'replace',
});
