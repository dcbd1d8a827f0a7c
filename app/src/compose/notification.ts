// The notification a Compose draft describes (the draft itself is the compose model's, models/compose.ts).

import { type ComposeRequest } from '../../../protocol/app-api.js';
import type { Draft } from '../models/compose.js';

/**
 * The notification the draft describes: only what was filled in. The reply field is a reply button (after the
 * link buttons: errors about `buttons[i]` point at the i-th row of the form); template fields are top-level keys.
 */
export function toNotification(current: Draft, fieldKeys: readonly string[]): ComposeRequest {
  const notification: ComposeRequest = { app: current.app };
  for (const key of fieldKeys) {
    const value = current.fields[key];
    if (value) notification[key] = value;
  }
  if (current.template) notification.template = current.template;
  if (current.title) notification.title = current.title;
  if (current.subtitle) notification.subtitle = current.subtitle;
  if (current.body) notification.body = current.body;
  if (current.link) notification.url = current.link;
  const buttons: NonNullable<ComposeRequest['buttons']> = current.buttons.map((button) =>
    button.link ? { label: button.label, url: button.link } : { label: button.label },
  );
  if (current.askReply) buttons.push({ label: 'Reply', reply: current.replyPlaceholder ? { placeholder: current.replyPlaceholder } : {} });
  if (buttons.length > 0) notification.buttons = buttons;
  if (current.speak) notification.speak = {};
  if (current.sound !== 'default') notification.sound = current.sound;
  if (current.priority !== 'normal') notification.priority = current.priority;
  return notification;
}
