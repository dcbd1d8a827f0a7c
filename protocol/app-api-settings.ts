// The Settings page's part of the person-only API (docs/app.md#settings): its paths and the answers it reads. Most
// routes answer through a `/v1` route's own handler (fromV1), so their answers are those documented in
// docs/api/settings.md, docs/api/apps.md and docs/api/voice.md; the types here are what the page reads of them.

import { pathOf } from './app-api.js';
import type { ProgramKeep } from './desktop-programs.js';

export const settingsPaths = {
  /** GET and PUT: `GET /v1/settings`, `PUT /v1/settings`. */
  settings: '/app/api/settings',
  /** GET and PUT: `/v1/settings/quiet-hours`. */
  quietHours: '/app/api/settings/quiet-hours',
  /** GET and PUT: `/v1/apps/settings`. */
  appSettings: '/app/api/settings/apps',
  /** GET: each app's newest notification (the page's own route). */
  lastNotifications: '/app/api/settings/apps/last',
  /** DELETE: `DELETE /v1/apps/{id}` (the route's pattern: `SETTINGS_APP_PATTERN`). */
  app: (app: string): string => pathOf(SETTINGS_APP_PATTERN, { id: app }),
  /** GET: `GET /v1/voice`. */
  voice: '/app/api/settings/voice',
  /** POST: says the sample sentence with the settings' voice (the page's own route). */
  voiceTest: '/app/api/settings/voice/test',
  /** GET (`?app=`) and POST: `GET /v1/keys`, `POST /v1/keys`. */
  keys: '/app/api/settings/keys',
  /** DELETE: `DELETE /v1/keys/{id}` (the route's pattern: `SETTINGS_KEY_PATTERN`). */
  key: (id: string): string => pathOf(SETTINGS_KEY_PATTERN, { id }),
  /** GET and PUT: other programs' notifications in History (the page's own route: the person's alone). */
  desktop: '/app/api/settings/desktop',
  /** PUT: what is kept of one program (the route's pattern: `SETTINGS_DESKTOP_PROGRAM_PATTERN`). */
  desktopProgram: (app: string): string => pathOf(SETTINGS_DESKTOP_PROGRAM_PATTERN, { id: app }),
} as const;

/** The pattern of `settingsPaths.desktopProgram`: one program's choice. */
export const SETTINGS_DESKTOP_PROGRAM_PATTERN = '/app/api/settings/desktop/programs/{id}';

/** The pattern of `settingsPaths.key`: one sending key, revoked. */
export const SETTINGS_KEY_PATTERN = '/app/api/settings/keys/{id}';

/** The pattern of `settingsPaths.app`: one app, removed. */
export const SETTINGS_APP_PATTERN = '/app/api/settings/apps/{id}';

// ---------------------------------------------------------------------------------------------------------------
// Other programs' notifications: /app/api/settings/desktop (docs/desktop.md)

/** A program seen on the session bus, and what is kept of its notifications. */
export interface DesktopProgram {
  /** Its app id in History: `desktop.` and its name. */
  app: string;
  name: string;
  keep: ProgramKeep;
  /** Why it is left out until the person keeps it (a password manager, a two-factor app...). */
  excludedByDefault?: string;
}

/** What watching the session bus is doing: `refused` says why in the bus's words. */
export interface DesktopMonitor {
  state: 'off' | 'starting' | 'on' | 'refused';
  reason?: string;
}

export interface DesktopAnswer {
  /** "Keep every desktop notification in History" is on. */
  keep: boolean;
  monitor: DesktopMonitor;
  /** The folder the records are kept in. */
  where: string;
  programs: DesktopProgram[];
}

/** `PUT /app/api/settings/desktop` */
export interface DesktopRequest {
  keep: boolean;
}

/** `PUT /app/api/settings/desktop/programs/{id}` */
export interface DesktopProgramRequest {
  keep: ProgramKeep;
}

/** What "Test voice" says. */
export const VOICE_SAMPLE = 'This is how Notifier reads your notifications aloud.';

// ---------------------------------------------------------------------------------------------------------------
// General settings: GET /v1/settings

