import { performance } from 'node:perf_hooks';

/** How long the last look waits after the deadline: long enough for a timer that fell due to run and its work to land. */
const LAST_LOOK_MS = 200;

/**
 * Polls `check` every 20 ms until it gives something other than undefined; throws after `timeoutMs`.
 *
 * The time is measured on the monotonic clock, as the timers being waited on are: a step of the wall clock (a
 * virtual machine's time being set) is not time waited. When the deadline has passed, `check` gets one more look
 * after a pause: a process the machine stopped for a while wakes with the timer it waits on and this poll's own
 * due together, and this poll's, set earlier, runs first.
 */
export async function waitFor<T>(check: () => Promise<T | undefined> | T | undefined, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (performance.now() > deadline) {
      await new Promise((resolve) => setTimeout(resolve, LAST_LOOK_MS));
      const last = await check();
      if (last !== undefined) return last;
      throw new Error(`timed out waiting for ${what}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
