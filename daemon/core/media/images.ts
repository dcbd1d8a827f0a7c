import { createHash } from 'node:crypto';
import { readFile, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { IMAGE_DOWNLOAD_TIMEOUT_MS, MAX_IMAGE_BYTES } from '../../../protocol/limits.js';
import { log } from '../../log.js';
import { syncFolder, writeFileDurably } from '../../store/durable-file.js';
import { sniffImage } from './image-sniff.js';
import { expandHome } from '../../paths.js';

/**
 * Pictures of notifications, copied into `<support>/images/` under the hash of their bytes (so a picture sent
 * a thousand times is stored once) with the extension of the format the bytes are, never the sender's. A
 * picture is deleted when no History record refers to it any more.
 */
export class ImageCache {
  private readonly references = new Map<string, number>();
  private readonly unreferenced = new Set<string>();

  constructor(private readonly folder: string) {}

  /**
   * Reads a notification's `image` (a file path, an https URL or a data: URI), checks it is a picture of a
   * listed format within the size limit, and returns the path of the cached copy. Anything else gives null and
   * a line in the log: a bad picture never costs the sender the notification.
   */
  async cache(image: string): Promise<string | null> {
    let bytes: Buffer;
    try {
      bytes = await readSource(image, MAX_IMAGE_BYTES);
    } catch (error) {
      log.warn(`image ignored: ${(error as Error).message}`);
      return null;
    }
    const format = sniffImage(bytes);
    if (!format) {
      log.warn('image ignored: the bytes are not a PNG, JPEG, GIF, WebP, HEIC, AVIF, TIFF or BMP picture');
      return null;
    }
    const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 32);
    const target = path.join(this.folder, `${hash}.${format}`);
    if (!(await exists(target))) {
      await writeFileDurably(target, bytes);
      await syncFolder(this.folder);
    }
    return target;
  }

  /** A History record now refers to this picture. */
  retain(imagePath: string | undefined): void {
    if (!imagePath) return;
    this.references.set(imagePath, (this.references.get(imagePath) ?? 0) + 1);
    this.unreferenced.delete(imagePath);
  }

  /** A History record no longer refers to this picture; it is deleted by the next `sweep` if nobody else does. */
  release(imagePath: string | undefined): void {
    if (!imagePath) return;
    const count = (this.references.get(imagePath) ?? 0) - 1;
    if (count > 0) {
      this.references.set(imagePath, count);
      return;
    }
    this.references.delete(imagePath);
    this.unreferenced.add(imagePath);
  }

  /** A cached picture that no record took (for example the notification was superseded while it downloaded). */
  discard(imagePath: string | null): void {
    if (imagePath && !this.references.has(imagePath)) this.unreferenced.add(imagePath);
  }

  /**
   * Deletes the pictures nobody refers to. Called after the History change that dropped them is on disk, so a
   * crash in between leaves an unused picture behind, never a record whose picture is gone.
   */
  async sweep(): Promise<void> {
    const doomed = [...this.unreferenced].filter((file) => !this.references.has(file));
    this.unreferenced.clear();
    await Promise.all(
      doomed
        .filter((file) => path.dirname(file) === this.folder) // only ever our own copies
        .map((file) => unlink(file).catch(() => undefined)),
    );
  }
}

/**
 * The bytes of a picture or a recording named by a notification: a file path (absolute, or starting with `~/`;
 * `file://` URLs too), an https URL (downloaded within 5 s, only while it stays on https) or a base64 data: URI.
 * Rejects with a readable reason for anything else, or for more than `maxBytes`.
 */
export async function readSource(source: string, maxBytes: number): Promise<Buffer> {
  if (source.startsWith('data:')) return decodeDataURI(source, maxBytes);
  if (/^https:\/\//i.test(source)) return download(source, maxBytes);
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(source) && !source.startsWith('file://')) {
    throw new Error('only a file path, an https URL or a data: URI can be read');
  }
  return readLocalFile(source.startsWith('file://') ? fileURLToPath(source) : source, maxBytes);
}

function decodeDataURI(uri: string, maxBytes: number): Buffer {
  const comma = uri.indexOf(',');
  if (comma < 0 || !/;base64$/i.test(uri.slice(0, comma))) throw new Error('a data: URI must be base64');
  const bytes = Buffer.from(uri.slice(comma + 1), 'base64');
  if (bytes.length > maxBytes) throw new Error(`the data: URI holds more than ${maxBytes} bytes`);
  return bytes;
}

async function readLocalFile(given: string, maxBytes: number): Promise<Buffer> {
  const file = expandHome(given);
  if (!path.isAbsolute(file)) throw new Error(`the path must be absolute: ${given}`);
  const info = await stat(file);
  if (!info.isFile()) throw new Error(`not a file: ${given}`);
  if (info.size > maxBytes) throw new Error(`${given} is larger than ${maxBytes} bytes`);
  return readFile(file);
}

async function download(url: string, maxBytes: number): Promise<Buffer> {
  const response = await fetch(url, { signal: AbortSignal.timeout(IMAGE_DOWNLOAD_TIMEOUT_MS) });
  if (!response.url.startsWith('https://')) throw new Error(`${url} redirected away from https`);
  if (response.status !== 200) throw new Error(`${url} answered ${response.status}`);
  if (Number(response.headers.get('content-length') ?? 0) > maxBytes) {
    throw new Error(`${url} is larger than ${maxBytes} bytes`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response.body as AsyncIterable<Uint8Array>) {
    size += chunk.byteLength;
    if (size > maxBytes) throw new Error(`${url} is larger than ${maxBytes} bytes`);
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}
