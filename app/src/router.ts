// The pages' addresses: /app/<page>, and /app/history/<app>/<id> for a notification's details. The app is one
// document; links within it change the address with the History API, so Back and Forward work as in any site.

import { computed, signal } from '@preact/signals';
import { APP_PAGE_TITLES, APP_PAGES, type AppPage } from '../../protocol/app-api.js';

export const BASE = '/app';

export const PAGES = APP_PAGES;
export type Page = AppPage;
export const PAGE_TITLES = APP_PAGE_TITLES;

export interface Route {
  page: Page;
  /** History: the notification whose details are open. */
  selected?: { app: string; id: string };
}

export const path = signal(location.pathname);

export function parseRoute(pathname: string): Route {
  const parts = pathname
    .slice(BASE.length)
    .split('/')
    .filter((part) => part !== '')
    .map((part) => safeDecode(part));
  const page = (PAGES as readonly string[]).includes(parts[0] ?? '') ? (parts[0] as Page) : 'history';
  if (page === 'history' && parts.length === 3) return { page, selected: { app: parts[1]!, id: parts[2]! } };
  return { page };
}

function safeDecode(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
}

export const route = computed(() => parseRoute(path.value));

export const pageHref = (page: Page): string => `${BASE}/${page}`;
export const detailsHref = (app: string, id: string): string => `${BASE}/history/${encodeURIComponent(app)}/${encodeURIComponent(id)}`;

export function navigate(href: string, options: { replace?: boolean } = {}): void {
  const url = new URL(href, location.href);
  if (url.pathname + url.search === location.pathname + location.search) return;
  if (options.replace) history.replaceState(null, '', url);
  else history.pushState(null, '', url);
  path.value = url.pathname;
}

window.addEventListener('popstate', () => (path.value = location.pathname));

/**
 * Clicks on links to our own pages stay in the document (no reload); a modified click (new window, new tab),
 * a download or a link elsewhere goes to the browser as usual.
 */
document.addEventListener('click', (event) => {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
  const link = (event.target as Element | null)?.closest?.('a');
  if (!link || link.target || link.hasAttribute('download')) return;
  const url = new URL(link.href, location.href);
  if (url.origin !== location.origin || !url.pathname.startsWith(`${BASE}/`) || url.pathname.startsWith(`${BASE}/api/`)) return;
  event.preventDefault();
  navigate(url.pathname);
});

// The bare /app/ shows History: say so in the address too.
if (parseRoute(location.pathname).page === 'history' && !location.pathname.startsWith(`${BASE}/history`)) {
  navigate(pageHref('history'), { replace: true });
}
