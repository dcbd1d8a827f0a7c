// Manifests (`manifests/<app>.json`) and saved templates (`templates/<app>/<name>.json`, docs/api/templates.md#t5: one file per
// app and name): held in memory, written through the store's group commit, so a route answers only once its change
// is on disk. The built-in layouts are not files: `builtinTemplate` makes them on demand. Every change, whichever
// door made it, is told to the listeners (the window's Designer follows its library: docs/app.md#live-events).

import path from 'node:path';
import { builtinTemplate } from '../../../templates-renderer/builtins.js';
import { isBuiltinName, isScratchName } from '../../../templates-renderer/names.js';
import type { Template } from '../../../templates-renderer/model.js';
import { templateErrorMessage, validateTemplate } from '../../../templates-renderer/validate.js';
import { errors } from '../../../protocol/errors.js';
import { MAX_MANIFESTS, TEMPLATE_FILE_BYTES } from '../../../protocol/limits.js';
import { log } from '../../log.js';
import { safeFileName } from '../../store/safe-name.js';
import type { Document, Store } from '../../store/store.js';
import { validateManifest } from './manifest-rules.js';
import type { Layout, Manifest, Notification } from '../../../protocol/types.js';

/** Which template draws a notification: a saved one (with its defaults) or a built-in layout (no defaults). */
export interface ChosenTemplate {
  name: string;
  saved?: Template;
  /** The template the notification or the manifest asked for, when one did. */
  wanted?: string;
}

/** A manifest file: the manifest, and the Rive files its `assets` put into the app's folder (removed with it). */
export interface ManifestFile {
  manifest: Manifest;
  installed: string[];
}

const templateKey = (app: string, name: string): string => `${app}\u0000${name}`;
export const manifestPath = (app: string): string => `manifests/${safeFileName(app)}.json`;
export const templatePath = (app: string, name: string): string =>
  path.posix.join('templates', safeFileName(app), `${safeFileName(name)}.json`);

export class Designs {
  private readonly manifests = new Map<string, Document<ManifestFile>>();
  private readonly templates = new Map<string, Document<Template>>();
  private readonly listeners = new Set<() => void>();

  constructor(private readonly store: Store) {}

  /** Called once a manifest or a listed template was saved or deleted (on disk). The answer stops listening. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }

  async load(): Promise<void> {
    for (const file of await this.store.listJSON('manifests')) await this.loadManifest(`manifests/${file}`);
    for (const folder of await this.store.listFolders('templates')) {
      for (const file of await this.store.listJSON(`templates/${folder}`))
        await this.loadTemplate(path.posix.join('templates', folder, file));
    }
  }

  /** A manifest as stored: `{manifest, installed}`; a bare manifest object (written by hand) is read as well. */
  private async loadManifest(relativePath: string): Promise<void> {
    const document = await this.read<ManifestFile | Manifest>(relativePath);
    if (!document) return;
    const raw = document.data;
    try {
      const manifest = validateManifest('manifest' in raw ? raw.manifest : raw);
      const installed = 'installed' in raw && Array.isArray(raw.installed) ? raw.installed : [];
      // The file keeps its path (one written by hand may not have the canonical name).
      const file = document as unknown as Document<ManifestFile>;
      file.data = { manifest, installed };
      this.manifests.set(manifest.app, file);
    } catch (error) {
      log.warn(`${relativePath} is ignored: ${(error as Error).message}`);
    }
  }

  /** docs/api/templates.md#t5 and #t2: files over 2 MB are ignored on read; a stored name that breaks today's rules still loads. */
  private async loadTemplate(relativePath: string): Promise<void> {
    const document = await this.read<unknown>(relativePath, TEMPLATE_FILE_BYTES);
    if (!document) return;
    const { template, errors } = validateTemplate(document.data);
    if (!template || errors.length > 0) {
      log.warn(`${relativePath} is ignored: ${templateErrorMessage(errors)}`);
      return;
    }
    const file = document as Document<Template>;
    file.data = template;
    this.templates.set(templateKey(template.app, template.name), file);
  }

  private async read<T>(relativePath: string, maxBytes?: number): Promise<Document<T> | null> {
    try {
      if (maxBytes !== undefined && (await this.store.size(relativePath)) > maxBytes) {
        log.warn(`${relativePath} is ignored: larger than ${maxBytes} bytes`);
        return null;
      }
      const document = await this.store.open<T | null>(relativePath, null);
      return document.data === null ? null : (document as Document<T>);
    } catch (error) {
      log.warn(`${relativePath} could not be read: ${(error as Error).message}`);
      return null;
    }
  }

  // -------------------------------------------------------------------------------------------------------------
  // Manifests

  manifest(app: string): Manifest | undefined {
    return this.manifests.get(app)?.data.manifest;
  }

  manifestFile(app: string): ManifestFile | undefined {
    return this.manifests.get(app)?.data;
  }

  allManifests(): Manifest[] {
    return [...this.manifests.values()].map((document) => document.data.manifest).sort((a, b) => a.app.localeCompare(b.app));
  }

  /** docs/api/templates.md#t22: 429 when the app is new and 200 manifests already exist (the apps limit is checked by the caller). */
  checkRoomFor(app: string): void {
    if (!this.manifests.has(app) && this.manifests.size >= MAX_MANIFESTS) {
      throw errors.tooManyManifests();
    }
  }

