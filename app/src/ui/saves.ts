// A control saved as soon as it changes (a setting, a choice): each change is a request of its own, and a refusal is
// shown next to the control. The answers can come back in another order than the changes went out (the daemon
// answers a change once it is on disk, which a busy machine makes slow), so only the newest change may say whether
// the control is in error: an earlier success answered late must not wipe the refusal of a later change.

import { useRef, useState } from 'preact/hooks';
import type { Problem } from './fields.js';

export interface Saves {
  problem: Problem | null;
  /** Runs one change; true when it was saved. A refusal becomes the problem, if no newer change went out since. */
  run: (change: () => Promise<void>) => Promise<boolean>;
}

/** `problemOf` reads a refusal as the problem shown next to the control. */
export function useSaves(problemOf: (error: unknown) => Problem): Saves {
  const [problem, setProblem] = useState<Problem | null>(null);
  const newest = useRef(0);
  const run = async (change: () => Promise<void>): Promise<boolean> => {
    const number = ++newest.current;
    let found: Problem | null = null;
    try {
      await change();
    } catch (error) {
      found = problemOf(error);
    }
    if (number === newest.current) setProblem(found);
    return found === null;
  };
  return { problem, run };
}
