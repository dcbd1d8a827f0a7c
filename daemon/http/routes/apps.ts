import {
  appSettingsOptions,
  appSettingsSchema,
  appSettingsView,
  changeAppSettings,
  readAppSettingsChange,
} from '../../core/app-admin/app-settings.js';
import { checkCallbackURL, checkLocalAppId } from '../../../protocol/notification-rules.js';
import type { AppRegistration } from '../../../protocol/types.js';
import { errors } from '../../../protocol/errors.js';
import { REGISTER_FIELD_BYTES } from '../../../protocol/limits.js';
import type { Core } from '../../core/core.js';
import { bodyText } from '../params.js';
import { ok, onlyApp, type Route } from '../route.js';
import { REGISTRATION_KEYS, registerSchema } from '../../../protocol/schemas/register.js';
import { okSchema } from '../../../protocol/schemas/common.js';
import {
  appSettingsListSchema,
  appsSchema,
  changeAppSettingsSchema,
  changedAppSettingsSchema,
  removedAppSchema,
} from '../../../protocol/schemas/apps.js';
import { validator } from '../validate.js';

type Services = Pick<Core, 'apps' | 'approvals' | 'names' | 'appAdmin'>;

const checkRegistration = validator<AppRegistration>(registerSchema);

/** The body of POST /v1/register: known keys only, types and sizes checked. */
function readRegistration(body: Record<string, unknown>): AppRegistration {
  const registration = checkRegistration(body);
  checkLocalAppId(registration.app);
  for (const [field, limit] of Object.entries(REGISTER_FIELD_BYTES)) {
    const value = field === 'defaults.sound' ? registration.defaults?.sound : registration[field as keyof AppRegistration];
    if (typeof value === 'string' && Buffer.byteLength(value, 'utf8') > limit) throw errors.fieldTooLarge(field, limit);
  }
  if (registration.callbackURL !== undefined) checkCallbackURL(registration.callbackURL, 'callbackURL');
  const known: Record<string, unknown> = {};
  for (const key of REGISTRATION_KEYS) if (registration[key] !== undefined) known[key] = registration[key];
  return known as unknown as AppRegistration;
}

export function appRoutes(): Route<Services>[] {
  return [
    {
      method: 'POST',
      door: 'token',
      path: '/v1/register',
      summary: 'Register an app',
      description:
        'Its display name, icon, callback URL, defaults, and whether it asks to run commands. Registering again replaces the registration; keys that are not registration fields are ignored.',
      tag: 'Apps',
      body: registerSchema,
      reply: okSchema,
      errors: {
        400: 'app is missing, a field has the wrong type, or callbackURL is not an http or https URL',
        413: 'a field is over its size limit',
        429: 'the app is new and 200 apps are registered already',
      },
      examples: [
        {
          summary: 'An app with defaults',
          body: {
            app: 'com.example.build',
            appName: 'Build bot',
            callbackURL: 'http://127.0.0.1:8080/notifier',
            defaults: { persistent: true, corner: 'topRight' },
          },
        },
        { summary: 'Just a name', body: { app: 'com.example.retired', appName: 'Old tool' } },
      ],
      handle: ({ services, body }) => services.appAdmin.register(readRegistration(body)).then(ok),
    },
    {
      method: 'GET',
      door: 'token',
      path: '/v1/apps',
      summary: 'The registered apps',
      tag: 'Apps',
      reply: appsSchema,
      errors: {},
      examples: [{ summary: 'Every app' }],
      handle: ({ services }) => ({ apps: services.apps.list() }),
    },
    {
      method: 'DELETE',
      door: 'token',
      path: '/v1/apps/{id}',
      summary: 'Remove an app and everything kept of it',
      description:
        'Its banners close, and its History, pictures, replies, templates, manifest, assets, approvals and registration are deleted.',
      tag: 'Apps',
      params: { id: { description: 'the app id, percent-encoded', rest: true } },
      reply: removedAppSchema,
      errors: { 400: 'the id is empty, holds a /, or is badly percent-encoded', 404: 'the service knows nothing of the app' },
      examples: [{ summary: 'A retired app', params: { id: 'com.example.retired' } }],
      handle: async ({ services, params }) => {
        const app = appIdOf(params.id!);
        await services.appAdmin.remove(app);
        return { ok: true, deleted: app };
      },
    },
    {
      method: 'GET',
      door: 'token',
      path: '/v1/apps/settings',
      summary: "Apps' settings",
      description: 'One app, or every registered app and the lists the choices come from; schema describes each key.',
      tag: 'Apps',
      query: [onlyApp('only this app')],
      reply: appSettingsListSchema,
      errors: { 404: 'the app is not registered' },
      examples: [{ summary: 'Every app' }, { summary: 'One app', query: { app: 'com.example.build' } }],
      handle: ({ services, query }) => appSettingsList(services, query.app as string | undefined),
    },
    {
      method: 'PUT',
      door: 'token',
      path: '/v1/apps/settings',
      summary: "Change an app's settings",
      description: 'All or nothing. The revoke keys only take permissions away: nothing here grants one.',
      tag: 'Apps',
      body: changeAppSettingsSchema,
      reply: changedAppSettingsSchema,
      errors: {
        400: 'app is missing, no key is given, or a key is unknown or has an invalid value',
        403: 'a revoke key that is not true',
        404: 'the app is not registered',
      },
      examples: [{ summary: 'Speech and quiet hours', body: { app: 'com.example.build', urgentBreaksQuiet: true, voice: 'en-gb' } }],
      handle: ({ services, body }) => changeAppSettingsFrom(services, body),
    },
  ];
}

/** docs/api/apps.md#delete-v1-apps-id: the id (percent-decoded by the router); empty or holding a `/` it names no app. */
export function appIdOf(app: string): string {
  if (app === '' || app.includes('/')) throw errors.appIdRequired();
  return app;
}

/** GET /v1/apps/settings: one app, or every registered app and the lists the choices come from (the window's Settings too). */
export function appSettingsList(services: Services, app: string | undefined) {
  const apps = app === undefined ? services.apps.list().map((registration) => registration.app) : [app];
  return {
    apps: apps.map((id) => appSettingsView(id, services)),
    schema: appSettingsSchema(),
    ...(app === undefined ? { options: appSettingsOptions() } : {}),
  };
}

/** PUT /v1/apps/settings: all or nothing (the window's Settings too). */
export async function changeAppSettingsFrom(services: Services, body: Record<string, unknown>) {
  const app = bodyText(body, 'app');
  const change = readAppSettingsChange(body);
  await changeAppSettings(services, app, change);
  return { ok: true, applied: change.applied, app: appSettingsView(app, services) };
}
