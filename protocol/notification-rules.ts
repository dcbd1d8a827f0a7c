// The rules of the notification object (docs/api/notifications.md) that span more than one field: a button has
// exactly one kind, links are http, https or mailto, the follow-up names one action of an allowed kind, the speak
// object is valid.

import { errors } from './errors.js';
import { FOLLOW_UP_AFTER_SECONDS, LANG_PATTERN, SPEECH_SPEED, VOICE_ID_PATTERN } from './limits.js';
import {
  BUTTON_KINDS,
  FOLLOW_UP_KINDS,
  type Button,
  type ButtonKind,
  type FollowUp,
  type InlineAction,
  type SpeakRequest,
} from './types.js';

const KIND_LIST = BUTTON_KINDS.join(', ');

/**
 * The app ids of agents that reach this computer through the cloud relay (docs/api/relay-connection.md#rl21): `cloud.` and the
 * key's name. The prefix is theirs alone, so what the person sees as "through the cloud relay" is true.
 */
export const RELAYED_APP_PREFIX = 'cloud.';

export const isRelayedApp = (app: string): boolean => app.startsWith(RELAYED_APP_PREFIX);

/**
 * The app ids of other programs' notifications, kept from the desktop (docs/desktop.md): `desktop.` and the
 * program's name. The prefix is theirs alone, so no sender passes its notifications off as another program's.
 */
export const DESKTOP_APP_PREFIX = 'desktop.';

export const isDesktopApp = (app: string): boolean => app.startsWith(DESKTOP_APP_PREFIX);

/**
 * A local app (POST /v1/notify, /v1/speak, /v1/register) may not take a relayed agent's id, nor another program's
 * (docs/api/apps.md#a1).
 */
export function checkLocalAppId(app: string): void {
  if (isRelayedApp(app)) throw errors.invalidField('app', `ids starting with "${RELAYED_APP_PREFIX}" belong to agents of the cloud relay`);
  if (isDesktopApp(app))
    throw errors.invalidField('app', `ids starting with "${DESKTOP_APP_PREFIX}" belong to other programs' notifications`);
}

/**
 * Lower-case ASCII words of a label joined by `-` ("Mark as Read" -> "mark-as-read"); docs/api/notifications.md#n18.
 */
export function slug(label: string): string {
  const words = label.toLowerCase().match(/[a-z0-9]+/g);
  return words ? words.join('-') : 'action';
}

/** docs/api/notifications.md#n8: only http, https and mailto links open. A web link must also name a host. */
export function isOpenableLink(link: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(link);
  } catch {
    return false;
  }
  if (parsed.protocol === 'mailto:') return true;
  return (parsed.protocol === 'http:' || parsed.protocol === 'https:') && parsed.hostname !== '';
}

export function checkLink(link: string, field: string): void {
  if (!isOpenableLink(link)) throw errors.invalidField(field, 'only http, https and mailto links can be opened');
}

/** docs/api/notifications.md#n18: a script is a plain file name in the scripts folder. */
function checkScriptName(script: string, field: string): void {
  // eslint-disable-next-line no-control-regex
  if (!script || /[/\\\u0000-\u001f]/.test(script) || script === '.' || script === '..' || script.startsWith('~')) {
    throw errors.invalidField(field, 'a plain file name in the scripts folder, not a path');
  }
}

export function buttonKind(button: Button): ButtonKind | 'dismiss' {
  return BUTTON_KINDS.find((kind) => button[kind] !== undefined) ?? 'dismiss';
}

/**
 * Brings one button to the wire form of docs/api/notifications.md#button-object and checks it. A manifest-style
 * action (`{id, label, kind}`, #n18) is accepted too: its `kind` becomes the matching field. A label alone is a
 * button that just closes the banner (#n18; docs/api-choices.md).
 */
