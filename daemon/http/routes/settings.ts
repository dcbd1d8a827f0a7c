import type { NotifierCore } from '../../core/notifier.js';
import { bodyObject } from '../params.js';
import type { Route } from '../routes.js';

// docs/api/settings.md: the global settings (#s1) and quiet hours (#s8); docs/settings.md explains them.

/** GET /v1/settings: every value as it is now, the schema of every key, and the lists to choose from. */
async function settingsView(core: NotifierCore) {
  const [settings, voices] = await Promise.all([core.settings.current(), core.voiceSetup.voices()]);
  return { settings, schema: core.settings.schema(), options: core.settings.options(voices) };
}

export function settingsRoutes(core: NotifierCore): Route[] {
  return [
    { method: 'GET', path: '/v1/settings', handle: () => settingsView(core) },
    {
      method: 'PUT',
      path: '/v1/settings',
      // All or nothing: a 400 names the first bad key (in sorted order) and changes nothing.
      handle: async (req) => {
        const { applied, note } = await core.settings.change(bodyObject(req));
        return { ...(await settingsView(core)), applied, ...(note ? { note } : {}) };
      },
    },
    { method: 'GET', path: '/v1/settings/quiet-hours', handle: () => core.quietHours.reply() },
    { method: 'PUT', path: '/v1/settings/quiet-hours', handle: (req) => core.quietHours.update(bodyObject(req)) },
  ];
}
