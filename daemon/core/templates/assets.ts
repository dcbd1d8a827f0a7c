// An app's Rive animations and images (/v1/assets, /v1/rive/check; docs/api/templates.md#t28, #t29), kept in
// `<support>/assets/<app>/`. Manifests copy the Rive files they declare in here; templates name them by asset id
// (`rive.asset`) or by file (`rive.path`, `image.binding`). Rive files cannot be played on this computer (there is no
// Rive runtime for node-canvas), so a check reads the file's header: whether it is a Rive file, and its version.

import { open, readFile, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Component, Template } from '../../../templates-renderer/model.js';
import { errors } from '../../../protocol/errors.js';
import { log } from '../../log.js';
import { ASSET_LIMITS } from '../../../protocol/limits.js';
import { syncFolder, writeFileDurably } from '../../store/durable-file.js';
import { safeFileName } from '../../store/safe-name.js';
import type { Store } from '../../store/store.js';
import { type ImageFormat, sniffImage } from '../media/image-sniff.js';
import type { Manifest } from '../../../protocol/types.js';
import { expandHome, localPath } from '../../paths.js';

export const RIVE_EXTENSION = '.riv';
/** docs/api/templates.md#t28: the names an image asset may end in. */
const IMAGE_EXTENSIONS = ['png', 'jpg', 'jpeg', 'gif', 'webp', 'heic', 'heif', 'tif', 'tiff', 'bmp', 'avif'];
/** A Rive file starts with these four bytes, then its major and minor version and file id as LEB128 numbers. */
const RIVE_MAGIC = 'RIVE';
/** The Rive runtime format this check knows (7.x, every file exported since 2021). */
const RIVE_MAJOR_VERSION = 7;

export type AssetKind = 'rive' | 'image';

/** Where a file is, what kind it is, and which templates of the app name it. */
export interface AssetEntry {
  kind: AssetKind;
  file: string;
  path: string;
  bytes: number;
  id?: string;
  declared?: boolean;
  format?: ImageFormat;
  usedBy: string[];
}

/** The header check of a Rive file: `loaded` when it is a Rive file this format version; else why not. */
export interface RiveHeader {
  loaded: boolean;
  error?: string;
  version?: string;
}

const megabytes = (bytes: number): string => `${Math.round(bytes / (1024 * 1024))} MB`;

/** docs/api/templates.md#t28: a plain file name (no folders, not hidden). */
export function isPlainFileName(name: string): boolean {
  // eslint-disable-next-line no-control-regex
  return name !== '' && !/[/\\\u0000-\u001f]/.test(name) && !name.startsWith('.') && Buffer.byteLength(name) <= 255;
}

/**
 * The file of a Rive asset id in the app's folder: `<id>.riv`, the name POST /v1/assets stores and GET /v1/assets
 * derives the id from. An id that cannot be a plain file name (a leading dot, a very long one) is made safe.
 */
export function riveFileOf(id: string): string {
  const file = `${id}${RIVE_EXTENSION}`;
  return isPlainFileName(file) ? file : `${safeFileName(id)}${RIVE_EXTENSION}`;
}

export function assetKindOf(file: string): AssetKind | null {
  const extension = path.extname(file).slice(1).toLowerCase();
  if (`.${extension}` === RIVE_EXTENSION) return 'rive';
  return IMAGE_EXTENSIONS.includes(extension) ? 'image' : null;
}

export class Assets {
  /** Per app, the end of the chain of writes: counting the files and writing one happen together (limits hold). */
  private readonly writing = new Map<string, Promise<unknown>>();

  constructor(private readonly store: Store) {}

  /** Runs `work` after the app's earlier writes have finished. */
  private serially<T>(app: string, work: () => Promise<T>): Promise<T> {
    const previous = this.writing.get(app) ?? Promise.resolve();
    const next = previous.then(work, work);
    const settled = next.catch(() => undefined);
    this.writing.set(app, settled);
    void settled.then(() => {
      if (this.writing.get(app) === settled) this.writing.delete(app);
    });
    return next;
  }

