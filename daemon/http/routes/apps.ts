import { appSettingsOptions, appSettingsSchema, appSettingsView, changeAppSettings, readAppSettingsChange } from '../../core/apps/app-settings.js';
import type { NotifierCore } from '../../core/notifier.js';
import { checkCallbackURL } from '../../../protocol/notification-rules.js';
import type { AppRegistration } from '../../../protocol/types.js';
import { errors } from '../../../protocol/errors.js';
import { REGISTER_FIELD_BYTES } from '../../../protocol/limits.js';
import { bodyObject, bodyText, queryText } from '../params.js';
import { pathParameter, type Route } from '../routes.js';
import { REGISTRATION_KEYS, registerSchema } from '../schemas/register.js';
import { validator } from '../validate.js';

const checkRegistration = validator<AppRegistration>(registerSchema);

/** The body of POST /v1/register: known keys only, types and sizes checked. */
function readRegistration(body: Record<string, unknown>): AppRegistration {
  const registration = checkRegistration(body);
  for (const [field, limit] of Object.entries(REGISTER_FIELD_BYTES)) {
    const value = field === 'defaults.sound' ? registration.defaults?.sound : registration[field as keyof AppRegistration];
    if (typeof value === 'string' && Buffer.byteLength(value, 'utf8') > limit) throw errors.fieldTooLarge(field, limit);
  }
  if (registration.callbackURL !== undefined) checkCallbackURL(registration.callbackURL, 'callbackURL');
  const known: Record<string, unknown> = {};
  for (const key of REGISTRATION_KEYS) if (registration[key] !== undefined) known[key] = registration[key];
  return known as unknown as AppRegistration;
}

export function appRoutes(core: NotifierCore): Route[] {
  return [
    {
      method: 'POST',
      path: '/v1/register',
      handle: async (req) => {
        await core.register(readRegistration(bodyObject(req)));
        return { ok: true };
      },
    },
    { method: 'GET', path: '/v1/apps', handle: () => ({ apps: core.apps.list() }) },
    {
      method: 'DELETE',
      path: '/v1/apps/{id}',
      handle: async (_req, res) => {
        const app = appIdOf(pathParameter(res));
        await core.removeApp(app);
        return { ok: true, deleted: app };
      },
    },
    {
      method: 'GET',
      path: '/v1/apps/settings',
      handle: (req) => {
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
      handle: async (req) => {
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
