import { randomBytes } from 'node:crypto';
import { chmod, mkdir, open, readFile, stat, unlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { TOKEN_BYTES } from '../protocol/limits.js';
import { log } from './log.js';
import { writeFileDurably } from './store/durable-file.js';

const TOKEN_PATTERN = new RegExp(`^[0-9a-f]{${TOKEN_BYTES * 2}}$`);

/**
 * The support folder (docs/api/README.md#g4; docs/storage.md): `NOTIFIER_SUPPORT_DIR`, else the platform's place for an
 * application's data.
 */
export function defaultSupportDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.NOTIFIER_SUPPORT_DIR) return path.resolve(env.NOTIFIER_SUPPORT_DIR);
  return platformSupportDir(env);
}

/**
 * Is this the folder a client may look for the service in at the default port when it has no `port` file
 * (docs/api/README.md#g2)? Only the platform's own folder: a folder of its own belongs to another instance, which
 * is not running when its port file is gone, and whatever answers on the default port is some other Notifier.
 */
export function usesDefaultPort(folder: string, env: NodeJS.ProcessEnv = process.env): boolean {
  return path.resolve(folder) === platformSupportDir(env);
}

/** The platform's place for an application's data, whatever NOTIFIER_SUPPORT_DIR says. */
function platformSupportDir(env: NodeJS.ProcessEnv): string {
  const home = os.homedir();
  if (process.platform === 'darwin') return path.join(home, 'Library', 'Application Support', 'Notifier');
  if (process.platform === 'win32') return path.join(env.APPDATA ?? path.join(home, 'AppData', 'Roaming'), 'Notifier');
  return path.join(env.XDG_DATA_HOME || path.join(home, '.local', 'share'), 'notifier');
}

/** Creates the folder 0700 (and tightens an existing one): it holds the token and the person's History. */
export async function prepareSupportDir(folder: string): Promise<void> {
  await mkdir(folder, { recursive: true, mode: 0o700 });
  if (process.platform !== 'win32' && ((await stat(folder)).mode & 0o077) !== 0) await chmod(folder, 0o700);
}

/** The bearer token: 64 hex characters in `token` (0600), made once and reused on every start. */
export async function loadOrCreateToken(folder: string): Promise<string> {
  const file = path.join(folder, 'token');
  const existing = await readFile(file, 'utf8').then(
    (text) => text.trim(),
    () => null,
  );
  if (existing !== null && TOKEN_PATTERN.test(existing)) {
    if (process.platform !== 'win32' && ((await stat(file)).mode & 0o777) !== 0o600) await chmod(file, 0o600);
    return existing;
  }
  if (existing !== null) log.warn(`${file} did not hold a valid token; a new one was made`);
  const token = randomBytes(TOKEN_BYTES).toString('hex');
  await writeFileDurably(file, token);
  return token;
}

/** `port`: written once the server listens, so a client never reads a port nobody listens on. Mode 0644. */
export async function writePortFile(folder: string, port: number): Promise<void> {
  const file = path.join(folder, 'port');
  await writeFileDurably(file, String(port));
  await chmod(file, 0o644);
}

export async function removePortFile(folder: string): Promise<void> {
  await unlink(path.join(folder, 'port')).catch(() => undefined);
}

/** What `daemon.lock` holds: the owner's pid and, on Linux, when that process started (docs/storage.md#the-lock). */
interface LockOwner {
  pid: number;
  /** Field 22 of `/proc/<pid>/stat` (clock ticks since boot): a pid reused by another process has another one. */
  started?: string | undefined;
}

/**
 * One daemon per support folder: two would overwrite each other's files. The lock file names its owner by pid and
 * start time; a lock whose owner is gone is taken over. "Gone" includes a killed process its parent has not reaped
 * yet (a zombie still answers `kill(pid, 0)`) and a pid since reused by another process (docs/storage.md#the-lock).
 */
export async function lockSupportDir(folder: string): Promise<() => Promise<void>> {
  const file = path.join(folder, 'daemon.lock');
  const me = JSON.stringify({ pid: process.pid, started: await startTimeOf(process.pid) } satisfies LockOwner);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const handle = await open(file, 'wx', 0o600);
      await handle.writeFile(me);
      await handle.close();
      return () => unlink(file).catch(() => undefined);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = parseLock(await readFile(file, 'utf8').catch(() => ''));
      if (owner && owner.pid !== process.pid && (await isAlive(owner))) {
        throw new Error(
          `another Notifier (pid ${owner.pid}) is using ${folder}; stop it, or give this one its own folder with --support-dir`,
        );
      }
      await unlink(file).catch(() => undefined); // its owner is gone: take the folder over
    }
  }
  throw new Error(`could not lock ${folder}`);
}

/** `{"pid":…,"started":…}`; a lock written by an older version holds the bare pid. */
function parseLock(text: string): LockOwner | null {
  const trimmed = text.trim();
  if (/^\d+$/.test(trimmed)) return { pid: Number(trimmed) };
  try {
    const parsed = JSON.parse(trimmed) as Partial<LockOwner>;
    if (!Number.isSafeInteger(parsed.pid) || parsed.pid! <= 0) return null;
    return { pid: parsed.pid!, started: typeof parsed.started === 'string' ? parsed.started : undefined };
  } catch {
    return null; // not ours, or written half by a crash: no owner
  }
}

/** `/proc/<pid>/stat`, split after the command name (which may hold spaces and parentheses): [state, ppid, …]. */
async function procStat(pid: number): Promise<string[] | null> {
  const text = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  return text === null ? null : text.slice(text.lastIndexOf(')') + 2).split(' ');
}

/** Field 22 of `/proc/<pid>/stat`; undefined where there is no /proc (macOS, Windows). */
async function startTimeOf(pid: number): Promise<string | undefined> {
  return (await procStat(pid))?.[STAT_STARTTIME];
}
/** Index of `starttime` (field 22) in what `procStat` returns, which starts at field 3 (`state`). */
const STAT_STARTTIME = 22 - 3;

/**
 * Is the lock's owner still running? Where /proc exists (Linux) it decides: no entry, a zombie (`Z`) or a dead
 * task (`X`), or another start time than the lock recorded mean the owner is gone. Elsewhere `kill(pid, 0)`.
 */
async function isAlive(owner: LockOwner): Promise<boolean> {
  if (process.platform === 'linux' && (await procStat(process.pid)) !== null) {
    const stat = await procStat(owner.pid);
    if (stat === null || stat[0] === 'Z' || stat[0] === 'X') return false;
    return owner.started === undefined || stat[STAT_STARTTIME] === owner.started;
  }
  try {
    process.kill(owner.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
