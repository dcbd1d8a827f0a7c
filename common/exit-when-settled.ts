// How a program that runs until a signal stops it ends: `notifier daemon` and the relay each start their stop on
// SIGINT or SIGTERM in their own way, and the process ends when that stop settles — 0 when it is done, 1 once the
// program has said why it failed. This file imports nothing: the daemon's CLI and the relay both use it.

/** Ends the process when `stopping` settles: exit 0, or exit 1 after `failed` has reported the error. */
export function exitWhenSettled(stopping: Promise<unknown>, failed: (error: Error) => void): void {
  stopping.then(
    () => process.exit(0),
    (error: Error) => {
      failed(error);
      process.exit(1);
    },
  );
}
