// The Node client's declarations (clients/node/notifier.d.ts) are a copy of the contract's types written for the
// people who use the client: the file ships on its own (copied next to notifier.cjs), so it cannot import
// protocol/. What keeps the copy true is this file: `tsc` fails it when a field is added to one side only.

import { expect, test } from '@jest/globals';
import type {
  HistoryRecord as ClientHistoryRecord,
  NotificationFields,
  ReplyRecord as ClientReplyRecord,
} from '../../clients/node/notifier.js';
import type { HistoryRecord, Notification, ReplyRecord } from '../../protocol/types.js';

/** The keys a type names, without those of an index signature (`[templateField: string]: unknown`). */
type NamedKeys<T> = keyof { [K in keyof T as string extends K ? never : number extends K ? never : K]: T[K] };
/** `true` when the two name the same keys; else the keys one of them lacks. */
type SameKeys<A, B> = [Exclude<A, B>, Exclude<B, A>] extends [never, never]
  ? true
  : { onlyInFirst: Exclude<A, B>; onlyInSecond: Exclude<B, A> };
/** `true` when every key of the first is one of the second's; else the others. */
type SomeOf<A, B> = [Exclude<A, B>] extends [never] ? true : { unknown: Exclude<A, B> };

const agree: [
  // Every field of a notification but the two the client's methods take as arguments.
  SameKeys<NamedKeys<NotificationFields>, Exclude<keyof Notification, 'app' | 'title'>>,
  SameKeys<keyof ClientReplyRecord, keyof ReplyRecord>,
  // The client names the fields its users read; the daemon's own (held, recordingPath) may stay unnamed.
  SomeOf<keyof ClientHistoryRecord, keyof HistoryRecord>,
] = [true, true, true];

test("the client's declarations name the contract's fields", () => {
  expect(agree).toEqual([true, true, true]);
});
