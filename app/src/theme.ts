// Light and dark: the app follows the desktop (`prefers-color-scheme`) until the person picks one, and remembers
// the pick in localStorage. The choice is a `data-theme` attribute on <html>, which styles.css reads; without one
// the stylesheet's media query follows the desktop.

import { effect, signal } from '@preact/signals';

export const THEME_CHOICES = ['system', 'light', 'dark'] as const;
export type ThemeChoice = (typeof THEME_CHOICES)[number];

const STORAGE_KEY = 'notifier.theme';

function stored(): ThemeChoice {
  try {
    const value = localStorage.getItem(STORAGE_KEY);
    return (THEME_CHOICES as readonly string[]).includes(value ?? '') ? (value as ThemeChoice) : 'system';
  } catch {
    return 'system'; // storage refused (a locked-down profile): follow the desktop
  }
}

export const themeChoice = signal<ThemeChoice>(stored());

const darkQuery = window.matchMedia('(prefers-color-scheme: dark)');
const desktopIsDark = signal(darkQuery.matches);
darkQuery.addEventListener('change', (event) => (desktopIsDark.value = event.matches));

/** The theme actually drawn: the person's pick, else the desktop's. Card pictures are asked for in this one. */
export function shownTheme(): 'light' | 'dark' {
  const choice = themeChoice.value;
  if (choice !== 'system') return choice;
  return desktopIsDark.value ? 'dark' : 'light';
}

export function chooseTheme(choice: ThemeChoice): void {
  themeChoice.value = choice;
  try {
    if (choice === 'system') localStorage.removeItem(STORAGE_KEY);
    else localStorage.setItem(STORAGE_KEY, choice);
  } catch {
    // not remembered, still applied
  }
}

effect(() => {
  const root = document.documentElement;
  if (themeChoice.value === 'system') delete root.dataset.theme;
  else root.dataset.theme = themeChoice.value;
});
