// The present as the window draws it: relative times ("3 min ago") are drawn against `now`, which moves on every
// 30 s while the window is visible, and at once when it becomes visible again; and the browser's date formats, made
// on first use (ui/time.tsx draws with both).

import { computed, createModel, signal } from '@preact/signals';
import { type Clock, whileAlive } from './dependencies.js';

const TICK_MS = 30_000;

export interface DateFormats {
  timeOfDay: Intl.DateTimeFormat;
  weekday: Intl.DateTimeFormat;
  sameYear: Intl.DateTimeFormat;
  otherYear: Intl.DateTimeFormat;
  exact: Intl.DateTimeFormat;
  /** A row's time more than a week back: "12 Mar, 9:12 AM" (and the year when it is another). */
  dateTime: Intl.DateTimeFormat;
  otherYearTime: Intl.DateTimeFormat;
  /** A day heading of this week: "Thursday"; of before it: "Mon, 3 March" (and the year when it is another). */
  dayName: Intl.DateTimeFormat;
  day: Intl.DateTimeFormat;
  otherYearDay: Intl.DateTimeFormat;
}

export const TimeModel = createModel(
  (clock: Clock, page: Pick<Document, 'visibilityState' | 'addEventListener' | 'removeEventListener'>) => {
    const now = signal(clock.now());
    const tick = (): void => {
      now.value = clock.now();
    };
    whileAlive(
      () => clock.every(TICK_MS, () => page.visibilityState === 'visible' && tick()),
      () => {
        page.addEventListener('visibilitychange', tick);
        return () => page.removeEventListener('visibilitychange', tick);
      },
    );
    return {
      now,
      /**
       * Made when first read (a computed is lazy, and depends on nothing, so never made again). The first costs the
       * browser tens of milliseconds (it loads its locale data): main.tsx reads them while the first rows are on their
       * way, rather than before asking for them.
       */
      formats: computed((): DateFormats => ({
        timeOfDay: new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' }),
        weekday: new Intl.DateTimeFormat(undefined, { weekday: 'short', hour: 'numeric', minute: '2-digit' }),
        sameYear: new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short' }),
        otherYear: new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', year: 'numeric' }),
        exact: new Intl.DateTimeFormat(undefined, { dateStyle: 'full', timeStyle: 'medium' }),
        dateTime: new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', hour: 'numeric', minute: '2-digit' }),
        otherYearTime: new Intl.DateTimeFormat(undefined, {
          day: 'numeric',
          month: 'short',
          year: 'numeric',
          hour: 'numeric',
          minute: '2-digit',
        }),
        dayName: new Intl.DateTimeFormat(undefined, { weekday: 'long' }),
        day: new Intl.DateTimeFormat(undefined, { weekday: 'short', day: 'numeric', month: 'long' }),
        otherYearDay: new Intl.DateTimeFormat(undefined, { weekday: 'short', day: 'numeric', month: 'long', year: 'numeric' }),
      })),
    };
  },
);
export type TimeModel = InstanceType<typeof TimeModel>;
