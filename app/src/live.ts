// The daemon's live events (GET /app/api/events): one EventSource for the whole app. Each page subscribes to the
// events it paints. Events sent while the stream is not open are lost, so whenever it opens — the first time,
// which races the first fetches, and after a reconnect (the daemon restarted, the laptop slept) — the
// subscribers of `onStreamOpen` fetch again what they show.

import { appPaths, type AppEventName, type AppEvents } from '../../protocol/app-api.js';
import { endSession } from './api.js';

type Handler<N extends AppEventName> = (data: AppEvents[N]) => void;

const handlers: { [N in AppEventName]: Set<Handler<N>> } = {
  row: new Set(),
  removed: new Set(),
  unread: new Set(),
  approvals: new Set(),
  read: new Set(),
};
/** Called with `again`: false the first time the stream opens, true after it was lost. */
const openHandlers = new Set<(again: boolean) => void>();

export function onEvent<N extends AppEventName>(name: N, handler: Handler<N>): () => void {
  const set = handlers[name] as Set<Handler<N>>;
  set.add(handler);
  return () => set.delete(handler);
}

export function onStreamOpen(handler: (again: boolean) => void): () => void {
  openHandlers.add(handler);
  return () => openHandlers.delete(handler);
}

/** A stream the browser gave up on (an answer that was not a stream) is tried again after this. */
const RETRY_MS = 3000;

let source: EventSource | undefined;
let opens = 0;

export function connectEvents(): void {
  source = new EventSource(appPaths.events);
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
    const again = opens++ > 0;
    for (const handler of openHandlers) handler(again);
  });
  source.addEventListener('error', () => {
    // EventSource retries by itself, except after an answer that is not a stream (401: the session ended). Ask
    // the API once, which tells the app whether it is the session; otherwise try again in a while.
    if (source?.readyState === EventSource.CLOSED) {
      source = undefined;
      void fetch(appPaths.session, { credentials: 'same-origin' }).then(
        (reply) => (reply.status === 401 ? endSession('ended') : setTimeout(connectEvents, RETRY_MS)),
        () => setTimeout(connectEvents, RETRY_MS),
      );
    }
  });
}

export function disconnectEvents(): void {
  source?.close();
  source = undefined;
}
