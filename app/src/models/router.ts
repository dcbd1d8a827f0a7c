// The pages' addresses: /app/<page>, and /app/history/<app>/<id> for a notification's details. The window is one
// document; links within it change the address with the History API, so Back and Forward work as in any site.

import { computed, createModel, signal } from '@preact/signals';
import { APP_API_BASE, APP_BASE, APP_PAGES, appPaths, isWithin, type AppPage } from '../../../protocol/app-api.js';
import { whileAlive } from './dependencies.js';

export interface Route {
  page: AppPage;
  /** History: the notification whose details are open. */
  selected?: { app: string; id: string };
}

export function parseRoute(pathname: string): Route {
  const parts = pathname
    .slice(APP_BASE.length)
    .split('/')
    .filter((part) => part !== '')
    .map((part) => safeDecode(part));
  const page = (APP_PAGES as readonly string[]).includes(parts[0] ?? '') ? (parts[0] as AppPage) : 'history';
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

export const pageHref = appPaths.page;
export const detailsHref = appPaths.notificationPage;

/** What of the page the router uses: its address, its history, and the clicks and Back/Forward it hears. */
export type RouterPage = Pick<Window, 'location' | 'history' | 'document' | 'addEventListener' | 'removeEventListener'>;

export const RouterModel = createModel((page: RouterPage) => {
  const path = signal(page.location.pathname);

  function navigate(href: string, options: { replace?: boolean } = {}): void {
    const url = new URL(href, page.location.href);
    if (url.pathname + url.search === page.location.pathname + page.location.search) return;
    if (options.replace) page.history.replaceState(null, '', url);
    else page.history.pushState(null, '', url);
    path.value = url.pathname;
  }

  /**
   * Clicks on links to our own pages stay in the document (no reload); a modified click (new window, new tab), a
   * download or a link elsewhere goes to the browser as usual.
   */
  function followLink(event: MouseEvent): void {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const link = (event.target as Element | null)?.closest?.('a');
    if (!link || link.target || link.hasAttribute('download')) return;
    const url = new URL(link.href, page.location.href);
    if (url.origin !== page.location.origin || !url.pathname.startsWith(`${APP_BASE}/`) || isWithin(url.pathname, APP_API_BASE)) return;
    event.preventDefault();
    navigate(url.pathname);
  }
  const followHistory = (): void => {
    path.value = page.location.pathname;
  };
  whileAlive(() => {
    page.addEventListener('popstate', followHistory);
    page.document.addEventListener('click', followLink);
    return () => {
      page.removeEventListener('popstate', followHistory);
      page.document.removeEventListener('click', followLink);
    };
  });

  // The bare /app/ shows History: say so in the address too.
  if (parseRoute(page.location.pathname).page === 'history' && !page.location.pathname.startsWith(appPaths.page('history'))) {
    navigate(pageHref('history'), { replace: true });
  }

  return { route: computed(() => parseRoute(path.value)), navigate };
});
export type RouterModel = InstanceType<typeof RouterModel>;
