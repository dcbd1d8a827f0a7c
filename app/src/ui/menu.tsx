// A button that opens a short menu under it (Snooze, Export or delete). Opening puts the focus on the first item;
// Escape closes it and gives the focus back to the button; so does choosing an item. Moving the focus out of it
// (Tab) or pressing anywhere else closes it too: a menu never stays open behind what the person does next.

import type { ComponentChildren, VNode } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { Icon, type IconName } from './icon.js';
import './menu.css';

export function Menu(props: {
  icon: IconName;
  label: string;
  /** What the open menu is called for screen readers ("Snooze for"). */
  menuLabel: string;
  /** The menu opens to the left of the button's right edge (for a button at the window's right). */
  alignRight?: boolean;
  /** The items (`.menu-item`); `close` closes the menu and gives the focus back to its button. */
  children: (close: () => void) => ComponentChildren;
}): VNode {
  const [open, setOpen] = useState(false);
  const holder = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const close = (): void => {
    setOpen(false);
    button.current?.focus();
  };
  useEffect(() => {
    if (!open) return;
    holder.current?.querySelector<HTMLElement>('.menu-item')?.focus();
    const elsewhere = (event: PointerEvent): void => {
      if (!holder.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', elsewhere);
    return () => document.removeEventListener('pointerdown', elsewhere);
  }, [open]);
  return (
    <div
      class="menu-holder"
      ref={holder}
      onKeyDown={(event) => {
        if (event.key !== 'Escape' || !open) return;
        event.stopPropagation();
        close();
      }}
      onFocusOut={(event) => {
        const next = event.relatedTarget as Node | null;
        if (open && next && !holder.current?.contains(next)) setOpen(false);
      }}
    >
      <button type="button" ref={button} class="button button-quiet" aria-expanded={open} onClick={() => setOpen(!open)}>
        <Icon name={props.icon} />
        <span>{props.label}</span>
      </button>
      {open && (
        <div class={props.alignRight ? 'menu menu-right' : 'menu'} role="group" aria-label={props.menuLabel}>
          {props.children(close)}
        </div>
      )}
    </div>
  );
}
