// What the person is writing in Compose. It lives outside the page, so going to another page and back, or an
// error from the daemon, never loses a word; only "New notification" clears it.

import { signal } from '@preact/signals';
import { PRIORITIES } from '../../../protocol/types.js';
import { type ComposeRequest, OWN_APP } from '../../../protocol/app-api.js';

export interface DraftButton {
  /** Stable across edits, for the list's keys and the fields' ids. */
  key: number;
  label: string;
  link: string;
}

export interface Draft {
  app: string;
  template: string;
  title: string;
  subtitle: string;
  body: string;
  link: string;
  buttons: DraftButton[];
  askReply: boolean;
  replyPlaceholder: string;
  speak: boolean;
  sound: 'default' | 'none';
  priority: (typeof PRIORITIES)[number];
  /** The template's own fields, by key. */
  fields: Record<string, string>;
}

export const EMPTY_DRAFT: Draft = {
  app: OWN_APP,
  template: '',
  title: '',
  subtitle: '',
  body: '',
  link: '',
  buttons: [],
  askReply: false,
  replyPlaceholder: '',
  speak: false,
  sound: 'default',
  priority: 'normal',
  fields: {},
};

export const draft = signal<Draft>(EMPTY_DRAFT);

let nextKey = 1;
export const newButton = (): DraftButton => ({ key: nextKey++, label: '', link: '' });

export function edit(change: Partial<Draft>): void {
  draft.value = { ...draft.value, ...change };
}

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
