// Light and dark: the window follows the desktop (`prefers-color-scheme`) until the person picks one, and remembers
// the pick in localStorage. The choice is a `data-theme` attribute on <html>, which ui/tokens.css reads; without one
// the tokens follow the desktop.

import { computed, createModel, effect, signal } from '@preact/signals';
import { whileAlive } from './dependencies.js';

export const THEME_CHOICES = ['system', 'light', 'dark'] as const;
export type ThemeChoice = (typeof THEME_CHOICES)[number];

const STORAGE_KEY = 'notifier.theme';

/** What of the page the theme uses: the remembered pick, the desktop's scheme, and <html>. */
export type ThemePage = Pick<Window, 'localStorage' | 'matchMedia' | 'document'>;

export const ThemeModel = createModel((page: ThemePage) => {
  const choice = signal<ThemeChoice>(stored(page));
  const darkQuery = page.matchMedia('(prefers-color-scheme: dark)');
  const desktopIsDark = signal(darkQuery.matches);
  whileAlive(() => {
    const follow = (event: MediaQueryListEvent): void => {
      desktopIsDark.value = event.matches;
    };
    darkQuery.addEventListener('change', follow);
    return () => darkQuery.removeEventListener('change', follow);
  });
  effect(() => {
    const root = page.document.documentElement;
    if (choice.value === 'system') delete root.dataset.theme;
    else root.dataset.theme = choice.value;
  });

  return {
    choice,
    /** The theme actually drawn: the person's pick, else the desktop's. Card pictures are asked for in this one. */
    shown: computed((): 'light' | 'dark' => (choice.value !== 'system' ? choice.value : desktopIsDark.value ? 'dark' : 'light')),
    choose(next: ThemeChoice): void {
      choice.value = next;
      try {
        if (next === 'system') page.localStorage.removeItem(STORAGE_KEY);
        else page.localStorage.setItem(STORAGE_KEY, next);
      } catch {
        // not remembered, still applied
      }
    },
  };
});
export type ThemeModel = InstanceType<typeof ThemeModel>;

function stored(page: ThemePage): ThemeChoice {
  try {
    const value = page.localStorage.getItem(STORAGE_KEY);
    return (THEME_CHOICES as readonly string[]).includes(value ?? '') ? (value as ThemeChoice) : 'system';
  } catch {
    return 'system'; // storage refused (a locked-down profile): follow the desktop
  }
}
