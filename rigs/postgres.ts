// A private PostgreSQL server, shared by the tests and the benchmarks: initdb in a temporary folder, the server
// on its own port and unix-socket folder, trust authentication (local test use only), stopped by PID and its
// folder removed at the end. For the tests, jest's globalSetup is this file's default export: it starts one
// server for the run and puts its address in NOTIFIER_TEST_POSTGRES (test/helpers/postgres-teardown.ts stops
// it); each test makes its own database with createDatabase(). jest loads a globalSetup without its module
// mapping, so this file imports no file of the repository: only Node and `pg`.
//
// PostgreSQL refuses to run as root: when the tests run as root (CI does), initdb and the server run as the
// `postgres` user the Debian package creates, through setpriv (which execs, so the PID is the server's own).

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import net from 'node:net';

export const POSTGRES_ENV = 'NOTIFIER_TEST_POSTGRES';
const SUPERUSER = 'relaytest';

export interface PostgresServer {
  /** `postgres://relaytest@127.0.0.1:<port>` (add `/<database>`). */
  baseUrl: string;
  pid: number;
  folder: string;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The folder of initdb and postgres: the newest /usr/lib/postgresql/<version>/bin, else the one on PATH. */
export function postgresBinDir(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(path.join(root, v, 'bin', 'postgres')))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length > 0) return path.join(root, versions[0]!, 'bin');
  const found = spawnSync('sh', ['-c', 'command -v postgres'], { encoding: 'utf8' }).stdout.trim();
  if (found) return path.dirname(found);
  throw new Error('PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/postgres): run `node scripts/setup.mjs --for-tests`');
}

/** As root: run as the `postgres` user. */
export function asServerUser(command: string, args: string[]): [string, string[]] {
  if (process.getuid?.() !== 0) return [command, args];
  return ['setpriv', ['--reuid=postgres', '--regid=postgres', '--init-groups', command, ...args]];
}

