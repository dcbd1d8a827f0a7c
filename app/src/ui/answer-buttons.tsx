// A card's two answers (Allow and Deny, Approve and Deny), and where the focus goes once one is given: the card
// answered goes away, and the focus moves on, never lost with it. Used by the question and connector-request cards,
// wherever they are shown (Approvals, a notification's details, the Relay page).

import type { RefObject, VNode } from 'preact';
import { useLayoutEffect, useRef, useState } from 'preact/hooks';

/**
 * The focus after an answer: the card answered goes away (here, or because the answer came from a banner meanwhile),
 * and the focus moves to the next card's first button, else to `fallback` (the page's heading) — never lost with
 * the card. Spread `onClick` on the element holding the cards, and pass it `container`.
 */
export function useAnswerFocus<Container extends HTMLElement>(fallback: {
  current: HTMLElement | null;
}): { container: RefObject<Container>; onClick: (event: MouseEvent) => void } {
  const container = useRef<Container>(null);
  const pressed = useRef<Element | null>(null);
  useLayoutEffect(() => {
    if (!pressed.current || pressed.current.isConnected) return;
    pressed.current = null;
    if (document.activeElement && document.activeElement !== document.body) return;
    (container.current?.querySelector<HTMLElement>('.card .button') ?? fallback.current)?.focus();
  });
  return {
    container,
    onClick: (event) => {
      const button = (event.target as Element).closest('.card .button');
      if (button) pressed.current = button;
    },
  };
}

/**
 * The two answers of a question, as buttons: while one is sent, both say they are busy (`aria-disabled`, not
 * `disabled`, so the focus stays on the button pressed).
 */
export function AnswerButtons({ yes, no, answer }: { yes: string; no: string; answer: (yes: boolean) => Promise<void> }): VNode {
  const [busy, setBusy] = useState(false);
  const press = async (choice: boolean): Promise<void> => {
    if (busy) return;
    setBusy(true);
    try {
      await answer(choice);
    } finally {
      setBusy(false);
    }
  };
  return (
    <div class="actions">
      <button type="button" class="button button-primary" aria-disabled={busy} onClick={() => void press(true)}>
        {yes}
      </button>
      <button type="button" class="button" aria-disabled={busy} onClick={() => void press(false)}>
        {no}
      </button>
    </div>
  );
}
