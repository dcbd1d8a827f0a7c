// The relay's log: one line per event on stderr (systemd's journal or the terminal keeps it). stdout carries
// only the start-up lines that say where the relay listens.

function write(level: string, message: string): void {
  process.stderr.write(`${new Date().toISOString()} ${level} ${message}\n`);
}

export const log = {
  info: (message: string): void => write('info', message),
  warn: (message: string): void => write('warn', message),
  error: (message: string): void => write('error', message),
};
