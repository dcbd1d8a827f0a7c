// The Designer's template library: the built-in layouts and the saved templates, each as its card picture (drawn by
// the designer model, a couple at a time, once per visit of the window). Opening one puts it in the editor; a
// built-in layout opens as a copy.

import type { VNode } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { DesignJson } from '../../../protocol/app-api-designer.js';
import { useModels } from '../models/context.js';

function LibraryCard({ template, builtin, onOpen }: { template: DesignJson; builtin: boolean; onOpen: () => void }): VNode {
  const { designer } = useModels();
  const key = JSON.stringify(template);
  const [src, setSrc] = useState(designer.cardPicture(template) ?? '');
  useEffect(() => {
    if (src) return;
    let current = true;
    designer.drawCard(template).then(
      (url) => {
        if (url && current) setSrc(url);
      },
      () => undefined, // a template that no longer draws still opens: the editor says why
    );
    return () => {
      current = false;
    };
  }, [key]);
  const name = String(template.name);
  return (
    <li>
      <button type="button" class="template-card" onClick={onOpen}>
        <span class="template-card-picture">{src ? <img src={src} alt="" /> : <span class="muted">Drawing…</span>}</span>
        <span class="template-card-name">{builtin ? name.replace(/^builtin\./, '') : name}</span>
        <span class="template-card-app muted">{builtin ? 'Built-in layout' : String(template.app)}</span>
      </button>
    </li>
  );
}

export function Library({ onOpen }: { onOpen: (template: DesignJson, builtin: boolean) => void }): VNode {
  const known = useModels().designer.library.value;
  return (
    <section class="designer-library" aria-labelledby="library-heading">
      <h2 id="library-heading">Templates</h2>
      <p class="muted">Open a template to change it. A built-in layout is a starting point: it opens as a copy for you to name and save.</p>
      {!known ? (
        <p class="muted">Loading the templates…</p>
      ) : (
        <ul class="template-cards">
          {known.builtins.map((template) => (
            <LibraryCard key={`b-${String(template.name)}`} template={template} builtin onOpen={() => onOpen(template, true)} />
          ))}
          {known.templates.map((template) => (
            <LibraryCard
              key={`t-${String(template.app)}-${String(template.name)}`}
              template={template}
              builtin={false}
              onOpen={() => onOpen(template, false)}
            />
          ))}
        </ul>
      )}
    </section>
  );
}
