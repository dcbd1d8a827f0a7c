// The statements a PostgreSQL batch (postgres.ts) sends around its jobs — BEGIN and the lock; before each job
// after the first, releasing one savepoint and opening the next — need no answer of their own before
// the next job's first statement. Sent alone, they were a round trip each: one per batch and one per job, a
// large share of a notification's. Instead a connection keeps them due and sends them with the next statement it
// is given, in one pipeline of the extended protocol (Parse, Bind, Execute of each, then one Sync): one round
// trip for all. The savepoint is still open before the job writes anything, so a job that fails rolls back
// alone; if a due statement fails, the statement after it is not run and gets the error.
//
// The other way round, a batch's NOTIFY and COMMIT may ride *after* a statement: its last job's last write, when no
// other job waits (postgres.ts, EndWithLastWrite; PipelineControl below). They run only if that statement succeeds
// (the server skips the rest of a pipeline after an error), so a write that fails leaves the transaction open, to be
// rolled back to the job's savepoint as ever; if they fail, the batch ends with their error.
//
// The runner speaks to its connection's `query` (postgres.ts wraps each pool client's) in SQL text marked by a
// leading comment (LATER, NOW, CONTROL): `later` texts are kept due, `now` texts are the runner's own statements,
// sent as one simple query after whatever is due; `control` answers with the pipeline's PipelineControl.

import { sql } from 'kysely';
import pg from 'pg';
import type { RelayDb } from './backend.js';

/** Marks the runner's text to be sent with the next statement. */
const LATER = '-- later\n';
/** Marks the runner's own text, sent now, after what is due. */
const NOW = '-- batch\n';
/** Marks the runner's request for the connection's pipeline itself (PipelineControl), answered at once. */
const CONTROL = '-- pipeline\n';
/** The runner's text after a job that failed: undo what it did, keeping the savepoint for the next job. */
const ROLLBACK_TO_SAVEPOINT = `${NOW}rollback to savepoint job`;

/** Due statements, one per element, as the extended protocol takes them (never a `;` inside one). */
const statementsOf = (text: string): string[] => text.split('; ');

/** The error of a COMMIT that answered ROLLBACK (see committed()). */
const ROLLED_BACK_AT_COMMIT = 'the transaction was rolled back at COMMIT: a statement in it had failed';

/** What `query` answers for the runner's texts it keeps due: nothing read, nothing changed. */
const NOTHING = { command: 'SAVEPOINT', rowCount: null, rows: [] };

/** Keeps the statements of `text` (several, no values) due: they go with the next statement on the connection. */
export const sendLater = (conn: RelayDb, text: string): Promise<unknown> => sql.raw(`${LATER}${text}`).execute(conn);

/** Runs the runner's statements (several, no values) after whatever is due, in one round trip. */
export const sendNow = (conn: RelayDb, text: string): Promise<unknown> => sql.raw(`${NOW}${text}`).execute(conn);

/**
 * After a job that failed: rolls back to its savepoint, which stays open for the next job. A job that sent
 * nothing left the statements before it due, and nothing to undo: they stay due (the savepoint in force holds
 * the previous job, which ended well, and must not be rolled back).
 */
export const rollBackJob = (conn: RelayDb): Promise<unknown> => sql.raw(ROLLBACK_TO_SAVEPOINT).execute(conn);

/** What the runner asks of its connection's pipeline directly. */
export interface PipelineControl {
  /**
   * Sends `statements` (no values) right after the next statement given, in its pipeline: they run if it succeeds.
   * If one of them fails, or COMMIT answers ROLLBACK, that statement gets the error, as from a due statement.
   */
  endWithNext(statements: string[]): void;
  /**
   * Whether the statements of endWithNext ran and COMMIT committed; forgets them either way (not sent yet: they
   * never will be; the statement before them failed: they did not run).
   */
  ended(): boolean;
}

/** The pipeline of the connection `conn` runs on (a batch's: postgres.ts). */
export const pipelineOf = async (conn: RelayDb): Promise<PipelineControl> =>
  (await sql.raw(CONTROL).execute(conn)).rows[0] as PipelineControl;

type Query = (config: unknown, values?: unknown) => unknown;
/** The parts of pg's connection the pipeline uses: its protocol messages, and the statements it has parsed. */
interface WireConnection {
  parse(config: { text: string }): void;
  bind(config: object): void;
  execute(config: object): void;
  sync(): void;
  parsedStatements: Record<string, string>;
}
/** The parts of pg's Query the pipeline changes. */
interface QueryInternals {
  portal: string;
  /** An error to answer at ReadyForQuery instead of the result. */
  _canceledDueToError: Error | false;
  prepare(connection: WireConnection): void;
  _getRows(connection: WireConnection): void;
  handleCommandComplete(message: unknown, connection: WireConnection): void;
  handleDataRow(message: unknown): void;
  handleError(error: Error, connection: WireConnection): void;
}
/** A statement as pg's `query` takes it: named where it is one of the relay's prepared statements. */
interface Statement {
  text: string;
  values: unknown[];
  name?: string;
}

/**
 * The `query` of a pool client: the relay's prepared statements named (`nameOf`, postgres.ts), and the batch
 * runner's statements kept due until the next statement.
 */
