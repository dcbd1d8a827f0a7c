// POST /v1/notify, the part of the prepare step that needs no I/O: check the notification against its rules in the
// order docs/api/notifications.md#n34 gives, and draw it through its template (prepare.ts calls it).

import { errors } from '../../../protocol/errors.js';
import { MAX_BUTTONS, NOTIFY_FIELD_BYTES } from '../../../protocol/limits.js';
import type { ChosenTemplate, Designs } from '../templates/designs.js';
import { type FollowUpInput, checkFollowUp, checkLink, normalizeButton, normalizeSpeak } from '../../../protocol/notification-rules.js';
import { applyTemplateDefaults, type DrawContext } from '../templates/template-defaults.js';
import type { Button, Manifest, Notification } from '../../../protocol/types.js';

/** A notification as the HTTP layer hands it over: types checked, unknown keys already moved into metadata. */
export type NotificationInput = Omit<Notification, 'id' | 'speak' | 'followUp' | 'buttons'> & {
  id?: string;
  speak?: unknown;
  followUp?: FollowUpInput;
  buttons?: Array<Button & { kind?: string }>;
};

/** Checks a notification and draws it; throws the service's 400 or 413 for the first problem found. */
export function checkNotification(input: NotificationInput, id: string, designs: Designs, context: DrawContext): Notification {
  const template = designs.chooseTemplate(input as Notification);
  requireTitle(input, template);
  const speak = normalizeSpeak(input.speak);
  if (input.url !== undefined) checkLink(input.url, 'url');
  checkReminder(input.reminder);
  const manifest = designs.manifest(input.app);
  const buttons = chooseButtons(input, manifest);
  const followUp = input.followUp && checkFollowUp(input.followUp, [...buttons, ...manifestButtons(manifest)]);
  checkSizes(input);

  const { app, actionIds: _ids, speak: _speak, followUp: _followUp, buttons: _buttons, ...sent } = input;
  const drawn: Notification = { app, id, ...sent };
  if (buttons.length > 0 || input.buttons !== undefined) drawn.buttons = buttons;
  if (followUp) drawn.followUp = followUp;
  if (speak) drawn.speak = speak;
  if (template.saved) applyTemplateDefaults(drawn, template.saved, { ...context, ...(manifest ? { manifest } : {}) });
  drawn.template = template.name;
  return drawn;
}

/** docs/api/notifications.md#n5: 400 when there is no title and no template supplying one. */
function requireTitle(input: NotificationInput, template: ChosenTemplate): void {
  if (input.title || template.saved?.title) return;
  if (template.wanted === undefined) throw errors.missingField('title');
  throw errors.missingField('title', `template ${template.wanted} has none or does not exist`);
}

function checkReminder(reminder: NotificationInput['reminder']): void {
  if (reminder?.due !== undefined && Number.isNaN(Date.parse(reminder.due))) {
    throw errors.invalidField('reminder.due', 'an ISO 8601 date');
  }
}

/**
 * docs/api/notifications.md#n15: `buttons: []` means no buttons even when the manifest declares actions; when `buttons` is
 * omitted, `actionIds` name actions of the manifest (any case; unknown ids are skipped).
 */
function chooseButtons(input: NotificationInput, manifest: Manifest | undefined): Button[] {
  if (input.buttons !== undefined) {
    if (input.buttons.length > MAX_BUTTONS) throw errors.tooManyButtons();
    return input.buttons.map((button, index) => normalizeButton(button, `buttons[${index}]`));
  }
  if (!input.actionIds?.length || !manifest) return [];
  const offered = manifestButtons(manifest);
  const chosen = input.actionIds
    .map((id) => offered.find((action) => action.id?.toLowerCase() === id.toLowerCase()))
    .filter((action) => action !== undefined);
  if (chosen.length > MAX_BUTTONS) throw errors.tooManyButtons();
  return chosen;
}

/** A manifest's actions in the notification's button form; one that does not fit the form is left out. */
function manifestButtons(manifest: Manifest | undefined): Button[] {
  const buttons: Button[] = [];
  (manifest?.actions ?? []).forEach((action, index) => {
    try {
      buttons.push(normalizeButton({ ...action, label: action.label ?? action.id ?? '' }, `actions[${index}]`));
    } catch {
      // A broken manifest action is the manifest's problem (its route validates it); it is simply not offered.
    }
  });
  return buttons;
}

const SIZE_LIMITS = Object.entries(NOTIFY_FIELD_BYTES).map(([field, limit]) => ({ field, path: field.split('.'), limit }));

/** docs/api/notifications.md#n33: UTF-8 bytes per field; metadata and buttons as encoded JSON. */
function checkSizes(input: NotificationInput): void {
  for (const { field, path, limit } of SIZE_LIMITS) {
    const value = path.reduce<unknown>((object, key) => (object as Record<string, unknown> | undefined)?.[key], input);
    if (value === undefined) continue;
    // A string's UTF-8 length is at most 3 bytes per UTF-16 unit: most values are far below and need no count.
    const text = typeof value === 'string' ? value : JSON.stringify(value);
    if (text.length * 3 > limit && Buffer.byteLength(text, 'utf8') > limit) throw errors.fieldTooLarge(field, limit);
  }
}
