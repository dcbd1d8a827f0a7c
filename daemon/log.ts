// One-line log messages on stderr. The daemon runs in the foreground under `npm start` or a service manager
// (systemd, launchd), both of which keep stderr, so there is no log file to rotate here.

type Level = 'info' | 'warn' | 'error';

let quiet = false;

function write(level: Level, message: string): void {
  if (quiet && level === 'info') return;
  process.stderr.write(`${new Date().toISOString()} ${level} ${message}\n`);
}

export const log = {
  info: (message: string): void => write('info', message),
  warn: (message: string): void => write('warn', message),
  error: (message: string): void => write('error', message),
  /** Tests and benchmarks start many daemons in one process; they keep only warnings and errors. */
  setQuiet(value: boolean): void {
    quiet = value;
  },
};
