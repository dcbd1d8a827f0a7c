// The fields a person fills in to send a notification through one of an app's templates (the person's app's
// Compose): the manifest's fields, then every other `{token}` the template binds, except those the service fills
// itself (docs/api/templates.md#t10).

import type { TemplateFieldDescription } from '../../../protocol/app-api.js';
import type { Manifest } from '../../../protocol/types.js';
import type { Template } from '../../../templates-renderer/model.js';

const TOKEN = /\{([A-Za-z0-9_.-]+)\}/g;
/** Filled by the service, never typed: the app, the id, its name, the delivery time, the template's own values. */
const FILLED_BY_SERVICE = (key: string): boolean =>
  ['app', 'id', 'appName', 'deliveredAt'].includes(key) || key.startsWith('extra.') || key.startsWith('stack.');

export function templateFields(template: Template, manifest: Manifest | undefined): TemplateFieldDescription[] {
  const fields: TemplateFieldDescription[] = (manifest?.fields ?? []).map(({ key, type }) => ({ key, type }));
  const known = new Set(fields.map((field) => field.key));
  const bound = JSON.stringify([template.cells, template.title, template.subtitle, template.body, template.image, template.url]);
  for (const [, key] of bound.matchAll(TOKEN)) {
    if (known.has(key!) || FILLED_BY_SERVICE(key!)) continue;
    known.add(key!);
    fields.push({ key: key! });
  }
  return fields;
}
