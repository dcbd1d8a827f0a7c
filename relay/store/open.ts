// Where the relay's state lives (docs/relay.md, "Storage"), opened and migrated.

import type { Backend } from './backend.js';
import { openPostgres } from './postgres.js';
import { openSqlite } from './sqlite.js';

/** DATABASE_URL and RELAY_DATA_DIR, as relay/config.ts read them. */
export interface StorageSettings {
  /** A postgres:// URL, or undefined for the embedded database. */
  databaseUrl: string | undefined;
  /** The data folder: the embedded database's file lives there. */
  dataDir: string;
}

/** PostgreSQL when DATABASE_URL is set, else the embedded database in the data folder; migrated either way. */
export function openStore(settings: StorageSettings): Promise<Backend> {
  return settings.databaseUrl ? openPostgres(settings.databaseUrl) : openSqlite(settings.dataDir);
}
