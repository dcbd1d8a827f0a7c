// docs/api/keys.md: sending keys — made, listed and revoked with the API token (or by the person in Settings). A key
// sends notifications as its app and opens nothing else.

import { errors } from '../../../protocol/errors.js';
import { MAX_SEND_KEY_NAME_BYTES } from '../../../protocol/limits.js';
import { checkLocalAppId } from '../../../protocol/notification-rules.js';
import { okSchema } from '../../../protocol/schemas/common.js';
import { sendKeyCreatedSchema, sendKeyCreateSchema, sendKeysSchema } from '../../../protocol/schemas/keys.js';
import type { SendKeyView } from '../../core/keys/send-keys.js';
import { ok, onlyApp, type Route } from '../route.js';
import type { Services as AllServices } from '../services.js';
import { validator } from '../validate.js';

type Services = Pick<AllServices, 'sendKeys'>;

const checkCreate = validator<{ app: string; name?: string }>(sendKeyCreateSchema);

/** The body of POST /v1/keys: the app as an app id is checked, the name within its limit. */
export function readKeyRequest(body: Record<string, unknown>): { app: string; name: string | undefined } {
  const { app, name } = checkCreate(body);
  checkLocalAppId(app);
  if (name !== undefined && Buffer.byteLength(name) > MAX_SEND_KEY_NAME_BYTES) throw errors.fieldTooLarge('name', MAX_SEND_KEY_NAME_BYTES);
  return { app, name: name?.trim() || undefined };
}

/**
 * Lines ready to paste into the tools that send (docs/senders.md), for a key just made: curl, an Apprise URL, and the
 * server a tool that speaks ntfy is given. They name this daemon's own port. Apprise sends Basic credentials only
 * when the URL has a user name, so its URL names one (any name does).
 */
export function keyLines(key: SendKeyView & { key: string }, port: number): { curl: string; apprise: string; ntfyServer: string } {
  const server = `http://127.0.0.1:${port}`;
  return {
    curl: `curl -u :${key.key} -d "Hello from ${key.app}" ${server}/${key.app}`,
    apprise: `ntfy://notifier:${key.key}@127.0.0.1:${port}/${key.app}`,
    ntfyServer: server,
  };
}

export function keyRoutes(): Route<Services>[] {
  return [
    {
      method: 'GET',
      door: 'token',
      path: '/v1/keys',
      summary: 'Sending keys',
      description: 'Every sending key (never the key itself), oldest first; of one app with `app`.',
      tag: 'Keys',
      query: [onlyApp('only the keys of this app')],
      reply: sendKeysSchema,
      errors: {},
      examples: [{ summary: 'Every key' }],
      handle: ({ services, query }) => ({ keys: services.sendKeys.list(query.app as string | undefined) }),
    },
    {
      method: 'POST',
      door: 'token',
      path: '/v1/keys',
      summary: 'Make a sending key',
      description:
        'Answers 201 with the key, shown this once, and lines ready for curl, Apprise and tools that speak ntfy. The key sends notifications as its app, on `/v1/notify` and in the ntfy and Gotify dialects, and opens nothing else.',
      tag: 'Keys',
      created: true,
      body: sendKeyCreateSchema,
      reply: sendKeyCreatedSchema,
      errors: {
        400: 'app is missing or not an app id, or another key is given',
        413: 'name is over 128 bytes',
        429: '200 keys exist already',
      },
      examples: [{ summary: 'A key for the backup script', body: { app: 'backup', name: 'Backup on the NAS' } }],
      handle: async ({ services, body, req }) => {
        const { app, name } = readKeyRequest(body);
        const made = await services.sendKeys.create(app, name);
        return { ...made, lines: keyLines(made, req.socket.localPort ?? 0) };
      },
    },
    {
      method: 'DELETE',
      door: 'token',
      path: '/v1/keys/{id}',
      summary: 'Revoke a sending key',
      description: 'The key opens nothing from this answer on. What it sent stays in History.',
      tag: 'Keys',
      params: { id: { description: "the key's id (key- and 8 hex digits)" } },
      reply: okSchema,
      errors: { 404: 'no key has this id' },
      examples: [{ summary: 'One key', params: { id: 'key-0a1b2c3d' }, notSent: 'the id of a key made in the same run' }],
      handle: ({ services, params }) => services.sendKeys.revoke(params.id!).then(ok),
    },
  ];
}
