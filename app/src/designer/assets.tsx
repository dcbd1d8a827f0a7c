// The pictures of the app the open template is for: drop one or choose it (it is sent as base64), insert its path in
// the editor, or delete it (asked first, saying which templates still name it).

import type { VNode } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { type AssetUpload, designerPaths } from '../../../protocol/app-api-designer.js';
import { useModels } from '../models/context.js';
import { messageOf, withQuery } from '../models/requests.js';
import { Icon } from '../ui/icon.js';

/** A picture is sent as base64 in a request of at most 1 MiB: its bytes grow by a third on the way. */
const MAX_UPLOAD_BYTES = 700 * 1024;

interface AssetRow {
  kind: 'image' | 'rive';
  file: string;
  path: string;
  bytes: number;
  usedBy: string[];
}

function readBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result).replace(/^data:[^,]*,/, ''));
    reader.onerror = () => reject(new Error('the file could not be read'));
    reader.readAsDataURL(file);
  });
}

export function Assets({ app, insert }: { app: string; insert: (text: string) => void }): VNode {
  const { api, confirm, status } = useModels();
  const [assets, setAssets] = useState<AssetRow[] | null>(null);
  const [problem, setProblem] = useState('');
  const [over, setOver] = useState(false);
  const reload = (): Promise<void> =>
    api.call<{ assets: AssetRow[] }>('GET', withQuery(designerPaths.assets, { app })).then(
      (answer) => setAssets(answer.assets),
      (error: unknown) => setProblem(messageOf(error)),
    );
  useEffect(() => void reload(), [app]);

  const upload = async (files: FileList | null): Promise<void> => {
    const file = files?.[0];
    if (!file) return;
    if (file.size > MAX_UPLOAD_BYTES) {
      setProblem(`${file.name} is too large to add here (at most ${MAX_UPLOAD_BYTES / 1024} KB): use a smaller picture.`);
      return;
    }
    try {
      await api.call<unknown, AssetUpload>('POST', designerPaths.assets, { app, name: file.name, base64: await readBase64(file) });
      setProblem('');
      status.say(`Added ${file.name}.`);
      await reload();
    } catch (error) {
      setProblem(messageOf(error));
    }
  };
  const remove = async (asset: AssetRow): Promise<void> => {
    const used = asset.usedBy.length > 0 ? ` The templates ${asset.usedBy.join(', ')} still name it and will draw without it.` : '';
    if (
      !(await confirm.ask({ title: `Delete ${asset.file}?`, message: `It is removed from ${app}'s pictures.${used}`, confirm: 'Delete' }))
    )
      return;
    try {
      await api.call('DELETE', withQuery(designerPaths.assets, { app, file: asset.file }));
      status.say(`Deleted ${asset.file}.`);
      await reload();
    } catch (error) {
      status.sayError(error);
    }
  };
  return (
    <section class="designer-assets" aria-labelledby="assets-heading">
      <h2 id="assets-heading">Pictures of {app}</h2>
      <div
        class={`drop-zone${over ? ' drop-over' : ''}`}
        onDragOver={(event) => {
          event.preventDefault();
          setOver(true);
        }}
        onDragLeave={() => setOver(false)}
        onDrop={(event) => {
          event.preventDefault();
          setOver(false);
          void upload(event.dataTransfer?.files ?? null);
        }}
      >
        <p>Drop an image here, or</p>
        <label class="button">
          <Icon name="plus" />
          <span>Choose an image</span>
          <input
            type="file"
            class="visually-hidden"
            accept="image/*"
            onChange={(event) => {
              void upload(event.currentTarget.files);
              event.currentTarget.value = '';
            }}
          />
        </label>
      </div>
      {problem && (
        <p class="field-problem" role="alert">
          {problem}
        </p>
      )}
      {assets && assets.length === 0 && <p class="muted">No pictures yet.</p>}
      {assets && assets.length > 0 && (
        <ul class="asset-list" aria-label={`Pictures of ${app}`}>
          {assets.map((asset) => (
            <li key={asset.file}>
              <span class="asset-name">{asset.file}</span>
              <span class="muted">{Math.max(1, Math.round(asset.bytes / 1024))} KB</span>
              <button type="button" class="button button-quiet" onClick={() => insert(asset.path)}>
                Insert<span class="visually-hidden"> {asset.file}</span>
              </button>
              <button type="button" class="button button-quiet" onClick={() => void remove(asset)}>
                Delete<span class="visually-hidden"> {asset.file}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <p class="hint">Insert puts the picture's path in the editor: use it as an image cell's binding.</p>
    </section>
  );
}
