import { type FileHandle, mkdir, open, readFile, rename, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { Adapter } from 'lowdb';
import { log } from '../log.js';

/** File mode of everything the store writes: History and settings are the person's private data. */
export const PRIVATE_FILE_MODE = 0o600;

let tempCounter = 0;
/** Folders known to exist: creating them again on every write cost a system call per write. */
const knownFolders = new Set<string>();

/** A file's content: text, bytes, or a list of byte chunks written in one `writev` (nothing is concatenated). */
export type FileContent = string | Buffer | Buffer[];

/** Makes the renames and removals in a folder durable. A folder that no longer exists has nothing to sync. */
export async function syncFolder(folder: string): Promise<void> {
  const handle = await open(folder, 'r').catch(() => null);
  if (!handle) return;
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Writes a whole file so that a crash at any moment leaves either the old or the new content: the bytes go to a
 * temporary file in the same folder, are fsynced, and the temporary file is renamed over the target. (Making
 * the rename itself durable is the caller's job: fsync the folder, as the store's group commit does.)
 */
export async function writeFileDurably(filePath: string, content: FileContent): Promise<void> {
  const folder = path.dirname(filePath);
  // Unique per write: two requests may cache the same picture at the same moment.
  const tempPath = path.join(folder, `.${path.basename(filePath)}.${process.pid}.${++tempCounter}.tmp`);
  if (!knownFolders.has(folder)) {
    await mkdir(folder, { recursive: true, mode: 0o700 });
    knownFolders.add(folder);
  }
  const handle = await open(tempPath, 'w', PRIVATE_FILE_MODE).catch(async (error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error;
    knownFolders.delete(folder); // removed behind our back: make it again once
    await mkdir(folder, { recursive: true, mode: 0o700 });
    return open(tempPath, 'w', PRIVATE_FILE_MODE);
  });
  try {
    if (Array.isArray(content)) await writeAll(handle, content);
    else await handle.writeFile(content);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(tempPath, filePath);
}

async function writeAll(handle: FileHandle, chunks: Buffer[]): Promise<void> {
  const expected = chunks.reduce((sum, chunk) => sum + chunk.length, 0);
  const { bytesWritten } = await handle.writev(chunks);
  if (bytesWritten !== expected) throw new Error(`short write: ${bytesWritten} of ${expected} bytes`);
}

/**
 * A lowdb adapter that never leaves a half-written file behind and never acknowledges a write that is not on
 * disk: the JSON goes to a temporary file in the same folder, is fsynced, and is renamed over the old file.
 * (lowdb's own JSONFile renames but never fsyncs, and its presets become memory stores under NODE_ENV=test.)
 */
export class DurableJSONFile<T> implements Adapter<T> {
  constructor(
    readonly filePath: string,
    private readonly serialize: (data: T) => FileContent = (data) => JSON.stringify(data),
  ) {}

  async read(): Promise<T | null> {
    let text: string;
    try {
      // Read as bytes and decode once: `readFile(…, 'utf8')` decodes chunk by chunk, several times slower.
      text = (await readFile(this.filePath)).toString('utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
    try {
      return JSON.parse(text) as T;
    } catch {
      // Our writes are atomic, so a broken file was edited by hand or by another program. Keep it for the
      // person to inspect and start this document empty rather than refusing to start.
      const aside = `${this.filePath}.corrupt-${Date.now()}`;
      await rename(this.filePath, aside);
      log.warn(`${this.filePath} was not valid JSON; moved it to ${aside} and started it empty`);
      return null;
    }
  }

  async write(data: T): Promise<void> {
    await writeFileDurably(this.filePath, this.serialize(data));
  }

  async remove(): Promise<void> {
    await unlink(this.filePath).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
  }
}
