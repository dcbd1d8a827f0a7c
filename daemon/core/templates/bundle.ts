// Packing and unpacking of `.notifiertemplate` template bundles (docs/api/templates.md#t18): a zip holding
// bundle.json (what the bundle is), template.json (the template) and assets/<file>.riv (Rive animations).
// Pure: bytes in, bytes out; the callers do the file I/O and validate the template.
//
// Reading treats the zip as hostile. The central directory is parsed here (not by fflate's unzipSync, which
// inflates an entry into a buffer of its declared size and cannot tell when the real data is larger), every
// size is checked against the limits before anything is inflated, and inflating is streamed so it stops as
// soon as the real output passes a limit, whatever the zip declared.

import { ApiError, errors } from '../../../protocol/errors.js';
import { Inflate, strToU8, zipSync, type Zippable } from 'fflate';

export const BUNDLE_FORMAT = 'notifiertemplate';
export const BUNDLE_VERSION = 1;
export const BUNDLE_EXTENSION = '.notifiertemplate';

// Limits of a bundle (docs/api/templates.md#t18).
/** At most this many entries (files and folders) in the zip (docs/api/templates.md#t18). */
export const BUNDLE_MAX_ENTRIES = 80;
/** Each entry at most this many bytes once uncompressed (docs/api/templates.md#t18). */
export const BUNDLE_MAX_ENTRY_BYTES = 10 * 1024 * 1024;
/** All entries together at most this many bytes once uncompressed (docs/api/templates.md#t18). */
export const BUNDLE_MAX_TOTAL_BYTES = 64 * 1024 * 1024;
/** template.json at most this many bytes (docs/api/templates.md#t18). */
export const BUNDLE_MAX_TEMPLATE_BYTES = 2 * 1024 * 1024;

export interface BundleContents {
  /** bundle.json as read (format and version checked). */
  manifest: { format: string; version: number; app?: string; name?: string; createdAt?: string; assets?: string[] };
  /** template.json parsed (not validated here: the caller validates it as a template). */
  template: unknown;
  /** assets/<file>.riv entries by plain file name. */
  assets: Map<string, Uint8Array>;
  warnings: string[];
}

const MANIFEST_NAME = 'bundle.json';
const TEMPLATE_NAME = 'template.json';
const ASSETS_FOLDER = 'assets/';
const MACOS_FOLDER = '__MACOSX';

const unreadable = errors.bundleUnreadable;
const tooLarge = errors.bundleTooLarge;
const mb = (bytes: number): string => `${bytes / (1024 * 1024)} MB`;

// ---------------------------------------------------------------------------------------------------------------
// Reading

/** One file of the zip as its central directory describes it. */
interface ZipEntry {
  /** The name as stored (for messages). */
  rawName: string;
  /** The name with `\` turned into `/` and any wrapper folder removed. */
  name: string;
  flags: number;
  method: number;
  compressedSize: number;
  /** Uncompressed size as declared (a hostile zip may lie: inflating checks the real size). */
  size: number;
  localHeaderOffset: number;
}

