// Between two jobs of a PostgreSQL batch (postgres.ts) the savepoint of the one that ended is released and the
// next one's opened. Sent alone, that is a round trip per job: about a quarter of a notification's. Instead, a
// connection keeps it due and sends it with the next job's first statement, in one pipeline of the extended
// protocol (Parse, Bind, Execute for each of the three statements, then one Sync): one round trip for both. The
// savepoint is still open before the job writes anything, so a job that fails still rolls back alone.
//
// The batch runner says so in SQL text it sends on the batch's connection (NEXT_SAVEPOINT, ROLLBACK_TO_SAVEPOINT):
// the connection's `query` (postgres.ts wraps each pool client's) recognises those texts and never sends them as
// they are.

import pg from 'pg';

/** The runner's text between two jobs that ended well: release the savepoint, open the next job's. */
export const NEXT_SAVEPOINT = 'release savepoint job; savepoint job';
/** The runner's text after a job that failed: undo what it did, keeping the savepoint for the next job. */
export const ROLLBACK_TO_SAVEPOINT = 'rollback to savepoint job';
/** The runner's text when the whole transaction is given up. */
export const ROLLBACK = 'rollback';
/** NEXT_SAVEPOINT as single statements, as the extended protocol takes them. */
const SAVEPOINT_STEPS = ['release savepoint job', 'savepoint job'];

/** What `query` answers for the runner's savepoint texts it keeps back: nothing read, nothing changed. */
const NOTHING = { command: 'SAVEPOINT', rowCount: null, rows: [] };

type Query = (config: unknown, values?: unknown) => unknown;
/** The parts of pg's connection the pipeline uses: its protocol messages, and the statements it has parsed. */
interface WireConnection {
  parse(config: { text: string; name?: string }): void;
  bind(config: object): void;
  execute(config: object): void;
  parsedStatements: Record<string, string>;
}
/** The parts of pg's Query the pipeline changes. */
interface QueryInternals {
  prepare(connection: WireConnection): void;
  handleCommandComplete(message: unknown, connection: WireConnection): void;
}

/** A statement as pg's `query` takes it: named where it is one of the relay's prepared statements. */
interface Statement {
  text: string;
  values: unknown[];
  name?: string;
}

/**
 * The `query` of a pool client: the relay's prepared statements named (`nameOf`, postgres.ts), and the savepoint
 * between two jobs sent with the next statement.
 */
export function pipelinedQuery(client: pg.PoolClient, nameOf: (text: string) => string | undefined): Query {
  const query = client.query.bind(client) as Query;
  const wire = (client as unknown as { connection: WireConnection }).connection;
  /** A job ended well: the next statement must release its savepoint and open the next job's first. */
  let savepointDue = false;
  return (config, values) => {
    if (typeof config !== 'string' || !Array.isArray(values)) return query(config, values);
    if (config === NEXT_SAVEPOINT) {
      savepointDue = true;
      return Promise.resolve(NOTHING);
    }
    const name = nameOf(config);
    const statement: Statement = name ? { name, text: config, values } : { text: config, values };
    if (!savepointDue) return name ? query(statement) : query(config, values);
    // The job after the savepoint sent nothing, so there is nothing to undo: the savepoint stays due (the one
    // in force holds the previous job, which ended well, and must not be rolled back).
    if (config === ROLLBACK_TO_SAVEPOINT) return Promise.resolve(NOTHING);
    savepointDue = false;
    if (config === ROLLBACK) return query(config, values); // the whole transaction goes: nothing to release
    // pg marks a named statement parsed when any Parse of its query completes, the savepoint's too: a statement
    // not yet parsed on this connection goes after the savepoint, not with it, or a failed savepoint would leave
    // it marked parsed though it is not.
    if (name && wire.parsedStatements[name] === undefined)
      return (query(NEXT_SAVEPOINT, []) as Promise<unknown>).then(() => query(statement));
    return new Promise((resolve, reject) => query(afterSavepoint(statement, (error, result) => (error ? reject(error) : resolve(result)))));
  };
}

/** pg's Query for one statement, preceded in the same pipeline by releasing the savepoint and opening the next. */
function afterSavepoint(statement: Statement, done: (error: Error | undefined, result: unknown) => void): pg.Query {
  const query = new pg.Query({ ...statement, queryMode: 'extended' } as pg.QueryConfig, done);
  const internals = query as unknown as QueryInternals;
  const prepare = internals.prepare.bind(query);
  const commandComplete = internals.handleCommandComplete.bind(query);
  let stepsToAnswer = SAVEPOINT_STEPS.length;
  internals.prepare = (connection) => {
    for (const text of SAVEPOINT_STEPS) {
      connection.parse({ text });
      connection.bind({});
      connection.execute({});
    }
    prepare(connection); // the statement's own Parse (unless parsed), Bind, Describe, Execute, and the Sync
  };
  // The savepoint steps' CommandComplete messages come first: they are not the statement's result.
  internals.handleCommandComplete = (message, connection) => {
    if (stepsToAnswer > 0) stepsToAnswer -= 1;
    else commandComplete(message, connection);
  };
  return query;
}
