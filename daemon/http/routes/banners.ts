import { errors } from '../../../protocol/errors.js';
import { SNOOZE_MAX_MINUTES } from '../../../protocol/limits.js';
import { expandStackSchema, snoozeReplySchema, snoozeSchema, stacksSchema, unsnoozeSchema } from '../../../protocol/schemas/banners.js';
import { okSchema } from '../../../protocol/schemas/common.js';
import type { Core } from '../../core/core.js';
import { bodyText, optionalBodyText } from '../params.js';
import { ok, onlyApp, type Route } from '../route.js';

type Services = Pick<Core, 'screen' | 'stacks'>;

/** docs/api/notifications.md#post-v1-snooze: `minutes` greater than 0 and at most 43200, fractions allowed. */
export function snoozeMinutes(body: Record<string, unknown>): number {
  const minutes = body.minutes;
  if (minutes === undefined || minutes === null) throw errors.missingField('minutes');
  if (typeof minutes !== 'number' || !(minutes > 0 && minutes <= SNOOZE_MAX_MINUTES)) {
    throw errors.invalidField('minutes', `a number greater than 0 and at most ${SNOOZE_MAX_MINUTES}`);
  }
  return minutes;
}

export function bannerRoutes(): Route<Services>[] {
  return [
    {
      method: 'POST',
      door: 'token',
      path: '/v1/snooze',
      summary: 'Take a banner away for a while',
      description: 'It comes back by itself, with sound, after the minutes given; snoozing again replaces the time.',
      tag: 'Banners',
      body: snoozeSchema,
      reply: snoozeReplySchema,
      errors: { 400: 'a field is missing or minutes is out of range, or the notification was dismissed', 404: 'no such notification' },
      examples: [{ summary: 'Half an hour', body: { app: 'com.example.build', id: 'build-43', minutes: 30 } }],
      handle: async ({ services, body }) => {
        const [app, id] = [bodyText(body, 'app'), bodyText(body, 'id')];
        return { ok: true, until: await services.screen.snooze(app, id, snoozeMinutes(body)) };
      },
    },
    {
      method: 'POST',
      door: 'token',
      path: '/v1/unsnooze',
      summary: 'Bring a snoozed banner back now',
      description: 'Without sound. A notification that is not snoozed is left as it is.',
      tag: 'Banners',
      body: unsnoozeSchema,
      reply: okSchema,
      errors: { 400: 'app or id is missing, or the notification was dismissed', 404: 'no such notification' },
      examples: [{ summary: 'Back now', body: { app: 'com.example.build', id: 'build-43' } }],
      handle: ({ services, body }) => services.screen.unsnooze(bodyText(body, 'app'), bodyText(body, 'id')).then(ok),
    },
    {
      method: 'GET',
      door: 'token',
      path: '/v1/stacks',
      summary: 'The stacks of banners on screen',
      tag: 'Banners',
      query: [onlyApp("only this app's stacks")],
      reply: stacksSchema,
      errors: {},
      examples: [{ summary: 'Every stack' }, { summary: "One app's", query: { app: 'com.example.build' } }],
      handle: ({ services, query }) => ({ stacks: services.stacks.list(query.app as string | undefined) }),
    },
    {
      method: 'POST',
      door: 'token',
      path: '/v1/stacks/expand',
      summary: 'Mark a stack open or closed',
      description: 'The state is reported by GET /v1/stacks; desktop notification servers draw no stacks.',
      tag: 'Banners',
      body: expandStackSchema,
      reply: okSchema,
      errors: { 400: 'app is missing or expanded is not true or false', 404: 'there is no stack of two or more banners there' },
      examples: [{ summary: 'Open the nightly builds', body: { app: 'com.example.build', group: 'nightly' } }],
      handle: ({ services, body }) => {
        const app = bodyText(body, 'app');
        const expanded = body.expanded ?? true;
        if (typeof expanded !== 'boolean') throw errors.invalidField('expanded', 'true or false');
        services.stacks.expand(app, optionalBodyText(body, 'group') || app, expanded);
        return { ok: true };
      },
    },
  ];
}
