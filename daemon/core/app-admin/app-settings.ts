import { errors } from '../../../protocol/errors.js';
import { REGISTER_FIELD_BYTES, REGISTER_TIMEOUT_RANGE, SPEECH_SPEED } from '../../../protocol/limits.js';
import { checkChange, describeRule, LANG_RULE_PATTERN, type SettingRule, VOICE_RULE_PATTERN } from '../settings/setting-rules.js';
import { STACKING_LEVELS } from '../../../protocol/types.js';
import type { AppRegistry } from '../apps/app-registry.js';
import type { Approvals } from '../approvals/approvals.js';
import type { AppNames } from '../templates/app-names.js';
import { soundChoices } from '../../present/sound.js';
import { type AppPreferences, type AppRegistration, CORNERS } from '../../../protocol/types.js';

// Per-app settings (docs/api/apps.md#a8): what the person set for one app. `sound`, `persistent`, `timeout` and
// `corner` are the app's defaults (the same ones `POST /v1/register` sets); the others are the person's alone.
// Two keys only ever take something away: `revokeCommands` and `revokeCallbackHost` accept `true` and nothing
// else, since nothing here may grant a permission (docs/api/apps.md#a9).

/** docs/api/apps.md#a8: banners appear top right unless the app says otherwise. */
const DEFAULT_CORNER = 'topRight';

const RULES: readonly SettingRule[] = [
  {
    key: 'displayName',
    type: 'string',
    maxLength: REGISTER_FIELD_BYTES.appName,
    nullable: true,
    description:
      "The name the person gives the app (a topic of ntfy's, say): shown on its banners, in History and in the window instead of its own; null: its own again.",
  },
  {
    key: 'sound',
    type: 'string',
    maxLength: REGISTER_FIELD_BYTES['defaults.sound'],
    description: 'The sound of its banners: default, none, a system sound name or a file path.',
  },
  { key: 'persistent', type: 'boolean', description: 'Banners stay until dismissed (when the notification sets no timeout).' },
  {
    key: 'timeout',
    type: 'integer',
    min: REGISTER_TIMEOUT_RANGE.min,
    max: REGISTER_TIMEOUT_RANGE.max,
    description: 'Seconds a banner stays; 0 means until dismissed.',
  },
  {
    key: 'corner',
    type: 'choice',
    values: CORNERS,
    nullable: true,
    description: 'Where banners appear, where the desktop lets the service choose; null follows the default (topRight).',
  },
  { key: 'muteBanners', type: 'boolean', description: 'Notifications go to History only: no banner, no sound, no speech.' },
  {
    key: 'stacking',
    type: 'choice',
    values: STACKING_LEVELS,
    nullable: true,
    description: 'How its banners stack; null follows the global stacking setting.',
  },
  {
    key: 'speak',
    type: 'boolean',
    description: 'Speech allowed; when off, a notification that asks to be spoken is shown as a banner instead.',
  },
  {
    key: 'voice',
    type: 'string',
    maxLength: 64,
    pattern: VOICE_RULE_PATTERN,
    nullable: true,
    description: 'The voice for its speech when a notification names none; null follows voiceDefault.',
  },
  {
    key: 'speed',
    type: 'number',
    min: SPEECH_SPEED.min,
    max: SPEECH_SPEED.max,
    nullable: true,
    description: 'Speech speed when a notification gives none; null follows voiceSpeed.',
  },
  {
    key: 'lang',
    type: 'string',
    maxLength: 16,
    pattern: LANG_RULE_PATTERN,
    nullable: true,
    description: 'Speech language when a notification gives none; null follows voiceLang.',
  },
  {
    key: 'urgentBreaksQuiet',
    type: 'boolean',
    description: 'A notification with priority urgent is shown, sounded and spoken during quiet hours.',
  },
  {
    key: 'revokeCommands',
    type: 'boolean',
    description: 'true withdraws the permission to run commands, scripts and shortcuts (only the person grants it again).',
  },
  {
    key: 'revokeCallbackHost',
    type: 'boolean',
    description: 'true withdraws every approval of a callback host (the person is asked again).',
  },
];

const REVOKE_KEYS = new Set(['revokeCommands', 'revokeCallbackHost']);

/** What reading and changing an app's settings needs of the core. */
export interface AppSettingsParts {
  apps: AppRegistry;
  approvals: Approvals;
  names: Pick<AppNames, 'name'>;
}

/** The settings part of one change: defaults, preferences and what to revoke. */
export interface AppSettingsChange {
  defaults: NonNullable<AppRegistration['defaults']>;
  /** Keys of the defaults set to null: back to the built-in default. */
  clearDefaults: Array<keyof NonNullable<AppRegistration['defaults']>>;
  preferences: AppPreferences;
  revokeCommands: boolean;
  revokeCallbackHost: boolean;
  applied: string[];
}

