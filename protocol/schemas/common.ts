// Pieces every area uses: the error reply, `{ok: true}`, the app id.

import { flag, object, text, type JsonSchema } from './json-schema.js';

/** Every refusal (protocol/errors.ts, ErrorBody): the status says what kind, the message names the field and why. */
export const errorSchema = object(
  {
    error: text('what was wrong, naming the field: "missing field: app", "invalid field: timeout (...)"'),
    code: text('the stable name of the refusal, for programs: missing_field, invalid_field, unauthorized, ...'),
    field: text('the field at fault, when there is one: app, buttons[0].url'),
    reason: text('what the field must be, when the message says it'),
  },
  ['error', 'code'],
);

export const okSchema = object({ ok: { const: true } }, ['ok']);

/** `{ok: true}` with more properties. */
export const okWith = (properties: Record<string, JsonSchema>, required: readonly string[] = []): JsonSchema =>
  object({ ok: { const: true }, ...properties }, ['ok', ...required]);

export const appId = text('the app id, for example com.example.build');
export const notificationId = text("the notification's id (the sender's, or the one the service made)");

/** Query flags are written `true`, `1`, `yes` or `false`, `0`, `no`, in any case. */
export const queryFlag = (description: string): JsonSchema => ({ ...flag(), description: `${description} (true, 1, yes / false, 0, no)` });
