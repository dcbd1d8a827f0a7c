// What Compose says when the daemon refuses the notification: next to the field the error names, what to do, in
// the form's own words ("Give button 1 a label."), not the API's ("invalid field: buttons[0].label (…)"). The
// API's message stays the last resort, for a refusal the form cannot foresee.

import type { TemplateFieldDescription } from '../../../protocol/app-api.js';
import { MAX_BUTTONS } from '../../../protocol/limits.js';
import type { Draft } from '../models/compose.js';
import { ApiProblem, messageOf, sentence } from '../models/requests.js';
import type { Problem } from '../ui/fields.js';

const LINK_ADVICE = 'Use a web address that starts with https:// or http://, or mailto: for an email address.';

/** The controls of the top-level fields, and what to say when one is left empty. */
const CONTROLS: Record<string, { id: string; empty?: string }> = {
  app: { id: 'compose-app' },
  template: { id: 'compose-template' },
  title: { id: 'compose-title', empty: 'Give the notification a title.' },
  subtitle: { id: 'compose-subtitle' },
  body: { id: 'compose-body', empty: 'Write what the notification says.' },
  url: { id: 'compose-link' },
  speak: { id: 'compose-speak' },
  sound: { id: 'compose-sound' },
  priority: { id: 'compose-priority' },
};

/** A refusal as the form shows it: the control it is about ('' for the whole form) and what to do. */
export function problemOf(error: unknown, current: Draft, templateFields: readonly TemplateFieldDescription[]): Problem {
  if (!(error instanceof ApiProblem)) return { control: '', message: messageOf(error) };
  const { code, field = '' } = error;
  const empty = code === 'missing_field' || (code === 'invalid_field' && error.reason === 'a non-empty string');
  if (code === 'too_many_buttons') {
    return { control: '', message: `A notification has ${MAX_BUTTONS} buttons at most; “Ask for a reply” adds one.` };
  }
  const button = /^buttons\[(\d+)\](?:\.(\w+))?/.exec(field);
  if (button) {
    const row = current.buttons[Number(button[1])];
    if (!row) return { control: 'compose-reply', message: sentence(error.message) }; // the reply button, after the rows
    const number = Number(button[1]) + 1;
    if (button[2] === 'url') return { control: `button-link-${row.key}`, message: `Button ${number}: ${LINK_ADVICE}` };
    return { control: `button-label-${row.key}`, message: empty ? `Give button ${number} a label.` : sentence(error.message) };
  }
  const top = field.split(/[.[]/)[0]!;
  if (top === 'url') return { control: 'compose-link', message: LINK_ADVICE };
  const known = CONTROLS[top];
  if (known) return { control: known.id, message: empty && known.empty ? known.empty : sentence(error.message) };
  const templateField = templateFields.find((shown) => shown.key === top);
  if (templateField) {
    const label = templateField.label || templateField.key;
    return { control: `field-${top}`, message: empty ? `Fill in “${label}”.` : sentence(error.message) };
  }
  return { control: '', message: sentence(error.message) };
}