export function readBundle(bytes: Uint8Array): BundleContents {
  const warnings: string[] = [];
  const entries = readCentralDirectory(bytes);

  // Check every name first: one that climbs out of the folder refuses the whole bundle, even if it would be ignored.
  for (const entry of entries) {
    if (!isSafeName(entry.rawName)) throw errors.unsafeBundleName(entry.rawName);
  }

  // Sizes as declared, before inflating anything.
  let declaredTotal = 0;
  for (const entry of entries) {
    if (entry.size > BUNDLE_MAX_ENTRY_BYTES) {
      throw tooLarge(`${entry.rawName} is ${entry.size} bytes (at most ${mb(BUNDLE_MAX_ENTRY_BYTES)} per file)`);
    }
    declaredTotal += entry.size;
  }
  if (declaredTotal > BUNDLE_MAX_TOTAL_BYTES) {
    throw tooLarge(`its files total ${declaredTotal} bytes (at most ${mb(BUNDLE_MAX_TOTAL_BYTES)} in all)`);
  }

  // Folder entries and macOS's __MACOSX/ litter are ignored; so is a single wrapper folder around everything.
  const files = entries.filter((e) => !e.name.endsWith('/') && e.name.split('/')[0] !== MACOS_FOLDER);
  stripWrapperFolder(files);

  let manifestEntry: ZipEntry | undefined;
  let templateEntry: ZipEntry | undefined;
  const assetEntries = new Map<string, ZipEntry>();
  for (const entry of files) {
    if (entry.name === MANIFEST_NAME || entry.name === TEMPLATE_NAME) {
      const seen = entry.name === MANIFEST_NAME ? manifestEntry : templateEntry;
      if (seen) throw unreadable(`it holds ${entry.name} twice`);
      if (entry.name === MANIFEST_NAME) manifestEntry = entry;
      else templateEntry = entry;
    } else if (entry.name.startsWith(ASSETS_FOLDER) && isPlainFileName(entry.name.slice(ASSETS_FOLDER.length))) {
      const fileName = entry.name.slice(ASSETS_FOLDER.length);
      if (assetEntries.has(fileName)) throw unreadable(`it holds ${entry.name} twice`);
      assetEntries.set(fileName, entry);
    } else {
      warnings.push(`ignored an unexpected file in the bundle: ${entry.rawName}`);
    }
  }
  if (!manifestEntry) throw errors.bundleMissingFile(MANIFEST_NAME);
  if (!templateEntry) throw errors.bundleMissingFile(TEMPLATE_NAME);
  if (templateEntry.size > BUNDLE_MAX_TEMPLATE_BYTES) {
    throw tooLarge(`${TEMPLATE_NAME} is ${templateEntry.size} bytes (at most ${mb(BUNDLE_MAX_TEMPLATE_BYTES)})`);
  }

  // What has been inflated so far, by real size: the total limit holds whatever the sizes declared.
  let inflatedTotal = 0;
  const extract = (entry: ZipEntry, entryLimit: number, limitName: string): Uint8Array => {
    const data = extractEntry(bytes, entry, entryLimit, limitName, BUNDLE_MAX_TOTAL_BYTES - inflatedTotal);
    inflatedTotal += data.length;
    return data;
  };

  const manifest = parseManifest(parseJson(extract(manifestEntry, BUNDLE_MAX_ENTRY_BYTES, 'per file'), MANIFEST_NAME));
  const template = parseJson(extract(templateEntry, BUNDLE_MAX_TEMPLATE_BYTES, `for ${TEMPLATE_NAME}`), TEMPLATE_NAME);
  const assets = new Map<string, Uint8Array>();
  for (const [fileName, entry] of assetEntries) assets.set(fileName, extract(entry, BUNDLE_MAX_ENTRY_BYTES, 'per file'));

  return { manifest, template, assets, warnings };
}

const u16 = (b: Uint8Array, at: number): number => b[at]! | (b[at + 1]! << 8);
const u32 = (b: Uint8Array, at: number): number => (b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24)) >>> 0;

const EOCD_SIGNATURE = 0x06054b50;
const EOCD_SIZE = 22;
const ZIP64_LOCATOR_SIGNATURE = 0x07064b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const CENTRAL_SIZE = 46;
const LOCAL_SIGNATURE = 0x04034b50;
const LOCAL_SIZE = 30;
const FLAG_ENCRYPTED = 0x0001;
const FLAG_UTF8 = 0x0800;
const METHOD_STORED = 0;
const METHOD_DEFLATE = 8;
/** A zip64 file puts all ones in the 32-bit fields whose values moved to its zip64 records (APPNOTE.TXT 4.4.1.4). */
const ZIP64_MARK = 0xffffffff;

/** A field of a zip record: where it is in the record and how many bytes it takes (little-endian). */
type Field = readonly [offset: number, width: 2 | 4];

/** What is read of the end-of-central-directory record (APPNOTE.TXT 4.3.16). */
const EOCD_FIELDS = {
  disk: [4, 2],
  directoryDisk: [6, 2],
  entriesOnDisk: [8, 2],
  count: [10, 2],
  directorySize: [12, 4],
  directoryOffset: [16, 4],
} as const satisfies Record<string, Field>;

