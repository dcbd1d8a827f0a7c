// Registered apps, their settings, and removing one (daemon/http/routes/apps.ts).

import { registerSchema } from '../../../protocol/schemas/register.js';
import { APP, APP_FILTER, flag, inputs, objectInputs, route, text, whole } from './common.js';

export const registerApp = route('register_app', 'Register an app', 'POST /v1/register', {
  description:
    'Register an app or update its registration; omitted fields keep their values (POST /v1/register). allowCommands only asks: the person decides.',
  inputSchema: registerSchema,
  kind: 'set',
});

export const listApps = route('list_apps', 'List apps', 'GET /v1/apps', {
  description: 'Registered apps (GET /v1/apps).',
  kind: 'read',
});

export const deleteApp = route('delete_app', 'Delete an app', 'DELETE /v1/apps/{id}', {
  description: 'Remove an app with its registration, History, templates, manifest and assets; its banners close (DELETE /v1/apps/{id}).',
  inputSchema: inputs({ app: APP }, ['app']),
  kind: 'replace',
  pathId: 'app',
});

export const getAppSettings = route('get_app_settings', 'Read app settings', 'GET /v1/apps/settings', {
  description: 'Per-app settings, voice, approvals and a schema of every key (GET /v1/apps/settings).',
  inputSchema: inputs({ app: APP_FILTER }),
  kind: 'read',
});

export const updateAppSettings = route('update_app_settings', 'Change app settings', 'PUT /v1/apps/settings', {
  description:
    'Change per-app settings, all or none (PUT /v1/apps/settings): keys such as muteBanners, corner, sound, timeout, stacking, speak. ' +
    'revokeCommands / revokeCallbackHost: true withdraw a permission; nothing here can grant one. See get_app_settings for every key.',
  inputSchema: objectInputs(
    {
      app: APP,
      muteBanners: flag('History only: no banner, no sound.'),
      corner: { type: ['string', 'null'], description: 'topRight, topLeft, bottomRight, bottomLeft; null follows the global setting.' },
      sound: text('A sound name, or none.'),
      timeout: whole('Seconds a banner stays; 0: until dismissed.'),
      persistent: flag('Banners stay until closed.'),
      stacking: { type: ['string', 'null'], description: 'A stacking level; null follows the global setting.' },
      speak: flag('Speech allowed for this app.'),
      revokeCommands: { type: 'boolean', const: true, description: "true withdraws the app's permission to run commands." },
      revokeCallbackHost: { type: 'boolean', const: true, description: "true withdraws the approval of the app's callback host." },
    },
    ['app'],
  ),
  kind: 'set',
});
