// jest globalTeardown: stops the run's PostgreSQL server (rigs/postgres.ts, the globalSetup) by PID and
// removes its folder.
import type { PostgresServer } from '../../rigs/postgres.js';

export default async function teardown(): Promise<void> {
  await (globalThis as { notifierPostgres?: PostgresServer }).notifierPostgres?.stop();
}
