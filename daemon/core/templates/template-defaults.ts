// What a saved template supplies to a notification that leaves it out (docs/api/notifications.md#n6, #n7): the
// notify pipeline's prepare step and the previews draw through it alike.

import { coerceFields, fillTokens, resolveFields } from '../../../protocol/fields.js';
import { isOpenableLink } from '../../../protocol/notification-rules.js';
import type { Manifest, Notification } from '../../../protocol/types.js';
import type { Template } from '../../../templates-renderer/model.js';

/** What a template's tokens are filled with besides the notification's own fields. */
export interface DrawContext {
  appName: string;
  deliveredAt: string;
  /** The app's manifest: its number and bool fields are read as such (docs/api/templates.md#t10). */
  manifest?: Manifest;
}

/** The defaults a saved template may supply; the sender's own values always win and are never token-filled. */
const TEMPLATE_TEXT_DEFAULTS = ['title', 'subtitle', 'body', 'image', 'url', 'sound'] as const;
const TEMPLATE_VALUE_DEFAULTS = ['priority', 'persistent', 'timeout', 'snooze', 'accentColor'] as const;

/**
 * docs/api/notifications.md#n6 and #n7: a saved template fills what the sender left out, its texts with the
 * sender's `{tokens}` filled in (without a saved template the built-in layout draws the sender's values).
 */
export function applyTemplateDefaults(drawn: Notification, template: Template, context: DrawContext): void {
  const fields = coerceFields(resolveFields(drawn, context.appName, context.deliveredAt, { extra: template.extra }), context.manifest);
  const sentURL = drawn.url;
  for (const key of TEMPLATE_TEXT_DEFAULTS) {
    const value = template[key];
    if (drawn[key] === undefined && typeof value === 'string') {
      const filled = fillTokens(value, fields);
      if (filled !== '') drawn[key] = filled;
    }
  }
  for (const key of TEMPLATE_VALUE_DEFAULTS) {
    if (drawn[key] === undefined && template[key] !== undefined) (drawn as unknown as Record<string, unknown>)[key] = template[key];
  }
  // A template's link that cannot be opened is the template's problem, not the sender's: it is left out.
  if (drawn.url !== undefined && !sentURL && !isOpenableLink(drawn.url)) delete drawn.url;
}
