// docs/api/templates.md#manifests: an app's description of itself (its fields, actions, Rive files, default template).

import { validateManifest } from '../../core/templates/manifest-rules.js';
import { errors } from '../../../protocol/errors.js';
import { queryText } from '../params.js';
import { APP_QUERY, type ApiRoute } from '../api-route.js';
import { okSchema } from '../../../protocol/schemas/common.js';
import { manifestSchema, manifestsSchema } from '../../../protocol/schemas/manifests.js';

const BUILD_MANIFEST = {
  app: 'com.example.build',
  appName: 'Build bot',
  fields: [
    { key: 'title', sample: 'Build 812 passed' },
    { key: 'branch', sample: 'main' },
    { key: 'percent', type: 'number', sample: 70 },
  ],
  actions: [{ id: 'open', label: 'Open', kind: 'url', url: 'https://ci.example.com' }],
};

export function manifestRoutes(): ApiRoute[] {
  return [
    {
      method: 'PUT',
      path: '/v1/manifest',
      summary: "Save an app's manifest",
      description: "Every problem is reported at once. Declared Rive files are copied into the app's asset folder.",
      tag: 'Manifests',
      body: manifestSchema,
      reply: okSchema,
      errors: { 400: 'the manifest is invalid (every problem is named)', 429: 'the app is new and 200 manifests or apps exist already' },
      examples: [
        { summary: 'Fields, samples and an action', body: BUILD_MANIFEST },
        { summary: 'The least there is', body: { app: 'com.example.old' } },
      ],
      handler: (core) => async (req) => {
        // Any body that is not a manifest is `invalid manifest: ...` (docs/api/templates.md#t22); no body at all
        // lacks its app.
        await core.library.saveManifest(validateManifest(req.body === undefined ? {} : (req.body as unknown)));
        return { ok: true };
      },
    },
    {
      method: 'GET',
      path: '/v1/manifest',
      summary: "An app's manifest",
      description: 'In its normalised form: appName, version, fields, actions and assets always present.',
      tag: 'Manifests',
      query: [APP_QUERY],
      reply: manifestSchema,
      errors: { 400: 'app is missing', 404: 'the app has no manifest' },
      examples: [{ summary: 'The build app', query: { app: 'com.example.build' } }],
      handler: (core) => (req) => {
        const app = queryText(req, 'app', { required: true });
        const manifest = core.designs.manifest(app);
        if (!manifest) throw errors.noManifest(app);
        return manifest;
      },
    },
    {
      method: 'GET',
      path: '/v1/manifests',
      summary: 'Every manifest',
      tag: 'Manifests',
      reply: manifestsSchema,
      errors: {},
      examples: [{ summary: 'All of them' }],
      handler: (core) => () => ({ items: core.designs.allManifests() }),
    },
    {
      method: 'DELETE',
      path: '/v1/manifest',
      summary: "Remove an app's manifest",
      description: 'The Rive files it declared go with it.',
      tag: 'Manifests',
      query: [APP_QUERY],
      reply: okSchema,
      errors: { 400: 'app is missing', 404: 'the app has no manifest' },
      examples: [{ summary: 'An old one', query: { app: 'com.example.old' } }],
      handler: (core) => async (req) => {
        await core.library.removeManifest(queryText(req, 'app', { required: true }));
        return { ok: true };
      },
    },
  ];
}
