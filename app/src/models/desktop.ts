// Other programs' notifications in History (GET and PUT /app/api/settings/desktop): whether they are kept, what
// watching the desktop's notifications is doing, and what is kept of each program seen. Settings shows and changes
// all of it; History's first-run view offers to turn it on. The person's alone: nothing of it is on the API token.

import { createModel, effect, signal } from '@preact/signals';
import {
  type DesktopAnswer,
  type DesktopProgram,
  type DesktopProgramRequest,
  type DesktopRequest,
  settingsPaths,
} from '../../../protocol/app-api-settings.js';
import type { ProgramKeep } from '../../../protocol/desktop-programs.js';
import type { Clock, LiveEvents, Requests } from './dependencies.js';
import { inOrder, inOrderBy } from './in-order.js';

/** While the watch is starting, it is read again this often (it is on, or refused, within a second or two). */
const STARTING_READ_MS = 700;

export const DesktopModel = createModel((api: Requests, events: LiveEvents, clock: Clock) => {
  const answer = signal<DesktopAnswer | null>(null);
  // Read while starting, and changed: answers that can come back out of order, of which the newest stays.
  const answerInOrder = inOrder();
  const programInOrder = inOrderBy();

  async function load(): Promise<void> {
    await answerInOrder(api.call<DesktopAnswer>('GET', settingsPaths.desktop), (read) => (answer.value = read));
  }

  return {
    answer,
    load,
    /** Turns keeping on or off; the answer says what the watch does now. */
    setKeep(keep: boolean): Promise<DesktopAnswer> {
      const change = api.call<DesktopAnswer, DesktopRequest>('PUT', settingsPaths.desktop, { keep });
      return answerInOrder(change, (changed) => (answer.value = changed));
    },
    /** What is kept of one program from now on; throws the API's refusal. */
    async setProgramKeep(app: string, keep: ProgramKeep): Promise<void> {
      const change = api.call<DesktopProgram, DesktopProgramRequest>('PUT', settingsPaths.desktopProgram(app), { keep });
      await programInOrder(app)(change, (changed) => {
        const current = answer.value;
        if (current) answer.value = { ...current, programs: current.programs.map((program) => (program.app === app ? changed : program)) };
      });
    },
    /**
     * While a view shows it: read again while the watch is starting (no event says when it is on), and when a
     * program not listed yet has its first notification kept. The answer stops following.
     */
    follow(): () => void {
      // Each answer read starts the next wait (the effect's cleanup cancels the one before).
      const stopPolling = effect(() =>
        answer.value?.monitor.state === 'starting' ? clock.after(STARTING_READ_MS, () => void load().catch(() => undefined)) : undefined,
      );
      const stopRows = events.on('row', ({ row }) => {
        if (row.state.program && answer.value && !answer.value.programs.some((program) => program.app === row.app))
          void load().catch(() => undefined);
      });
      return () => {
        stopPolling();
        stopRows();
      };
    },
  };
});
export type DesktopModel = InstanceType<typeof DesktopModel>;