export type SettingValue = boolean | number | string;

/** One key of the settings table (docs/api/settings.md#s1). */
export interface SettingDescription {
  key: string;
  group?: string;
  type: 'boolean' | 'integer' | 'number' | 'string' | 'choice';
  description: string;
  default?: SettingValue;
  min?: number;
  max?: number;
  values?: string[];
  maxLength?: number;
  restartsServer?: boolean;
}

export interface SettingsAnswer {
  settings: Record<string, SettingValue>;
  schema: SettingDescription[];
  options: {
    voices?: Array<{ id: string; name: string }>;
    historyCapChoices?: number[];
    [list: string]: unknown;
  };
  /** PUT: the keys changed. */
  applied?: string[];
  /** PUT: where the server moved. */
  note?: string;
}

// ---------------------------------------------------------------------------------------------------------------
// Quiet hours: GET and PUT /v1/settings/quiet-hours (docs/api/settings.md#s8)

/** What a window or a quiet period silences. */
export interface Silences {
  speech: boolean;
  sounds: boolean;
  banners: boolean;
}

export interface QuietWindowEntry extends Silences {
  id: string;
  /** Three lower-case letters each (`mon`); empty: every day. */
  days: string[];
  start: string;
  end: string;
  speakSummary: boolean;
}

export const WEEK_DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;

export interface QuietHoursAnswer {
  windows: QuietWindowEntry[];
  adHoc?: Silences & { until: string };
  status: Silences & { active: boolean; until?: string; source?: 'window' | 'adhoc' | 'both' };
}

/** `PUT …/settings`: the settings to change; null puts one back to its default. */
export type SettingsChange = Record<string, SettingValue | null>;

export interface QuietHoursChange {
  windows?: QuietWindowEntry[];
  resume?: true;
  adHoc?: { minutes: number };
}

// ---------------------------------------------------------------------------------------------------------------
// Apps: GET and PUT /v1/apps/settings (docs/api/apps.md#a8), DELETE /v1/apps/{id}

export interface AppSettingsEntry {
  app: string;
  appName: string;
  settings: {
    displayName: string | null;
    muteBanners: boolean;
    stacking: string | null;
    sound: string;
    persistent: boolean;
    timeout: number;
  };
  voice: { speak: boolean; voice: string | null; speed: number | null; lang: string | null; urgentBreaksQuiet: boolean };
}

export interface AppSettingsAnswer {
  apps: AppSettingsEntry[];
  options?: { stackingLevels: string[]; sounds: string[]; corners: string[] };
}

export interface AppSettingsChange {
  app: string;
  [key: string]: unknown;
}

/** Each app's newest notification, for the apps that have one. */
export interface LastNotificationsAnswer {
  last: Record<string, { id: string; title: string; deliveredAt: string }>;
}

// ---------------------------------------------------------------------------------------------------------------
// Voice: GET /v1/voice (docs/api/voice.md#get-v1-voice)

export interface VoiceAnswer {
  engine: 'system' | 'off';
  engineName: string | null;
  installed: boolean;
  audioPlayer: string | null;
  installCommand?: string;
  voices: Array<{ id: string; name: string; language: string }>;
}

/** POST …/voice/test: the sample was written and plays now, `seconds` long. */
export interface VoiceTestAnswer {
  ok: true;
  seconds?: number;
}

// ---------------------------------------------------------------------------------------------------------------
// Sending keys: GET and POST /v1/keys (docs/api/keys.md)

/** A sending key as listed: never the key itself. */
export interface SendKeyRow {
  id: string;
  app: string;
  name: string;
  /** The key's first characters, to tell keys apart. */
  hint: string;
  createdAt: string;
  lastUsedAt?: string;
}

export interface SendKeysAnswer {
  keys: SendKeyRow[];
}

export interface SendKeyRequest {
  app: string;
  name?: string;
}

/** A key just made: the key, shown this once, and lines ready for the tools people use. */
export interface SendKeyCreated extends SendKeyRow {
  key: string;
  lines: { curl: string; apprise: string; ntfyServer: string };
}
