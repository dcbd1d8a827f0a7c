// The values a template's `{tokens}` resolve to (History `fields`), per reference §1.10 "Bindings": payload keys,
// the app's display name, metadata (nested objects flattened to dotted names, three levels deep; lists of
// scalars joined with ", "), then the delivery time. The earliest source wins and blank values are dropped.

import type { Notification } from './types.js';

const PAYLOAD_KEYS = ['title', 'subtitle', 'body', 'image', 'url', 'app', 'id', 'priority', 'sound', 'group'] as const;
const METADATA_DEPTH = 3;
const TOKEN = /\{([A-Za-z0-9_.-]+)\}/g;

export function resolveFields(notification: Notification, appName: string, deliveredAt: string): Record<string, string> {
  const fields: Record<string, string> = {};
  const add = (key: string, value: string | undefined): void => {
    if (value !== undefined && value.trim() !== '' && !(key in fields)) fields[key] = value;
  };
  for (const key of PAYLOAD_KEYS) add(key, notification[key]);
  add('appName', appName);
  if (notification.metadata) flatten(notification.metadata, '', 1, add);
  add('deliveredAt', deliveredAt);
  return fields;
}

function flatten(
  object: Record<string, unknown>,
  prefix: string,
  depth: number,
  add: (key: string, value: string | undefined) => void,
): void {
  for (const [key, value] of Object.entries(object)) {
    const name = prefix + key;
    if (Array.isArray(value)) {
      if (value.length > 0 && value.every(isScalar)) add(name, value.map(formatScalar).join(', '));
    } else if (isScalar(value)) {
      add(name, formatScalar(value));
    } else if (value !== null && typeof value === 'object' && depth < METADATA_DEPTH) {
      flatten(value as Record<string, unknown>, `${name}.`, depth + 1, add);
    }
  }
}

const isScalar = (value: unknown): value is string | number | boolean =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean';

/** Numbers without a trailing `.0`, booleans as `true`/`false` (reference §1.10 "Formatting"). */
const formatScalar = (value: string | number | boolean): string => String(value);

/** Fills `{token}`s from the fields; an unknown token becomes empty and the result is trimmed. Never rescanned. */
export function fillTokens(text: string, fields: Record<string, string>): string {
  return text.replace(TOKEN, (_, key: string) => fields[key] ?? '').trim();
}
