// The buttons of a live banner drawn through a saved template (docs/api/templates.md#t11): the notification's own,
// else the template's default `buttons`, changed by the template's `actionRules` (hide, relabel, style, position)
// and with the actions the rules `add`. Which of them are the template's own matters: code a template carries
// needs the person's approval of that template's code (docs/api/actions.md#x4), not the app's permission.

import { normalizeButton } from '../../../protocol/notification-rules.js';
import type { Button, Notification } from '../../../protocol/types.js';
import type { ActionRule, Template, TemplateAction } from '../../../templates-renderer/model.js';

export interface LiveButton {
  button: Button;
  /** The template's name, when the action is the template's own. */
  template?: string;
  /** A template's snooze action: minutes to snooze for. */
  snoozeMinutes?: number;
}

/** The buttons a banner shows, in order; without a saved template, the notification's own. */
export function liveButtons(notification: Notification, template: Template | undefined): LiveButton[] {
  const own = (notification.buttons ?? []).map((button) => ({ button }));
  if (!template) return own;
  const fromTemplate = (action: Button | TemplateAction): LiveButton[] => {
    const live = templateAction(action, template.name);
    return live ? [live] : [];
  };
  let buttons = notification.buttons !== undefined ? own : template.buttons.flatMap(fromTemplate);
  for (const rule of template.actionRules) {
    if (rule.add) {
      const added = fromTemplate(rule.add);
      buttons = [...buttons.filter((live) => !added.some((add) => idOf(add) === idOf(live))), ...added];
    } else if (rule.match) buttons = applyRule(buttons, rule);
  }
  return buttons;
}

/** The id a banner's action goes by: the button's id, else its label. */
export const idOf = (live: LiveButton): string => live.button.id ?? live.button.label;

/** docs/api/templates.md#t11: a rule matches an action by id or label, in any case, or every action (`*`). */
function applyRule(buttons: LiveButton[], rule: ActionRule): LiveButton[] {
  const wanted = rule.match!.toLowerCase();
  const matches = (live: LiveButton): boolean =>
    wanted === '*' || idOf(live).toLowerCase() === wanted || live.button.label.toLowerCase() === wanted;
  if (rule.hide === true) return buttons.filter((live) => !matches(live));
  const changed = buttons.map((live) =>
    matches(live)
      ? {
          ...live,
          button: {
            ...live.button,
            ...(rule.relabel !== undefined ? { label: rule.relabel } : {}),
            ...(rule.style !== undefined ? { style: rule.style as Button['style'] } : {}),
          },
        }
      : live,
  );
  if (rule.position === undefined) return changed;
  const moved = changed.filter(matches);
  const rest = changed.filter((live) => !matches(live));
  rest.splice(Math.max(0, Math.min(rest.length, rule.position)), 0, ...moved);
  return rest;
}

/** An action written in a template as a banner button; one that does not fit the button form is left out. */
function templateAction(action: Button | TemplateAction, template: string): LiveButton | null {
  const { kind, snoozeMinutes, symbol: _symbol, ...button } = action as TemplateAction;
  if (kind === 'snooze') return { button: { id: button.id, label: button.label }, template, snoozeMinutes: snoozeMinutes ?? 15 };
  try {
    return { button: normalizeButton({ ...button, ...(kind !== undefined ? { kind } : {}) }, 'action'), template };
  } catch {
    return null; // the template's validator reported it when it was saved
  }
}
