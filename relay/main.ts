#!/usr/bin/env node
// `notifier-relay`: the cloud relay, configured by environment variables (docs/relay.md). Prints where it
// listens and where its secret is kept. SIGTERM drains (docs/relay.md, "Health, readiness and draining"): /ready
// says 503 at once, the connections close RELAY_DRAIN_S later. SIGINT (Ctrl-C at a terminal) closes at once.
// `notifier-relay backup <file>` and `notifier-relay check` are the operator's commands (relay/cli/, one file
// each; docs/relay.md, "Operations"); they read the same configuration.

import { Command } from 'commander';
import { exitWhenSettled } from '../common/exit-when-settled.js';
import { explainNativePart, nativePartOf } from '../common/native-parts.js';
import { runBackup, CommandError } from './cli/backup.js';
import { runCheck } from './cli/check.js';
import { ConfigError, loadConfig, resolveSecret } from './config.js';
import { configureLog, log } from './log.js';
import { startRelay } from './server.js';
import { RELAY_VERSION } from './version.js';

/** A start-up failure whose message says it all (no stack). */
class StartError extends Error {}

/** The relay itself: `notifier-relay` with no command, as before the commands existed. */
async function serve(): Promise<void> {
  const config = loadConfig(process.env);
  configureLog(config.log);
  const secret = resolveSecret(config);
  if (secret.source === 'file') {
    log.info(
      `RELAY_SECRET is not set: ${secret.made ? 'made a new secret and keeps it' : 'using the secret kept'} in ${secret.file} (mode 0600)`,
    );
  }
  const running = await startRelay({ ...config, secret: secret.secret }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'EADDRINUSE') throw new StartError(`port ${config.port} on ${config.host} is already in use (RELAY_PORT)`);
    throw error;
  });
  const storage = config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `the embedded database in ${config.dataDir}`;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  process.stdout.write(`notifier-relay listening on http://${host}:${running.port} (storage: ${storage})\n`);
  if (running.metricsPort !== undefined) log.info(`metrics on http://${config.metrics.host}:${running.metricsPort}/metrics`);

  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    const draining = signal === 'SIGTERM' && config.drainSeconds > 0;
    log.info(`${signal}: ${draining ? `not ready; closing in ${config.drainSeconds} s` : 'stopping'}`, { signal });
    exitWhenSettled(draining ? running.drain(config.drainSeconds * 1000) : running.close(), (error) =>
      log.error(`stopping failed: ${error.message}`),
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

/** A command runs, prints, and ends the process with its code; a refusal is one line on stderr. */
const command =
  <A extends unknown[]>(action: (...args: A) => Promise<number>) =>
  (...args: A): Promise<void> =>
    action(...args).then(
      (code) => process.exit(code),
      (error: unknown) => fail(error),
    );

function fail(error: unknown, what = 'failed'): never {
  const part = nativePartOf(error);
  if (error instanceof ConfigError || error instanceof StartError || error instanceof CommandError)
    process.stderr.write(`notifier-relay: ${error.message}\n`);
  else if (part) explainNativePart('notifier-relay', part, error as Error);
  else process.stderr.write(`notifier-relay: ${what}: ${(error as Error)?.stack ?? String(error)}\n`);
  process.exit(1);
}

const program = new Command()
  .name('notifier-relay')
  .description('The Notifier cloud relay, configured by environment variables (docs/relay.md). With no command: run the relay.')
  .version(RELAY_VERSION, '--version', "print the relay's version")
  .action(() => serve().catch((error: unknown) => fail(error, 'could not start')));
program
  .command('backup')
  .description('copy the embedded database, consistently, while the relay runs (on PostgreSQL: use pg_dump)')
  .argument('<file>', 'the copy to make (mode 0600)')
  .option('--force', 'replace <file> if it exists')
  .action(command((file: string, options: { force?: boolean }) => runBackup(file, options)));
program
  .command('check')
  .description('check the configuration, the database and its schema, and say what /ready would answer (exit 0: ready)')
  .option('--json', 'one JSON object instead of lines')
  .action(command((options: { json?: boolean }) => runCheck(options)));
program.parseAsync(process.argv).catch((error: unknown) => fail(error));
