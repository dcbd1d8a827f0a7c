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
import { bodyObject, bodyText, queryText } from '../params.js';
import { pathParameter } from '../routes.js';
import { onlyApp, type ApiRoute } from '../api-route.js';
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

export function appRoutes(): ApiRoute[] {
  return [
    {
      method: 'POST',
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
      handler: (core) => async (req) => {
        await core.register(readRegistration(bodyObject(req)));
        return { ok: true };
      },
    },
    {
      method: 'GET',
      path: '/v1/apps',
      summary: 'The registered apps',
      tag: 'Apps',
      reply: appsSchema,
      errors: {},
      examples: [{ summary: 'Every app' }],
      handler: (core) => () => ({ apps: core.apps.list() }),
    },
    {
      method: 'DELETE',
      path: '/v1/apps/{id}',
      summary: 'Remove an app and everything kept of it',
      description:
        'Its banners close, and its History, pictures, replies, templates, manifest, assets, approvals and registration are deleted.',
      tag: 'Apps',
      idParameter: 'the app id, percent-encoded',
      reply: removedAppSchema,
      errors: { 400: 'the id is empty, holds a /, or is badly percent-encoded', 404: 'the service knows nothing of the app' },
      examples: [{ summary: 'A retired app', id: 'com.example.retired' }],
      handler: (core) => async (_req, res) => {
        const app = appIdOf(pathParameter(res));
        await core.removeApp(app);
        return { ok: true, deleted: app };
      },
    },
    {
      method: 'GET',
      path: '/v1/apps/settings',
      summary: "Apps' settings",
      description: 'One app, or every registered app and the lists the choices come from; schema describes each key.',
      tag: 'Apps',
      query: [onlyApp('only this app')],
      reply: appSettingsListSchema,
      errors: { 404: 'the app is not registered' },
      examples: [{ summary: 'Every app' }, { summary: 'One app', query: { app: 'com.example.build' } }],
      handler: (core) => (req) => {
        const app = queryText(req, 'app') || undefined;
        const apps = app === undefined ? core.apps.list().map((registration) => registration.app) : [app];
        return {
          apps: apps.map((id) => appSettingsView(id, core)),
          schema: appSettingsSchema(),
          ...(app === undefined ? { options: appSettingsOptions() } : {}),
        };
      },
    },
    {
      method: 'PUT',
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
      handler: (core) => async (req) => {
        const body = bodyObject(req);
        const app = bodyText(body, 'app');
        const change = readAppSettingsChange(body);
        await changeAppSettings(core, app, change);
        return { ok: true, applied: change.applied, app: appSettingsView(app, core) };
      },
    },
  ];
}

/** docs/api/apps.md#delete-v1-apps-id: the id is percent-decoded; empty or holding a `/` it names no app. */
function appIdOf(raw: string): string {
  let app: string;
  try {
    app = decodeURIComponent(raw);
  } catch {
    throw errors.invalidAppId(raw);
  }
  if (app === '' || app.includes('/')) throw errors.appIdRequired();
  return app;
}
