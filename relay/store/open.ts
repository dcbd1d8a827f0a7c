import type { RelayConfig } from '../config.js';
import type { Backend } from './backend.js';
import { openPostgres } from './postgres.js';
import { openSqlite } from './sqlite.js';

/** PostgreSQL when DATABASE_URL is set, else the embedded database in the data folder; migrated either way. */
export function openStore(config: Pick<RelayConfig, 'databaseUrl' | 'dataDir'>): Promise<Backend> {
  return config.databaseUrl ? openPostgres(config.databaseUrl) : openSqlite(config.dataDir);
}
