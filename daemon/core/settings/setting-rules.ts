import { errors } from '../../../protocol/errors.js';
import { LANG_PATTERN, VOICE_ID_PATTERN } from '../../../protocol/limits.js';

// One way to describe and check a setting, shared by the global settings (PUT /v1/settings) and the per-app
// settings (PUT /v1/apps/settings). docs/api/settings.md gives the schema entry's shape (#get-v1-settings) and the messages (#s3).

export type SettingType = 'boolean' | 'integer' | 'number' | 'string' | 'choice';

export interface SettingRule {
  key: string;
  type: SettingType;
  description: string;
  group?: string;
  min?: number;
  max?: number;
  /** `choice`: the allowed values. */
  values?: readonly string[];
  /** `string`: the most bytes (UTF-8) it may have. */
  maxLength?: number;
  /** `string`: a stricter check than the length, with the message when it fails. */
  pattern?: { test: RegExp; message: string };
  /** `null` is a value (meaning "not set": follow the default). */
  nullable?: boolean;
  /** Changing it restarts the HTTP server (the port). */
  restartsServer?: boolean;
}

/** The schema entry of a rule as the GET routes show it (no pattern: its message says what it wants). */
export function describeRule(rule: SettingRule): Record<string, unknown> {
  const { pattern: _pattern, ...shown } = rule;
  return shown;
}

/** Why a value does not fit its rule (the reason of `invalid value for K: ...`), or null when it fits. */
export function ruleProblem(rule: SettingRule, value: unknown): string | null {
  const why = ((): string | null => {
    if (value === null) return rule.nullable ? null : 'null is not allowed';
    switch (rule.type) {
      case 'boolean':
        return typeof value === 'boolean' ? null : 'true or false';
      case 'integer':
        return Number.isInteger(value) && inRange(rule, value as number) ? null : `an integer from ${rule.min} to ${rule.max}`;
      case 'number':
        return typeof value === 'number' && Number.isFinite(value) && inRange(rule, value)
          ? null
          : `a number from ${rule.min} to ${rule.max}`;
      case 'choice':
        return typeof value === 'string' && rule.values!.includes(value) ? null : `one of ${rule.values!.join(', ')}`;
      case 'string':
        if (typeof value !== 'string' || value === '' || Buffer.byteLength(value, 'utf8') > (rule.maxLength ?? Infinity)) {
          return `a non-empty string of at most ${rule.maxLength} bytes`;
        }
        return rule.pattern && !rule.pattern.test.test(value) ? rule.pattern.message : null;
    }
  })();
  return why;
}

const inRange = (rule: SettingRule, value: number): boolean =>
  (rule.min === undefined || value >= rule.min) && (rule.max === undefined || value <= rule.max);

/**
 * Checks a whole change against a table, all or nothing: keys in sorted order, the first problem is a 400 naming
 * its key. Returns the keys to apply, sorted.
 */
export function checkChange(rules: readonly SettingRule[], change: Record<string, unknown>, example: string): string[] {
  const keys = Object.keys(change).sort();
  if (keys.length === 0) throw errors.noSettingsGiven(example);
  const byKey = new Map(rules.map((rule) => [rule.key, rule]));
  for (const key of keys) {
    const rule = byKey.get(key);
    if (!rule) throw errors.unknownSetting(key, [...byKey.keys()].sort());
    const problem = ruleProblem(rule, change[key]);
    if (problem) throw errors.invalidSetting(key, problem);
  }
  return keys;
}

/** docs/api/settings.md#s1: the voice and language settings are checked like a notification's `speak` (docs/api/voice.md#v3). */
export const VOICE_RULE_PATTERN = { test: VOICE_ID_PATTERN, message: 'not a valid voice name' };
export const LANG_RULE_PATTERN = { test: LANG_PATTERN, message: 'not a valid language code' };