export function normalizeButton(input: Button & { kind?: string }, field: string): Button {
  const { kind, ...button } = input;
  if (kind === 'snooze') throw errors.invalidField(field, 'a snooze is not a button an app can send; send snooze: true');
  if (kind !== undefined && kind !== 'dismiss') {
    if (!(BUTTON_KINDS as readonly string[]).includes(kind)) {
      throw errors.invalidField(`${field}.kind`, `one of ${KIND_LIST}, dismiss`);
    }
    const key = kind as ButtonKind;
    if (button[key] === undefined) {
      if (key === 'callback' || key === 'reply' || key === 'openApp') button[key] = {};
      else throw errors.invalidField(field, `a ${key} button needs its ${key} field`);
    }
  }
  const kinds = BUTTON_KINDS.filter((name) => button[name] !== undefined);
  if (kinds.length > 1) throw errors.invalidField(field, `give exactly one of ${KIND_LIST}; got ${kinds.join(', ')}`);
  if (button.url !== undefined) checkLink(button.url, `${field}.url`);
  if (button.script !== undefined) checkScriptName(button.script, `${field}.script`);
  if (button.shortcut !== undefined && (button.shortcut === '' || button.shortcut.startsWith('-'))) {
    throw errors.invalidField(`${field}.shortcut`, 'a shortcut name, not starting with -');
  }
  if (button.input !== undefined && button.shortcut === undefined && button.script === undefined) {
    throw errors.invalidField(`${field}.input`, 'input goes with a shortcut or a script');
  }
  for (const [target, path] of [
    [button.callback?.url, `${field}.callback.url`],
    [button.reply?.callback?.url, `${field}.reply.callback.url`],
  ] as const) {
    if (target !== undefined) checkCallbackURL(target, path);
  }
  return { ...button, id: button.id || slug(button.label) };
}

/** docs/api/replies.md#r9: a callback goes to an http or https URL. */
export function checkCallbackURL(target: string, field: string): void {
  let parsed: URL | null = null;
  try {
    parsed = new URL(target);
  } catch {
    // reported below
  }
  if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || !parsed.hostname) {
    throw errors.invalidField(field, 'an http or https URL');
  }
}

const DURATION = /^\s*(\d+(?:\.\d+)?)\s*(s|secs?|seconds?|m|mins?|minutes?|h|hrs?|hours?)?\s*$/i;
const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600 };

/** `90`, `90s`, `10m`, `1.5h` -> seconds (docs/api/notifications.md#n19); null when it is not a duration. */
export function parseDuration(value: number | string): number | null {
  if (typeof value === 'number') return Number.isFinite(value) && value >= 0 ? value : null;
  const match = DURATION.exec(value);
  if (!match) return null;
  const unit = (match[2] ?? 's').toLowerCase()[0]!;
  return Number(match[1]) * UNIT_SECONDS[unit]!;
}

/**
 * docs/api/notifications.md#n20 and #n21 (one action, of a kind that may follow up), and the range of `after`
 * (#n19). `actionRef` must name one of the notification's buttons (by id or label, any case) or one of the
 * manifest's actions.
 */
export type FollowUpInput = Omit<FollowUp, 'after'> & { after?: number | string };

export function checkFollowUp(followUp: FollowUpInput, offered: Button[]): FollowUp {
  if (followUp.enabled === false) return { enabled: false };
  if (followUp.after === undefined) {
    throw errors.invalidField('followUp.after', `required unless enabled is false: ${afterRange()}`);
  }
  const after = parseDuration(followUp.after);
  if (after === null) throw errors.invalidField('followUp.after', `not a duration; ${afterRange()}`);
  if (after < FOLLOW_UP_AFTER_SECONDS.min || after > FOLLOW_UP_AFTER_SECONDS.max) {
    throw errors.invalidField('followUp.after', afterRange());
  }
  if ((followUp.actionRef === undefined) === (followUp.action === undefined)) {
    throw errors.invalidField('followUp', 'give exactly one of actionRef and action');
  }
  if (followUp.action) {
    checkFollowUpKind(followUp.action.kind, 'followUp.action.kind');
    const action = followUpAction(followUp.action);
    return { after, action, ...(followUp.enabled === undefined ? {} : { enabled: followUp.enabled }) };
  }
  const wanted = followUp.actionRef!.toLowerCase();
  const target = offered.find((button) => button.id?.toLowerCase() === wanted || button.label.toLowerCase() === wanted);
  if (!target) throw errors.invalidField('followUp.actionRef', `no button or manifest action is named '${followUp.actionRef}'`);
  checkFollowUpKind(buttonKind(target), 'followUp.actionRef');
  return { after, actionRef: followUp.actionRef!, ...(followUp.enabled === undefined ? {} : { enabled: followUp.enabled }) };
}

