// The daemon's live events (GET /app/api/events): one EventSource for the whole app. Each page subscribes to the
// events it paints. Events sent while the stream is not open are lost, so whenever it opens — the first time,
// which races the first fetches, and after a reconnect (the daemon restarted, the laptop slept) — the
// subscribers of `onStreamOpen` fetch again what they show (History compares the stream's first number with its
// rows' own, docs/app.md#live-events).

import { appPaths, type AppEventName, type AppEvents } from '../../protocol/app-api.js';
import { ApiProblem, send, sessionEnded, withCsrf } from './api.js';

type Handler<N extends AppEventName> = (data: AppEvents[N]) => void;

const handlers: { [N in AppEventName]: Set<Handler<N>> } = {
  stream: new Set(),
  row: new Set(),
  removed: new Set(),
  unread: new Set(),
  approvals: new Set(),
  read: new Set(),
};
/**
 * Called as a stream begins, with `again` (false the first time, true after it was lost) and the number of the last
 * change to History's rows before it (the stream's first event).
 */
type OpenHandler = (again: boolean, seq: number) => void;
const openHandlers = new Set<OpenHandler>();

export function onEvent<N extends AppEventName>(name: N, handler: Handler<N>): () => void {
  const set = handlers[name] as Set<Handler<N>>;
  set.add(handler);
  return () => set.delete(handler);
}

export function onStreamOpen(handler: OpenHandler): () => void {
  openHandlers.add(handler);
  return () => openHandlers.delete(handler);
}

/** A stream the browser gave up on (an answer that was not a stream) is tried again after this. */
const RETRY_MS = 3000;

let source: EventSource | undefined;
let opens = 0;

// A stream begins with its `stream` event (the browser's `open` comes before it): its number is what History needs.
onEvent('stream', ({ seq }) => {
  const again = opens++ > 0;
  for (const handler of openHandlers) handler(again, seq);
});

export function connectEvents(): void {
  source = new EventSource(withCsrf(appPaths.events));
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
  source.addEventListener('error', () => {
    // EventSource retries by itself, except after an answer that is not a stream (401: the session ended). Ask
    // the API once, which tells the app whether it is the session (and ends it then); otherwise try again in a while.
    if (source?.readyState === EventSource.CLOSED) {
      source = undefined;
      void send('GET', appPaths.session).then(
        () => setTimeout(connectEvents, RETRY_MS),
        (problem: unknown) => (problem instanceof ApiProblem && sessionEnded.value ? undefined : setTimeout(connectEvents, RETRY_MS)),
      );
    }
  });
}

export function disconnectEvents(): void {
  source?.close();
  source = undefined;
}
