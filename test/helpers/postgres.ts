import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  asServerUser,
  createDatabase as createOn,
  POSTGRES_ENV,
  postgresBinDir,
  startKeeper,
  startPostgres,
  waitUntilReady,
} from '../../rigs/postgres.js';

/** A new, empty database on the run's private PostgreSQL server (started by jest's globalSetup). */
export async function createDatabase(): Promise<string> {
  const base = process.env[POSTGRES_ENV];
  if (!base) throw new Error(`${POSTGRES_ENV} is not set: the PostgreSQL tests need jest's globalSetup (rigs/postgres.ts)`);
  return createOn(base);
}

/**
 * A PostgreSQL server of one test's own, which the test may restart: the run's shared server must never go away
 * under the other test files running beside it.
 */
export interface OwnPostgres {
  readonly baseUrl: string;
  createDatabase(): Promise<string>;
  /**
   * Restarts the server as an administrator would: a fast shutdown (every connection ends, new ones are
   * refused), `whileDown` runs against the stopped server, then it starts again on the same port and data folder
   * and answers before this resolves.
   */
  restart(whileDown: () => Promise<void>): Promise<void>;
  /** Stops it for good (by PID) and removes its folder. */
  stop(): Promise<void>;
}

/** How long a fast shutdown may take before the server is killed (it ends its connections and writes a checkpoint). */
const SHUTDOWN_MS = 10_000;

export async function startOwnPostgres(): Promise<OwnPostgres> {
  const server = await startPostgres();
  // The server's own record of how it was started (its arguments, quoted): the restart repeats them exactly.
  const options = readFileSync(path.join(server.folder, 'data', 'postmaster.opts'), 'utf8');
  const args = [...options.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((match) => match[1]!);
  let pid = server.pid;
  /** The watchdogs of the restarted servers: ended only at the very end, since each removes the folder then. */
  const keepers: ChildProcess[] = [];

  const stopCurrent = async (): Promise<void> => {
    signal(pid, 'SIGINT'); // PostgreSQL's fast shutdown
    const deadline = Date.now() + SHUTDOWN_MS;
    while (alive(pid) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    if (alive(pid)) signal(pid, 'SIGKILL');
  };

  const startAgain = async (): Promise<void> => {
    const [command, commandArgs] = asServerUser(path.join(postgresBinDir(), 'postgres'), args);
    const child = spawn(command, commandArgs, { stdio: ['ignore', 'ignore', 'pipe'] });
    let log = '';
    child.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
    // The first server's watchdog knows only the first PID: this one gets its own, in case the test run dies.
    keepers.push(startKeeper(child.pid!, server.folder));
    pid = child.pid!;
    await waitUntilReady(server.baseUrl, child, () => log);
  };

  return {
    baseUrl: server.baseUrl,
    createDatabase: () => createOn(server.baseUrl),
    restart: async (whileDown) => {
      await stopCurrent();
      try {
        await whileDown();
      } finally {
        await startAgain();
      }
    },
    stop: async () => {
      if (keepers.length > 0) await stopCurrent();
      await server.stop(); // its first process has exited already when it was restarted: this removes the folder
      for (const keeper of keepers) keeper.stdin!.end();
    },
  };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // gone already
  }
}