  async putManifest(file: ManifestFile): Promise<void> {
    const { app } = file.manifest;
    const existing = this.manifests.get(app);
    const document = existing ?? this.store.create<ManifestFile>(manifestPath(app), file);
    const before = document.data;
    document.data = file;
    this.manifests.set(app, document);
    await saveOrUndo(this.store.save(document), () => {
      if (document.data !== file) return; // changed again since: that change owns the memory now
      if (existing) document.data = before;
      else this.manifests.delete(app);
    });
    this.changed();
  }

  /** Removes an app's manifest; resolves with what it was (null when there was none). */
  async deleteManifest(app: string): Promise<ManifestFile | null> {
    const document = this.manifests.get(app);
    if (!document) return null;
    this.manifests.delete(app);
    await this.store.delete(document);
    this.changed();
    return document.data;
  }

  /** Sets or clears the manifest's default template (the caller checked that the manifest exists). */
  async setDefaultTemplate(app: string, name: string | undefined): Promise<void> {
    const document = this.manifests.get(app)!;
    const before = document.data;
    const { defaultTemplate: _old, ...manifest } = before.manifest;
    const after = { ...before, manifest: name === undefined ? manifest : { ...manifest, defaultTemplate: name } };
    document.data = after;
    await saveOrUndo(this.store.save(document), () => {
      if (document.data === after) document.data = before;
    });
    this.changed();
  }

  // -------------------------------------------------------------------------------------------------------------
  // Templates

  /** A saved template (scratch ones included) of an app by name; built-in layouts are not saved templates. */
  template(app: string, name: string | undefined): Template | undefined {
    return name === undefined ? undefined : this.templates.get(templateKey(app, name))?.data;
  }

  /** A saved template, or the built-in layout of that name drawn for the app. */
  templateOrBuiltin(app: string, name: string): Template | undefined {
    return isBuiltinName(name) ? builtinTemplate(name, app) : this.template(app, name);
  }

  /** docs/api/templates.md#get-v1-templates: saved templates, without built-in layouts and scratch templates, by app then name. */
  listTemplates(app?: string): Template[] {
    return [...this.templates.values()]
      .map((document) => document.data)
      .filter((template) => (app === undefined || template.app === app) && !isScratchName(template.name))
      .sort((a, b) => a.app.localeCompare(b.app) || a.name.localeCompare(b.name));
  }

  /** Every saved template of an app (scratch ones included), for the asset routes' "used by". */
  templatesOf(app: string): Template[] {
    return [...this.templates.values()].map((document) => document.data).filter((template) => template.app === app);
  }

  /** docs/api/templates.md#put-v1-templates: 500 `could not save template X` when the file cannot be written (and then nothing was saved). */
  async putTemplate(template: Template): Promise<void> {
    const key = templateKey(template.app, template.name);
    const existing = this.templates.get(key);
    const document = existing ?? this.store.create<Template>(templatePath(template.app, template.name), template);
    const before = document.data;
    document.data = template;
    this.templates.set(key, document);
    try {
      await saveOrUndo(this.store.save(document), () => {
        if (document.data !== template) return;
        if (existing) document.data = before;
        else this.templates.delete(key);
      });
    } catch (error) {
      throw errors.saveTemplateFailed(template.name, (error as Error).message);
    }
    if (!isScratchName(template.name)) this.changed(); // a scratch template is listed nowhere
  }

  async deleteTemplate(app: string, name: string): Promise<boolean> {
    const key = templateKey(app, name);
    const document = this.templates.get(key);
    if (!document) return false;
    this.templates.delete(key);
    await saveOrUndo(this.store.delete(document), () => {
      if (!this.templates.has(key)) this.templates.set(key, document);
    });
    if (!isScratchName(name)) this.changed();
    return true;
  }

  /**
   * Rename (docs/api/templates.md#t14): the template moves to its new file; when it was the app's default, the manifest follows. The
   * new file is on disk before the old one goes, so a failed write leaves the template as it was (both files at
   * worst, never neither).
   */
  async renameTemplate(app: string, name: string, newName: string): Promise<{ isDefault: boolean }> {
    const oldKey = templateKey(app, name);
    const old = this.templates.get(oldKey)!;
    const isDefault = this.manifest(app)?.defaultTemplate === name;
    await this.putTemplate({ ...old.data, name: newName });
    this.templates.delete(oldKey);
    await Promise.all([this.store.delete(old), ...(isDefault ? [this.setDefaultTemplate(app, newName)] : [])]);
    return { isDefault };
  }

  /**
   * docs/api/notifications.md#n4: the notification's `template`, else the manifest's `defaultTemplate`, else the
   * built-in layout named by `layout`. A `template` that names nothing saved falls back to the built-in layout.
   */
  chooseTemplate(notification: Notification): ChosenTemplate {
    const builtin: ChosenTemplate = { name: `builtin.${notification.layout ?? ('imageLeft' satisfies Layout)}` };
    const wanted = notification.template ?? this.manifests.get(notification.app)?.data.manifest.defaultTemplate;
    if (wanted === undefined) return builtin;
    if (isBuiltinName(wanted)) return { name: wanted, wanted };
    const saved = this.template(notification.app, wanted);
    return saved ? { name: wanted, saved, wanted } : { ...builtin, wanted };
  }
}

/**
 * The rule of docs/storage.md (a change is answered only once it is on disk) from the other side: a change whose
 * write failed did not happen, so the memory goes back to what the disk still holds (otherwise a route that
 * answered 500 would still list, and draw with, the change).
 */
async function saveOrUndo(saved: Promise<void>, undo: () => void): Promise<void> {
  try {
    await saved;
  } catch (error) {
    undo();
    throw error;
  }
}
