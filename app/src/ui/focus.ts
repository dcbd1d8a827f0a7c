// The focus after something the person pressed went away (the form became the pairing, a key was revoked): on the
// element named, once the page drew it, so a keyboard user is never left on nothing.

export function focusSoon(id: string): void {
  const pressed = document.activeElement;
  requestAnimationFrame(() =>
    requestAnimationFrame(() => {
      // In those two frames the person may have moved on (clicked into another field and begun typing): the focus
      // is only taken from what they pressed, or from nothing when it went away, never from where they are now.
      const now = document.activeElement;
      if (now && now !== pressed && now !== document.body) return;
      document.getElementById(id)?.focus();
    }),
  );
}
