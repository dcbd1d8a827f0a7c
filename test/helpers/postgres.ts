import { createDatabase as createOn, POSTGRES_ENV } from '../../bench/rigs/postgres.js';

/** A new, empty database on the run's private PostgreSQL server (started by jest's globalSetup). */
export async function createDatabase(): Promise<string> {
  const base = process.env[POSTGRES_ENV];
  if (!base) throw new Error(`${POSTGRES_ENV} is not set: the PostgreSQL tests need jest's globalSetup (bench/rigs/postgres.ts)`);
  return createOn(base);
}
