// The apps' manifests (the fields an app sends, with sample values the previews show): each can be opened in the
// editor, or deleted (asked first). The list is read again when `serial` changes (one saved here) and when a
// manifest changes elsewhere (the designer model follows the daemon's events).

import type { VNode } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { designerPaths, type DesignJson } from '../../../protocol/app-api-designer.js';
import { useModels } from '../models/context.js';
import { withQuery } from '../models/requests.js';

export function Manifests({ onEdit, serial }: { onEdit: (manifest: DesignJson) => void; serial: number }): VNode {
  const { api, confirm, designer, status } = useModels();
  const [items, setItems] = useState<DesignJson[] | null>(null);
  const reload = (): Promise<void> =>
    api.call<{ items: DesignJson[] }>('GET', designerPaths.manifests).then(
      (answer) => setItems(answer.items),
      (error: unknown) => status.sayError(error),
    );
  useEffect(() => void reload(), [serial]);
  useEffect(() => designer.follow(() => void reload()), []);
  const remove = async (app: string): Promise<void> => {
    const message = `The manifest of ${app} is removed (its fields, actions and samples). The app, its templates and its History stay.`;
    if (!(await confirm.ask({ title: `Delete the manifest of ${app}?`, message, confirm: 'Delete' }))) return;
    try {
      await api.call('DELETE', withQuery(designerPaths.manifest, { app }));
      status.say(`Deleted the manifest of ${app}.`);
      await reload();
    } catch (error) {
      status.sayError(error);
    }
  };
  return (
    <section class="designer-manifests" aria-labelledby="manifests-heading">
      <h2 id="manifests-heading">Manifests</h2>
      <p class="muted">An app's manifest names the fields it sends, with sample values the previews show.</p>
      {items && items.length === 0 && <p class="muted">No app has a manifest yet.</p>}
      {items && items.length > 0 && (
        <ul class="asset-list" aria-label="Manifests">
          {items.map((manifest) => (
            <li key={String(manifest.app)}>
              <span class="asset-name">{String(manifest.appName ?? manifest.app)}</span>
              <span class="muted">{String(manifest.app)}</span>
              <button type="button" class="button button-quiet" onClick={() => onEdit(manifest)}>
                Edit<span class="visually-hidden"> the manifest of {String(manifest.app)}</span>
              </button>
              <button type="button" class="button button-quiet" onClick={() => void remove(String(manifest.app))}>
                Delete<span class="visually-hidden"> the manifest of {String(manifest.app)}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
