// `notifier service install | uninstall | status` (daemon/login-service.ts does the work).

import { type Command, InvalidArgumentError, Option } from 'commander';
import type { ServiceAction, ServiceOptions } from '../daemon/login-service.js';
import { PRESENTER_NAMES } from '../daemon/present/choose.js';

/** A port for the daemon to listen on: 0 to 65535 (0: any free port). */
export function parseListenPort(text: string): number {
  if (!/^\d{1,5}$/.test(text) || Number(text) > 65535) throw new InvalidArgumentError('a port number from 0 to 65535');
  return Number(text);
}

/** Adds `service install | uninstall | status` to the `notifier` command. `mainScript`: the built main.js. */
export function registerServiceCommand(program: Command, mainScript: string): void {
  const service = program
    .command('service')
    .description('run Notifier in the background: a systemd user service (Linux) or a launchd agent (macOS)');
  // Loaded by the action only: the other commands start without it (docs/performance-history.md, "bench:cli:
  // `notifier health` cold starts").
  const act = (action: ServiceAction) => async (options: ServiceOptions) => {
    const { defaultServiceContext, runService } = await import('../daemon/login-service.js');
    process.exitCode = await runService(action, options, defaultServiceContext(mainScript));
  };
  service
    .command('install')
    .description('install the service, start it now and at every login; options are passed to `notifier daemon`')
    .addOption(new Option('--support-dir <folder>', "the daemon's support folder").env('NOTIFIER_SUPPORT_DIR'))
    .addOption(new Option('--port <port>', "the daemon's port on 127.0.0.1").env('NOTIFIER_PORT').argParser(parseListenPort))
    .addOption(new Option('--presenter <name>', 'how banners are shown').choices(PRESENTER_NAMES).env('NOTIFIER_PRESENTER'))
    .action(act('install'));
  service.command('uninstall').description('stop the service and remove it').action(act('uninstall'));
  service.command('status').description('print whether the service is installed, running and enabled (JSON)').action(act('status'));
}
