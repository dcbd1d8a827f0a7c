// Global settings, quiet hours and the voice engine (daemon/http/routes/settings.ts and voice.ts).

import { flag, inputs, number, object, objectInputs, route, text, whole } from './common.js';

export const getSettings = route('get_settings', 'Read settings', 'GET /v1/settings', {
  description: 'Settings values, a schema with type and limits per key, and the options of keys with a fixed list (GET /v1/settings).',
  kind: 'read',
});

export const setSettings = route('set_settings', 'Change settings', 'PUT /v1/settings', {
  description:
    'Change settings, all or none (PUT /v1/settings): the arguments are the keys to change, such as muteAllSounds, stacking, ' +
    'voiceSpeed, historyCapPerApp. See get_settings for every key and its limits.',
  inputSchema: objectInputs({
    muteAllSounds: flag('No sounds at all.'),
    stacking: text('Stacking level.'),
    historyCapPerApp: whole('Records kept per app.'),
    voiceEngine: text('The speech engine.'),
    voiceSpeed: number('0.5 to 2.0.'),
  }),
  kind: 'set',
});

export const getQuietHours = route('get_quiet_hours', 'Read quiet hours', 'GET /v1/settings/quiet-hours', {
  description: 'Whether quiet hours are on now (status) and the quiet windows (GET /v1/settings/quiet-hours).',
  kind: 'read',
});

export const setQuietHours = route('set_quiet_hours', 'Set quiet hours', 'PUT /v1/settings/quiet-hours', {
  description:
    'Start a one-off quiet period (adHoc: {minutes} or {until: "HH:MM"}, banners: true silences banners too), end it ' +
    '(resume: true), or replace the windows (PUT /v1/settings/quiet-hours). Replies the quiet-hours state.',
  inputSchema: objectInputs({
    adHoc: object('{minutes} or {until: "HH:MM"}, with optional speech, sounds, banners flags.'),
    resume: flag('true ends the current quiet period.'),
    windows: {
      type: 'array',
      items: { type: 'object' },
      description: 'Replaces every window: id, start, end (HH:MM), days, banners, sounds, speech.',
    },
  }),
  kind: 'set',
});

export const voiceStatus = route('voice_status', 'Voice status', 'GET /v1/voice', {
  description: 'State of the speech engine, its voices and any install in progress (GET /v1/voice).',
  kind: 'read',
});

export const installVoice = route('install_voice', 'Install the voice engine', 'POST /v1/voice/install', {
  description:
    'Start or cancel installing the local voice engine, or use an existing installation (POST /v1/voice/install); poll voice_status for progress.',
  inputSchema: inputs({ action: { type: 'string', enum: ['install', 'cancel', 'useExisting'], description: 'What to do.' } }, ['action']),
  kind: 'add',
  openWorld: true,
});
