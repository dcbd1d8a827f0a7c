// What a template can use: the renderer's components, its symbols (searched: the catalogue has some 1,900) and the
// shortcuts of this computer; a click inserts the name where the cursor is in the editor.

import type { VNode } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { designerPaths } from '../../../protocol/app-api-designer.js';
import { useModels } from '../models/context.js';
import { ApiProblem, messageOf, withQuery } from '../models/requests.js';
import { Icon } from '../ui/icon.js';

/** Symbols listed at once (the catalogue has some 1,900; the search narrows it). */
const SYMBOLS_SHOWN = 60;

type BrowseKind = 'components' | 'symbols' | 'shortcuts';
const BROWSE_LABELS: Record<BrowseKind, string> = { components: 'Components', symbols: 'Symbols', shortcuts: 'Shortcuts' };

export function Browser({ insert }: { insert: (text: string) => void }): VNode {
  const { api } = useModels();
  const [kind, setKind] = useState<BrowseKind>('components');
  const [query, setQuery] = useState('');
  const [items, setItems] = useState<Array<{ name: string; about?: string }>>([]);
  const [problem, setProblem] = useState('');
  useEffect(() => {
    let current = true;
    const words = query.trim().toLowerCase();
    const load = async (): Promise<Array<{ name: string; about?: string }>> => {
      if (kind === 'components') {
        const schema = await api.call<Record<string, { components: Record<string, { description?: string }> }>>(
          'GET',
          designerPaths.components,
        );
        const components = (schema as unknown as { components: Record<string, { description?: string }> }).components;
        return Object.entries(components)
          .map(([name, spec]) => ({ name, about: spec.description }))
          .filter((item) => !words || `${item.name} ${item.about ?? ''}`.toLowerCase().includes(words));
      }
      if (kind === 'symbols') {
        const answer = await api.call<{ symbols: Array<{ name: string; categories: string[] }> }>(
          'GET',
          withQuery(designerPaths.symbols, { q: words || undefined, limit: SYMBOLS_SHOWN }),
        );
        return answer.symbols.map((symbol) => ({ name: symbol.name, about: symbol.categories.join(', ') }));
      }
      const answer = await api.call<{ items: string[] }>('GET', designerPaths.shortcuts);
      return answer.items.filter((name) => !words || name.toLowerCase().includes(words)).map((name) => ({ name }));
    };
    load().then(
      (found) => {
        if (!current) return;
        setItems(found);
        setProblem('');
      },
      (error: unknown) => {
        if (!current) return;
        setItems([]);
        setProblem(
          kind === 'shortcuts' && error instanceof ApiProblem && error.status === 502
            ? 'Shortcuts are Apple Shortcuts, which exist on macOS only: this computer has none.'
            : messageOf(error),
        );
      },
    );
    return () => {
      current = false;
    };
  }, [kind, query]);
  return (
    <section class="designer-browse" aria-labelledby="browse-heading">
      <h2 id="browse-heading">What a template can use</h2>
      <fieldset class="segmented">
        <legend class="visually-hidden">Show</legend>
        {(Object.keys(BROWSE_LABELS) as BrowseKind[]).map((choice) => (
          <label key={choice} class={kind === choice ? 'checked' : undefined}>
            <input type="radio" name="browse" value={choice} checked={kind === choice} onChange={() => setKind(choice)} />
            {BROWSE_LABELS[choice]}
          </label>
        ))}
      </fieldset>
      <div class="search designer-search">
        <Icon name="search" />
        <input
          type="search"
          aria-label={`Search ${BROWSE_LABELS[kind].toLowerCase()}`}
          placeholder={`Search ${BROWSE_LABELS[kind].toLowerCase()}`}
          value={query}
          onInput={(event) => setQuery(event.currentTarget.value)}
        />
      </div>
      {problem ? (
        <p class="muted">{problem}</p>
      ) : (
        <ul class="browse-list" aria-label={BROWSE_LABELS[kind]}>
          {items.length === 0 && <li class="muted">Nothing found.</li>}
          {items.map((item) => (
            <li key={item.name}>
              <button type="button" class="button button-quiet browse-item" onClick={() => insert(item.name)}>
                <span class="visually-hidden">Insert </span>
                <code>{item.name}</code>
              </button>
              {item.about && <span class="muted browse-about">{item.about}</span>}
            </li>
          ))}
        </ul>
      )}
      <p class="hint">A click inserts the name where the cursor is in the editor.</p>
    </section>
  );
}
