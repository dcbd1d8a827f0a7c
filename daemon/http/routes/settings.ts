import type { NotifierCore } from '../../core/notifier.js';
import { bodyObject } from '../params.js';
import type { ApiRoute } from '../api-route.js';
import {
  changedSettingsSchema,
  changeQuietHoursSchema,
  changeSettingsSchema,
  quietHoursSchema,
  settingsSchema,
} from '../../../protocol/schemas/settings.js';

// docs/api/settings.md: the global settings (#s1) and quiet hours (#s8); docs/settings.md explains them.

/** GET /v1/settings: every value as it is now, the schema of every key, and the lists to choose from. */
async function settingsView(core: NotifierCore) {
  const [settings, voices] = await Promise.all([core.settings.current(), core.voiceSetup.voices()]);
  return { settings, schema: core.settings.schema(), options: core.settings.options(voices) };
}

export function settingsRoutes(): ApiRoute[] {
  return [
    {
      method: 'GET',
      path: '/v1/settings',
      summary: 'The global settings',
      description: 'Every value as it is now, the schema of every key, and the lists to choose from.',
      tag: 'Settings',
      reply: settingsSchema,
      errors: {},
      examples: [{ summary: 'Everything' }],
      handler: (core) => () => settingsView(core),
    },
    {
      method: 'PUT',
      path: '/v1/settings',
      summary: 'Change settings',
      description: 'All or nothing: every key is checked first, in sorted order. Each takes effect at once; port moves the server.',
      tag: 'Settings',
      body: changeSettingsSchema,
      reply: changedSettingsSchema,
      errors: {
        400: 'no key is given, or a key is unknown or has an invalid value',
        409: 'the port is in use by another program',
        500: 'the login service file cannot be written',
        501: 'launchAtLogin on a system without service support (Windows)',
      },
      examples: [{ summary: 'A smaller History and a shorter tooltip', body: { historyCapPerApp: 500, tooltipLevel: 'nameOnly' } }],
      // All or nothing: a 400 names the first bad key (in sorted order) and changes nothing.
      handler: (core) => async (req) => {
        const { applied, note } = await core.settings.change(bodyObject(req));
        return { ...(await settingsView(core)), applied, ...(note ? { note } : {}) };
      },
    },
    {
      method: 'GET',
      path: '/v1/settings/quiet-hours',
      summary: 'Quiet hours',
      description: 'The scheduled windows, the one-off quiet period, and what is silenced now.',
      tag: 'Settings',
      reply: quietHoursSchema,
      errors: {},
      examples: [{ summary: 'The schedule and the state' }],
      handler: (core) => () => core.quietHours.reply(),
    },
    {
      method: 'PUT',
      path: '/v1/settings/quiet-hours',
      summary: 'Change quiet hours',
      description: 'Applies windows (replacing the schedule), then resume, then adHoc; a 400 changes nothing.',
      tag: 'Settings',
      body: changeQuietHoursSchema,
      reply: quietHoursSchema,
      errors: { 400: 'a window or the one-off period is invalid, or a field is unknown' },
      examples: [
        {
          summary: 'Weeknights, and half an hour now',
          body: {
            windows: [{ id: 'nights', days: ['mon', 'tue', 'wed', 'thu', 'fri'], start: '22:30', end: '07:30', speakSummary: true }],
            adHoc: { minutes: 30 },
          },
        },
        { summary: 'Sound again now', body: { resume: true } },
      ],
      handler: (core) => (req) => core.quietHours.update(bodyObject(req)),
    },
  ];
}
