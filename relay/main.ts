#!/usr/bin/env node
// `notifier-relay`: the cloud relay, configured by environment variables (docs/relay.md). Prints where it
// listens and where its secret is kept, and stops cleanly on SIGINT or SIGTERM.

import { ConfigError, loadConfig, resolveSecret } from './config.js';
import { configureLog, log } from './log.js';
import { startRelay } from './server.js';

async function main(): Promise<void> {
  const config = loadConfig(process.env);
  configureLog(config.log);
  const secret = resolveSecret(config);
  if (secret.source === 'file') {
    log.info(
      `RELAY_SECRET is not set: ${secret.made ? 'made a new secret and keeps it' : 'using the secret kept'} in ${secret.file} (mode 0600)`,
    );
  }
  const running = await startRelay({ ...config, secret: secret.secret });
  const storage = config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `the embedded database in ${config.dataDir}`;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  process.stdout.write(`notifier-relay listening on http://${host}:${running.port} (storage: ${storage})\n`);
  if (running.metricsPort !== undefined) log.info(`metrics on http://${config.metrics.host}:${running.metricsPort}/metrics`);

  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    log.info(`${signal}: stopping`, { signal });
    running.close().then(
      () => process.exit(0),
      (error: Error) => {
        log.error(`stopping failed: ${error.message}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) process.stderr.write(`notifier-relay: ${error.message}\n`);
  else process.stderr.write(`notifier-relay: could not start: ${(error as Error)?.stack ?? String(error)}\n`);
  process.exit(1);
});
