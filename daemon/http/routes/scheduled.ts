// docs/api/scheduled.md: the notifications waiting for their time (ntfy's delayed publishes), listed and cancelled.

import { okSchema } from '../../../protocol/schemas/common.js';
import { scheduledSchema } from '../../../protocol/schemas/scheduled.js';
import { APP_QUERY, ok, onlyApp, query, type Route } from '../route.js';
import type { Services as AllServices } from '../services.js';

type Services = Pick<AllServices, 'scheduled'>;

export function scheduledRoutes(): Route<Services>[] {
  return [
    {
      method: 'GET',
      door: 'token',
      path: '/v1/scheduled',
      summary: 'Notifications waiting for their time',
      description: "ntfy's delayed publishes (`delay`, `at`, `in`), soonest first; of one app with `app`.",
      tag: 'Notifications',
      query: [onlyApp('only the ones of this app')],
      reply: scheduledSchema,
      errors: {},
      examples: [{ summary: 'Every one' }],
      handle: ({ services, query: given }) => ({ scheduled: services.scheduled.list(given.app as string | undefined) }),
    },
    {
      method: 'DELETE',
      door: 'token',
      path: '/v1/scheduled',
      summary: 'Cancel a notification before its time',
      description: 'It will not show; nothing of it is kept.',
      tag: 'Notifications',
      query: [{ ...APP_QUERY, description: 'the app it was sent as' }, query.text('id', "the notification's id", { required: true })],
      reply: okSchema,
      errors: { 404: 'none of this app waits with this id' },
      examples: [{ summary: 'One', query: { app: 'backup', id: 'nightly' }, notSent: 'a notification scheduled in the same run' }],
      handle: ({ services, query: given }) => services.scheduled.cancel(given.app as string, given.id as string).then(ok),
    },
  ];
}
