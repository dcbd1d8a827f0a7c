// One notification among all of them: its app and its id, which only together name it (two apps may use the same
// id). The key maps and sets hold it by, in the daemon and in the person's window alike.

/** `app` and `id` joined by a character neither can hold in a key (U+0000). */
export const recordKey = (app: string, id: string): string => `${app}\u0000${id}`;

/** The app and id a key joins (an app id never holds U+0000, so the first one ends it). */
export function keyParts(key: string): { app: string; id: string } {
  const end = key.indexOf('\u0000');
  return { app: key.slice(0, end), id: key.slice(end + 1) };
}
