#!/usr/bin/env node
// The `notifier` command. Today it runs the daemon (`notifier daemon`, what `npm start` runs) and installs it as a
// background service; the commands that talk to a running daemon come with issue 6.

import { fileURLToPath } from 'node:url';
import { Command, InvalidArgumentError, Option } from 'commander';
import { startDaemon } from '../daemon/daemon.js';
import { log } from '../daemon/log.js';
import { PRESENTER_NAMES, type PresenterName } from '../daemon/present/choose.js';
import { VERSION } from '../daemon/version.js';
import { registerServiceCommand } from './service.js';

function parsePort(text: string): number {
  if (!/^\d{1,5}$/.test(text) || Number(text) > 65535) throw new InvalidArgumentError('a port number from 0 to 65535');
  return Number(text);
}

const program = new Command()
  .name('notifier')
  .description('Notifier: a local desktop notification service with an HTTP API')
  .version(VERSION, '--version');

program
  .command('daemon')
  .description('run the Notifier service in the foreground (Ctrl-C stops it)')
  .addOption(
    new Option('--support-dir <folder>', 'folder for the token, port, History and settings').env('NOTIFIER_SUPPORT_DIR'),
  )
  .addOption(
    new Option('--port <port>', 'port on 127.0.0.1 (0: any free port; default 48617)').env('NOTIFIER_PORT').argParser(parsePort),
  )
  .addOption(
    new Option('--presenter <name>', 'how banners are shown')
      .choices(PRESENTER_NAMES)
      .default('auto')
      .env('NOTIFIER_PRESENTER'),
  )
  .addOption(new Option('--no-tray', 'do not start the tray companion (it starts when there is a desktop session)').env('NOTIFIER_NO_TRAY'))
  .action(async (options: { supportDir?: string; port?: number; presenter: PresenterName; tray: boolean }) => {
    const { tray, ...rest } = options;
    const trayScript = fileURLToPath(new URL('../tray/main.js', import.meta.url));
    const daemon = await startDaemon({ ...rest, ...(tray ? { trayScript } : {}), onQuit: () => process.exit(0) }).catch((error: Error) => {
      log.error(`Notifier could not start: ${error.message}`);
      process.exit(1);
    });
    const shutdown = (signal: string): void => {
      log.info(`${signal}: stopping`);
      daemon.stop().then(
        () => process.exit(0),
        (error: Error) => {
          log.error(`stop failed: ${error.message}`);
          process.exit(1);
        },
      );
    };
    process.once('SIGINT', () => shutdown('SIGINT'));
    process.once('SIGTERM', () => shutdown('SIGTERM'));
  });

// `notifier service install | uninstall | status`: the service runs this very file (dist/cli/main.js).
registerServiceCommand(program, fileURLToPath(import.meta.url));

// A bug must not take the service down with a half-finished request: log it and keep serving.
process.on('unhandledRejection', (reason) => log.error(`unhandled rejection: ${(reason as Error)?.stack ?? String(reason)}`));

await program.parseAsync(process.argv);
