// `notifier-relay backup <file>`: a consistent copy of the embedded database while the relay runs, with SQLite's
// online backup (better-sqlite3's `backup`), from the same configuration as the relay. The copy is a whole
// database, made 0600 like the relay's own files, checked, and only then put at <file>: an interrupted backup never
// leaves a partial file there. An existing <file> is refused unless --force, so a typo never overwrites the last
// good backup. On PostgreSQL the relay holds no file of its own: pg_dump backs it up (docs/relay.md, "Operations").

import { randomBytes } from 'node:crypto';
import { chmodSync, closeSync, existsSync, linkSync, openSync, realpathSync, renameSync, statSync, unlinkSync } from 'node:fs';
import path from 'node:path';
import { loadConfig, SECRET_FILE } from '../config.js';
import { sqliteKeptForLife } from '../store/sqlite.js';
import { embeddedFile } from './database.js';

/** A command-line refusal: its message says it all. */
export class CommandError extends Error {}

/**
 * Pages copied per step of the online backup: all of them. Each step reads one snapshot of the source, and a step
 * whose source changed since the one before starts the copy over — under steady load, small steps might never
 * finish. One step copies one snapshot; the relay's writes go on meanwhile (WAL: a reader blocks no writer).
 */
const ALL_PAGES = 0x7fffffff;

/** The copy's files are the relay's data: for its owner only (as relay/store/sqlite.ts makes the database). */
const OWNER_ONLY = 0o600;

export interface BackupResult {
  source: string;
  target: string;
  bytes: number;
  /** Without RELAY_SECRET, the file the relay keeps its secret in: the copy is of no use without it. */
  secretFile: string | undefined;
}

export async function backup(env: NodeJS.ProcessEnv, target: string, options: { force?: boolean }): Promise<BackupResult> {
  const config = loadConfig(env);
  if (config.databaseUrl)
    throw new CommandError(
      'the relay keeps its state in PostgreSQL (DATABASE_URL): back it up with `pg_dump --format=custom`, and keep RELAY_SECRET with it (docs/relay.md, "Operations")',
    );
  const source = embeddedFile(config);
  if (!existsSync(source)) throw new CommandError(`there is no embedded database in ${config.dataDir} (RELAY_DATA_DIR) to back up`);
  const file = path.resolve(target);
  refuseTarget(source, file, options.force === true);

  const partial = path.join(path.dirname(file), `.${path.basename(file)}.partial-${randomBytes(4).toString('hex')}`);
  try {
    closeSync(openSync(partial, 'wx', OWNER_ONLY)); // SQLite takes an empty file as an empty database
    await copyDatabase(source, partial);
    chmodSync(partial, OWNER_ONLY); // the umask may have taken bits from the mode asked for at creation
    publish(partial, file, options.force === true);
  } finally {
    if (existsSync(partial)) unlinkSync(partial);
  }
  const secretFile = config.secret === undefined ? path.join(config.dataDir, SECRET_FILE) : undefined;
  return { source, target: file, bytes: statSync(file).size, secretFile: secretFile && existsSync(secretFile) ? secretFile : undefined };
}

/** The target must not be the database itself, nor (without --force) any file that exists. */
function refuseTarget(source: string, file: string, force: boolean): void {
  const real = (name: string): string => (existsSync(name) ? realpathSync(name) : name);
  const sourceFiles = [source, `${source}-wal`, `${source}-shm`].map(real);
  if (sourceFiles.includes(real(file))) throw new CommandError(`${file} is the relay's own database: choose another file`);
  if (!existsSync(path.dirname(file))) throw new CommandError(`the folder ${path.dirname(file)} does not exist`);
  if (existsSync(file) && !force) throw new CommandError(`${file} exists: choose another file, or add --force to replace it`);
}

/**
 * Copies one snapshot of the relay's database into `partial`, then makes the copy a single self-contained file
 * (rollback journal instead of WAL) and checks it.
 */
async function copyDatabase(source: string, partial: string): Promise<void> {
  const from = sqliteKeptForLife(source);
  try {
    await from.database.backup(partial, { progress: () => ALL_PAGES });
  } finally {
    from.database.close();
  }
  const copy = sqliteKeptForLife(partial);
  try {
    copy.database.exec('PRAGMA journal_mode = DELETE');
    const verdict = copy.statements.prepare('PRAGMA quick_check').pluck().get();
    if (verdict !== 'ok') throw new CommandError(`the copy did not pass SQLite's quick_check: ${String(verdict)}`);
  } finally {
    copy.database.close();
  }
}

/** Puts the finished copy at `file`: replacing it with --force, else only if it still does not exist. */
function publish(partial: string, file: string, force: boolean): void {
  if (force) return renameSync(partial, file);
  try {
    linkSync(partial, file); // fails if the file appeared meanwhile, where rename would replace it
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST')
      throw new CommandError(`${file} exists: choose another file, or add --force to replace it`);
    throw error;
  }
}

/** The command's action. */
export async function runBackup(target: string, options: { force?: boolean }): Promise<number> {
  const result = await backup(process.env, target, options);
  process.stdout.write(`backed up ${result.source} to ${result.target} (${result.bytes} bytes, quick_check ok)\n`);
  if (result.secretFile)
    process.stdout.write(`RELAY_SECRET is not set: keep a copy of ${result.secretFile} with the backup (every credential depends on it)\n`);
  return 0;
}
