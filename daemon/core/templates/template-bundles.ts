// GET /v1/templates/export and POST /v1/templates/import (docs/api/templates.md#t18, #t19, #t20): a template and the
// Rive files it draws, as one `.notifiertemplate` zip (daemon/core/templates/bundle.ts packs and unpacks it).

import { readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Component, Template } from '../../../templates-renderer/model.js';
import { BUILTIN_PREFIX, templateNameProblem } from '../../../templates-renderer/names.js';
import { templateErrorMessage, validateTemplate } from '../../../templates-renderer/validate.js';
import { errors } from '../../../protocol/errors.js';
import { safeFileName } from '../../store/safe-name.js';
import { ASSET_LIMITS } from '../../../protocol/limits.js';
import { type Assets, RIVE_EXTENSION, isPlainFileName, readAssetFile, riveFileOf } from './assets.js';
import { BUNDLE_EXTENSION, BUNDLE_MAX_TOTAL_BYTES, readBundle, writeBundle } from './bundle.js';
import type { Designs } from './designs.js';
import { type TemplateLibrary, numberedName } from './library.js';
import { expandHome } from '../../paths.js';

export { ON_CONFLICT } from '../../../protocol/types.js';
import { ON_CONFLICT } from '../../../protocol/types.js';
export type OnConflict = (typeof ON_CONFLICT)[number];

type RiveComponent = Extract<Component, { type: 'rive' }>;

export class TemplateBundles {
  constructor(
    private readonly designs: Designs,
    private readonly library: TemplateLibrary,
    private readonly assets: Assets,
  ) {}

  /**
   * Packs a saved or built-in template. Rive files named by asset id go in as `<id>.riv`; files named by path go in
   * under a free name and the packed template names them so. Missing files and code that cannot travel (scripts,
   * shortcuts) are warnings.
   */
  async export(app: string, name: string, target: string | undefined) {
    if (target !== undefined) await checkTarget(target);
    const source = this.library.find(app, name);
    const template: Template = structuredClone({
      ...source,
      name: source.name.startsWith(BUILTIN_PREFIX) ? source.name.slice(BUILTIN_PREFIX.length) : source.name,
    });
    const packed = new Map<string, Uint8Array>();
    const warnings: string[] = [];
    // Files named by asset id first: they must go in as `<id>.riv`, so a loose file may not take that name before them.
    const rives = template.cells.flatMap(({ component }) => (component.type === 'rive' ? [component] : []));
    for (const component of [...rives.filter((rive) => rive.asset), ...rives.filter((rive) => !rive.asset)]) {
      await this.packRive(app, component, packed, warnings);
    }
    warnings.push(...codeLeftBehind(template));
    const bytes = writeBundle({ app, name: template.name, template, assets: packed, createdAt: new Date().toISOString() });
    const file = `${safeFileName(template.name)}${BUNDLE_EXTENSION}`;
    const reply = { ok: true, app, name: source.name, file, bytes: bytes.length, assets: [...packed.keys()], warnings };
    if (target === undefined) return { ...reply, base64: Buffer.from(bytes).toString('base64') };
    const written = path.resolve(expandHome(target));
    await writeFile(written, bytes);
    return { ...reply, path: written };
  }

  private async packRive(app: string, component: RiveComponent, packed: Map<string, Uint8Array>, warnings: string[]): Promise<void> {
    const manifest = this.designs.manifest(app);
    let found: { file: string; fallback?: string };
    try {
      found = this.assets.riveFile(app, component, manifest);
    } catch (error) {
      warnings.push((error as Error).message);
      return;
    }
    const bytes = (await readAssetFile(found.file)) ?? (found.fallback ? await readAssetFile(found.fallback) : null);
    if (!bytes) {
      warnings.push(
        `the Rive file for ${component.asset ? `asset "${component.asset}"` : `"${component.path}"`} is missing (or over ${ASSET_LIMITS.bytes} bytes): ${found.file}`,
      );
      return;
    }
    if (component.asset) {
      packed.set(riveFileOf(component.asset), bytes);
      return;
    }
    const base = safeFileName(path.basename(found.file).replace(/\.riv$/i, ''));
    const packedName = numberedName(
      base,
      '-',
      (candidate) => packed.has(candidate) && !sameBytes(packed.get(candidate)!, bytes),
      RIVE_EXTENSION,
    );
    packed.set(packedName, bytes);
    component.path = packedName;
  }

  /**
   * Installs a bundle: its template (validated, retargeted to `app`, named per `onConflict`) and its Rive files
   * (identical bytes reused; a different file of the same name is never replaced: the new one gets `-2`...).
   */
  async import(request: { path?: string; base64?: string; app?: string; onConflict: OnConflict }) {
    const contents = readBundle(await bundleBytes(request));
    const raw = contents.template;
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
      throw errors.bundleUnreadable('template.json is not a template object');
    const given = raw as Record<string, unknown>;
    const app = request.app ?? (typeof given.app === 'string' && given.app ? given.app : contents.manifest.app);
    if (!app) throw errors.bundleNamesNoApp();
    const wanted = typeof given.name === 'string' ? given.name : (contents.manifest.name ?? '');
    const nameProblem = templateNameProblem(wanted, { allowScratch: true });
    if (nameProblem) throw errors.bundleUnreadable(errors.invalidTemplateName(nameProblem).message);
    const { name, replaced } = this.resolveName(app, wanted, request.onConflict);

    const warnings = [...contents.warnings];
    const template = { ...given, app, name } as Record<string, unknown>;
    // Checked before any file is written: a bundle that is refused leaves nothing behind.
    const checked = validateTemplate(template);
    if (!checked.template || checked.errors.length > 0) throw errors.bundleUnreadable(templateErrorMessage(checked.errors));
    const installed = await this.installAssets(app, checked.template as unknown as Record<string, unknown>, contents.assets, warnings);
    const { template: valid, errors: problems } = validateTemplate(checked.template);
    if (!valid || problems.length > 0) throw errors.bundleUnreadable(templateErrorMessage(problems));
    const missingAssets = (contents.manifest.assets ?? []).filter((file) => !contents.assets.has(file));
    await this.designs.putTemplate(valid);
    return {
      ok: true,
      app,
      name,
      renamedFrom: name === wanted ? null : wanted,
      replaced,
      installedAssets: installed.installed,
      reusedAssets: installed.reused,
      missingAssets,
      warnings,
    };
  }

