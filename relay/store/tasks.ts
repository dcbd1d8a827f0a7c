// The background tasks' table (docs/relay.md, "Several nodes"): when each task is due next. What both backends do
// with it alike is here, one Kysely query for either; only how a task is claimed differs (Backend.claimTask:
// SQLite serves one process, so a due row is enough; PostgreSQL locks the row FOR UPDATE SKIP LOCKED, so one node
// of several runs it).

import type { RelayDb } from './backend.js';

/** The earliest time any task is due (undefined when there are none). */
export async function nextTaskDue(db: RelayDb): Promise<number | undefined> {
  const row = await db
    .selectFrom('tasks')
    .select((eb) => eb.fn.min<number>('due_at').as('due'))
    .executeTakeFirst();
  return row?.due ?? undefined;
}

/**
 * The tasks not due at `now`: one look at the table, so a wake-up does not claim (a transaction each, on PostgreSQL)
 * every task only to learn it is not due. A task without a row yet is not among them; the claim decides.
 */
export async function tasksNotDue(db: RelayDb, now: number): Promise<Set<string>> {
  const later = await db.selectFrom('tasks').select('name').where('due_at', '>', now).execute();
  return new Set(later.map((row) => row.name));
}

/** Task `name` is due again at `dueAt` (its row is made if it has none yet). */
export async function setTaskDue(db: RelayDb, name: string, dueAt: number): Promise<void> {
  await db
    .insertInto('tasks')
    .values({ name, due_at: dueAt })
    .onConflict((oc) => oc.column('name').doUpdateSet({ due_at: dueAt }))
    .execute();
}
