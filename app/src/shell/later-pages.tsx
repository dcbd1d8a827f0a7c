// The pages loaded as chunks of their own when the person goes there (Settings, the Relay page, the Designer with
// its code editor): the window opens on History without their JavaScript. Each chunk is loaded once per window; the
// window keeps what it loaded (`PageChunks`, made by the App).

import type { VNode } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { APP_PAGE_TITLES, type AppPage } from '../../../protocol/app-api.js';

type PageBody = () => VNode;
type LoadPage = () => Promise<PageBody>;

/** The chunks loaded so far, by their loader. */
export type PageChunks = Map<LoadPage, PageBody>;

export const loadSettings: LoadPage = () => import('../settings/page.js').then((loaded) => loaded.SettingsPage);
export const loadRelay: LoadPage = () => import('../relay/page.js').then((loaded) => loaded.RelayPage);
const loadDesigner: LoadPage = () => import('../designer/page.js').then((loaded) => loaded.DesignerBody);

/** A page's body from its chunk: null while it loads, or `failed` when it cannot be loaded. */
function useChunk(chunks: PageChunks, load: LoadPage): { Body: PageBody | null; failed: boolean } {
  const [Body, setBody] = useState<PageBody | null>(() => chunks.get(load) ?? null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    if (Body) return;
    load().then(
      (loaded) => {
        chunks.set(load, loaded);
        setBody(() => loaded);
      },
      () => setFailed(true),
    );
  }, [load]);
  return { Body, failed };
}

/** What a page says while its chunk loads, or when it cannot be loaded: its heading, and why it is empty. */
function Loading({ page, failed }: { page: AppPage; failed: boolean }): VNode {
  return (
    <div class="page">
      <header class="page-head">
        <div class="page-title">
          <h1>{APP_PAGE_TITLES[page]}</h1>
        </div>
      </header>
      <p class="muted">{failed ? 'This page could not be loaded. Is Notifier still running?' : 'Loading…'}</p>
    </div>
  );
}

/** Settings or the Relay page: a chunk each (they change things rarely; History opens without them). */
export function LaterPage({ page, load, chunks }: { page: AppPage; load: LoadPage; chunks: PageChunks }): VNode {
  const { Body, failed } = useChunk(chunks, load);
  return Body ? <Body /> : <Loading page={page} failed={failed} />;
}

/**
 * The Designer's heading at once, its body (the code editor, CodeMirror) loaded only now, as a chunk of its own: the
 * other pages never load the editor's JavaScript.
 */
export function DesignerPage({ chunks }: { chunks: PageChunks }): VNode {
  const { Body, failed } = useChunk(chunks, loadDesigner);
  return (
    <div class="page designer-page">
      <header class="page-head">
        <div class="page-title">
          <h1>Designer</h1>
          <span class="muted">Design your banner cards and see them drawn as you type.</span>
        </div>
      </header>
      {Body ? (
        <Body />
      ) : (
        <p class="muted">{failed ? 'The designer could not be loaded. Is Notifier still running?' : 'Loading the designer…'}</p>
      )}
    </div>
  );
}