  folder(app: string): string {
    return this.store.resolve(path.posix.join('assets', safeFileName(app)));
  }

  /** The app's files, with which templates use each. */
  async list(app: string, manifest: Manifest | undefined, templates: Template[]): Promise<AssetEntry[]> {
    const folder = this.folder(app);
    const names = await readdir(folder).catch(() => [] as string[]);
    const entries: AssetEntry[] = [];
    for (const file of names.sort()) {
      const kind = assetKindOf(file);
      const info = await stat(path.join(folder, file)).catch(() => null);
      if (!kind || !info?.isFile()) continue;
      const full = path.join(folder, file);
      const usedBy = this.usedBy(app, file, templates);
      if (kind === 'rive') {
        const id = file.slice(0, -RIVE_EXTENSION.length);
        // Declared: the copy of a declared file (`<id>.riv`), or the file a declared plain name names.
        const declared = manifest?.assets.some((asset) => riveFileOf(asset.id) === file || asset.path === file) ?? false;
        entries.push({ kind, id, file, path: full, bytes: info.size, declared, usedBy });
      } else {
        const head = await readHead(full);
        entries.push({ kind, file, path: full, bytes: info.size, ...(sniffImage(head) ? { format: sniffImage(head)! } : {}), usedBy });
      }
    }
    return entries;
  }

  /** The templates (names) that draw a file of the app's folder. */
  usedBy(app: string, file: string, templates: Template[]): string[] {
    const full = path.join(this.folder(app), file);
    return templates.filter((template) => uses(template, file, full)).map((template) => template.name);
  }

  /** Adds a file (docs/api/templates.md#t28 limits); replaces one of the same name. */
  add(app: string, file: string, bytes: Buffer, kind: AssetKind): Promise<{ path: string; replaced: boolean; format?: ImageFormat }> {
    return this.serially(app, () => this.write(app, file, bytes, kind));
  }

  private async write(
    app: string,
    file: string,
    bytes: Buffer,
    kind: AssetKind,
  ): Promise<{ path: string; replaced: boolean; format?: ImageFormat }> {
    if (bytes.length === 0) throw errors.emptyAsset(file);
    if (bytes.length > ASSET_LIMITS.bytes) throw errors.assetTooLarge(file, megabytes(bytes.length), megabytes(ASSET_LIMITS.bytes));
    const folder = this.folder(app);
    const target = path.join(folder, file);
    const replaced = await stat(target).then(
      (info) => info.isFile(),
      () => false,
    );
    let format: ImageFormat | undefined;
    if (kind === 'image') {
      format = sniffImage(bytes) ?? undefined;
      if (!format) throw errors.notAnImage(file);
    } else {
      const header = riveHeader(bytes, file);
      if (!header.loaded) throw errors.unreadableRiveFile(header.error!);
    }
    if (!replaced) await this.checkRoom(folder, kind);
    await writeFileDurably(target, bytes);
    await syncFolder(folder);
    return { path: target, replaced, ...(format ? { format } : {}) };
  }

  private async checkRoom(folder: string, kind: AssetKind): Promise<void> {
    const names = await readdir(folder).catch(() => [] as string[]);
    const count = names.filter((name) => assetKindOf(name) === kind).length;
    if (kind === 'rive' && count >= ASSET_LIMITS.riveFiles) throw errors.tooManyRiveFiles();
    if (kind === 'image' && count >= ASSET_LIMITS.images) throw errors.tooManyImages();
  }

  /** Removes a file; false when there was none. */
  remove(app: string, file: string): Promise<boolean> {
    return this.serially(app, () => this.removeFile(app, file));
  }

  private async removeFile(app: string, file: string): Promise<boolean> {
    const target = path.join(this.folder(app), file);
    const exists = await stat(target).then(
      (info) => info.isFile(),
      () => false,
    );
    if (!exists) return false;
    await rm(target, { force: true });
    await syncFolder(this.folder(app));
    return true;
  }