  private resolveName(app: string, wanted: string, onConflict: OnConflict): { name: string; replaced: boolean } {
    if (!this.designs.template(app, wanted)) return { name: wanted, replaced: false };
    if (onConflict === 'replace') return { name: wanted, replaced: true };
    if (onConflict === 'fail') throw errors.templateExists(wanted, app);
    return { name: this.library.freeName(app, wanted, ' '), replaced: false };
  }

  /** Writes the bundle's Rive files into the app's folder and points the template's components at what was written. */
  private async installAssets(app: string, template: Record<string, unknown>, files: Map<string, Uint8Array>, warnings: string[]) {
    const installed: string[] = [];
    const reused: string[] = [];
    const renamed = new Map<string, string>();
    const folder = this.assets.folder(app);
    for (const [file, bytes] of files) {
      if (!file.toLowerCase().endsWith(RIVE_EXTENSION) || !isPlainFileName(file)) {
        warnings.push(`ignored ${file}: a bundle carries Rive files only`);
        continue;
      }
      const existing = async (candidate: string) => readFile(path.join(folder, candidate)).catch(() => null);
      let target = file;
      let identical = false;
      for (let n = 2; ; n++) {
        const there = await existing(target);
        if (!there) break;
        if (sameBytes(there, bytes)) {
          identical = true;
          break;
        }
        target = `${file.slice(0, -RIVE_EXTENSION.length)}-${n}${RIVE_EXTENSION}`;
      }
      if (identical) {
        // The same file is there already, maybe under a numbered name from an earlier import: the template draws it.
        reused.push(target);
        if (target !== file) renamed.set(file, target);
        continue;
      }
      try {
        await this.assets.add(app, target, Buffer.from(bytes), 'rive');
        installed.push(target);
        if (target !== file) renamed.set(file, target);
      } catch (error) {
        warnings.push(`${file} was not installed: ${(error as Error).message}`);
      }
    }
    retarget(template, renamed);
    return { installed, reused };
  }
}

/** A file packed or installed under a new name: components that named the old one name the new one. */
function retarget(template: Record<string, unknown>, renamed: Map<string, string>): void {
  if (renamed.size === 0 || !Array.isArray(template.cells)) return;
  for (const cell of template.cells as Array<{ component?: Partial<RiveComponent> }>) {
    const component = cell.component;
    if (component?.type !== 'rive') continue;
    const byAsset = component.asset !== undefined ? renamed.get(riveFileOf(component.asset)) : undefined;
    if (byAsset) component.asset = byAsset.slice(0, -RIVE_EXTENSION.length);
    const byPath = component.path !== undefined ? renamed.get(component.path) : undefined;
    if (byPath) component.path = byPath;
  }
}

/** Scripts and shortcuts are not packed: a template that runs one needs it on the other computer too. */
function codeLeftBehind(template: Template): string[] {
  const actions = [
    ...template.actionRules.flatMap((rule) => (rule.add ? [rule.add] : [])),
    ...(template.followUp?.action ? [template.followUp.action] : []),
    ...template.cells.flatMap(({ component }) => ('action' in component && typeof component.action === 'object' ? [component.action] : [])),
  ];
  return actions.flatMap((action) => [
    ...(action.script ? [`the script ${action.script} is not in the bundle; put it in the scripts folder of the other computer`] : []),
    ...(action.shortcut ? [`the shortcut ${action.shortcut} is not in the bundle; it must exist on the other computer`] : []),
  ]);
}

async function checkTarget(target: string): Promise<void> {
  if (!target.endsWith(BUNDLE_EXTENSION)) throw errors.bundlePathExtension(BUNDLE_EXTENSION);
  const folder = path.dirname(path.resolve(expandHome(target)));
  const info = await stat(folder).catch(() => null);
  if (!info?.isDirectory()) throw errors.exportFolderMissing(folder);
}

/** The bundle's bytes: from `base64` (inside the 1 MB request body), or from `path` (up to the bundle limit). */
async function bundleBytes(request: { path?: string; base64?: string }): Promise<Uint8Array> {
  if ((request.path === undefined) === (request.base64 === undefined)) {
    throw errors.bundleNeedsOneSource();
  }
  if (request.base64 !== undefined) return Buffer.from(request.base64, 'base64');
  const file = path.resolve(expandHome(request.path!));
  if (!file.endsWith(BUNDLE_EXTENSION)) throw errors.bundlePathExtension(BUNDLE_EXTENSION);
  const info = await stat(file).catch(() => null);
  if (!info?.isFile()) throw errors.noSuchFile(request.path!);
  if (info.size > BUNDLE_MAX_TOTAL_BYTES) throw errors.bundleTooLarge(`${info.size} bytes (at most ${BUNDLE_MAX_TOTAL_BYTES})`);
  return readFile(file);
}

const sameBytes = (a: Uint8Array, b: Uint8Array): boolean => Buffer.compare(Buffer.from(a), Buffer.from(b)) === 0;