const afterRange = (): string =>
  `after must be ${FOLLOW_UP_AFTER_SECONDS.min} to ${FOLLOW_UP_AFTER_SECONDS.max} seconds, or a duration such as 90s, 10m, 2h`;

function checkFollowUpKind(kind: string, field: string): void {
  if (!(FOLLOW_UP_KINDS as readonly string[]).includes(kind)) {
    throw errors.invalidField(field, `a follow-up cannot be a '${kind}' action; use shortcut, script, command or callback`);
  }
}

function followUpAction(action: InlineAction): InlineAction {
  const field = action.kind as (typeof FOLLOW_UP_KINDS)[number];
  const normalized: InlineAction = { ...action, id: action.id || slug(action.label) };
  if (field === 'callback') normalized.callback ??= {};
  else if (typeof normalized[field] !== 'string' || normalized[field].trim() === '') {
    throw errors.invalidField(`followUp.action.${field}`, `a ${field} action needs its ${field}`);
  }
  if (normalized.script !== undefined) checkScriptName(normalized.script, 'followUp.action.script');
  if (normalized.callback?.url !== undefined) checkCallbackURL(normalized.callback.url, 'followUp.action.callback.url');
  return normalized;
}

/**
 * docs/api/notifications.md#n30, `speak`: true speaks title and body, an object sets text, voice, speed and lang;
 * a bare string is taken as the text too. false or absent: nothing is spoken (undefined).
 */
export function normalizeSpeak(speak: unknown, field = 'speak'): SpeakRequest | undefined {
  const name = (key: string): string => (field ? `${field}.${key}` : key);
  if (speak === undefined || speak === false) return undefined;
  if (speak === true) return {};
  if (typeof speak === 'string') return { text: speak };
  if (typeof speak !== 'object' || speak === null || Array.isArray(speak)) {
    throw errors.invalidField(field, 'true, a text, or an object with text, voice, speed and lang');
  }
  const { text, voice, speed, lang } = speak as Record<string, unknown>;
  const request: SpeakRequest = {};
  if (text !== undefined) {
    if (typeof text !== 'string') throw errors.invalidField(name('text'), 'must be a string');
    request.text = text;
  }
  if (voice !== undefined) {
    if (typeof voice !== 'string' || !VOICE_ID_PATTERN.test(voice)) {
      throw errors.invalidField(name('voice'), 'invalid voice: 1 to 64 letters, digits, _, - or .');
    }
    request.voice = voice;
  }
  if (speed !== undefined) {
    if (typeof speed !== 'number' || !(speed >= SPEECH_SPEED.min && speed <= SPEECH_SPEED.max)) {
      throw errors.invalidField(name('speed'), `speed must be between ${SPEECH_SPEED.min.toFixed(1)} and ${SPEECH_SPEED.max.toFixed(1)}`);
    }
    request.speed = speed;
  }
  if (lang !== undefined) {
    if (typeof lang !== 'string' || !LANG_PATTERN.test(lang)) {
      throw errors.invalidField(name('lang'), 'invalid lang: a language code such as en-us');
    }
    request.lang = lang;
  }
  return request;
}
