// A form that sends one request at a time (pair with a relay, make a key): while it is out the form is busy and a
// second submit does nothing, and a failure becomes the form's problem, with the focus on what the problem names.

import { useState } from 'preact/hooks';
import type { Problem } from './fields.js';
import { focusSoon } from './focus.js';

export interface Submit {
  busy: boolean;
  problem: Problem | null;
  /** The form's submit handler that runs `send`; what `send` throws becomes the problem. */
  submit: (send: () => Promise<void>) => (event: Event) => Promise<void>;
}

/**
 * `problemOf` reads a failure as the field it names (or '' for the whole form); the focus goes to that field, else
 * to `formProblemId`, the form's own problem line.
 */
export function useSubmit(problemOf: (error: unknown) => Problem, formProblemId: string): Submit {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<Problem | null>(null);
  const submit =
    (send: () => Promise<void>) =>
    async (event: Event): Promise<void> => {
      event.preventDefault();
      if (busy) return;
      setBusy(true);
      setProblem(null);
      try {
        await send();
      } catch (error) {
        const found = problemOf(error);
        setProblem(found);
        focusSoon(found.control || formProblemId);
      } finally {
        setBusy(false);
      }
    };
  return { busy, problem, submit };
}
