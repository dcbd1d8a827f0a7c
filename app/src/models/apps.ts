// The apps that sent something (GET /app/api/apps): History's app filter and pictures, Compose's "Send as", the
// counts in Settings. Asked for again when the event stream opens, and once a burst of rows of an app not known yet
// is over.

import { createModel, signal } from '@preact/signals';
import { appPaths, type AppsAnswer, type AppSummary } from '../../../protocol/app-api.js';
import { type Clock, type LiveEvents, type Requests, whileAlive } from './dependencies.js';
import { inOrder } from './in-order.js';

/** A burst of rows of new apps becomes one read of the apps, this long after the last of them. */
const BURST_WAIT_MS = 50;

export const AppsModel = createModel((api: Requests, events: LiveEvents, clock: Clock) => {
  const apps = signal<AppSummary[]>([]);
  let cancelLater = (): void => undefined;
  /** Read on several occasions at once (the stream opening, Settings, a burst of new apps): the newest read stays. */
  const readsInOrder = inOrder();

  async function load(): Promise<void> {
    try {
      await readsInOrder(api.call<AppsAnswer>('GET', appPaths.apps), (answer) => (apps.value = answer.apps));
    } catch {
      // the app filter lists what it knows; History itself still works
    }
  }

  /** A row of an app not known yet: its name, icon and count come with the apps, asked for once the burst is over. */
  function learn(app: string): void {
    if (apps.value.some((known) => known.app === app)) return;
    cancelLater();
    cancelLater = clock.after(BURST_WAIT_MS, () => void load());
  }

  whileAlive(
    () => events.on('row', ({ row }) => learn(row.app)),
    () => events.onOpen(() => void load()),
  );
  return { apps, load };
});
export type AppsModel = InstanceType<typeof AppsModel>;