export const appSettingsSchema = (): Array<Record<string, unknown>> => RULES.map(describeRule);

/** The fixed lists the keys choose from (GET /v1/apps/settings without `app`). */
export const appSettingsOptions = () => ({ corners: CORNERS, stackingLevels: STACKING_LEVELS, sounds: soundChoices() });

/**
 * Reads the body of PUT /v1/apps/settings, all or nothing: 400 for no keys, an unknown key or a bad value
 * (docs/api/apps.md#a14), 403 for a revoke key that is not `true`.
 */
export function readAppSettingsChange(body: Record<string, unknown>): AppSettingsChange {
  const { app: _app, ...change } = body;
  for (const key of Object.keys(change).sort()) {
    if (REVOKE_KEYS.has(key) && change[key] !== true) {
      throw errors.permissionNotGrantable(key);
    }
  }
  const applied = checkChange(RULES, change, '{"app":"build","muteBanners":true}');
  const result: AppSettingsChange = {
    defaults: {},
    clearDefaults: [],
    preferences: {},
    revokeCommands: false,
    revokeCallbackHost: false,
    applied,
  };
  for (const key of applied) {
    const value = change[key];
    if (key === 'revokeCommands' || key === 'revokeCallbackHost') result[key] = true;
    else if (key === 'sound' || key === 'persistent' || key === 'timeout' || key === 'corner') {
      if (value === null) result.clearDefaults.push(key);
      else Object.assign(result.defaults, { [key]: value });
    } else Object.assign(result.preferences, { [key]: value });
  }
  return result;
}

/** docs/api/apps.md#get-v1-apps-settings: one app as GET /v1/apps/settings shows it. */
export function appSettingsView(app: string, parts: AppSettingsParts) {
  const registration = parts.apps.get(app);
  if (!registration) throw errors.unknownApp(app);
  const defaults = registration.defaults ?? {};
  const preferences = registration.settings ?? {};
  const host = callbackHost(registration.callbackURL);
  return {
    app,
    appName: parts.names.name(app),
    ...(registration.bundleId ? { bundleId: registration.bundleId } : {}),
    ...(registration.callbackURL ? { callbackURL: registration.callbackURL } : {}),
    settings: {
      displayName: preferences.displayName ?? null,
      sound: defaults.sound ?? 'default',
      persistent: defaults.persistent ?? true,
      timeout: defaults.timeout ?? 0,
      corner: defaults.corner ?? null,
      effectiveCorner: defaults.corner ?? DEFAULT_CORNER,
      muteBanners: preferences.muteBanners ?? false,
      stacking: preferences.stacking ?? null,
    },
    voice: {
      speak: preferences.speak ?? true,
      voice: preferences.voice ?? null,
      speed: preferences.speed ?? null,
      lang: preferences.lang ?? null,
      urgentBreaksQuiet: preferences.urgentBreaksQuiet ?? false,
    },
    approvals: {
      commandsRequested: registration.allowCommands === true,
      commandsConfirmed: parts.approvals.commandsAllowed(app),
      commandsAllowed: registration.allowCommands === true && parts.approvals.commandsAllowed(app),
      callbackHostRegistered: host,
      callbackHostApproved: host === null ? null : parts.approvals.hostAllowed(app, host),
    },
  };
}

/**
 * PUT /v1/apps/settings, once read: saved as one change before the reply; the revocations withdraw what the
 * person granted. 404 for an app that is not registered.
 */
export async function changeAppSettings(parts: AppSettingsParts, app: string, change: AppSettingsChange): Promise<void> {
  const registration = parts.apps.get(app);
  if (!registration) throw errors.unknownApp(app);
  await parts.apps.replace(withSettings(registration, change));
  if (change.revokeCommands) await parts.approvals.revokeCommands(app);
  if (change.revokeCallbackHost) await parts.approvals.revokeHosts(app);
}

/** The registration with a change applied (null values drop the key: back to its default). */
function withSettings(registration: AppRegistration, change: AppSettingsChange): AppRegistration {
  const defaults = { ...registration.defaults, ...change.defaults };
  for (const key of change.clearDefaults) delete defaults[key];
  const preferences: Record<string, unknown> = { ...registration.settings, ...change.preferences };
  for (const [key, value] of Object.entries(preferences)) if (value === null) delete preferences[key];
  const { defaults: _d, settings: _s, ...rest } = registration;
  return {
    ...rest,
    ...(Object.keys(defaults).length > 0 ? { defaults } : {}),
    ...(Object.keys(preferences).length > 0 ? { settings: preferences as AppPreferences } : {}),
  };
}

function callbackHost(url: string | undefined): string | null {
  if (!url) return null;
  try {
    return new URL(url).host;
  } catch {
    return null;
  }
}
