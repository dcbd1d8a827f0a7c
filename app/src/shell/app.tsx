// The window: the pages' navigation on the side (on top in a narrow window), the page, the status line and the
// confirmation dialog; or, once the session is over, only that it is and how to open Notifier again. The document's
// title names the page, with the unread count first (`windowTitle`, which main.tsx follows).

import type { VNode } from 'preact';
import { useEffect, useMemo, useRef } from 'preact/hooks';
import { APP_PAGE_TITLES, HOW_TO_OPEN_NOTIFIER } from '../../../protocol/app-api.js';
import { ApprovalsPage } from '../approvals/page.js';
import { ComposePage } from '../compose/page.js';
import { HistoryPage } from '../history/page.js';
import { type Models, useModels } from '../models/context.js';
import { ConfirmDialog } from '../ui/confirm.js';
import { Icon } from '../ui/icon.js';
import { StatusLine } from '../ui/status.js';
import { isTyping } from '../ui/typing.js';
import { DesignerPage, LaterPage, loadRelay, loadSettings, type PageChunks } from './later-pages.js';
import { Sidebar } from './sidebar.js';
import './shell.css';

/** What the window says once its session is over, and how the person opens it again (there is no password). */
const ENDED_WHY = {
  signedOut: 'You signed out of Notifier in this window.',
  ended: 'This window was signed out: it was signed out in Settings, or not used for 30 days.',
};

/** The document's title: the page, with the unread count first; "Signed out" alone once the session is over. */
export function windowTitle({ api, history, router }: Models): string {
  const unread = history.unreadTotal.value;
  if (api.sessionEnded.value) return 'Notifier — Signed out';
  return `${unread > 0 ? `(${unread}) ` : ''}Notifier — ${APP_PAGE_TITLES[router.route.value.page]}`;
}

/** "/" anywhere but in a field or an editor goes to the page's search, as in a mail client. */
export function goToSearch(event: KeyboardEvent): void {
  if (event.key !== '/' || event.ctrlKey || event.metaKey || event.altKey || isTyping(event)) return;
  const search = document.querySelector<HTMLInputElement>('.search input');
  if (!search) return;
  event.preventDefault();
  search.focus();
}

function CurrentPage({ chunks }: { chunks: PageChunks }): VNode {
  const current = useModels().router.route.value;
  if (current.page === 'history') return <HistoryPage route={current} />;
  if (current.page === 'approvals') return <ApprovalsPage />;
  if (current.page === 'compose') return <ComposePage />;
  if (current.page === 'settings') return <LaterPage page="settings" load={loadSettings} chunks={chunks} />;
  if (current.page === 'relay') return <LaterPage page="relay" load={loadRelay} chunks={chunks} />;
  return <DesignerPage chunks={chunks} />;
}

export function SessionEnded({ reason }: { reason: 'signedOut' | 'ended' }): VNode {
  const heading = useRef<HTMLHeadingElement>(null);
  // The page the focus was on is gone: a screen reader says this one instead.
  useEffect(() => heading.current?.focus(), []);
  return (
    <main class="ended">
      <Icon name="inbox" class="icon-large" />
      <h1 ref={heading} tabIndex={-1}>
        Signed out
      </h1>
      <p>{ENDED_WHY[reason]}</p>
      <p>{HOW_TO_OPEN_NOTIFIER}</p>
    </main>
  );
}

export function App(): VNode {
  const { api, router } = useModels();
  const main = useRef<HTMLElement>(null);
  const chunks = useMemo<PageChunks>(() => new Map(), []);
  const page = router.route.value.page;
  // A new page: focus its heading, so a screen reader says where the person is (not on the first load).
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const heading = main.current?.querySelector<HTMLElement>('h1');
    // Unless the person is already in the new page (this runs once it is painted, and a quick click can come first).
    const now = document.activeElement;
    if (!heading || (now !== main.current && main.current?.contains(now))) return;
    heading.tabIndex = -1;
    heading.focus({ preventScroll: true });
  }, [page]);

  const ended = api.sessionEnded.value;
  if (ended) return <SessionEnded reason={ended} />;
  return (
    <div class="shell">
      <a class="skip-link" href="#main">
        Skip to the page
      </a>
      <Sidebar />
      <main id="main" ref={main} tabIndex={-1}>
        <CurrentPage chunks={chunks} />
      </main>
      <StatusLine />
      <ConfirmDialog />
    </div>
  );
}
