// The values a template's `{tokens}` resolve to (History `fields`), per docs/api/templates.md#t10: payload keys,
// the app's display name, metadata (nested objects flattened to dotted names, three levels deep; lists of
// scalars joined with ", "), then the delivery time. The earliest source wins and blank values are dropped.

import type { Manifest, Notification } from './types.js';

const PAYLOAD_KEYS = ['title', 'subtitle', 'body', 'image', 'url', 'app', 'id', 'priority', 'sound', 'group'] as const;
const METADATA_DEPTH = 3;
const TOKEN = /\{([A-Za-z0-9_.-]+)\}/g;

export function resolveFields(
  notification: Notification,
  appName: string,
  deliveredAt: string,
  more: { extra?: Record<string, string>; stackCount?: number } = {},
): Record<string, string> {
  const fields: Record<string, string> = {};
  const add = (key: string, value: string | undefined): void => {
    if (value !== undefined && value.trim() !== '' && !(key in fields)) fields[key] = value;
  };
  for (const key of PAYLOAD_KEYS) add(key, notification[key]);
  add('appName', appName);
  if (notification.metadata) flatten(notification.metadata, '', 1, add);
  for (const [key, value] of Object.entries(more.extra ?? {})) add(`extra.${key}`, value);
  add('deliveredAt', deliveredAt);
  // docs/api/templates.md#t10: `{stack.count}` is present only while the banner stands for a stack of two or more.
  if (more.stackCount !== undefined && more.stackCount >= 2) add('stack.count', String(more.stackCount));
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

/** Numbers without a trailing `.0`, booleans as `true`/`false` (docs/api/templates.md#t10). */
const formatScalar = (value: string | number | boolean): string => String(value);

/** A manifest sample as a field value: lists joined with ", ", like metadata lists. */
export function formatSample(sample: string | number | boolean | string[]): string {
  return Array.isArray(sample) ? sample.join(', ') : formatScalar(sample);
}

const TRUE_WORDS = new Set(['true', 'yes', '1']);
const FALSE_WORDS = new Set(['false', 'no', '0']);

/**
 * docs/api/templates.md#t10: with a manifest, a `number` or `bool` field sent as text is read as one ("2.0" -> "2",
 * "yes" -> "true"); text that is neither stays as it was sent.
 */
export function coerceFields(fields: Record<string, string>, manifest: Manifest | undefined): Record<string, string> {
  for (const { key, type } of manifest?.fields ?? []) {
    const value = fields[key]?.trim().toLowerCase();
    if (value === undefined) continue;
    if (type === 'number' && value !== '' && Number.isFinite(Number(value))) fields[key] = String(Number(value));
    if (type === 'bool' && TRUE_WORDS.has(value)) fields[key] = 'true';
    if (type === 'bool' && FALSE_WORDS.has(value)) fields[key] = 'false';
  }
  return fields;
}

/** Fills `{token}`s from the fields; an unknown token becomes empty and the result is trimmed. Never rescanned. */
export function fillTokens(text: string, fields: Record<string, string>): string {
  return text.replace(TOKEN, (_, key: string) => fields[key] ?? '').trim();
}

/**
 * A component's binding, resolved (docs/api/templates.md#t9): a binding with tokens is empty when every token
 * is absent or blank; otherwise absent tokens become "" and the text is trimmed. Text without tokens is itself.
 */
export function resolveBinding(binding: string, fields: Record<string, string>): { text: string; empty: boolean } {
  const tokens = [...binding.matchAll(TOKEN)].map((match) => match[1]!);
  const text = fillTokens(binding, fields);
  const empty = tokens.length > 0 ? tokens.every((token) => !fields[token]?.trim()) : text === '';
  return { text, empty: empty || text === '' };
}
