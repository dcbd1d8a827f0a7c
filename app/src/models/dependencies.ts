// What a model is given rather than reaching for it (docs/app.md#how-the-front-end-is-laid-out): the API client, the
// event stream and the clock, each as the narrow interface a model uses. main.tsx gives the browser's; a test gives
// its own (test/app/history-store.test.ts runs History against a model of the daemon). Nothing here touches the
// page, so a model that takes only these runs outside a browser too.

import { effect, untracked } from '@preact/signals';
import type { AppEventName, AppEvents } from '../../../protocol/app-api.js';

/** Requests to the person-only API (models/api.ts): JSON in and out; `signal` cancels one. */
export interface Requests {
  /**
   * A request to the window's API and its answer. `Answer` and `Body` are the protocol's types of the route
   * (protocol/app-api.ts), the ones the daemon's route is typed by: a body the route does not take does not compile.
   */
  call<Answer, Body = never>(method: string, path: string, body?: NoInfer<Body>, options?: { signal?: AbortSignal }): Promise<Answer>;
}

/** The daemon's live events (models/events.ts). Each answer unsubscribes. */
export interface LiveEvents {
  on<N extends AppEventName>(name: N, handler: (data: AppEvents[N]) => void): () => void;
  /**
   * Called as a stream begins, with `again` (false the first time, true after it was lost) and the number of the last
   * change to History's rows before it (the stream's first event).
   */
  onOpen(handler: (again: boolean, seq: number) => void): () => void;
}

/** Time: the present, and timers. Each answer cancels what it started. */
export interface Clock {
  now(): number;
  after(ms: number, run: () => void): () => void;
  every(ms: number, run: () => void): () => void;
}

/** The browser's (and Node's) own clock. */
export const systemClock: Clock = {
  now: () => Date.now(),
  after: (ms, run) => {
    const timer = setTimeout(run, ms);
    return () => clearTimeout(timer);
  },
  every: (ms, run) => {
    const timer = setInterval(run, ms);
    return () => clearInterval(timer);
  },
};

/**
 * Inside a model's factory: subscribes now, and unsubscribes when the model is disposed. The subscription is an
 * effect the model owns (createModel keeps the effects its factory makes); it reads no signal, so it never runs again.
 */
export function whileAlive(...subscribe: Array<() => () => void>): void {
  effect(() =>
    untracked(() => {
      const stops = subscribe.map((start) => start());
      return () => {
        for (const stop of stops) stop();
      };
    }),
  );
}
