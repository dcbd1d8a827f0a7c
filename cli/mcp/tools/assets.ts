// An app's Rive files and images, and checking a Rive component (daemon/http/routes/assets.ts).

import { APP, inputs, object, route, text } from './common.js';

export const riveCheck = route('rive_check', 'Check a Rive component', 'POST /v1/rive/check', {
  description: 'Check a rive component: its file, header and what its input bindings would write (POST /v1/rive/check).',
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

export const listAssets = route('list_assets', 'List assets', 'GET /v1/assets', {
  description: "An app's Rive files and images, the limits, and which templates use each (GET /v1/assets).",
  inputSchema: inputs({ app: APP }, ['app']),
  kind: 'read',
});

export const uploadAsset = route('upload_asset', 'Add an asset', 'POST /v1/assets', {
  description:
    'Add a Rive file (.riv) or an image to an app, from a path on this computer or base64 with a name (POST /v1/assets). A file of the same name is replaced.',
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

export const deleteAsset = route('delete_asset', 'Delete an asset', 'DELETE /v1/assets', {
  description: 'Remove a stored Rive file or image; the reply lists templates that still use it (DELETE /v1/assets).',
  inputSchema: inputs({ app: APP, file: text('The stored file name.') }, ['app', 'file']),
  kind: 'replace',
});
