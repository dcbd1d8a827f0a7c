// Answers can come back in another order than their requests went out: the daemon answers a change once it is on
// disk, which a busy machine makes slow, and the browser sends over several connections. A value set from such
// answers (a page's settings, read and changed) takes an answer only if no answer to a later request has been taken,
// so an earlier answer that comes late never puts back what was before. (app/src/ui/saves.ts does the same for
// whether a control is in error.)

/** Runs `request` and hands its answer to `apply`, unless a request sent after it has been applied already. */
export type InOrder = <T>(request: Promise<T>, apply: (answer: T) => void) => Promise<T>;

/** One sequence of requests about the same value: call the result for each, in the order they are sent. */
export function inOrder(): InOrder {
  let sent = 0;
  let applied = 0;
  return async (request, apply) => {
    const number = ++sent;
    const answer = await request;
    if (number > applied) {
      applied = number;
      apply(answer);
    }
    return answer;
  };
}

/** A sequence for each key (an app's own settings): requests about one key never wait for, or drop, another's. */
export function inOrderBy(): (key: string) => InOrder {
  const sequences = new Map<string, InOrder>();
  return (key) => {
    let sequence = sequences.get(key);
    if (!sequence) sequences.set(key, (sequence = inOrder()));
    return sequence;
  };
}
