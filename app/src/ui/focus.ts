// The focus after something the person pressed went away (the form became the pairing, a key was revoked): on the
// element named, once the page drew it, so a keyboard user is never left on nothing.

export function focusSoon(id: string): void {
  requestAnimationFrame(() => requestAnimationFrame(() => document.getElementById(id)?.focus()));
}
