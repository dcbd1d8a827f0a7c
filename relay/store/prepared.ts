// Queries the relay runs on every request, built and compiled by Kysely once (per dialect) and then run with new
// values. Building and compiling a query costs Kysely more than running it costs SQLite, and these queries
// differ from one request to the next only in their values (docs/performance.md, "Relay").

import { CompiledQuery, PostgresAdapter, type Compilable, type QueryResult } from 'kysely';
import type { RelayDb } from './backend.js';

/**
 * Runs a compiled query at once, without Kysely's executor: where a store can (sqlite.ts, inside a batch, which
 * holds the one connection: each statement runs synchronously on it). The executor's connection provider and
 * promises cost about as much per statement as SQLite takes to run a small one.
 */
export type DirectRun = (sql: string, parameters: readonly unknown[]) => QueryResult<unknown>;

const directRuns = new WeakMap<RelayDb, DirectRun>();

/**
 * The SQL texts of every prepared query compiled so far: a fixed set written in the relay's code. PostgreSQL
 * keeps these as named statements on each connection (postgres.ts), parsed and planned once rather than per call.
 */
export const preparedTexts = new Set<string>();

/** From now on, prepared queries on `db` (a transaction's handle) run through `run`. */
export function runPreparedDirectly(db: RelayDb, run: DirectRun): void {
  directRuns.set(db, run);
}

/** Stands for the i-th argument while the query is built; replaced by the argument's value when it runs. */
class Slot {
  constructor(readonly index: number) {}
}

export interface Prepared<A extends unknown[], R> {
  all(db: RelayDb, ...args: A): Promise<R[]>;
  first(db: RelayDb, ...args: A): Promise<R | undefined>;
  /** Runs it; the number of rows it changed. */
  run(db: RelayDb, ...args: A): Promise<number>;
  /** The query as compiled for `db`'s dialect, with the arguments' values in place. */
  bind(db: RelayDb, args: A): { sql: string; parameters: unknown[] };
}

/**
 * A query whose values are the arguments of `build` after `db` (`arity` of them: say so when `build` takes a rest
 * parameter). Each argument must reach the query as a value (a parameter), never as a name or a list:
 * compiling checks that each appears.
 */
export function prepared<A extends unknown[], R>(
  build: (db: RelayDb, ...args: A) => Compilable<R>,
  arity = build.length - 1,
): Prepared<A, R> {
  const compiled = new Map<unknown, CompiledQuery<R>>();

  const compile = (db: RelayDb): CompiledQuery<R> => {
    const dialect = db.getExecutor().adapter.constructor;
    let query = compiled.get(dialect);
    if (!query) {
      const slots = Array.from({ length: arity }, (_, index) => new Slot(index)) as unknown as A;
      query = build(db, ...slots).compile();
      const used = new Set(query.parameters.filter((p): p is Slot => p instanceof Slot).map((slot) => slot.index));
      if (used.size !== arity) throw new Error(`a prepared query uses ${used.size} of its ${arity} arguments as values: ${query.sql}`);
      compiled.set(dialect, query);
      preparedTexts.add(query.sql);
    }
    return query;
  };

  const valuesOf = (query: CompiledQuery<R>, args: A): unknown[] =>
    query.parameters.map((value) => (value instanceof Slot ? args[value.index] : value));

  const bind = (db: RelayDb, args: A) => {
    const query = compile(db);
    return { sql: query.sql, parameters: valuesOf(query, args) };
  };

  const execute = async (db: RelayDb, args: A): Promise<QueryResult<R>> => {
    const query = compile(db);
    const parameters = valuesOf(query, args);
    const direct = directRuns.get(db);
    if (direct) return direct(query.sql, parameters) as QueryResult<R>;
    // The compiled query with the values in place: a plain object, not CompiledQuery.raw, which builds and
    // freezes four new objects per call (the query node and id are only read by plugins; the relay has none).
    return db.executeQuery<R>({ ...query, parameters });
  };

  return {
    all: async (db, ...args) => (await execute(db, args)).rows,
    first: async (db, ...args) => (await execute(db, args)).rows[0],
    run: async (db, ...args) => Number((await execute(db, args)).numAffectedRows ?? 0n),
    bind,
  };
}

/** A prepared write and its arguments, to run later, with others (runWrites). */
export interface Write {
  query: Prepared<never[], unknown>;
  args: unknown[];
}

export const write = <A extends unknown[]>(query: Prepared<A, unknown>, ...args: A): Write => ({
  query: query as unknown as Prepared<never[], unknown>,
  args,
});

/** Whether runWrites makes one statement of several writes on `db`: PostgreSQL, where each statement is a round trip. */
export const combinesWrites = (db: RelayDb): boolean => db.getExecutor().adapter instanceof PostgresAdapter;

/**
 * Runs independent writes (none reads what another writes) in one round trip where the dialect can say it:
 * on PostgreSQL one statement, the writes before the last as data-modifying parts of its WITH; elsewhere (SQLite,
 * where a statement costs no round trip) one after the other.
 */
export async function runWrites(db: RelayDb, writes: Write[]): Promise<void> {
  if (!combinesWrites(db) || writes.length < 2) {
    for (const { query, args } of writes) await query.run(db, ...(args as never[]));
    return;
  }
  const bound = writes.map(({ query, args }) => query.bind(db, args as never[]));
  const parameters: unknown[] = [];
  const parts = bound.map(({ sql, parameters: values }) => {
    const offset = parameters.length;
    parameters.push(...values);
    return sql.replace(/\$(\d+)/g, (_, n: string) => `$${Number(n) + offset}`); // PostgreSQL's placeholders are $1, $2, ...
  });
  const last = parts.pop()!;
  const text = `with ${parts.map((part, i) => `w${i} as (${part})`).join(', ')} ${last}`;
  preparedTexts.add(text); // one text per combination the relay's code makes: a small, fixed set
  await db.executeQuery(CompiledQuery.raw(text, parameters));
}