  /**
   * PUT /v1/manifest (docs/api/templates.md#t23): declared Rive files are copied into the app's folder as `<id>.riv`. A file that cannot
   * be copied does not block the manifest (the Rive check reports it); resolves with the files copied.
   */
  installDeclared(manifest: Manifest, copiedBefore: string[]): Promise<string[]> {
    return this.serially(manifest.app, () => this.copyDeclared(manifest, copiedBefore));
  }

  /**
   * A file the person put there (POST /v1/assets) is never replaced by a copy; a copy made by an earlier manifest is
   * refreshed, and kept when its source cannot be read this time.
   */
  private async copyDeclared(manifest: Manifest, copiedBefore: string[]): Promise<string[]> {
    const installed: string[] = [];
    const folder = this.folder(manifest.app);
    for (const asset of manifest.assets) {
      const file = riveFileOf(asset.id);
      const target = path.join(folder, file);
      const ours = copiedBefore.includes(file);
      try {
        const source = localPath(asset.path);
        if (source === null || !path.isAbsolute(source)) continue; // a name in the folder is already there
        if (!ours && (await stat(target).catch(() => null))) {
          log.warn(
            `[${manifest.app}] asset ${asset.id}: ${file} was added by hand and is kept; the declared ${asset.path} is not copied over it`,
          );
          continue;
        }
        const bytes = await readAssetFile(source);
        if (!bytes || bytes.length === 0) throw new Error('empty');
        await writeFileDurably(target, bytes);
        installed.push(file);
      } catch {
        // Reported when a banner draws it (POST /v1/rive/check says why); an earlier copy stays.
        if (ours) installed.push(file);
      }
    }
    if (installed.length > 0) await syncFolder(folder);
    return installed;
  }

  /** DELETE /v1/manifest (docs/api/templates.md#t23): copies of declared Rive files are deleted. */
  removeInstalled(app: string, files: string[]): Promise<void> {
    return this.serially(app, () => this.removeCopies(app, files));
  }

  private async removeCopies(app: string, files: string[]): Promise<void> {
    for (const file of files) if (isPlainFileName(file)) await rm(path.join(this.folder(app), file), { force: true });
    if (files.length > 0) await syncFolder(this.folder(app)).catch(() => undefined);
  }

  /**
   * The file a `rive` component draws (docs/api/templates.md#t28, #t29): its `asset` (a manifest asset id: the installed copy, else
   * the declared path; or a file `<id>.riv` in the folder), else its `path` (absolute, `~/`, `file://`, or a name
   * in the app's folder that may not climb out of it). Throws the placeholder text when there is none.
   */
  riveFile(
    app: string,
    component: Extract<Component, { type: 'rive' }>,
    manifest: Manifest | undefined,
  ): { file: string; fallback?: string } {
    const folder = this.folder(app);
    if (component.asset) {
      const declared = manifest?.assets.find((asset) => asset.id === component.asset);
      const declaredPath = declared ? localPath(declared.path) : null;
      // A declared plain name is a file already in the folder; a declared path was copied in as `<id>.riv`.
      if (declaredPath !== null && !path.isAbsolute(declaredPath)) return { file: path.join(folder, declaredPath) };
      const installed = path.join(folder, riveFileOf(component.asset));
      return declaredPath ? { file: installed, fallback: declaredPath } : { file: installed };
    }
    if (!component.path) throw errors.riveNeedsFile();
    const local = localPath(component.path);
    if (local === null) throw errors.remoteAsset(component.path);
    if (path.isAbsolute(local)) return { file: local };
    const resolved = path.resolve(folder, local);
    if (!resolved.startsWith(folder + path.sep)) throw errors.assetPathOutside();
    return { file: resolved };
  }

