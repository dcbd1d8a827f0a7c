// Manifests (`manifests/<app>.json`) and saved templates (`templates/<app>/<name>.json`) as the notification path
// needs them: an app's display name, default template and actions, and a template's defaults. The routes that
// write them come with the templates work (issue 5); until then the daemon reads what is in the support folder
// when it starts.

import path from 'node:path';
import { log } from '../log.js';
import type { Store } from '../store/store.js';
import { LAYOUTS, type Layout, type Manifest, type Notification, type Template } from './types.js';

export const BUILTIN_PREFIX = 'builtin.';

const isBuiltin = (name: string): boolean => (LAYOUTS as readonly string[]).includes(name.slice(BUILTIN_PREFIX.length)) && name.startsWith(BUILTIN_PREFIX);

/** Which template draws a notification: a saved one (with its defaults) or a built-in layout (no defaults). */
export interface ChosenTemplate {
  name: string;
  saved?: Template;
  /** The template the notification or the manifest asked for, when one did. */
  wanted?: string;
}

export class Designs {
  private readonly manifests = new Map<string, Manifest>();
  private readonly templates = new Map<string, Template>();

  constructor(private readonly store: Store) {}

  async load(): Promise<void> {
    for (const name of await this.store.listJSON('manifests')) {
      const manifest = await this.readJSON<Manifest>(`manifests/${name}`);
      if (manifest && typeof manifest.app === 'string') this.manifests.set(manifest.app, manifest);
    }
    for (const folder of await this.store.listFolders('templates')) {
      for (const name of await this.store.listJSON(`templates/${folder}`)) {
        const template = await this.readJSON<Template>(path.posix.join('templates', folder, name));
        if (template && typeof template.app === 'string' && typeof template.name === 'string') {
          this.templates.set(templateKey(template.app, template.name), template);
        }
      }
    }
  }

  manifest(app: string): Manifest | undefined {
    return this.manifests.get(app);
  }

  /** A saved template of an app by name (built-in layouts are not saved templates). */
  template(app: string, name: string | undefined): Template | undefined {
    return name === undefined ? undefined : this.templates.get(templateKey(app, name));
  }

  /**
   * spec 1, rules 2 and 3: the notification's `template`, else the manifest's `defaultTemplate`, else the
   * built-in layout named by `layout`. A `template` that names nothing saved falls back to the built-in layout.
   */
  chooseTemplate(notification: Notification): ChosenTemplate {
    const builtin: ChosenTemplate = { name: `${BUILTIN_PREFIX}${notification.layout ?? ('imageLeft' satisfies Layout)}` };
    const wanted = notification.template ?? this.manifests.get(notification.app)?.defaultTemplate;
    if (wanted === undefined) return builtin;
    if (isBuiltin(wanted)) return { name: wanted, wanted };
    const saved = this.templates.get(templateKey(notification.app, wanted));
    return saved ? { name: wanted, saved, wanted } : { ...builtin, wanted };
  }

  private async readJSON<T>(relativePath: string): Promise<T | null> {
    try {
      const document = await this.store.open<T | null>(relativePath, null);
      return document.data;
    } catch (error) {
      log.warn(`${relativePath} could not be read: ${(error as Error).message}`);
      return null;
    }
  }
}

const templateKey = (app: string, name: string): string => `${app}\u0000${name}`;
