// The window: the pages' navigation on the side (on top in a narrow window), the page, the status line and the
// confirmation dialog. The document's title names the page, with the unread count first.

import { effect } from '@preact/signals';
import type { VNode } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { appPaths, HOW_TO_OPEN_NOTIFIER } from '../../protocol/app-api.js';
import { call, computerName, endSession, forgetCsrf, sessionEnded } from './api.js';
import { ApprovalsPage } from './approvals/page.js';
import { waitingCount } from './approvals/store.js';
import { ComposePage } from './compose/page.js';
import { HistoryPage } from './history/page.js';
import { unreadTotal } from './history/store.js';
import { disconnectEvents } from './live.js';
import { PAGE_TITLES, PAGES, pageHref, route, type Page } from './router.js';
import { chooseTheme, THEME_CHOICES, themeChoice, type ThemeChoice } from './theme.js';
import { ConfirmDialog } from './ui/confirm.js';
import { Icon, type IconName } from './ui/icon.js';
import { StatusLine } from './ui/status.js';

const PAGE_ICONS: Record<Page, IconName> = {
  history: 'inbox',
  approvals: 'shieldCheck',
  compose: 'squarePen',
  settings: 'settings',
  designer: 'palette',
  relay: 'radioTower',
};

/** What the window says once its session is over, and how the person opens it again (there is no password). */
const ENDED_WHY = {
  signedOut: 'You signed out of Notifier in this window.',
  ended: 'This window was signed out: Notifier restarted, or the window was not used for 12 hours.',
};

const THEME_LABELS: Record<ThemeChoice, { label: string; icon: IconName }> = {
  system: { label: 'Like the desktop', icon: 'monitor' },
  light: { label: 'Light', icon: 'sun' },
  dark: { label: 'Dark', icon: 'moon' },
};

effect(() => {
  const unread = unreadTotal.value;
  if (sessionEnded.value) document.title = 'Notifier — Signed out';
  else document.title = `${unread > 0 ? `(${unread}) ` : ''}Notifier — ${PAGE_TITLES[route.value.page]}`;
});

function NavLink({ page }: { page: Page }): VNode {
  const current = route.value.page === page;
  const count = page === 'history' ? unreadTotal.value : page === 'approvals' ? waitingCount.value : 0;
  const countId = `nav-count-${page}`;
  return (
    <li>
      <a
        class="nav-link"
        href={pageHref(page)}
        aria-current={current ? 'page' : undefined}
        aria-describedby={count > 0 ? countId : undefined}
      >
        <Icon name={PAGE_ICONS[page]} />
        <span class="nav-label">{PAGE_TITLES[page]}</span>
      </a>
      {count > 0 && (
        <span id={countId} class="nav-count">
          {count > 999 ? '999+' : count}
          <span class="visually-hidden">{page === 'history' ? ' unread' : ' waiting'}</span>
        </span>
      )}
    </li>
  );
}

function ThemeSwitch(): VNode {
  return (
    <fieldset class="theme-switch">
      <legend class="visually-hidden">Theme</legend>
      {THEME_CHOICES.map((choice) => (
        <label key={choice} class={themeChoice.value === choice ? 'checked' : undefined} title={THEME_LABELS[choice].label}>
          <input type="radio" name="theme" value={choice} checked={themeChoice.value === choice} onChange={() => chooseTheme(choice)} />
          <Icon name={THEME_LABELS[choice].icon} />
          <span class="visually-hidden">{THEME_LABELS[choice].label}</span>
        </label>
      ))}
    </fieldset>
  );
}

async function signOut(): Promise<void> {
  try {
    await call('DELETE', appPaths.session);
  } finally {
    disconnectEvents();
    forgetCsrf();
    endSession('signedOut');
  }
}

