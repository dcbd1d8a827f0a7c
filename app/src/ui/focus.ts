// The focus after something the person pressed went away or brought something new (the form became the pairing, a
// key was revoked, a field is in error): on the element named, once the page drew it, so a keyboard user is never
// left on nothing.

/**
 * Focuses what `find` gives after `frames` frames. In those frames the person may have moved on (clicked into
 * another field and begun typing): the focus is only taken from `pressed` (what held it when this was called, or
 * when the person pressed what then waited for the daemon), or from nothing when that went away, never from where
 * they are now.
 */
export function focusWhenDrawn(
  find: () => HTMLElement | null | undefined,
  frames = 1,
  pressed: Element | null = document.activeElement,
): void {
  const move = (): void => {
    const now = document.activeElement;
    if (now && now !== pressed && now !== document.body) return;
    find()?.focus();
  };
  const wait = (left: number): void => (left === 0 ? move() : void requestAnimationFrame(() => wait(left - 1)));
  wait(frames);
}

/** The element `id`, two frames on (a list redrawn after an answer takes one more). */
export function focusSoon(id: string): void {
  focusWhenDrawn(() => document.getElementById(id), 2);
}
