// docs/api/templates.md#manifests: an app's description of itself (its fields, actions, Rive files, default template).

import { validateManifest } from '../../core/templates/manifest-rules.js';
import { errors } from '../../../protocol/errors.js';
import type { Core } from '../../core/core.js';
import { APP_QUERY, ok, type Route } from '../route.js';
import { okSchema } from '../../../protocol/schemas/common.js';
import { manifestSchema, manifestsSchema } from '../../../protocol/schemas/manifests.js';

type Services = Pick<Core, 'library' | 'designs'>;

/** GET /v1/manifest (the Designer's too): 404 when the app has none. */
export function manifestOf(services: Services, app: string) {
  const manifest = services.designs.manifest(app);
  if (!manifest) throw errors.noManifest(app);
  return manifest;
}

/** PUT /v1/manifest (the Designer's too): any body that is not a manifest is `invalid manifest: ...` (docs/api/templates.md#t22); no body at all lacks its app. */
export function saveManifest(services: Services, body: unknown): Promise<{ ok: true }> {
  return services.library.saveManifest(validateManifest(body === undefined ? {} : body)).then(ok);
}

/** DELETE /v1/manifest (the Designer's too). */
export function removeManifest(services: Services, app: string): Promise<{ ok: true }> {
  return services.library.removeManifest(app).then(ok);
}

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

export function manifestRoutes(): Route<Services>[] {
  return [
    {
      method: 'PUT',
      door: 'token',
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
      handle: ({ services, req }) => saveManifest(services, req.body),
    },
    {
      method: 'GET',
      door: 'token',
      path: '/v1/manifest',
      summary: "An app's manifest",
      description: 'In its normalised form: appName, version, fields, actions and assets always present.',
      tag: 'Manifests',
      query: [APP_QUERY],
      reply: manifestSchema,
      errors: { 400: 'app is missing', 404: 'the app has no manifest' },
      examples: [{ summary: 'The build app', query: { app: 'com.example.build' } }],
      handle: ({ services, query }) => manifestOf(services, query.app as string),
    },
    {
      method: 'GET',
      door: 'token',
      path: '/v1/manifests',
      summary: 'Every manifest',
      tag: 'Manifests',
      reply: manifestsSchema,
      errors: {},
      examples: [{ summary: 'All of them' }],
      handle: ({ services }) => ({ items: services.designs.allManifests() }),
    },
    {
      method: 'DELETE',
      door: 'token',
      path: '/v1/manifest',
      summary: "Remove an app's manifest",
      description: 'The Rive files it declared go with it.',
      tag: 'Manifests',
      query: [APP_QUERY],
      reply: okSchema,
      errors: { 400: 'app is missing', 404: 'the app has no manifest' },
      examples: [{ summary: 'An old one', query: { app: 'com.example.old' } }],
      handle: ({ services, query }) => removeManifest(services, query.app as string),
    },
  ];
}
