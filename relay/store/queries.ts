// Small query helpers the relay's modules share, Kysely building them for either dialect: a count of rows, and a
// list of values bound as one value. A list is one value so that one SQL text serves a list of any length: SQLite
// keeps a prepared statement per SQL text (sqlite.ts) and PostgreSQL a named statement per prepared query
// (postgres.ts), where `in ($1, $2, ...)` would make a new text for every length. There the dialects really
// differ: PostgreSQL binds an array, SQLite has no arrays and reads a JSON list.

import { sql, type RawBuilder, type SelectQueryBuilder, type StringReference } from 'kysely';
import type { Dialect, RelayDb } from './backend.js';
import type { RelayDatabase } from './schema.js';

/** How many rows `query` selects (count(*), a number on both dialects). */
export async function countRows<TB extends keyof RelayDatabase>(query: SelectQueryBuilder<RelayDatabase, TB, object>): Promise<number> {
  const row = await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Deletes the rows of `table` whose time `column` (milliseconds) is at or before `cutoff`: what outlived its use. */
export async function deleteUpTo<T extends keyof RelayDatabase>(
  db: RelayDb,
  table: T,
  column: StringReference<RelayDatabase, T>,
  cutoff: number,
): Promise<void> {
  // Kysely cannot type a condition on a table named by a type parameter; `column` is checked against `table` above.
  await db
    .deleteFrom(table as keyof RelayDatabase)
    .where(sql.ref(column), '<=', cutoff)
    .execute();
}

/**
 * `column` is one of `values`. On SQLite the list is bound as its JSON text, so it cannot be an argument of a
 * prepared query there (prepared.ts binds arguments as they are); on PostgreSQL it can.
 */
export function oneOf(dialect: Dialect, column: string, values: readonly string[]): RawBuilder<boolean> {
  return dialect === 'postgres'
    ? sql<boolean>`${sql.ref(column)} = any(cast(${values} as text[]))`
    : sql<boolean>`${sql.ref(column)} in (select value from json_each(${JSON.stringify(values)}))`;
}

/**
 * The rows whose `columns` hold the i-th values of `arrays` together, for any i: several computers' rows in one
 * statement. PostgreSQL only (unnest of arrays); what uses it runs in the groups of PostgreSQL's group commit.
 */
export function rowsIn(columns: readonly string[], arrays: readonly unknown[]): RawBuilder<boolean> {
  const tuple = sql.join(columns.map((column) => sql.ref(column)));
  const unnested = sql.join(arrays.map((array) => sql`cast(${array} as text[])`));
  return sql<boolean>`(${tuple}) in (select * from unnest(${unnested}))`;
}