/** What is read of a central directory header (APPNOTE.TXT 4.3.12). */
const CENTRAL_FIELDS = {
  flags: [8, 2],
  method: [10, 2],
  compressedSize: [20, 4],
  size: [24, 4],
  nameLength: [28, 2],
  extraLength: [30, 2],
  commentLength: [32, 2],
  localHeaderOffset: [42, 4],
} as const satisfies Record<string, Field>;

/** What is read of a local file header (APPNOTE.TXT 4.3.7). */
const LOCAL_FIELDS = { nameLength: [26, 2], extraLength: [28, 2] } as const satisfies Record<string, Field>;

/** The fields of the record at `at`, by its table. */
function readFields<Fields extends Record<string, Field>>(
  bytes: Uint8Array,
  at: number,
  fields: Fields,
): { [Name in keyof Fields]: number } {
  const read = (field: Field) => (field[1] === 2 ? u16 : u32)(bytes, at + field[0]);
  return Object.fromEntries(Object.entries(fields).map(([name, field]) => [name, read(field)])) as { [Name in keyof Fields]: number };
}

const zip64Refused = (): ApiError => unreadable('it is a zip64 file, which is not supported');
const damagedDirectory = (): ApiError => unreadable('its zip directory is damaged');

function readCentralDirectory(bytes: Uint8Array): ZipEntry[] {
  // The end-of-central-directory record: the last 22 bytes, or earlier when the zip carries a comment.
  let eocd = -1;
  for (let at = bytes.length - EOCD_SIZE; at >= 0 && at >= bytes.length - EOCD_SIZE - 0xffff; at--) {
    if (u32(bytes, at) === EOCD_SIGNATURE) {
      eocd = at;
      break;
    }
  }
  if (eocd < 0) throw unreadable('it is not a zip file');
  const { disk, directoryDisk, entriesOnDisk, count, directorySize, directoryOffset } = readFields(bytes, eocd, EOCD_FIELDS);
  const hasZip64Locator = eocd >= 20 && u32(bytes, eocd - 20) === ZIP64_LOCATOR_SIGNATURE;
  if (hasZip64Locator || count === 0xffff || directorySize === ZIP64_MARK || directoryOffset === ZIP64_MARK) throw zip64Refused();
  if (disk !== 0 || directoryDisk !== 0 || entriesOnDisk !== count) throw unreadable('it is a multi-part zip');
  if (count > BUNDLE_MAX_ENTRIES) throw tooLarge(`it has ${count} entries (at most ${BUNDLE_MAX_ENTRIES})`);
  if (directoryOffset + directorySize > eocd) throw damagedDirectory();

  const entries: ZipEntry[] = [];
  let at = directoryOffset;
  for (let i = 0; i < count; i++) {
    if (at + CENTRAL_SIZE > eocd || u32(bytes, at) !== CENTRAL_SIGNATURE) throw damagedDirectory();
    const { flags, method, compressedSize, size, nameLength, extraLength, commentLength, localHeaderOffset } = readFields(
      bytes,
      at,
      CENTRAL_FIELDS,
    );
    const next = at + CENTRAL_SIZE + nameLength + extraLength + commentLength;
    if (next > eocd) throw damagedDirectory();
    if ([compressedSize, size, localHeaderOffset].includes(ZIP64_MARK)) throw zip64Refused();
    const rawName = decodeName(bytes.subarray(at + CENTRAL_SIZE, at + CENTRAL_SIZE + nameLength), flags);
    entries.push({ rawName, name: rawName.replace(/\\/g, '/'), flags, method, compressedSize, size, localHeaderOffset });
    at = next;
  }
  return entries;
}

/** Names are UTF-8 (flagged or not, as most zip tools write them); bytes that are not UTF-8 are read as Latin-1. */
function decodeName(raw: Uint8Array, flags: number): string {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }).decode(raw);
  } catch {
    if (flags & FLAG_UTF8) throw unreadable('a file name in it is not valid UTF-8');
    return Array.from(raw, (c) => String.fromCharCode(c)).join('');
  }
}

/** Refuses names that climb out of the folder: absolute, with a drive letter, with a `..` segment, or with NUL. */
function isSafeName(name: string): boolean {
  if (name === '' || name.includes('\0')) return false;
  if (name.startsWith('/') || name.startsWith('\\') || /^[A-Za-z]:/.test(name)) return false;
  return !name.split(/[/\\]/).includes('..');
}

