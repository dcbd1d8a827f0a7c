import type { Core } from '../../core/core.js';
import type { Route } from '../route.js';
import {
  changedSettingsSchema,
  changeQuietHoursSchema,
  changeSettingsSchema,
  quietHoursSchema,
  settingsSchema,
} from '../../../protocol/schemas/settings.js';

// docs/api/settings.md: the global settings (#s1) and quiet hours (#s8); docs/settings.md explains them.

type Services = Pick<Core, 'settings' | 'voiceSetup' | 'quietHours'>;

/** GET /v1/settings (the window's Settings too): every value as it is now, the schema of every key, and the lists to choose from. */
export async function settingsView(services: Services) {
  const [settings, voices] = await Promise.all([services.settings.current(), services.voiceSetup.voices()]);
  return { settings, schema: services.settings.schema(), options: services.settings.options(voices) };
}

/** PUT /v1/settings (the window's Settings too): all or nothing, a 400 names the first bad key (in sorted order). */
export async function changeSettings(services: Services, body: Record<string, unknown>) {
  const { applied, note } = await services.settings.change(body);
  return { ...(await settingsView(services)), applied, ...(note ? { note } : {}) };
}

export function settingsRoutes(): Route<Services>[] {
  return [
    {
      method: 'GET',
      door: 'token',
      path: '/v1/settings',
      summary: 'The global settings',
      description: 'Every value as it is now, the schema of every key, and the lists to choose from.',
      tag: 'Settings',
      reply: settingsSchema,
      errors: {},
      examples: [{ summary: 'Everything' }],
      handle: ({ services }) => settingsView(services),
    },
    {
      method: 'PUT',
      door: 'token',
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
      handle: ({ services, body }) => changeSettings(services, body),
    },
    {
      method: 'GET',
      door: 'token',
      path: '/v1/settings/quiet-hours',
      summary: 'Quiet hours',
      description: 'The scheduled windows, the one-off quiet period, and what is silenced now.',
      tag: 'Settings',
      reply: quietHoursSchema,
      errors: {},
      examples: [{ summary: 'The schedule and the state' }],
      handle: ({ services }) => services.quietHours.reply(),
    },
    {
      method: 'PUT',
      door: 'token',
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
      handle: ({ services, body }) => services.quietHours.update(body),
    },
  ];
}