function serverUserIds(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  const id = (flag: string): number => Number(spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' }).stdout.trim());
  const uid = id('-u');
  if (!Number.isInteger(uid) || uid <= 0) throw new Error('running as root, but there is no `postgres` user to run PostgreSQL as');
  return { uid, gid: id('-g') };
}

/** `settings`: more of the server's configuration, as `name=value`. */
export async function startPostgres(settings: string[] = []): Promise<PostgresServer> {
  const bin = postgresBinDir();
  const folder = mkdtempSync(path.join(os.tmpdir(), 'notifier-pg-'));
  const owner = serverUserIds();
  if (owner) chownSync(folder, owner.uid, owner.gid);
  const data = path.join(folder, 'data');
  try {
    const [initdb, initArgs] = asServerUser(path.join(bin, 'initdb'), [
      '-D',
      data,
      '-U',
      SUPERUSER,
      '--auth=trust',
      '--no-sync',
      '-E',
      'UTF8',
      '--locale=C',
    ]);
    const init = spawnSync(initdb, initArgs, { encoding: 'utf8' });
    if (init.status !== 0) throw new Error(`initdb failed (${init.status}):\n${init.stdout}${init.stderr}`);
  } catch (error) {
    rmSync(folder, { recursive: true, force: true });
    throw error;
  }

  const port = await freePort();
  const [postgres, args] = asServerUser(path.join(bin, 'postgres'), [
    '-D',
    data,
    '-p',
    String(port),
    '-k',
    folder,
    '-c',
    'listen_addresses=127.0.0.1',
    '-c',
    'max_connections=400',
    '-c',
    'shared_buffers=64MB',
    ...settings.flatMap((setting) => ['-c', setting]),
  ]);
  const child = spawn(postgres, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  child.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const keeper = startKeeper(child.pid!, folder);
  const baseUrl = `postgres://${SUPERUSER}@127.0.0.1:${port}`;
  const server: PostgresServer = {
    baseUrl,
    pid: child.pid!,
    folder,
    stop: async () => {
      await stopChild(child);
      rmSync(folder, { recursive: true, force: true });
      keeper.stdin!.end(); // nothing left for it to do
    },
  };
  try {
    await waitUntilReady(baseUrl, child, () => log);
  } catch (error) {
    await server.stop();
    throw error;
  }
  return server;
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGINT'); // PostgreSQL's fast shutdown
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

export async function waitUntilReady(baseUrl: string, child: ChildProcess, log: () => string): Promise<void> {
  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`PostgreSQL exited (${child.exitCode}):\n${log()}`);
    const client = new pg.Client({ connectionString: `${baseUrl}/postgres` });
    try {
      await client.connect();
      await client.end();
      return;
    } catch {
      await client.end().catch(() => undefined);
    }
    if (Date.now() - started > 30_000) throw new Error(`PostgreSQL did not accept connections within 30 s:\n${log()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * A watchdog in its own process: when the test run ends without stopping the server (killed, crashed), its
 * end of the pipe closes, and it stops the server by PID and removes the folder.
 */
export function startKeeper(pid: number, folder: string): ChildProcess {
  const script = `
    const { rmSync, readFileSync } = require('node:fs');
    process.on('SIGINT', () => {}); process.on('SIGTERM', () => {});
    process.stdin.resume();
    process.stdin.on('end', () => {
      const alive = () => { try { return readFileSync('/proc/${pid}/cmdline', 'utf8').includes('postgres'); } catch { return false; } };
      if (alive()) { try { process.kill(${pid}, 'SIGINT'); } catch {} }
      const until = Date.now() + 10000;
      const wait = () => {
        if (alive() && Date.now() < until) return setTimeout(wait, 100);
        if (alive()) { try { process.kill(${pid}, 'SIGKILL'); } catch {} }
        rmSync(${JSON.stringify(folder)}, { recursive: true, force: true });
        process.exit(0);
      };
      wait();
    });`;
  const keeper = spawn(process.execPath, ['-e', script], { stdio: ['pipe', 'ignore', 'ignore'] });
  keeper.unref();
  (keeper.stdin as unknown as { unref?: () => void }).unref?.();
  return keeper;
}

/** Clock ticks per second of /proc's CPU times (USER_HZ: 100 on Linux). */
const PROC_TICKS_PER_SECOND = 100;

/** Fields 14-17 of /proc/<pid>/stat (utime, stime, cutime, cstime) and field 4 (the parent), in ticks. */
function procTimes(pid: string): { parent: string; own: number; children: number } | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined; // it exited meanwhile
  }
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // fields[0] is field 3 (state)
  return { parent: fields[1]!, own: Number(fields[11]) + Number(fields[12]), children: Number(fields[13]) + Number(fields[14]) };
}

/**
 * CPU time (ms) the server has used so far, all its processes together: the postmaster's own and that of the
 * backends it has reaped (its children's times), plus each live backend's own. For the benchmarks' CPU shares.
 */
export function serverCpuMs(server: Pick<PostgresServer, 'pid'>): number {
  const main = procTimes(String(server.pid));
  if (!main) return NaN;
  let ticks = main.own + main.children;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    const times = procTimes(pid);
    if (times?.parent === String(server.pid)) ticks += times.own;
  }
  return (ticks * 1000) / PROC_TICKS_PER_SECOND;
}

/** A new, empty database on a server; returns its URL. */
export async function createDatabase(baseUrl: string): Promise<string> {
  const name = `relay_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: `${baseUrl}/postgres` });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  return `${baseUrl}/${name}`;
}

/** jest globalSetup: one server for the whole test run. */
export default async function startForTestRun(): Promise<void> {
  const server = await startPostgres();
  process.env[POSTGRES_ENV] = server.baseUrl;
  (globalThis as { notifierPostgres?: PostgresServer }).notifierPostgres = server;
}