function Sidebar(): VNode {
  return (
    <header class="sidebar">
      <div class="brand">
        <span class="brand-mark" aria-hidden="true">
          <Icon name="inbox" />
        </span>
        <div>
          <span class="brand-name">Notifier</span>
          {computerName.value && <span class="brand-computer">{computerName.value}</span>}
        </div>
      </div>
      <nav aria-label="Pages">
        <ul class="nav-list">
          {PAGES.map((page) => (
            <NavLink key={page} page={page} />
          ))}
        </ul>
      </nav>
      <div class="sidebar-foot">
        <ThemeSwitch />
        <button type="button" class="button button-quiet sign-out" onClick={() => void signOut()}>
          <Icon name="logOut" />
          <span>Sign out</span>
        </button>
      </div>
    </header>
  );
}

/** The pages loaded as chunks of their own, once each: the window opens on History without their JavaScript. */
const chunks = new Map<() => Promise<() => VNode>, () => VNode>();

/** A page's body from its chunk: null while it loads, or `failed` when it cannot be loaded. */
function useChunk(load: () => Promise<() => VNode>): { Body: (() => VNode) | null; failed: boolean } {
  const [Body, setBody] = useState<(() => VNode) | null>(() => chunks.get(load) ?? null);
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

const loadSettings = (): Promise<() => VNode> => import('./settings/page.js').then((loaded) => loaded.SettingsPage);
const loadRelay = (): Promise<() => VNode> => import('./relay/page.js').then((loaded) => loaded.RelayPage);
const loadDesigner = (): Promise<() => VNode> => import('./designer/page.js').then((loaded) => loaded.DesignerBody);

/** What a page says while its chunk loads, or when it cannot be loaded: its heading, and why it is empty. */
function Loading({ page, failed }: { page: Page; failed: boolean }): VNode {
  return (
    <div class="page">
      <header class="page-head">
        <div class="page-title">
          <h1>{PAGE_TITLES[page]}</h1>
        </div>
      </header>
      <p class="muted">{failed ? 'This page could not be loaded. Is Notifier still running?' : 'Loading…'}</p>
    </div>
  );
}

/** Settings or the Relay page: a chunk each (they change things rarely; History opens without them). */
function LaterPage({ page, load }: { page: Page; load: () => Promise<() => VNode> }): VNode {
  const { Body, failed } = useChunk(load);
  return Body ? <Body /> : <Loading page={page} failed={failed} />;
}

/**
 * The Designer's heading at once, its body (the code editor, CodeMirror) loaded only now, as a chunk of its own: the
 * other pages never load the editor's JavaScript.
 */
function DesignerPage(): VNode {
  const { Body, failed } = useChunk(loadDesigner);
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

function CurrentPage(): VNode {
  const current = route.value;
  if (current.page === 'history') return <HistoryPage route={current} />;
  if (current.page === 'approvals') return <ApprovalsPage />;
  if (current.page === 'compose') return <ComposePage />;
  if (current.page === 'settings') return <LaterPage page="settings" load={loadSettings} />;
  if (current.page === 'relay') return <LaterPage page="relay" load={loadRelay} />;
  return <DesignerPage />;
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

/** "/" anywhere but in a field goes to History's search, as in a mail client. */
document.addEventListener('keydown', (event) => {
  if (event.key !== '/' || event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target as HTMLElement;
  if (target.closest('input, textarea, select, [contenteditable="true"]')) return;
  const search = document.querySelector<HTMLInputElement>('.search input');
  if (!search) return;
  event.preventDefault();
  search.focus();
});

export function App(): VNode {
  const main = useRef<HTMLElement>(null);
  const page = route.value.page;
  // A new page: focus its heading, so a screen reader says where the person is (not on the first load).
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    const heading = main.current?.querySelector<HTMLElement>('h1');
    if (!heading) return;
    heading.tabIndex = -1;
    heading.focus({ preventScroll: true });
  }, [page]);

  if (sessionEnded.value) return <SessionEnded reason={sessionEnded.value} />;
  return (
    <div class="shell">
      <a class="skip-link" href="#main">
        Skip to the page
      </a>
      <Sidebar />
      <main id="main" ref={main} tabIndex={-1}>
        <CurrentPage />
      </main>
      <StatusLine />
      <ConfirmDialog />
    </div>
  );
}
