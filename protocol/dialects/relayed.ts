// A dialect's notification as the cloud relay carries it (docs/senders.md, "Through the relay"; docs/relay-api.md
// RA41): the `/v1/notify` body a dialect's translation made, turned into the relay's agent notification. A relayed
// notification carries no buttons and no paths on the computer (RL21), so a link button becomes the notification's
// one link when it has none, and what cannot travel is refused in the dialect's words, never dropped.

import { ntfyErrors } from './ntfy-errors.js';

/** What the relay's agent API takes of a dialect's notification. */
export interface RelayedFields {
  title: string;
  subtitle?: string;
  body?: string;
  project?: string;
  collapseId?: string;
  showAt?: string;
  link?: string;
  priority?: string;
  persistent?: boolean;
  imageURL?: string;
  tags?: string[];
}

/** ntfy's clear or delete of a sequence id as the relay carries it: a withdrawal of that collapse id (RA44c). */
export interface RelayedWithdrawal {
  withdraw: 'clear' | 'delete';
  collapseId: string;
}

export const relayedWithdrawal = (sequenceId: string, event: 'message_clear' | 'message_delete'): RelayedWithdrawal => ({
  withdraw: event === 'message_clear' ? 'clear' : 'delete',
  collapseId: sequenceId,
});

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);

/**
 * The relay's notification of a translated `/v1/notify` body. `topic` (ntfy's) is shown as the subtitle and kept as
 * the project, beside the key's name the computer shows as the app. ntfy's sequence id is the collapse id (a later
 * one takes the place of the earlier on the computer, RA44a); a delayed publish is shown at `showAt` (RA44b).
 */
export function relayedNotification(notify: Record<string, unknown>, topic?: string, showAt?: Date): RelayedFields {
  let link = text(notify.url);
  for (const button of (notify.buttons as Array<Record<string, unknown>> | undefined) ?? []) {
    const url = text(button.url);
    if (url === undefined) {
      throw ntfyErrors.actionsInvalid(
        `the button "${String(button.label)}" sends a request: a notification through the relay carries no buttons`,
      );
    }
    if (link !== undefined && link !== url) {
      throw ntfyErrors.actionsInvalid(`a notification through the relay carries one link, and "${String(button.label)}" would be a second`);
    }
    link = url;
  }
  const image = text(notify.image);
  const tags = (notify.metadata as { tags?: unknown } | undefined)?.tags;
  return {
    title: String(notify.title),
    ...(topic !== undefined ? { subtitle: topic, project: topic } : {}),
    ...(text(notify.body) !== undefined ? { body: text(notify.body) } : {}),
    ...(text(notify.id) !== undefined ? { collapseId: text(notify.id) } : {}),
    ...(showAt !== undefined ? { showAt: showAt.toISOString() } : {}),
    ...(link !== undefined ? { link } : {}),
    ...(text(notify.priority) !== undefined ? { priority: text(notify.priority) } : {}),
    ...(notify.persistent === true ? { persistent: true } : {}),
    ...(image?.startsWith('https://') ? { imageURL: image } : {}),
    ...(Array.isArray(tags) && tags.length > 0 ? { tags: tags as string[] } : {}),
  };
}
