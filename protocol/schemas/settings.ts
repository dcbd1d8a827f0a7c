// The global settings and quiet hours.

import { HISTORY_CAP_RANGE, MAX_QUIET_WINDOWS, QUIET_AD_HOC_MAX_MINUTES, SPEECH_SPEED } from '../limits.js';
import { STACKING_LEVELS } from '../types.js';
import { settingRuleSchema } from './apps.js';
import { flag, list, map, object, oneOfText, text, timestamp } from './json-schema.js';

export const settingsSchema = object(
  {
    settings: map({}, 'every setting with its value now'),
    schema: list(
      { type: 'object', allOf: [settingRuleSchema], properties: { group: text(), default: {}, restartsServer: flag() } },
      'every key: its type, limits, default and description',
    ),
    options: object(
      {},
      [],
      'the lists the choices come from: stackingLevels, tooltipLevels, voiceEngines, voices, historyCapChoices, corners, sounds, displays',
    ),
  },
  ['settings', 'schema', 'options'],
);

export const changeSettingsSchema = {
  minProperties: 1,
  ...object(
    {
      port: { type: 'integer', minimum: 1024, maximum: 65535, description: 'the server moves to it at once' },
      launchAtLogin: flag('installs or removes the login service'),
      muteAllSounds: flag('no sound and no speech from any notification'),
      stacking: oneOfText(STACKING_LEVELS),
      historyCapPerApp: { type: 'integer', minimum: HISTORY_CAP_RANGE.min, maximum: HISTORY_CAP_RANGE.max },
      tooltipLevel: oneOfText(['nameOnly', 'nameAndDescription']),
      bannerCardImage: flag('each banner carries its card, drawn through its template, as its picture'),
      voiceEngine: oneOfText(['system', 'off']),
      voiceDefault: text('a voice name, or default'),
      voiceSpeed: { type: 'number', minimum: SPEECH_SPEED.min, maximum: SPEECH_SPEED.max },
      voiceLang: text('a language code'),
    },
    [],
    'the keys to change, all or nothing (GET /v1/settings describes each)',
  ),
};

export const changedSettingsSchema = {
  type: 'object',
  allOf: [settingsSchema],
  required: ['applied'],
  properties: { applied: list(text(), 'the keys changed, sorted'), note: text('what else happened (the port moved)') },
} as const;

const silenced = { speech: flag(), sounds: flag(), banners: flag() };

const window = object(
  {
    id: text(),
    days: list(text(), 'mon ... sun; empty: every day'),
    start: text('HH:MM'),
    end: text('HH:MM'),
    ...silenced,
    speakSummary: flag(),
  },
  ['id', 'days', 'start', 'end', 'speech', 'sounds', 'banners', 'speakSummary'],
);

export const quietHoursSchema = object(
  {
    windows: list(window),
    adHoc: object({ until: timestamp(), ...silenced }, ['until', 'speech', 'sounds', 'banners'], 'the one-off quiet period, while it runs'),
    status: object(
      { active: flag(), ...silenced, until: timestamp(), source: oneOfText(['window', 'adhoc', 'both']) },
      ['active', 'speech', 'sounds', 'banners'],
      'what is silenced now',
    ),
  },
  ['windows', 'status'],
);

export const changeQuietHoursSchema = object(
  {
    windows: {
      type: 'array',
      maxItems: MAX_QUIET_WINDOWS,
      description: 'replaces the schedule',
      items: object(
        {
          id: text('made when absent'),
          days: list(text(), 'mon, Monday, tues ... in any case; empty or absent: every day'),
          start: { type: 'string', pattern: '^([01]\\d|2[0-3]):[0-5]\\d$', description: 'HH:MM, local time' },
          end: { type: 'string', pattern: '^([01]\\d|2[0-3]):[0-5]\\d$', description: 'HH:MM, local time; not the start' },
          speech: flag('default true'),
          sounds: flag('default false'),
          banners: flag('default false'),
          speakSummary: flag('default false'),
        },
        ['start', 'end'],
      ),
    },
    resume: flag('true ends the one-off period and the windows running now'),
    adHoc: object(
      {
        minutes: { type: 'number', exclusiveMinimum: 0, maximum: QUIET_AD_HOC_MAX_MINUTES, description: 'give minutes or until' },
        until: text('HH:MM (the next time the clock reads it) or a future ISO 8601 date'),
        speech: flag('default true'),
        sounds: flag('default true'),
        banners: flag('default false'),
      },
      [],
      'a one-off quiet period',
    ),
  },
  [],
  'applied in this order: windows, resume, adHoc; everything is checked before anything changes',
);
