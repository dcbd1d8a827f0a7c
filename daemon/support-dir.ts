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

/**
 * One daemon per support folder: two would overwrite each other's files. The lock file holds the owner's pid;
 * a lock whose process is gone (a crash, `kill -9`) is taken over.
 */
export async function lockSupportDir(folder: string): Promise<() => Promise<void>> {
  const file = path.join(folder, 'daemon.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const handle = await open(file, 'wx', 0o600);
      await handle.writeFile(String(process.pid));
      await handle.close();
      return () => unlink(file).catch(() => undefined);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const owner = Number((await readFile(file, 'utf8').catch(() => '')).trim());
      if (owner > 0 && owner !== process.pid && isRunning(owner)) {
        throw new Error(`another Notifier (pid ${owner}) is using ${folder}; stop it, or give this one its own folder with --support-dir`);
      }
      await unlink(file).catch(() => undefined); // its owner is gone: take the folder over
    }
  }
  throw new Error(`could not lock ${folder}`);
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
