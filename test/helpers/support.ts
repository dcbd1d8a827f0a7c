import { readFileSync } from 'node:fs';
import { mkdir, readdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ROOT } from './daemon.js';

export const IMAGES = path.join(ROOT, 'fixtures', 'images');

/** package.json's `version`: what `--version`, `/v1/health` and the relay's `/health` report. */
export const PACKAGE_VERSION = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')).version as string;

/**
 * What a saved template gets written out when it leaves it unsaid (docs/api/templates.md#t12: GET returns it
 * normalised).
 */
export const WRITTEN_OUT_DEFAULTS = {
  collapseEmpty: true,
  actionRules: [],
  extra: {},
  buttons: [],
  layout: 'imageLeft',
  showSubtitle: true,
  showBody: true,
  showTimestamp: true,
  maxBodyLines: 8,
} as const;

/** What a grid cell gets written out when it leaves it unsaid (docs/api/templates.md#t8, #t12). */
export const WRITTEN_OUT_CELL_DEFAULTS = { rowSpan: 1, colSpan: 1, align: 'topLeading', padding: 0 } as const;

/** Puts a JSON file into a support folder before a daemon starts (manifests, templates, settings). */
export async function writeSupportFile(supportDir: string, relativePath: string, value: unknown): Promise<void> {
  const file = path.join(supportDir, relativePath);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify(value));
}

/** Whether something is at `file` now (a file or a folder). */
export const exists = (file: string): Promise<boolean> =>
  stat(file).then(
    () => true,
    () => false,
  );

/** Every file under a folder, as paths relative to it. */
export async function filesUnder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true });
  return entries
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(folder, path.join(entry.parentPath, entry.name)))
    .sort();
}

/** Paths inside a JSON value whose value is null: History records never hold one. */
export function nullsIn(value: unknown, at = '$'): string[] {
  if (value === null) return [at];
  if (Array.isArray(value)) return value.flatMap((item, index) => nullsIn(item, `${at}[${index}]`));
  if (typeof value === 'object' && value !== undefined) {
    return Object.entries(value as Record<string, unknown>).flatMap(([key, item]) => nullsIn(item, `${at}.${key}`));
  }
  return [];
}
