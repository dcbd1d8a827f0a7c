// Where the focus goes when what held it goes away by the person's hand: the details closed (Delete, Mark as
// unread), the first-run view replaced by the first notification, a row deleted from the list.

import { useLayoutEffect, useRef } from 'preact/hooks';
import { focusWhenDrawn } from '../ui/focus.js';

/**
 * Puts the focus back on the list, on its tab stop (the row the person was on), once the details closed by their
 * hand (Delete, Mark as unread); the page's heading when no row is left. The button pressed went with the details.
 */
export function focusList(): void {
  focusWhenDrawn(
    () => document.querySelector<HTMLElement>('.rows .row-title[tabindex="0"]') ?? document.querySelector<HTMLElement>('main h1'),
  );
}

/**
 * Keeps the keyboard in a list when the row it was on goes (deleted with its Delete, with `#`, or elsewhere): the
 * focus moves to what `refocus` names, the row now in its place, rather than to the start of the page. The person
 * moving the focus out of the list, or to nothing (a click beside it), lets it go.
 */
export function useFocusStays(
  container: { current: HTMLElement | null },
  refocus: () => HTMLElement | null | undefined,
): { onFocusIn: () => void; onFocusOut: (event: FocusEvent) => void } {
  const held = useRef(false);
  useLayoutEffect(() => {
    if (held.current && document.activeElement === document.body) refocus()?.focus();
  });
  return {
    onFocusIn: () => (held.current = true),
    onFocusOut: (event) => {
      const to = event.relatedTarget as Node | null;
      if (to && container.current?.contains(to)) return;
      if (to) return void (held.current = false);
      // To nothing: its row went (the element is out of the document), or the person clicked beside the list.
      const left = event.target as Element;
      setTimeout(() => {
        if (left.isConnected) held.current = false;
      });
    },
  };
}