  /** POST /v1/rive/check: reads the component's file and its header. An unloadable file is not an error. */
  async checkRive(app: string, component: Extract<Component, { type: 'rive' }>, manifest: Manifest | undefined): Promise<RiveHeader> {
    let found: { file: string; fallback?: string };
    try {
      found = this.riveFile(app, component, manifest);
    } catch (error) {
      return { loaded: false, error: (error as Error).message };
    }
    let info = await stat(found.file).catch(() => null);
    let file = found.file;
    if (!info && found.fallback) [file, info] = [found.fallback, await stat(found.fallback).catch(() => null)];
    const name = path.basename(file);
    const declared = manifest?.assets.some((asset) => asset.id === component.asset) ?? false;
    if (component.asset && !declared && !info)
      return { loaded: false, error: `asset "${component.asset}" is not declared by the manifest and is not installed` };
    if (!file.toLowerCase().endsWith(RIVE_EXTENSION)) return { loaded: false, error: `"${name}" is not a .riv file` };
    if (!info?.isFile()) return { loaded: false, error: `file not found: ${file}` };
    if (info.size === 0) return { loaded: false, error: `"${name}" is empty` };
    if (info.size > ASSET_LIMITS.bytes)
      return { loaded: false, error: `"${name}" is ${megabytes(info.size)}; Rive assets are limited to ${megabytes(ASSET_LIMITS.bytes)}` };
    return riveHeader(await readHead(file), name);
  }
}

/**
 * The bytes of a file an asset may be: a regular file (not a folder, not a device that never ends) of at most the
 * asset limit; null when there is no such file or it is larger.
 */
export async function readAssetFile(file: string): Promise<Buffer | null> {
  const info = await stat(file).catch(() => null);
  if (!info?.isFile() || info.size > ASSET_LIMITS.bytes) return null;
  const bytes = await readFile(file).catch(() => null);
  return bytes && bytes.length <= ASSET_LIMITS.bytes ? bytes : null;
}

/** The first bytes of a file (enough to tell a picture's format or read a Rive header), without reading the rest. */
async function readHead(file: string): Promise<Buffer> {
  const handle = await open(file, 'r').catch(() => null);
  if (!handle) return Buffer.alloc(0);
  try {
    const head = Buffer.alloc(64);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    return head.subarray(0, bytesRead);
  } catch {
    return Buffer.alloc(0);
  } finally {
    await handle.close();
  }
}

/** Reads `RIVE`, then the major and minor version (unsigned LEB128). */
export function riveHeader(bytes: Buffer, name: string): RiveHeader {
  if (bytes.length < 6 || bytes.toString('latin1', 0, 4) !== RIVE_MAGIC)
    return { loaded: false, error: `"${name}" is not a Rive file (it does not start with RIVE)` };
  const major = leb128(bytes, 4);
  const minor = major ? leb128(bytes, major.next) : null;
  if (!major || !minor) return { loaded: false, error: `"${name}" has a broken Rive header` };
  const version = `${major.value}.${minor.value}`;
  if (major.value !== RIVE_MAJOR_VERSION)
    return { loaded: false, error: `"${name}" is Rive format ${version}; this computer reads format ${RIVE_MAJOR_VERSION}.x`, version };
  return { loaded: true, version };
}

function leb128(bytes: Buffer, start: number): { value: number; next: number } | null {
  let value = 0;
  let shift = 0;
  for (let at = start; at < bytes.length && shift < 35; at++) {
    value |= (bytes[at]! & 0x7f) << shift;
    if ((bytes[at]! & 0x80) === 0) return { value, next: at + 1 };
    shift += 7;
  }
  return null;
}

/** Whether a template names a file of the app's folder: a rive `asset` (its id) or `path`, or an image binding. */
function uses(template: Template, file: string, full: string): boolean {
  const id = file.endsWith(RIVE_EXTENSION) ? file.slice(0, -RIVE_EXTENSION.length) : null;
  return template.cells.some(({ component }) => {
    if (component.type === 'rive') {
      if (component.asset !== undefined) return id !== null && riveFileOf(component.asset) === file;
      return component.path !== undefined && (component.path === file || expandHome(component.path) === full);
    }
    if (component.type === 'image')
      return component.binding === file || expandHome(component.binding) === full || component.binding === `file://${full}`;
    return false;
  });
}
