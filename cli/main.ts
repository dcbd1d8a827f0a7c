#!/usr/bin/env node
// The `notifier` command: the client commands that call a running service (docs/cli.md; one file
// per group in cli/commands/), `notifier daemon` (what `npm start` runs) and `notifier service` (run it in the
// background).
//
// A client command must start fast (docs/performance-history.md, "bench:cli: `notifier health` cold starts"):
// nothing heavy is imported here. The daemon (Express, node-canvas, the presenters) is loaded by the `daemon`
// action only.

import { fileURLToPath } from 'node:url';
import { type Command as CommandType, Command, Option } from 'commander';
import { explainNativePart, nativePartOf } from '../common/native-parts.js';
import { log } from '../daemon/log.js';
import { PRESENTER_NAMES } from '../daemon/present/choose.js';
import type { DaemonOptions } from './daemon-command.js';
import { VERSION } from '../daemon/version.js';
import { parsePort as parseClientPort } from './args.js';
import { registerAppCommands } from './commands/apps.js';
import { registerAssetCommands } from './commands/assets.js';
import { registerBannerCommands } from './commands/banners.js';
import { addGlobalOptions } from './commands/common.js';
import { registerHistoryCommands } from './commands/history.js';
import { registerKeyCommands, registerScheduledCommands } from './commands/keys.js';
import { registerMiscCommands } from './commands/misc.js';
import { registerNotifyCommands } from './commands/notify.js';
import { registerOpenCommand } from './commands/open.js';
import { registerRelayCommands } from './commands/relay.js';
import { registerReplyCommands } from './commands/replies.js';
import { registerSettingsCommands } from './commands/settings.js';
import { registerTemplateCommands } from './commands/template.js';
import { parseListenPort, registerServiceCommand } from './service.js';

const program = new Command()
  .name('notifier')
  .description('Notifier: a local desktop notification service with an HTTP API')
  .version(VERSION, '--version', "print the tool's version")
  // Options belong to the command they follow, so `daemon --port` and `history --app` are their commands' own;
  // the client commands repeat the global options (addGlobalOptions) so they work after the command too.
  .enablePositionalOptions()
  .addOption(
    new Option(
      '--support-dir <folder>',
      "the service's support folder, as given to `notifier daemon` (default: NOTIFIER_SUPPORT_DIR, else the platform's)",
    ),
  )
  .addOption(new Option('--port <n>', 'port to call (default: the port file, else 48617)').argParser(parseClientPort))
  .option('--token <token>', 'bearer token (default: the token file)')
  .option('--json <file>', 'JSON object used as the body, - for standard input (notify and register only)')
  .showSuggestionAfterError();

registerNotifyCommands(program);
registerBannerCommands(program);
registerReplyCommands(program);
registerHistoryCommands(program);
registerTemplateCommands(program);
registerAssetCommands(program);
registerAppCommands(program);
registerSettingsCommands(program);
registerMiscCommands(program);
registerRelayCommands(program);
registerKeyCommands(program);
registerScheduledCommands(program);
registerOpenCommand(program);
const clientCommands = [...program.commands];

program
  .command('daemon')
  .description('run the Notifier service in the foreground (Ctrl-C stops it)')
  .addOption(new Option('--support-dir <folder>', 'folder for the token, port, History and settings').env('NOTIFIER_SUPPORT_DIR'))
  .addOption(
    new Option('--port <port>', 'port on 127.0.0.1 (0: any free port; default 48617)').env('NOTIFIER_PORT').argParser(parseListenPort),
  )
  .addOption(new Option('--presenter <name>', 'how banners are shown').choices(PRESENTER_NAMES).default('auto').env('NOTIFIER_PRESENTER'))
  .addOption(new Option('--no-tray', 'do not start the tray companion (it starts when there is a desktop session)').env('NOTIFIER_NO_TRAY'))
  .action(async (options: DaemonOptions) => {
    // The service (Express, node-canvas, the presenters) loads with this command only.
    const { runDaemon } = await import('./daemon-command.js').catch((error: Error) => {
      const part = nativePartOf(error);
      if (!part) throw error;
      explainNativePart('notifier', part, error);
      process.exit(1);
    });
    await runDaemon(options, fileURLToPath(new URL('../tray/main.js', import.meta.url)));
  });

// `notifier service install | uninstall | status`: the service runs this very file (dist/cli/main.js).
registerServiceCommand(program, fileURLToPath(import.meta.url));

function eachCommand(command: CommandType, visit: (command: CommandType) => void): void {
  visit(command);
  for (const sub of command.commands) eachCommand(sub, visit);
}

/** `Run 'notifier help history search' for usage.` */
function usageHint(command: CommandType): string {
  const names: string[] = [];
  for (let at: CommandType | null = command; at?.parent; at = at.parent) names.unshift(at.name());
  return names.length > 0 ? `Run 'notifier help ${names.join(' ')}' for usage.` : "Run 'notifier --help' for usage.";
}

for (const command of clientCommands) {
  eachCommand(command, (each) => {
    addGlobalOptions(each);
    each.configureHelp({ showGlobalOptions: true });
  });
}
// Every mistake on the command line, commander's own (unknown option, missing argument) and the commands'
// (UsageError), reads `notifier: <message>` and a hint, and exits 1.
eachCommand(program, (command) =>
  command.configureOutput({
    outputError: (text, write) => write(`notifier: ${text.replace(/^error: /, '').trimEnd()}\n${usageHint(command)}\n`),
  }),
);

// A bug must not take the service down with a half-finished request: log it and keep serving.
process.on('unhandledRejection', (reason) => log.error(`unhandled rejection: ${(reason as Error)?.stack ?? String(reason)}`));

/**
 * `notifier help history search` prints that command's usage, at any depth (commander's own goes one level);
 * an unknown name is a mistake like any other (exit 1).
 */
function helpWords(argv: string[]): string[] {
  const words = argv.slice(2);
  if (words[0] !== 'help' || words.length < 2) return argv;
  const names = words.slice(1).filter((word) => !word.startsWith('-'));
  let at: CommandType = program;
  for (const name of names) {
    const next = at.commands.find((command) => command.name() === name || command.aliases().includes(name));
    if (!next) at.error(`unknown command '${name}'`);
    at = next;
  }
  return [...argv.slice(0, 2), ...names, '--help'];
}

await program.parseAsync(helpWords(process.argv));