/** A file name with no folder in it: not empty, no `/` or `\`, not `.` or `..`, no control characters. */
function isPlainFileName(name: string): boolean {
  // eslint-disable-next-line no-control-regex
  return name !== '' && name !== '.' && name !== '..' && !/[/\\\u0000-\u001f\u007f]/.test(name);
}

/** When every file sits in one folder (a zipped folder, `Something/bundle.json`), that folder is removed from the names. */
function stripWrapperFolder(files: ZipEntry[]): void {
  if (files.length === 0 || files.some((f) => f.name === MANIFEST_NAME)) return;
  const first = files[0]!.name;
  const slash = first.indexOf('/');
  if (slash <= 0) return;
  const prefix = first.slice(0, slash + 1);
  if (!files.every((f) => f.name.startsWith(prefix))) return;
  for (const f of files) f.name = f.name.slice(prefix.length);
}

/** Input fed to the inflater at a time: deflate expands at most ~1032 times, so one step yields at most ~4 MB. */
const INFLATE_STEP = 4096;

/**
 * The uncompressed bytes of an entry. The real size is counted while inflating: past `entryLimit` or `totalLeft`
 * inflating stops with a 413, and data that differs from the declared size is refused (the zip lied).
 */
function extractEntry(bytes: Uint8Array, entry: ZipEntry, entryLimit: number, limitName: string, totalLeft: number): Uint8Array {
  if (entry.flags & FLAG_ENCRYPTED) throw unreadable(`${entry.rawName} is encrypted`);
  if (entry.method !== METHOD_STORED && entry.method !== METHOD_DEFLATE) {
    throw unreadable(`${entry.rawName} uses compression method ${entry.method}, which is not supported`);
  }
  const local = entry.localHeaderOffset;
  if (local + LOCAL_SIZE > bytes.length || u32(bytes, local) !== LOCAL_SIGNATURE) {
    throw unreadable(`the zip header of ${entry.rawName} is damaged`);
  }
  const { nameLength, extraLength } = readFields(bytes, local, LOCAL_FIELDS);
  const start = local + LOCAL_SIZE + nameLength + extraLength;
  const end = start + entry.compressedSize;
  if (end > bytes.length) throw unreadable(`${entry.rawName} is cut short`);
  const compressed = bytes.subarray(start, end);

  const checkLimits = (size: number): void => {
    if (size > entryLimit) throw tooLarge(`${entry.rawName} is over ${mb(entryLimit)} (the limit ${limitName})`);
    if (size > totalLeft) throw tooLarge(`its files total over ${mb(BUNDLE_MAX_TOTAL_BYTES)} (the limit in all)`);
  };
  const sizeMismatch = (): ApiError => unreadable(`${entry.rawName} does not hold the size its zip header declares`);

  if (entry.method === METHOD_STORED) {
    checkLimits(compressed.length);
    if (compressed.length !== entry.size) throw sizeMismatch();
    return compressed.slice();
  }

  // Deflate: inflated step by step into a buffer of the declared size (already checked against the limits),
  // counting the real output, which stops as soon as it passes a limit.
  const out = new Uint8Array(entry.size);
  let produced = 0;
  const inflater = new Inflate((chunk) => {
    checkLimits(produced + chunk.length);
    if (produced + chunk.length <= out.length) out.set(chunk, produced);
    produced += chunk.length;
  });
  try {
    for (let at = 0; ; at += INFLATE_STEP) {
      const last = at + INFLATE_STEP >= compressed.length;
      inflater.push(compressed.subarray(at, Math.min(at + INFLATE_STEP, compressed.length)), last);
      if (last) break;
    }
  } catch (err) {
    if (err instanceof ApiError) throw err;
    throw unreadable(`${entry.rawName} is damaged (${err instanceof Error ? err.message : String(err)})`);
  }
  if (produced !== entry.size) throw sizeMismatch();
  return out;
}

