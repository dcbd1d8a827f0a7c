// Whether a key the person presses is typed into something — a text field, a list to choose from, an editor — where
// a one-key shortcut ("/", "j", "#") must not take it. The key's own target is read through shadow roots: the
// Designer's editor lives in one, where the document only sees the editor's frame.

/** Inputs that take no typed text: a key pressed on them can be a shortcut. */
const NOT_TYPED_IN = new Set(['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color', 'file', 'image']);

export function isTyping(event: KeyboardEvent): boolean {
  const target = event.composedPath()[0];
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true;
  return target instanceof HTMLInputElement && !NOT_TYPED_IN.has(target.type);
}
