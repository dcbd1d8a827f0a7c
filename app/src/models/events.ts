// The daemon's live events (GET /app/api/events): one EventSource for the whole window. Each model subscribes to the
// events it follows. Events sent while the stream is not open are lost, so whenever it opens — the first time, which
// races the first fetches, and after a reconnect (the daemon restarted, the laptop slept) — the subscribers of
// `onOpen` fetch again what they show (History compares the stream's first number with its rows' own,
// docs/app.md#live-events).

import { createModel } from '@preact/signals';
import { APP_EVENT_NAMES, appPaths, type AppEventName, type AppEvents } from '../../../protocol/app-api.js';
import type { ApiModel } from './api.js';
import type { Clock } from './dependencies.js';
import { ApiProblem } from './requests.js';

/** A stream the browser gave up on (an answer that was not a stream) is tried again after this. */
const RETRY_MS = 3000;

type Handler<N extends AppEventName> = (data: AppEvents[N]) => void;
type OpenHandler = (again: boolean, seq: number) => void;

export const EventStreamModel = createModel((api: ApiModel, clock: Clock, Source: typeof EventSource) => {
  // One set of handlers per event the stream sends (and listens for each of them).
  const handlers = Object.fromEntries(APP_EVENT_NAMES.map((name) => [name, new Set()])) as { [N in AppEventName]: Set<Handler<N>> };
  const openHandlers = new Set<OpenHandler>();
  let source: EventSource | undefined;
  let opens = 0;

  function on<N extends AppEventName>(name: N, handler: Handler<N>): () => void {
    const set = handlers[name] as Set<Handler<N>>;
    set.add(handler);
    return () => set.delete(handler);
  }

  // A stream begins with its `stream` event (the browser's `open` comes before it): its number is what History needs.
  on('stream', ({ seq }) => {
    const again = opens++ > 0;
    for (const handler of openHandlers) handler(again, seq);
  });

  function connect(): void {
    source = new Source(api.withCsrf(appPaths.events));
    for (const name of APP_EVENT_NAMES) {
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
      // the API once, which tells the window whether it is the session (and ends it then); otherwise try again later.
      if (source?.readyState === Source.CLOSED) {
        source = undefined;
        void api.send('GET', appPaths.session).then(
          () => clock.after(RETRY_MS, connect),
          (problem: unknown) => (problem instanceof ApiProblem && api.sessionEnded.value ? undefined : clock.after(RETRY_MS, connect)),
        );
      }
    });
  }

  return {
    on,
    onOpen(handler: OpenHandler): () => void {
      openHandlers.add(handler);
      return () => openHandlers.delete(handler);
    },
    connect,
    disconnect(): void {
      source?.close();
      source = undefined;
    },
  };
});
export type EventStreamModel = InstanceType<typeof EventStreamModel>;
