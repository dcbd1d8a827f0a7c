// What waits for the person's answer, kept current by the daemon's `approvals` event: the Approvals page, the count
// next to its link, the questions shown on a notification's details and the connector requests on the Relay page
// all read this one model, so an answer given on a banner, in the tray or here shows everywhere at once.

import { computed, createModel, signal } from '@preact/signals';
import { appPaths } from '../../../protocol/app-api.js';
import type { ApprovalsAnswer } from '../../../protocol/app-api-approvals.js';
import { type LiveEvents, type Requests, whileAlive } from './dependencies.js';

export const ApprovalsModel = createModel((api: Requests, events: LiveEvents) => {
  const current = signal<ApprovalsAnswer | null>(null);
  const error = signal('');
  /**
   * `approvals` events received. Every change sends one with the whole state, in order on one stream, so once an
   * event has come after a read went out, the events say at least as much as that read's answer (a later change's
   * event is on its way behind it): the answer, which may be older than the event, is not shown.
   */
  let eventsReceived = 0;

  async function load(): Promise<void> {
    const before = eventsReceived;
    try {
      const answer = await api.call<ApprovalsAnswer>('GET', appPaths.approvals);
      if (eventsReceived === before) current.value = answer;
      error.value = '';
    } catch (problem) {
      error.value = (problem as Error).message;
    }
  }

  whileAlive(
    () =>
      events.on('approvals', (answer) => {
        eventsReceived += 1;
        current.value = answer;
      }),
    () => events.onOpen(() => void load()),
  );
  return {
    current,
    error,
    /** Questions and connector requests waiting: the number next to the Approvals link. */
    waiting: computed(() => (current.value ? current.value.questions.length + current.value.connectors.length : 0)),
    load,
  };
});
export type ApprovalsModel = InstanceType<typeof ApprovalsModel>;
