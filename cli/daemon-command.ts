// `notifier daemon`: the service in the foreground, until Ctrl-C (SIGINT) or SIGTERM stops it. cli/main.ts loads
// this file only for this command, so the client commands start without the service's weight (docs/performance.md,
// "bench:cli").

import { exitWhenSettled } from '../common/exit-when-settled.js';
import { startDaemon } from '../daemon/daemon.js';
import { log } from '../daemon/log.js';
import type { PresenterName } from '../daemon/present/choose.js';

export interface DaemonOptions {
  supportDir?: string;
  port?: number;
  presenter: PresenterName;
  /** false with `--no-tray`. */
  tray: boolean;
}

/** Starts the service (exit 1 when it cannot), and stops it cleanly on SIGINT or SIGTERM. */
export async function runDaemon(options: DaemonOptions, trayScript: string): Promise<void> {
  const { tray, ...rest } = options;
  const daemon = await startDaemon({ ...rest, ...(tray ? { trayScript } : {}), onQuit: () => process.exit(0) }).catch((error: Error) => {
    log.error(`Notifier could not start: ${error.message}`);
    process.exit(1);
  });
  const shutdown = (signal: string): void => {
    log.info(`${signal}: stopping`);
    exitWhenSettled(daemon.stop(), (error) => log.error(`stop failed: ${error.message}`));
  };
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.once('SIGTERM', () => shutdown('SIGTERM'));
}
