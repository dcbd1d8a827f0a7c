import { errors } from '../../../protocol/errors.js';
import { SNOOZE_MAX_MINUTES } from '../../../protocol/limits.js';
import { bodyObject, bodyText, optionalBodyText, queryText } from '../params.js';
import { onlyApp, type ApiRoute } from '../api-route.js';
import { okSchema } from '../../../protocol/schemas/common.js';
import { expandStackSchema, snoozeReplySchema, snoozeSchema, stacksSchema, unsnoozeSchema } from '../../../protocol/schemas/banners.js';

/** docs/api/notifications.md#post-v1-snooze: `minutes` greater than 0 and at most 43200, fractions allowed. */
export function snoozeMinutes(body: Record<string, unknown>): number {
  const minutes = body.minutes;
  if (minutes === undefined || minutes === null) throw errors.missingField('minutes');
  if (typeof minutes !== 'number' || !(minutes > 0 && minutes <= SNOOZE_MAX_MINUTES)) {
    throw errors.invalidField('minutes', `a number greater than 0 and at most ${SNOOZE_MAX_MINUTES}`);
  }
  return minutes;
}

export function bannerRoutes(): ApiRoute[] {
  return [
    {
      method: 'POST',
      path: '/v1/snooze',
      summary: 'Take a banner away for a while',
      description: 'It comes back by itself, with sound, after the minutes given; snoozing again replaces the time.',
      tag: 'Banners',
      body: snoozeSchema,
      reply: snoozeReplySchema,
      errors: { 400: 'a field is missing or minutes is out of range, or the notification was dismissed', 404: 'no such notification' },
      examples: [{ summary: 'Half an hour', body: { app: 'com.example.build', id: 'build-43', minutes: 30 } }],
      handler: (core) => async (req) => {
        const body = bodyObject(req);
        const [app, id] = [bodyText(body, 'app'), bodyText(body, 'id')];
        return { ok: true, until: await core.snooze(app, id, snoozeMinutes(body)) };
      },
    },
    {
      method: 'POST',
      path: '/v1/unsnooze',
      summary: 'Bring a snoozed banner back now',
      description: 'Without sound. A notification that is not snoozed is left as it is.',
      tag: 'Banners',
      body: unsnoozeSchema,
      reply: okSchema,
      errors: { 400: 'app or id is missing, or the notification was dismissed', 404: 'no such notification' },
      examples: [{ summary: 'Back now', body: { app: 'com.example.build', id: 'build-43' } }],
      handler: (core) => async (req) => {
        const body = bodyObject(req);
        await core.unsnooze(bodyText(body, 'app'), bodyText(body, 'id'));
        return { ok: true };
      },
    },
    {
      method: 'GET',
      path: '/v1/stacks',
      summary: 'The stacks of banners on screen',
      tag: 'Banners',
      query: [onlyApp("only this app's stacks")],
      reply: stacksSchema,
      errors: {},
      examples: [{ summary: 'Every stack' }, { summary: "One app's", query: { app: 'com.example.build' } }],
      handler: (core) => (req) => ({ stacks: core.stacks(queryText(req, 'app') || undefined) }),
    },
    {
      method: 'POST',
      path: '/v1/stacks/expand',
      summary: 'Mark a stack open or closed',
      description: 'The state is reported by GET /v1/stacks; desktop notification servers draw no stacks.',
      tag: 'Banners',
      body: expandStackSchema,
      reply: okSchema,
      errors: { 400: 'app is missing or expanded is not true or false', 404: 'there is no stack of two or more banners there' },
      examples: [{ summary: 'Open the nightly builds', body: { app: 'com.example.build', group: 'nightly' } }],
      handler: (core) => (req) => {
        const body = bodyObject(req);
        const app = bodyText(body, 'app');
        const expanded = body.expanded ?? true;
        if (typeof expanded !== 'boolean') throw errors.invalidField('expanded', 'true or false');
        core.expandStack(app, optionalBodyText(body, 'group') || app, expanded);
        return { ok: true };
      },
    },
  ];
}
