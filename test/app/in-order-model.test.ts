// app/src/models/in-order.ts, in-process: a value set from answers that come back in any order ends as the answer to
// the latest request answered, whatever the order; a refused request changes nothing and holds nothing back.
// (The same in the browser against the real daemon: test/app/settings.test.ts, "a switch flipped twice…".)

import { expect, test } from '@jest/globals';
import { inOrder, inOrderBy } from '../../app/src/models/in-order.js';

/** A request answered when the test says so. */
function held<T>(): { request: Promise<T>; answer: (value: T) => Promise<void>; refuse: (error: Error) => Promise<void> } {
  let resolve!: (value: T) => void;
  let reject!: (error: Error) => void;
  const request = new Promise<T>((yes, no) => ((resolve = yes), (reject = no)));
  const settle = () => new Promise<void>((done) => setImmediate(done));
  return {
    request,
    answer: (value) => (resolve(value), settle()),
    refuse: (error) => (reject(error), settle()),
  };
}

test('an earlier answer that comes last does not replace a later one', async () => {
  const take = inOrder();
  let value = 'before';
  const first = held<string>();
  const second = held<string>();
  const firstDone = take(first.request, (answer) => (value = answer));
  const secondDone = take(second.request, (answer) => (value = answer));
  await second.answer('second');
  expect(value).toBe('second');
  await first.answer('first');
  expect(value).toBe('second');
  // Each caller still has its own answer (a change's note, say).
  await expect(firstDone).resolves.toBe('first');
  await expect(secondDone).resolves.toBe('second');
});

test('answers in order are each taken; a refusal takes nothing and lets an earlier answer through', async () => {
  const take = inOrder();
  const taken: string[] = [];
  const first = held<string>();
  const second = held<string>();
  const third = held<string>();
  void take(first.request, (answer) => taken.push(answer));
  const refused = take(second.request, (answer) => taken.push(answer));
  void take(third.request, (answer) => taken.push(answer));
  await first.answer('first');
  await second.refuse(new Error('400'));
  await expect(refused).rejects.toThrow('400');
  await third.answer('third');
  expect(taken).toEqual(['first', 'third']);
  // The refused one, answered last instead of first, holds nothing back either.
  const fourth = held<string>();
  const fifth = held<string>();
  void take(fourth.request, (answer) => taken.push(answer)).catch(() => undefined);
  void take(fifth.request, (answer) => taken.push(answer));
  await fifth.answer('fifth');
  await fourth.refuse(new Error('400'));
  expect(taken).toEqual(['first', 'third', 'fifth']);
});

test('each key is a sequence of its own', async () => {
  const takeFor = inOrderBy();
  const values: Record<string, string> = {};
  const a = held<string>();
  const b = held<string>();
  void takeFor('a')(a.request, (answer) => (values.a = answer));
  void takeFor('b')(b.request, (answer) => (values.b = answer));
  await b.answer('b1');
  await a.answer('a1'); // sent before b's, answered after: another key's answer does not drop it
  expect(values).toEqual({ a: 'a1', b: 'b1' });
  expect(takeFor('a')).toBe(takeFor('a'));
});
