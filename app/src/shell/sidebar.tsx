// The window's side: Notifier's name and this computer's, the pages' navigation (each with its count: unread in
// History, waiting in Approvals), the theme switch and Sign out. On top, as a row of icons, in a narrow window.

import type { VNode } from 'preact';
import { APP_PAGE_TITLES, APP_PAGES, type AppPage, appPaths } from '../../../protocol/app-api.js';
import { type Models, useModels } from '../models/context.js';
import { pageHref } from '../models/router.js';
import { THEME_CHOICES, type ThemeChoice } from '../models/theme.js';
import { Icon, type IconName } from '../ui/icon.js';

const PAGE_ICONS: Record<AppPage, IconName> = {
  history: 'inbox',
  approvals: 'shieldCheck',
  compose: 'squarePen',
  settings: 'settings',
  designer: 'palette',
  relay: 'radioTower',
};

const THEME_LABELS: Record<ThemeChoice, { label: string; icon: IconName }> = {
  system: { label: 'Like the desktop', icon: 'monitor' },
  light: { label: 'Light', icon: 'sun' },
  dark: { label: 'Dark', icon: 'moon' },
};

function NavLink({ page }: { page: AppPage }): VNode {
  const { router, history, approvals } = useModels();
  const current = router.route.value.page === page;
  const count = page === 'history' ? history.unreadTotal.value : page === 'approvals' ? approvals.waiting.value : 0;
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
        <span class="nav-label">{APP_PAGE_TITLES[page]}</span>
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
  const { theme } = useModels();
  return (
    <fieldset class="theme-switch">
      <legend class="visually-hidden">Theme</legend>
      {THEME_CHOICES.map((choice) => (
        <label key={choice} class={theme.choice.value === choice ? 'checked' : undefined} title={THEME_LABELS[choice].label}>
          <input type="radio" name="theme" value={choice} checked={theme.choice.value === choice} onChange={() => theme.choose(choice)} />
          <Icon name={THEME_LABELS[choice].icon} />
          <span class="visually-hidden">{THEME_LABELS[choice].label}</span>
        </label>
      ))}
    </fieldset>
  );
}

async function signOut({ api, events }: Models): Promise<void> {
  try {
    await api.call('DELETE', appPaths.session);
  } finally {
    events.disconnect();
    api.forgetCsrf();
    api.endSession('signedOut');
  }
}

export function Sidebar(): VNode {
  const models = useModels();
  const computerName = models.api.computerName.value;
  return (
    <header class="sidebar">
      <div class="brand">
        <span class="brand-mark" aria-hidden="true">
          <Icon name="inbox" />
        </span>
        <div>
          <span class="brand-name">Notifier</span>
          {computerName && <span class="brand-computer">{computerName}</span>}
        </div>
      </div>
      <nav aria-label="Pages">
        <ul class="nav-list">
          {APP_PAGES.map((page) => (
            <NavLink key={page} page={page} />
          ))}
        </ul>
      </nav>
      <div class="sidebar-foot">
        <ThemeSwitch />
        <button type="button" class="button button-quiet sign-out" onClick={() => void signOut(models)}>
          <Icon name="logOut" />
          <span>Sign out</span>
        </button>
      </div>
    </header>
  );
}
