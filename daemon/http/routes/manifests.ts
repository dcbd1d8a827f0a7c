// docs/api/templates.md#manifests: an app's description of itself (its fields, actions, Rive files, default template).

import { validateManifest } from '../../core/templates/manifest-rules.js';
import type { NotifierCore } from '../../core/notifier.js';
import { errors } from '../../../protocol/errors.js';
import { queryText } from '../params.js';
import type { Route } from '../routes.js';

export function manifestRoutes(core: NotifierCore): Route[] {
  return [
    {
      method: 'PUT',
      path: '/v1/manifest',
      handle: async (req) => {
        // Any body that is not a manifest is `invalid manifest: ...` (docs/api/templates.md#t22); no body at all
        // lacks its app.
        await core.library.saveManifest(validateManifest(req.body === undefined ? {} : (req.body as unknown)));
        return { ok: true };
      },
    },
    {
      method: 'GET',
      path: '/v1/manifest',
      handle: (req) => {
        const app = queryText(req, 'app', { required: true });
        const manifest = core.designs.manifest(app);
        if (!manifest) throw errors.noManifest(app);
        return manifest;
      },
    },
    { method: 'GET', path: '/v1/manifests', handle: () => ({ items: core.designs.allManifests() }) },
    {
      method: 'DELETE',
      path: '/v1/manifest',
      handle: async (req) => {
        await core.library.removeManifest(queryText(req, 'app', { required: true }));
        return { ok: true };
      },
    },
  ];
}
