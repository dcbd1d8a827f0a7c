// The relay's database as `notifier-relay check` and `backup` open it: the same storage the relay would use (the
// same configuration), without migrating it or starting anything, and closed again at once.

import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import { existsSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import type { RelayConfig } from '../config.js';
import { READY_QUERY_TIMEOUT_MS } from '../limits.js';
import type { Dialect, RelayDb } from '../store/backend.js';
import type { RelayDatabase } from '../store/schema.js';
import { SQLITE_FILE, sqliteKeptForLife } from '../store/sqlite.js';

/** One connection is all a check needs; it must not hold a slot of the relay's PostgreSQL connections long. */
const INSPECTION_POOL_SIZE = 1;

export interface OpenedDatabase {
  db: RelayDb;
  dialect: Dialect;
  close(): Promise<void>;
}

/** Where the relay keeps its state, in words. */
export function storageName(config: Pick<RelayConfig, 'databaseUrl' | 'dataDir'>): string {
  return config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `the embedded database ${embeddedFile(config)}`;
}

export const embeddedFile = (config: Pick<RelayConfig, 'dataDir'>): string => path.join(config.dataDir, SQLITE_FILE);

/**
 * The relay's database; undefined for an embedded one not made yet. A PostgreSQL server that does not answer fails
 * the first query (within READY_QUERY_TIMEOUT_MS), not this call.
 */
export function openDatabase(config: Pick<RelayConfig, 'databaseUrl' | 'dataDir'>): OpenedDatabase | undefined {
  if (config.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: config.databaseUrl,
      max: INSPECTION_POOL_SIZE,
      connectionTimeoutMillis: READY_QUERY_TIMEOUT_MS,
    });
    pool.on('error', () => undefined); // a broken idle connection: the query that needs it reports it
    const db = new Kysely<RelayDatabase>({ dialect: new PostgresDialect({ pool }) });
    return { db, dialect: 'postgres', close: () => db.destroy() };
  }
  const file = embeddedFile(config);
  if (!existsSync(file)) return undefined;
  const { statements } = sqliteKeptForLife(file);
  const db = new Kysely<RelayDatabase>({ dialect: new SqliteDialect({ database: statements }) });
  return { db, dialect: 'sqlite', close: () => db.destroy() };
}
