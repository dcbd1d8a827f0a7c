// Where the focus goes when what held it goes away by the person's hand: the details closed (Delete, Mark as
// unread), the first-run view replaced by the first notification.

/**
 * Puts the focus back on the list, on its tab stop (the row the person was on), once the details closed by their
 * hand (Delete, Mark as unread); the page's heading when no row is left. The button pressed went with the details.
 */
export function focusList(): void {
  requestAnimationFrame(() =>
    (document.querySelector<HTMLElement>('.rows .row-title[tabindex="0"]') ?? document.querySelector<HTMLElement>('main h1'))?.focus(),
  );
}
