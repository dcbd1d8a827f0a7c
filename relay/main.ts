#!/usr/bin/env node
// `notifier-relay`: the cloud relay, configured by environment variables (docs/relay.md). Prints where it
// listens and where its secret is kept. SIGTERM drains (docs/relay.md, "Health, readiness and draining"): /ready
// says 503 at once, the connections close RELAY_DRAIN_S later. SIGINT (Ctrl-C at a terminal) closes at once.

import { ConfigError, loadConfig, resolveSecret } from './config.js';
import { configureLog, log } from './log.js';
import { startRelay } from './server.js';

/** A start-up failure whose message says it all (no stack). */
class StartError extends Error {}

async function main(): Promise<void> {
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
    (draining ? running.drain(config.drainSeconds * 1000) : running.close()).then(
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
  if (error instanceof ConfigError || error instanceof StartError) process.stderr.write(`notifier-relay: ${error.message}\n`);
  else process.stderr.write(`notifier-relay: could not start: ${(error as Error)?.stack ?? String(error)}\n`);
  process.exit(1);
});
