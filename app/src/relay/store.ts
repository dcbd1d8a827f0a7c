// What the Relay page shows, fetched from `/app/api/relay/…` while it is open. The pairing's state is read again
// every STATUS_POLL_MS (the event stream says nothing of the socket); the lists, which each cost a call to the relay,
// when something says they changed: a connector request answered (the `approvals` event), a notification from a
// relay key (a `row` of a `cloud.` app: its key was used), the stream reopened, or the person's own change.

import { type Signal, signal } from '@preact/signals';
import {
  relayPaths,
  type RelayConnectorsAnswer,
  type RelayEventsAnswer,
  type RelayKeysAnswer,
  type RelayStatusAnswer,
  type RelayUsageAnswer,
} from '../../../protocol/app-api-relay.js';
import { call, messageOf } from '../api.js';
import { onEvent, onStreamOpen } from '../live.js';

/** How often the page reads the pairing's state while it is open: a local read, no call to the relay. */
export const STATUS_POLL_MS = 5000;
/** Right after pairing the socket comes up within a second or two: read the state this often, this many times. */
const SOON_POLL_MS = 1000;
const SOON_POLLS = 5;
/** The lists are read again at most this often on events (a burst of relayed notifications costs one read). */
const LISTS_SETTLE_MS = 1000;
/** Apps of agents that send through the relay are `cloud.<key name>` (docs/api/relay-connection.md#rl21). */
const CLOUD_APP_PREFIX = 'cloud.';

export const status = signal<RelayStatusAnswer | null>(null);
export const statusError = signal('');
/** When this page saw the socket's state change (it is not known before the page was opened). */
export const stateChangedAt = signal<string | null>(null);

/** One list of the relay: its answer, or why it could not be read. */
export interface Loaded<T> {
  answer: T | null;
  error: string;
}
const empty = <T>(): Loaded<T> => ({ answer: null, error: '' });

export const keys = signal<Loaded<RelayKeysAnswer>>(empty());
export const connectors = signal<Loaded<RelayConnectorsAnswer>>(empty());
export const usage = signal<Loaded<RelayUsageAnswer>>(empty());
export const subscriptions = signal<Loaded<RelayEventsAnswer>>(empty());

export async function loadStatus(): Promise<RelayStatusAnswer | null> {
  try {
    const answer = await call<RelayStatusAnswer>('GET', relayPaths.status);
    const before = status.value;
    if (before && before.state !== answer.state) stateChangedAt.value = new Date().toISOString();
    status.value = answer;
    statusError.value = '';
    // Paired since the last read (here, from the CLI, in another window): the lists are there to read now.
    if (before && answer.paired && !before.paired) void loadLists();
    if (!answer.paired) forgetLists();
    return answer;
  } catch (error) {
    statusError.value = messageOf(error);
    return null;
  }
}

async function load<T>(target: Signal<Loaded<T>>, path: string): Promise<void> {
  try {
    target.value = { answer: await call<T>('GET', path), error: '' };
  } catch (error) {
    target.value = { answer: target.value.answer, error: messageOf(error) }; // what was read before stays shown
  }
}

export const loadKeys = (): Promise<void> => load<RelayKeysAnswer>(keys, relayPaths.keys);
export const loadConnectors = (): Promise<void> => load<RelayConnectorsAnswer>(connectors, relayPaths.connectors);
export const loadUsage = (): Promise<void> => load<RelayUsageAnswer>(usage, relayPaths.usage);
export const loadSubscriptions = (): Promise<void> => load<RelayEventsAnswer>(subscriptions, relayPaths.events);

/** Every list of the relay, in parallel; only while paired (else each would be refused: not paired). */
export async function loadLists(): Promise<void> {
  if (!status.value?.paired) return;
  await Promise.all([loadKeys(), loadConnectors(), loadUsage(), loadSubscriptions()]);
}

function forgetLists(): void {
  keys.value = empty();
  connectors.value = empty();
  usage.value = empty();
  subscriptions.value = empty();
}

/** Just paired: the state is read every second for a few seconds, so "Connecting…" becomes "Online" when it is. */
export function watchClosely(): void {
  for (let index = 1; index <= SOON_POLLS; index++) setTimeout(() => void loadStatus(), index * SOON_POLL_MS);
}

let settle: ReturnType<typeof setTimeout> | undefined;
function listsChanged(): void {
  clearTimeout(settle);
  settle = setTimeout(() => void loadLists(), LISTS_SETTLE_MS);
}

/** While the page is open: the state polled, the lists read again on the events that change them. */
export function followRelay(): () => void {
  void loadStatus().then(() => loadLists()); // what an earlier visit read may be old
  const timer = setInterval(() => {
    if (document.visibilityState === 'visible') void loadStatus();
  }, STATUS_POLL_MS);
  const stops = [
    onEvent('approvals', listsChanged),
    onEvent('row', ({ row }) => row.app.startsWith(CLOUD_APP_PREFIX) && listsChanged()),
    onStreamOpen(() => void loadStatus().then(() => loadLists())),
  ];
  return () => {
    clearInterval(timer);
    clearTimeout(settle);
    for (const stop of stops) stop();
  };
}
