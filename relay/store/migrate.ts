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

/** How the database's schema stands against the migrations this relay knows (`notifier-relay check`). */
export interface SchemaStatus {
  /** `behind`: the relay runs the missing migrations at its next start; `newer`: a newer relay has migrated it. */
  state: 'current' | 'behind' | 'newer';
  /** Migrations this relay knows. */
  known: number;
  /** Known migrations the database has not run. */
  missing: string[];
  /** Migrations the database has run that this relay does not know. */
  unknown: string[];
}

export async function schemaStatus(db: RelayDb, dialect: Dialect): Promise<SchemaStatus> {
  const known = Object.keys(migrations(dialect));
  const applied = new Set(await appliedMigrations(db));
  const unknown = [...applied].filter((name) => !known.includes(name)).sort();
  const missing = known.filter((name) => !applied.has(name));
  const state = unknown.length > 0 ? 'newer' : missing.length > 0 ? 'behind' : 'current';
  return { state, known: known.length, missing, unknown };
}

/**
 * A database a newer relay has migrated may hold what this one misreads or overwrites: refuse to start (an older
 * node of a rolling update) rather than serve from it.
 */
async function refuseNewerSchema(db: RelayDb, dialect: Dialect): Promise<void> {
  const { unknown } = await schemaStatus(db, dialect);
  if (unknown.length > 0)
    throw new Error(
      `the database's schema is newer than this relay knows (it has migration ${unknown.join(', ')}); run the newer relay version`,
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
