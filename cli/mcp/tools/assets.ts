// An app's Rive files and images, and checking a Rive component (daemon/http/routes/assets.ts).

import { APP, inputs, object, route, text } from './common.js';

export const riveCheck = route({
  name: 'rive_check',
  title: 'Check a Rive component',
  description: 'Check a rive component: its file, header and what its input bindings would write (POST /v1/rive/check).',
  method: 'POST',
  path: '/v1/rive/check',
  inputSchema: inputs(
    {
      app: APP,
      component: object('A rive component: {type: "rive", asset or path, inputBindings, ...}.'),
      fields: object('Field values the bindings are filled with.'),
      simulate: {
        type: 'array',
        items: { enum: ['hoverIn', 'hoverOut', 'pressDown', 'pressUp'] },
        description: 'Pointer steps to simulate.',
      },
    },
    ['app', 'component'],
  ),
  kind: 'read',
});

export const listAssets = route({
  name: 'list_assets',
  title: 'List assets',
  description: "An app's Rive files and images, the limits, and which templates use each (GET /v1/assets).",
  method: 'GET',
  path: '/v1/assets',
  inputSchema: inputs({ app: APP }, ['app']),
  kind: 'read',
});

export const uploadAsset = route({
  name: 'upload_asset',
  title: 'Add an asset',
  description:
    'Add a Rive file (.riv) or an image to an app, from a path on this computer or base64 with a name (POST /v1/assets). A file of the same name is replaced.',
  method: 'POST',
  path: '/v1/assets',
  inputSchema: inputs(
    {
      app: APP,
      path: text('A file on this computer (give path or base64).'),
      base64: text('The file bytes; needs name.'),
      name: text('The plain file name to store under.'),
      kind: { type: 'string', enum: ['rive', 'image'], description: 'Only needed when the name has no known extension.' },
    },
    ['app'],
  ),
  kind: 'replace',
});

export const deleteAsset = route({
  name: 'delete_asset',
  title: 'Delete an asset',
  description: 'Remove a stored Rive file or image; the reply lists templates that still use it (DELETE /v1/assets).',
  method: 'DELETE',
  path: '/v1/assets',
  inputSchema: inputs({ app: APP, file: text('The stored file name.') }, ['app', 'file']),
  kind: 'replace',
});
