// Text made safe for HTML, for the pages both servers write (the daemon's sign-in pages, the relay's OAuth pages).
// This file imports nothing: the daemon and the relay both use it.

const ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** `text` with `& < > " '` replaced by their entities: safe as element content and as a quoted attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c]!);
}
