// Apps: the registered list, per-app settings and removal. The registration body is in register.ts.

import { REGISTER_TIMEOUT_RANGE, SPEECH_SPEED } from '../limits.js';
import { CORNERS, STACKING_LEVELS } from '../types.js';
import { appId, okWith } from './common.js';
import { flag, integer, list, number, object, oneOfText, text } from './json-schema.js';
import { registerSchema } from './register.js';

export const appsSchema = object({ apps: list(registerSchema, 'every registered app, sorted by id') }, ['apps']);

export const removedAppSchema = okWith({ deleted: appId }, ['deleted']);

/** One app's settings as GET /v1/apps/settings shows them (and PUT answers). */
export const appSettingsViewSchema = object(
  {
    app: appId,
    appName: text('its display name'),
    bundleId: text(),
    callbackURL: text(),
    settings: object(
      {
        displayName: { type: ['string', 'null'], description: 'the name the person gave it; null: its own' },
        sound: text(),
        persistent: flag(),
        timeout: integer(),
        corner: { type: ['string', 'null'] },
        effectiveCorner: oneOfText(CORNERS),
        muteBanners: flag(),
        stacking: { type: ['string', 'null'] },
      },
      ['displayName', 'sound', 'persistent', 'timeout', 'corner', 'effectiveCorner', 'muteBanners', 'stacking'],
    ),
    voice: object(
      {
        speak: flag(),
        voice: { type: ['string', 'null'] },
        speed: { type: ['number', 'null'] },
        lang: { type: ['string', 'null'] },
        urgentBreaksQuiet: flag(),
      },
      ['speak', 'voice', 'speed', 'lang', 'urgentBreaksQuiet'],
    ),
    approvals: object(
      {
        commandsRequested: flag('the app registered allowCommands: true'),
        commandsConfirmed: flag('the person allowed it'),
        commandsAllowed: flag('both: its commands, scripts and shortcuts may run'),
        callbackHostRegistered: { type: ['string', 'null'], description: 'host:port of its callbackURL' },
        callbackHostApproved: { type: ['boolean', 'null'] },
      },
      ['commandsRequested', 'commandsConfirmed', 'commandsAllowed', 'callbackHostRegistered', 'callbackHostApproved'],
    ),
  },
  ['app', 'appName', 'settings', 'voice', 'approvals'],
);

/** One key of the settings tables as GET /v1/settings and GET /v1/apps/settings describe it. */
export const settingRuleSchema = object(
  {
    key: text(),
    type: oneOfText(['boolean', 'integer', 'number', 'string', 'choice']),
    description: text(),
    min: number(),
    max: number(),
    maxLength: integer(),
    values: list(text()),
    nullable: flag(),
  },
  ['key', 'type', 'description'],
);

export const appSettingsListSchema = object(
  {
    apps: list(appSettingsViewSchema),
    schema: list(settingRuleSchema, 'every key PUT /v1/apps/settings takes'),
    options: object(
      {
        corners: list(text()),
        stackingLevels: list(text()),
        sounds: list(text("none, default, then the sounds of this computer's theme")),
      },
      ['corners', 'stackingLevels', 'sounds'],
      'the lists the choices come from (only when no app was named)',
    ),
  },
  ['apps', 'schema'],
);

export const changeAppSettingsSchema = {
  minProperties: 2,
  ...object(
    {
      app: appId,
      sound: text('none, default, a theme sound name or a file; null: the default'),
      persistent: flag(),
      timeout: {
        type: 'integer',
        minimum: REGISTER_TIMEOUT_RANGE.min,
        maximum: REGISTER_TIMEOUT_RANGE.max,
        description: 'seconds; 0 means until dismissed',
      },
      corner: { type: ['string', 'null'], enum: [...CORNERS, null] },
      displayName: { type: ['string', 'null'], description: 'the name the person gives it, shown instead of its own; null: its own' },
      muteBanners: flag('History only: no banner, no sound, no speech'),
      stacking: { type: ['string', 'null'], enum: [...STACKING_LEVELS, null], description: 'null follows the global stacking setting' },
      speak: flag('speech allowed'),
      voice: { type: ['string', 'null'], description: 'a voice name; null follows voiceDefault' },
      speed: { type: ['number', 'null'], minimum: SPEECH_SPEED.min, maximum: SPEECH_SPEED.max, description: 'null follows voiceSpeed' },
      lang: { type: ['string', 'null'], description: 'a language code; null follows voiceLang' },
      urgentBreaksQuiet: flag('priority urgent is shown, sounded and spoken during quiet hours'),
      revokeCommands: { const: true, description: 'withdraws the permission to run commands (only true: nothing here grants)' },
      revokeCallbackHost: { const: true, description: 'withdraws every approved callback host (only true)' },
    },
    ['app'],
    'the app and at least one key to change; all or nothing',
  ),
};

export const changedAppSettingsSchema = okWith({ applied: list(text(), 'the keys changed, sorted'), app: appSettingsViewSchema }, [
  'applied',
  'app',
]);
