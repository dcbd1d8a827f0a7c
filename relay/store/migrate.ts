import { Migrator } from 'kysely';
import type { Dialect, RelayDb } from './backend.js';
import { migrations } from './migrations/index.js';

/** Brings the database's schema up to date (both backends; PostgreSQL nodes starting together migrate once). */
export async function migrate(db: RelayDb, dialect: Dialect): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations(dialect) },
    migrationTableName: 'relay_migrations',
    migrationLockTableName: 'relay_migrations_lock',
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((result) => result.status === 'Error')?.migrationName;
    throw new Error(
      `the database could not be migrated${failed ? ` (migration ${failed})` : ''}: ${(error as Error).message ?? String(error)}`,
    );
  }
}
