// What the person is writing in Compose. It lives outside the page, so going to another page and back, or an error
// from the daemon, never loses a word; only "New notification" clears it.

import { createModel, signal } from '@preact/signals';
import { OWN_APP } from '../../../protocol/app-api.js';
import type { PRIORITIES } from '../../../protocol/types.js';

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

export const ComposeModel = createModel(() => {
  const draft = signal<Draft>(EMPTY_DRAFT);
  let nextKey = 1;
  return {
    draft,
    /** A change, or a function of the draft as it is now (not as the page last drew it: two edits can come before a redraw). */
    edit(change: Partial<Draft> | ((now: Draft) => Partial<Draft>)): void {
      draft.value = { ...draft.value, ...(typeof change === 'function' ? change(draft.value) : change) };
    },
    clear(): void {
      draft.value = EMPTY_DRAFT;
    },
    newButton: (): DraftButton => ({ key: nextKey++, label: '', link: '' }),
  };
});
export type ComposeModel = InstanceType<typeof ComposeModel>;
