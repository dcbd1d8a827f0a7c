// What is on screen: snooze, unsnooze and stacks.

import { SNOOZE_MAX_MINUTES } from '../limits.js';
import { STACKING_LEVELS } from '../types.js';
import { appId, notificationId, okWith } from './common.js';
import { flag, integer, list, object, oneOfText, text, timestamp } from './json-schema.js';

export const snoozeSchema = object(
  {
    app: appId,
    id: notificationId,
    minutes: {
      type: 'number',
      exclusiveMinimum: 0,
      maximum: SNOOZE_MAX_MINUTES,
      description: `greater than 0 and at most ${SNOOZE_MAX_MINUTES}; fractions allowed`,
    },
  },
  ['app', 'id', 'minutes'],
);

export const snoozeReplySchema = okWith({ until: timestamp('when the banner comes back') }, ['until']);

export const unsnoozeSchema = object({ app: appId, id: notificationId }, ['app', 'id']);

const member = object({ app: appId, id: notificationId, title: text(), group: text(), deliveredAt: timestamp() }, [
  'app',
  'id',
  'deliveredAt',
]);

export const stacksSchema = object(
  {
    stacks: list(
      object(
        {
          level: oneOfText(STACKING_LEVELS),
          app: appId,
          group: text('present for bySender stacks whose notifications have one'),
          count: integer(),
          expanded: flag('whether the stack was marked open (POST /v1/stacks/expand)'),
          members: list(member, 'newest first'),
        },
        ['level', 'app', 'count', 'expanded', 'members'],
      ),
      'stacks of two or more banners on screen, newest first',
    ),
  },
  ['stacks'],
);

export const expandStackSchema = object(
  { app: appId, group: text("the stack's group; default: the app id"), expanded: flag('default true; false closes it') },
  ['app'],
);
