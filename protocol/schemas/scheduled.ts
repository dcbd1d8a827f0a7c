// Notifications waiting for their time (docs/api/scheduled.md): ntfy's delayed publishes.

import { appId, notificationId } from './common.js';
import { list, object, text, timestamp } from './json-schema.js';

export const scheduledSchema = object(
  {
    scheduled: list(
      object({ app: appId, id: notificationId, title: text(), at: timestamp('when it shows'), createdAt: timestamp() }, [
        'app',
        'id',
        'title',
        'at',
        'createdAt',
      ]),
      'soonest first',
    ),
  },
  ['scheduled'],
);
