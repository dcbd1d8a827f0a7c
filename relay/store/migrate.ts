import { Migrator, sql } from 'kysely';
import type { Dialect, RelayDb } from './backend.js';
import { migrations } from './migrations/index.js';

const MIGRATION_TABLE = 'relay_migrations';

/**
 * Brings the database's schema up to date (both backends). Nodes starting together migrate once: Kysely's
 * migrator holds a lock while it runs (PostgreSQL: an advisory lock; SQLite: its write lock), the others wait
 * and then find nothing to do.
 */
export async function migrate(db: RelayDb, dialect: Dialect): Promise<void> {
  await refuseNewerSchema(db, dialect);
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations(dialect) },
    migrationTableName: MIGRATION_TABLE,
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

/** The migrations the database says it has run (none on a new database). */
async function appliedMigrations(db: RelayDb): Promise<string[]> {
  const tables = await db.introspection.getTables();
  if (!tables.some((table) => table.name === MIGRATION_TABLE)) return [];
  const rows = await sql<{ name: string }>`select name from ${sql.table(MIGRATION_TABLE)}`.execute(db);
  return rows.rows.map((row) => row.name);
}

/**
 * A database a newer relay has migrated may hold what this one misreads or overwrites: refuse to start (an older
 * node of a rolling update) rather than serve from it.
 */
async function refuseNewerSchema(db: RelayDb, dialect: Dialect): Promise<void> {
  const known = new Set(Object.keys(migrations(dialect)));
  const unknown = (await appliedMigrations(db)).filter((name) => !known.has(name));
  if (unknown.length > 0)
    throw new Error(
      `the database's schema is newer than this relay knows (it has migration ${unknown.sort().join(', ')}); run the newer relay version`,
    );
}

/**
 * /ready's question: does the database answer, and has it run exactly the migrations this relay knows? A cheap
 * read of one small table.
 */
export async function schemaIsCurrent(db: RelayDb, dialect: Dialect): Promise<boolean> {
  const rows = await sql<{ n: number | string }>`select count(*) as n from ${sql.table(MIGRATION_TABLE)}`.execute(db);
  return Number(rows.rows[0]?.n) === Object.keys(migrations(dialect)).length;
}
