// Sending keys (docs/api/keys.md): a key sends notifications as one app, and nothing else.

import { MAX_SEND_KEY_NAME_BYTES } from '../limits.js';
import { appId } from './common.js';
import { closedObject, filledText, list, object, text, timestamp } from './json-schema.js';

const sendKeyProperties = {
  id: text('key- and 8 hex digits'),
  app: appId,
  name: text('what the person calls it; the app id when none was given'),
  hint: text("the key's first 7 characters, to tell keys apart"),
  createdAt: timestamp(),
  lastUsedAt: timestamp('when it last opened a door'),
};

const sendKeySchema = object(sendKeyProperties, ['id', 'app', 'name', 'hint', 'createdAt']);

export const sendKeysSchema = object({ keys: list(sendKeySchema, 'oldest first') }, ['keys']);

export const sendKeyCreateSchema = closedObject(
  {
    app: filledText('the app the key sends as (for ntfy, the topic)'),
    name: text(`what the person calls it, at most ${MAX_SEND_KEY_NAME_BYTES} bytes`),
  },
  ['app'],
);

export const sendKeyCreatedSchema = object(
  {
    ...sendKeyProperties,
    key: text('the key: shown this once, never again'),
    lines: object(
      {
        curl: text('a curl line that sends with it'),
        apprise: text('an Apprise URL that sends with it'),
        ntfyServer: text('the server URL a tool that speaks ntfy is given'),
      },
      ['curl', 'apprise', 'ntfyServer'],
      'ready-made lines for the tools people use',
    ),
  },
  ['id', 'app', 'name', 'hint', 'createdAt', 'key', 'lines'],
);
