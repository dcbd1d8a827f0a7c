// The Designer (docs/app.md#designer): the template library with its card pictures; a template (or a manifest)
// edited as JSON in a code editor, drawn by the real renderer as the person types, its problems marked where they
// are; what a template can use (components, symbols, shortcuts) with a click that inserts the name; the app's
// pictures (drop one, or choose it) and its manifests. Loaded only on this page: the editor is a chunk of its own.

import type { VNode } from 'preact';
import { useState } from 'preact/hooks';
import { OWN_APP } from '../../../protocol/app-api.js';
import type { DesignJson } from '../../../protocol/app-api-designer.js';
import { useModels } from '../models/context.js';
import { Assets } from './assets.js';
import { Browser } from './browser.js';
import { EditorPanel, useDesignerEditor } from './editor-panel.js';
import { Library } from './library.js';
import { Manifests } from './manifests.js';
import { PreviewPanel } from './preview-panel.js';
import './designer.css';

export function DesignerBody(): VNode {
  const { designer, status } = useModels();
  const editor = useDesignerEditor();
  const [manifestSerial, setManifestSerial] = useState(0);

  const openTemplate = (template: DesignJson, builtin: boolean): void => {
    const copy = builtin ? { ...template, app: OWN_APP, name: `${String(template.name).replace(/^builtin\./, '')} copy` } : template;
    editor.open('template', copy, `${String(copy.name)} (${String(copy.app)})`);
    status.say(builtin ? `Opened a copy of the built-in layout, named “${String(copy.name)}”.` : `Opened “${String(copy.name)}”.`);
  };

  return (
    <div class="designer">
      <Library onOpen={openTemplate} />
      <div class="designer-work">
        <EditorPanel editor={editor} onManifestSaved={() => setManifestSerial((serial) => serial + 1)} />
        <PreviewPanel preview={editor.preview} />
      </div>
      <div class="designer-tools">
        <Browser insert={editor.insert} />
        <Assets app={designer.editedApp.value} insert={editor.insert} />
        <Manifests serial={manifestSerial} onEdit={(manifest) => editor.open('manifest', manifest, String(manifest.app))} />
      </div>
    </div>
  );
}
