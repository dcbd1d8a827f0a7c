// History search ignores case and accents (docs/api/history.md#h12): both the records and the query are
// brought to lower case without combining marks before a plain substring test.

const NON_ASCII = /[^\u0000-\u007f]/;
const COMBINING_MARKS = /\p{M}/gu;

/**
 * Lower case without accents. Decomposing the whole text (rather than only its non-ASCII runs) is slower to
 * build but gives a string the engine scans about a third faster, and an app's text is scanned far more often
 * than it is built (measured in docs/performance-history.md, "bench:history: History at scale").
 */
export function foldForSearch(text: string): string {
  if (!NON_ASCII.test(text)) return text.toLowerCase();
  return text.normalize('NFD').replace(COMBINING_MARKS, '').toLowerCase();
}

/** The words of a query, folded; every one must occur somewhere in the record. */
export function queryWords(query: string): string[] {
  return foldForSearch(query)
    .split(/\s+/)
    .filter((word) => word !== '');
}
