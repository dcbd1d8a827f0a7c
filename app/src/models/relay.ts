// What the Relay page shows, fetched from `/app/api/relay/…` while it is open. The pairing's state is read again
// every STATUS_POLL_MS (the event stream says nothing of the socket); the lists, which each cost a call to the relay,
// when something says they changed: a connector request answered (the `approvals` event), a notification from a
// relay key (a `row` of a `cloud.` app: its key was used), the stream reopened, or the person's own change.

import { createModel, type Signal, signal } from '@preact/signals';
import {
  relayPaths,
  type RelayConnectorsAnswer,
  type RelayEventsAnswer,
  type RelayKeysAnswer,
  type RelayStatusAnswer,
  type RelayUsageAnswer,
} from '../../../protocol/app-api-relay.js';
import type { Clock, LiveEvents, Requests } from './dependencies.js';
import { inOrder, inOrderBy } from './in-order.js';
import { messageOf } from './requests.js';

/** How often the page reads the pairing's state while it is open: a local read, no call to the relay. */
const STATUS_POLL_MS = 5000;
/** Right after pairing the socket comes up within a second or two: read the state this often, this many times. */
const SOON_POLL_MS = 1000;
const SOON_POLLS = 5;
/** The lists are read again at most this often on events (a burst of relayed notifications costs one read). */
const LISTS_SETTLE_MS = 1000;
/** Apps of agents that send through the relay are `cloud.<key name>` (docs/api/relay-connection.md#rl21). */
const CLOUD_APP_PREFIX = 'cloud.';

/** One list of the relay: its answer, or why it could not be read. */
export interface Loaded<T> {
  answer: T | null;
  error: string;
}
const empty = <T>(): Loaded<T> => ({ answer: null, error: '' });

export const RelayModel = createModel((api: Requests, events: LiveEvents, clock: Clock, page: Pick<Document, 'visibilityState'>) => {
  const status = signal<RelayStatusAnswer | null>(null);
  const statusError = signal('');
  /** When this page saw the socket's state change (it is not known before the page was opened). */
  const stateChangedAt = signal<string | null>(null);
  const keys = signal<Loaded<RelayKeysAnswer>>(empty());
  const connectors = signal<Loaded<RelayConnectorsAnswer>>(empty());
  const usage = signal<Loaded<RelayUsageAnswer>>(empty());
  const subscriptions = signal<Loaded<RelayEventsAnswer>>(empty());
  let cancelSettle = (): void => undefined;
  // The state is polled and the lists read again on events: an earlier read answered late never replaces a later one.
  const statusInOrder = inOrder();
  const listInOrder = inOrderBy();

  function showStatus(answer: RelayStatusAnswer): void {
    const before = status.value;
    if (before && before.state !== answer.state) stateChangedAt.value = new Date(clock.now()).toISOString();
    status.value = answer;
    statusError.value = '';
    // Paired since the last read (here, from the CLI, in another window): the lists are there to read now.
    if (before && answer.paired && !before.paired) void loadLists();
    if (!answer.paired) forgetLists();
  }

  async function loadStatus(): Promise<RelayStatusAnswer | null> {
    try {
      return await statusInOrder(api.call<RelayStatusAnswer>('GET', relayPaths.status), showStatus);
    } catch (error) {
      statusError.value = messageOf(error);
      return null;
    }
  }

  async function load<T>(target: Signal<Loaded<T>>, path: string): Promise<void> {
    try {
      await listInOrder(path)(api.call<T>('GET', path), (answer) => (target.value = { answer, error: '' }));
    } catch (error) {
      target.value = { answer: target.value.answer, error: messageOf(error) }; // what was read before stays shown
    }
  }

  const loadKeys = (): Promise<void> => load(keys, relayPaths.keys);
  const loadConnectors = (): Promise<void> => load(connectors, relayPaths.connectors);
  const loadUsage = (): Promise<void> => load(usage, relayPaths.usage);
  const loadSubscriptions = (): Promise<void> => load(subscriptions, relayPaths.events);

  /** Every list of the relay, in parallel; only while paired (else each would be refused: not paired). */
  async function loadLists(): Promise<void> {
    if (!status.value?.paired) return;
    await Promise.all([loadKeys(), loadConnectors(), loadUsage(), loadSubscriptions()]);
  }

  function forgetLists(): void {
    keys.value = empty();
    connectors.value = empty();
    usage.value = empty();
    subscriptions.value = empty();
  }

  function listsChanged(): void {
    cancelSettle();
    cancelSettle = clock.after(LISTS_SETTLE_MS, () => void loadLists());
  }

  return {
    status,
    statusError,
    stateChangedAt,
    keys,
    connectors,
    usage,
    subscriptions,
    loadStatus,
    loadKeys,
    loadConnectors,
    loadSubscriptions,
    /** Just paired: the state is read every second for a few seconds, so "Connecting…" becomes "Online" when it is. */
    watchClosely(): void {
      for (let index = 1; index <= SOON_POLLS; index++) clock.after(index * SOON_POLL_MS, () => void loadStatus());
    },
    /** While the page is open: the state polled, the lists read again on the events that change them. */
    follow(): () => void {
      void loadStatus().then(() => loadLists()); // what an earlier visit read may be old
      const stops = [
        clock.every(STATUS_POLL_MS, () => page.visibilityState === 'visible' && void loadStatus()),
        events.on('approvals', listsChanged),
        events.on('row', ({ row }) => row.app.startsWith(CLOUD_APP_PREFIX) && listsChanged()),
        events.onOpen(() => void loadStatus().then(() => loadLists())),
      ];
      return () => {
        cancelSettle();
        for (const stop of stops) stop();
      };
    },
  };
});
export type RelayModel = InstanceType<typeof RelayModel>;
