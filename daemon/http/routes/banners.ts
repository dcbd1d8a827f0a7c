import type { NotifierCore } from '../../core/notifier.js';
import { errors } from '../../../protocol/errors.js';
import { SNOOZE_MAX_MINUTES } from '../../../protocol/limits.js';
import { bodyObject, bodyText, optionalBodyText, queryText } from '../params.js';
import type { Route } from '../routes.js';

/** docs/api/notifications.md#post-v1-snooze: `minutes` greater than 0 and at most 43200, fractions allowed. */
function snoozeMinutes(body: Record<string, unknown>): number {
  const minutes = body.minutes;
  if (minutes === undefined || minutes === null) throw errors.missingField('minutes');
  if (typeof minutes !== 'number' || !(minutes > 0 && minutes <= SNOOZE_MAX_MINUTES)) {
    throw errors.invalidField('minutes', `a number greater than 0 and at most ${SNOOZE_MAX_MINUTES}`);
  }
  return minutes;
}

export function bannerRoutes(core: NotifierCore): Route[] {
  return [
    {
      method: 'POST',
      path: '/v1/snooze',
      handle: async (req) => {
        const body = bodyObject(req);
        const [app, id] = [bodyText(body, 'app'), bodyText(body, 'id')];
        return { ok: true, until: await core.snooze(app, id, snoozeMinutes(body)) };
      },
    },
    {
      method: 'POST',
      path: '/v1/unsnooze',
      handle: async (req) => {
        const body = bodyObject(req);
        await core.unsnooze(bodyText(body, 'app'), bodyText(body, 'id'));
        return { ok: true };
      },
    },
    { method: 'GET', path: '/v1/stacks', handle: (req) => ({ stacks: core.stacks(queryText(req, 'app') || undefined) }) },
    {
      method: 'POST',
      path: '/v1/stacks/expand',
      handle: (req) => {
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
