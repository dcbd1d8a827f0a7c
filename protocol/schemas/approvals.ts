// What the person allowed, as the API lists it (nothing in the API grants).

import { appId } from './common.js';
import { flag, list, object, text, timestamp } from './json-schema.js';

export const approvalsSchema = object(
  {
    items: list(
      object({ app: appId, template: text(), commands: list(text()), approvedAt: timestamp() }, [
        'app',
        'template',
        'commands',
        'approvedAt',
      ]),
      "templates' approved code",
    ),
    apps: list(
      object(
        {
          app: appId,
          commandsAllowed: flag(),
          commandsApprovedAt: timestamp(),
          callbackHosts: list(object({ host: text('host:port'), approvedAt: timestamp() }, ['host', 'approvedAt'])),
        },
        ['app', 'commandsAllowed', 'callbackHosts'],
      ),
      'per app: its command permission and approved callback hosts',
    ),
    note: text(),
  },
  ['items', 'apps', 'note'],
);
