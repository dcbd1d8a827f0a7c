// What waits for the person's answer, kept current by the daemon's `approvals` event: the Approvals page, the
// count next to its link, and the questions shown on a notification's details all read this one signal, so an
// answer given on a banner, in the tray or here shows everywhere at once.

import { computed, signal } from '@preact/signals';
import { appPaths, type ApprovalsAnswer } from '../../../protocol/app-api.js';
import { call } from '../api.js';
import { onEvent, onStreamOpen } from '../live.js';

export const approvals = signal<ApprovalsAnswer | null>(null);
export const approvalsError = signal('');

/** Questions and connector requests waiting: the number next to the Approvals link. */
export const waitingCount = computed(() => (approvals.value ? approvals.value.questions.length + approvals.value.connectors.length : 0));

export async function loadApprovals(): Promise<void> {
  try {
    approvals.value = await call<ApprovalsAnswer>('GET', appPaths.approvals);
    approvalsError.value = '';
  } catch (error) {
    approvalsError.value = (error as Error).message;
  }
}

export function followApprovals(): void {
  onEvent('approvals', (answer) => (approvals.value = answer));
  onStreamOpen(() => void loadApprovals());
}
