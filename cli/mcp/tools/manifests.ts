// App manifests: the fields, actions and Rive files an app declares (daemon/http/routes/manifests.ts).

import { APP, inputs, object, route, text } from './common.js';

export const listManifests = route({
  name: 'list_manifests',
  title: 'List manifests',
  description: 'Every app manifest (GET /v1/manifests).',
  method: 'GET',
  path: '/v1/manifests',
  inputSchema: inputs({}),
  kind: 'read',
});

export const getManifest = route({
  name: 'get_manifest',
  title: 'Read a manifest',
  description: "One app's manifest: its fields, actions, Rive files, default template (GET /v1/manifest).",
  method: 'GET',
  path: '/v1/manifest',
  inputSchema: inputs({ app: APP }, ['app']),
  kind: 'read',
});

export const putManifest = route({
  name: 'put_manifest',
  title: 'Save a manifest',
  description: "Create or replace an app's manifest (PUT /v1/manifest); the arguments are the manifest object.",
  method: 'PUT',
  path: '/v1/manifest',
  inputSchema: inputs(
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
    true,
  ),
  kind: 'replace',
});

export const deleteManifest = route({
  name: 'delete_manifest',
  title: 'Delete a manifest',
  description: "Delete an app's manifest and its copied Rive files; the app, templates and History stay (DELETE /v1/manifest).",
  method: 'DELETE',
  path: '/v1/manifest',
  inputSchema: inputs({ app: APP }, ['app']),
  kind: 'replace',
});
