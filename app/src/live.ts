// The daemon's live events (GET /app/api/events): one EventSource for the whole app. Each page subscribes to the
// events it paints; after a reconnect (the daemon restarted, the laptop slept) the subscribers of `reconnected`
// fetch again what they show, since events sent meanwhile are lost.

import { appPaths, type AppEventName, type AppEvents } from '../../protocol/app-api.js';
import { sessionEnded } from './api.js';

type Handler<N extends AppEventName> = (data: AppEvents[N]) => void;

const handlers: { [N in AppEventName]: Set<Handler<N>> } = {
  row: new Set(),
  removed: new Set(),
  unread: new Set(),
  approvals: new Set(),
  read: new Set(),
};
const reconnectHandlers = new Set<() => void>();

export function onEvent<N extends AppEventName>(name: N, handler: Handler<N>): () => void {
  const set = handlers[name] as Set<Handler<N>>;
  set.add(handler);
  return () => set.delete(handler);
}

export function onReconnect(handler: () => void): () => void {
  reconnectHandlers.add(handler);
  return () => reconnectHandlers.delete(handler);
}

let source: EventSource | undefined;

/** How long the first fetches wait for the stream to open before going ahead without it. */
const OPEN_WAIT_MS = 3000;

/**
 * Opens the stream; resolves once it is open (or after a while without it), so what the app fetches next cannot
 * miss an event sent in between.
 */
export function connectEvents(): Promise<void> {
  let lostOnce = false;
  source = new EventSource(appPaths.events);
  const opened = new Promise<void>((resolve) => {
    source!.addEventListener('open', () => resolve(), { once: true });
    setTimeout(resolve, OPEN_WAIT_MS);
  });
  for (const name of Object.keys(handlers) as AppEventName[]) {
    source.addEventListener(name, (event) => {
      let data: unknown;
      try {
        data = JSON.parse((event as MessageEvent<string>).data);
      } catch {
        return; // not ours to guess at
      }
      for (const handler of handlers[name]) (handler as (data: unknown) => void)(data);
    });
  }
  source.addEventListener('open', () => {
    if (lostOnce) for (const handler of reconnectHandlers) handler();
  });
  source.addEventListener('error', () => {
    lostOnce = true;
    // EventSource retries by itself, except after an answer that is not a stream (401: the session ended). Ask
    // the API once, which tells the app whether it is the session; otherwise try again in a while.
    if (source?.readyState === EventSource.CLOSED) {
      source = undefined;
      void fetch(appPaths.session, { credentials: 'same-origin' }).then(
        (reply) => (reply.status === 401 ? (sessionEnded.value = true) : setTimeout(reconnect, OPEN_WAIT_MS)),
        () => setTimeout(reconnect, OPEN_WAIT_MS),
      );
    }
  });
  return opened;
}

/** A new stream after the old one gave up: what the pages show is fetched again once it is open. */
function reconnect(): void {
  void connectEvents().then(() => {
    for (const handler of reconnectHandlers) handler();
  });
}

export function disconnectEvents(): void {
  source?.close();
  source = undefined;
}