function parseJson(data: Uint8Array, fileName: string): unknown {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(data);
  } catch {
    throw unreadable(`${fileName} is not valid UTF-8`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (err) {
    throw unreadable(`${fileName} is not valid JSON (${err instanceof Error ? err.message : String(err)})`);
  }
}

function parseManifest(value: unknown): BundleContents['manifest'] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw unreadable(`${MANIFEST_NAME} is not a JSON object`);
  }
  const read = value as Record<string, unknown>;
  if (read.format !== BUNDLE_FORMAT) {
    throw unreadable(`it is not a Notifier template bundle (${MANIFEST_NAME} has format ${JSON.stringify(read.format) ?? 'missing'})`);
  }
  if (typeof read.version !== 'number') throw unreadable(`${MANIFEST_NAME} has no format version`);
  if (read.version !== BUNDLE_VERSION) {
    throw errors.bundleVersion(read.version, BUNDLE_VERSION);
  }
  // Kept as read, except the known optional keys, which are dropped when they have the wrong type.
  const manifest: Record<string, unknown> = { ...read };
  for (const key of ['app', 'name', 'createdAt'] as const) {
    if (key in manifest && typeof manifest[key] !== 'string') delete manifest[key];
  }
  if ('assets' in manifest && !(Array.isArray(manifest.assets) && manifest.assets.every((a) => typeof a === 'string'))) {
    delete manifest.assets;
  }
  return manifest as BundleContents['manifest'];
}

// ---------------------------------------------------------------------------------------------------------------
// Writing

/**
 * A bundle of a template and its assets. Refuses (400) asset names that are not plain file names and (413) what
 * readBundle would refuse as too large.
 */
export function writeBundle(input: {
  app: string;
  name: string;
  template: unknown;
  assets: Map<string, Uint8Array>;
  createdAt?: string;
}): Uint8Array {
  const createdAt = input.createdAt ?? new Date().toISOString();
  for (const fileName of input.assets.keys()) {
    if (!isPlainFileName(fileName)) {
      throw errors.bundleAssetName(fileName);
    }
  }
  const manifest = {
    format: BUNDLE_FORMAT,
    version: BUNDLE_VERSION,
    app: input.app,
    name: input.name,
    createdAt,
    assets: [...input.assets.keys()],
  };
  const templateJson = JSON.stringify(input.template, null, 2) as string | undefined;
  if (templateJson === undefined) throw errors.templateNotJson();
  const manifestBytes = strToU8(JSON.stringify(manifest, null, 2));
  const templateBytes = strToU8(templateJson);

  if (2 + input.assets.size > BUNDLE_MAX_ENTRIES) {
    throw tooLarge(`it would have ${2 + input.assets.size} entries (at most ${BUNDLE_MAX_ENTRIES})`);
  }
  if (templateBytes.length > BUNDLE_MAX_TEMPLATE_BYTES) {
    throw tooLarge(`${TEMPLATE_NAME} would be ${templateBytes.length} bytes (at most ${mb(BUNDLE_MAX_TEMPLATE_BYTES)})`);
  }
  let total = manifestBytes.length + templateBytes.length;
  for (const [fileName, data] of input.assets) {
    if (data.length > BUNDLE_MAX_ENTRY_BYTES) {
      throw tooLarge(`${ASSETS_FOLDER}${fileName} is ${data.length} bytes (at most ${mb(BUNDLE_MAX_ENTRY_BYTES)} per file)`);
    }
    total += data.length;
  }
  if (total > BUNDLE_MAX_TOTAL_BYTES) {
    throw tooLarge(`its files would total ${total} bytes (at most ${mb(BUNDLE_MAX_TOTAL_BYTES)} in all)`);
  }

  const mtime = zipTime(createdAt);
  const files: Zippable = {
    [MANIFEST_NAME]: [manifestBytes, { level: 6, mtime }],
    [TEMPLATE_NAME]: [templateBytes, { level: 6, mtime }],
  };
  for (const [fileName, data] of input.assets) files[ASSETS_FOLDER + fileName] = [data, { level: 0, mtime }];
  return zipSync(files);
}

/** The entries' modification time: the bundle's creation date when a zip can hold it (1980-2099), else now. */
function zipTime(createdAt: string): Date {
  const date = new Date(createdAt);
  const year = date.getFullYear();
  return Number.isFinite(date.getTime()) && year >= 1980 && year <= 2099 ? date : new Date();
}