export function pipelinedQuery(client: pg.PoolClient, nameOf: (text: string) => string | undefined): Query {
  const query = client.query.bind(client) as Query;
  const wire = (client as unknown as { connection: WireConnection }).connection;
  let due: string[] = [];
  /** Statements to send after the next statement (PipelineControl.endWithNext), and whether they committed. */
  let after: string[] | undefined;
  let ended = false;
  const control: PipelineControl = {
    endWithNext: (statements) => {
      after = statements;
      ended = false;
    },
    ended: () => {
      const committed = ended;
      after = undefined;
      ended = false;
      return committed;
    },
  };
  /**
   * A due statement failed (its error went to the statement sent with it). The transaction is not what the
   * runner thinks: rolling back to "the" savepoint could undo a job that ended well, so the batch must end.
   */
  let stepFailed = false;
  const runSteps = (run: () => Promise<unknown>): Promise<unknown> =>
    run().catch((error: unknown) => {
      if ((error as { inSteps?: boolean }).inSteps) stepFailed = true;
      throw error;
    });
  return (config, values) => {
    if (typeof config !== 'string' || !Array.isArray(values)) return query(config, values);
    if (config === CONTROL) return Promise.resolve({ ...NOTHING, rows: [control] });
    if (config.startsWith(LATER)) {
      due.push(...statementsOf(config.slice(LATER.length)));
      return Promise.resolve(NOTHING);
    }
    if (config.startsWith(NOW)) {
      if (config === ROLLBACK_TO_SAVEPOINT && stepFailed) return Promise.reject(new Error('a statement of the batch itself failed'));
      if (config === ROLLBACK_TO_SAVEPOINT && due.length > 0) return Promise.resolve(NOTHING);
      stepFailed = false;
      const answer = query([...due.splice(0), config].join('; '), values) as Promise<unknown>;
      return config.endsWith('commit') ? answer.then(committed) : answer;
    }
    const name = nameOf(config);
    const statement: Statement = name ? { name, text: config, values } : { text: config, values };
    const last = after ?? [];
    after = undefined;
    if (due.length === 0 && last.length === 0) return name ? query(statement) : query(config, values);
    const steps = due;
    due = [];
    const sent = (before: string[]) =>
      runSteps(
        () =>
          new Promise((resolve, reject) =>
            query(
              aroundStatement(
                before,
                statement,
                last,
                (error, result) => (error ? reject(error) : resolve(result)),
                () => {
                  ended = true;
                },
              ),
            ),
          ),
      );
    // pg marks a named statement parsed when any Parse of its query completes, a due statement's too: a statement
    // not yet parsed on this connection goes after them, not with them, or a due statement that failed would
    // leave it marked parsed though it is not.
    if (steps.length > 0 && name && wire.parsedStatements[name] === undefined)
      return runSteps(() =>
        (query(steps.join('; '), []) as Promise<unknown>).catch((error: Error) => {
          throw Object.assign(error, { inSteps: true });
        }),
      ).then(() => sent([]));
    return sent(steps);
  };
}

/**
 * The answer of the runner's own statements. COMMIT of a transaction in which a statement failed (and was not
 * rolled back to a savepoint) rolls it back without an error, answering ROLLBACK: nothing of it is stored, so
 * none of its jobs may be answered as done.
 */
function committed(result: unknown): unknown {
  const last = (Array.isArray(result) ? result[result.length - 1] : result) as { command?: string } | undefined;
  if (last?.command === 'ROLLBACK') throw new Error(ROLLED_BACK_AT_COMMIT);
  return result;
}

/**
 * pg's Query for one statement, preceded in the same pipeline by the due statements (`before`) and followed by
 * `after` (the batch's end: `onCommitted` is called when its COMMIT committed).
 */
function aroundStatement(
  before: string[],
  statement: Statement,
  after: string[],
  done: (error: Error | undefined, result: unknown) => void,
  onCommitted: () => void,
): pg.Query {
  const query = new pg.Query({ ...statement, queryMode: 'extended' } as pg.QueryConfig, done);
  const internals = query as unknown as QueryInternals;
  const prepare = internals.prepare.bind(query);
  const commandComplete = internals.handleCommandComplete.bind(query);
  const dataRow = internals.handleDataRow.bind(query);
  const handleError = internals.handleError.bind(query);
  let beforeToAnswer = before.length;
  let answered = false; // the statement's own CommandComplete came: what follows is `after`'s
  let afterToAnswer = after.length;
  const sendEach = (connection: WireConnection, texts: string[]) => {
    for (const text of texts) {
      connection.parse({ text });
      connection.bind({});
      connection.execute({});
    }
  };
  internals.prepare = (connection) => {
    sendEach(connection, before);
    prepare(connection); // the statement's own Parse (unless parsed), Bind, Describe, then _getRows
  };
  // pg's own _getRows (no row limit here): Execute, then the Sync that ends the pipeline — with `after` between.
  internals._getRows = (connection) => {
    connection.execute({ portal: internals.portal, rows: undefined });
    sendEach(connection, after);
    connection.sync();
  };
  // Only the statement's own rows are its result (the lock's row comes before them, NOTIFY's after).
  internals.handleDataRow = (message) => {
    if (beforeToAnswer === 0 && !answered) dataRow(message);
  };
  // An error before the statement is a due statement's (the statement did not run), one after it `after`'s: the
  // batch's own statements failed.
  internals.handleError = (error, connection) => handleError(Object.assign(error, { inSteps: beforeToAnswer > 0 || answered }), connection);
  internals.handleCommandComplete = (message, connection) => {
    if (beforeToAnswer > 0) beforeToAnswer -= 1;
    else if (!answered) {
      answered = true;
      commandComplete(message, connection);
    } else if (--afterToAnswer === 0) {
      // COMMIT of a transaction in which a statement failed unseen rolls it back and says so (see committed()).
      if ((message as { text?: string }).text === 'ROLLBACK') internals._canceledDueToError = new Error(ROLLED_BACK_AT_COMMIT);
      else onCommitted();
    }
  };
  return query;
}
