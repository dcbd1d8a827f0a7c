// A template's actions (docs/api/templates.md#t11), with the button rules of docs/api/notifications.md#n18
// (normalizeButton): an action given whole or by id, an action rule, a button, and the actions a template offers.

import { normalizeButton, slug } from '../protocol/notification-rules.js';
import type { Button, ButtonKind } from '../protocol/types.js';
import type { Template, TemplateAction } from './model.js';
import { KIND_INFERENCE_ORDER, objectDefinition, type ActionKind } from './schema.js';
import { isPlainObject, readObject, tokensIn, type Context, type Json, type ReaderFn, type Report } from './validate-kit.js';

const KIND_FIELDS = ['url', 'callback', 'command', 'script', 'shortcut', 'openApp', 'reply'] as const;

export const readActionOrId: ReaderFn<TemplateAction | string | undefined> = (spec, value, path, key, report, context) => {
  if (typeof value === 'string') {
    if (value.trim() === '') {
      report.error(path, `${key} must be an action object or the id of an action`);
      return undefined;
    }
    return value;
  }
  return readAction(value, path, key, report, context);
};

export function readAction(value: unknown, path: string, key: string, report: Report, context: Context): TemplateAction | undefined {
  if (!isPlainObject(value)) {
    report.error(path, `${key} must be an action object with a label and a kind`);
    return undefined;
  }
  const errorsBefore = report.errors.length;
  const read = readObject(objectDefinition('action'), value, path, key, report, context);
  if (report.errors.length > errorsBefore) return undefined;

  const label = read.label as string;
  const kind = (read.kind as ActionKind | undefined) ?? inferKind(read);
  if (kind === undefined) {
    report.error(`${path}.kind`, "an action needs a 'kind'");
    return undefined;
  }
  if (value.style === 'prominent') report.warn(`${path}.style`, 'prominent is drawn as the default style');

  const given = KIND_FIELDS.filter((field) => read[field] !== undefined);
  if (kind === 'dismiss' || kind === 'snooze') {
    for (const field of given) {
      report.warn(`${path}.${field}`, `${field} is not used by a ${kind} action`);
      delete read[field];
    }
    if ('input' in read) {
      report.warn(`${path}.input`, `input is not used by a ${kind} action`);
      delete read.input;
    }
  } else {
    const field = kind as ButtonKind;
    const text = read[field];
    if (typeof text === 'string' && text.trim() === '') {
      report.error(`${path}.${field}`, `a ${field} action needs its ${field}`);
      return undefined;
    }
  }
  if (read.snoozeMinutes !== undefined && kind !== 'snooze') {
    report.warn(`${path}.snoozeMinutes`, 'snoozeMinutes is only read by a snooze action');
    delete read.snoozeMinutes;
  }
  const { kind: _kind, snoozeMinutes, symbol, ...fields } = read;
  void _kind;
  let button: Button;
  if (kind === 'dismiss' || kind === 'snooze')
    button = { ...(fields as unknown as Button), id: (fields.id as string | undefined) || slug(label) };
  else {
    const normalized = normalizeWithLinkTokens({ ...(fields as unknown as Button), kind }, path, report);
    if (!normalized) return undefined;
    button = normalized;
  }
  return {
    ...button,
    id: button.id!,
    kind,
    ...(snoozeMinutes !== undefined ? { snoozeMinutes: snoozeMinutes as number } : {}),
    ...(symbol !== undefined ? { symbol: symbol as string } : {}),
  };
}

function inferKind(action: Json): ActionKind | undefined {
  return KIND_INFERENCE_ORDER.find((field) => action[field] !== undefined);
}

/**
 * normalizeButton (docs/api/notifications.md#n18) with the template's link rule: a url with `{tokens}` was checked
 * already (isTemplateLink) and cannot be parsed before its tokens are filled, so a stand-in link goes through the
 * shared rules.
 */
function normalizeWithLinkTokens(button: Button & { kind?: string }, path: string, report: Report): Button | undefined {
  const url = button.url;
  const standIn = url !== undefined && tokensIn(url).length > 0 ? { ...button, url: 'https://example.com/' } : button;
  try {
    const normalized = normalizeButton(standIn, path);
    return url === undefined ? normalized : { ...normalized, url };
  } catch (error) {
    report.fromApiError(error, path);
    return undefined;
  }
}

export const readActionRule: ReaderFn<unknown> = (spec, value, path, key, report, context) => {
  if (!isPlainObject(value)) {
    report.error(path, "a rule must be an object with a 'match' or an 'add'");
    return undefined;
  }
  const rule = readObject(objectDefinition('actionRule'), value, path, key, report, context);
  const match = typeof rule.match === 'string' && rule.match.trim() !== '';
  if (match && rule.hide === true && (rule.relabel !== undefined || rule.style !== undefined || rule.position !== undefined)) {
    report.warn(path, 'hide: true removes the action, so relabel, style and position have no effect');
  }
  const changes = ['hide', 'relabel', 'style', 'position', 'symbol', 'add'].some((name) => rule[name] !== undefined);
  if (match && !changes)
    report.warn(path, `the rule matches '${rule.match as string}' but changes nothing (set hide, relabel, style, symbol, position or add)`);
  return rule;
};

export const readButton: ReaderFn<Button | undefined> = (spec, value, path, key, report, context) => {
  if (!isPlainObject(value)) {
    report.error(path, 'a button must be an object with a label');
    return undefined;
  }
  const errorsBefore = report.errors.length;
  const read = readObject(objectDefinition('button'), value, path, key, report, context);
  if (report.errors.length > errorsBefore) return undefined;
  const button = normalizeWithLinkTokens(read as unknown as Button, path, report);
  if (button?.command !== undefined) {
    report.warn(
      `${path}.command`,
      "a default button that runs a shell command is the template's own code: the person confirms it once, and again when it changes; prefer an actionRules 'add'",
    );
  }
  return button;
};

/** Every button and action the template itself offers: legacy buttons, rule adds, inline component actions. */
export function offeredByTemplate(template: Template): Button[] {
  const offered: Button[] = [...(Array.isArray(template.buttons) ? template.buttons : [])];
  for (const rule of Array.isArray(template.actionRules) ? template.actionRules : []) if (rule?.add) offered.push(rule.add);
  for (const cell of Array.isArray(template.cells) ? template.cells : []) {
    const component = cell?.component;
    if (component && 'action' in component && isPlainObject(component.action)) offered.push(component.action as TemplateAction);
  }
  return offered;
}
