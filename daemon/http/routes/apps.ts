import type { NotifierCore } from '../../core/notifier.js';
import { checkCallbackURL } from '../../core/notification-rules.js';
import type { AppRegistration } from '../../core/types.js';
import { fieldTooLarge } from '../../errors.js';
import { REGISTER_FIELD_BYTES } from '../../limits.js';
import { bodyObject } from '../params.js';
import type { Route } from '../routes.js';
import { REGISTRATION_KEYS, registerSchema } from '../schemas/register.js';
import { validator } from '../validate.js';

const checkRegistration = validator<AppRegistration>(registerSchema);

/** The body of POST /v1/register: known keys only, types and sizes checked. */
function readRegistration(body: Record<string, unknown>): AppRegistration {
  const registration = checkRegistration(body);
  for (const [field, limit] of Object.entries(REGISTER_FIELD_BYTES)) {
    const value = field === 'defaults.sound' ? registration.defaults?.sound : registration[field as keyof AppRegistration];
    if (typeof value === 'string' && Buffer.byteLength(value, 'utf8') > limit) throw fieldTooLarge(field, limit);
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
  ];
}
