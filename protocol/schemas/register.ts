// Schema of POST /v1/register (docs/api/apps.md#post-v1-register, with the CLI's extra keys as it names them).

import { CORNERS } from '../types.js';

export { CORNERS };
import { REGISTER_TIMEOUT_RANGE } from '../limits.js';

const string = { type: 'string' } as const;

/** The keys a registration keeps; any other key of the body is ignored. */
export const REGISTRATION_KEYS = ['app', 'appName', 'bundleId', 'callbackURL', 'allowCommands', 'defaults', 'icon'] as const;

export const registerSchema = {
  type: 'object',
  required: ['app'],
  properties: {
    app: { type: 'string', minLength: 1, description: 'a non-empty app id' },
    appName: string,
    bundleId: string,
    callbackURL: string,
    allowCommands: { type: 'boolean' },
    icon: { type: 'string', description: 'a file path or a data:image/png;base64 URI' },
    defaults: {
      type: 'object',
      description: 'an object with sound, persistent, timeout and corner',
      properties: {
        sound: string,
        persistent: { type: 'boolean' },
        timeout: {
          type: 'number',
          minimum: REGISTER_TIMEOUT_RANGE.min,
          maximum: REGISTER_TIMEOUT_RANGE.max,
          description: `seconds from ${REGISTER_TIMEOUT_RANGE.min} (never) to ${REGISTER_TIMEOUT_RANGE.max}`,
        },
        corner: { type: 'string', enum: [...CORNERS] },
      },
    },
  },
} as const;
