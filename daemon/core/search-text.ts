// History search ignores case and accents (spec 1, GET /v1/history/search): both the records and the query are
// brought to lower case without combining marks before a plain substring test.

const NON_ASCII_RUNS = /[^\u0000-\u007f]+/g;
const COMBINING_MARKS = /\p{M}/gu;

const stripMarks = (run: string): string => run.normalize('NFD').replace(COMBINING_MARKS, '');

/** Lower case without accents. Only the non-ASCII runs are decomposed: whole-text NFD is slow on large text. */
export function foldForSearch(text: string): string {
  return text.replace(NON_ASCII_RUNS, stripMarks).toLowerCase();
}

/** The words of a query, folded; every one must occur somewhere in the record. */
export function queryWords(query: string): string[] {
  return foldForSearch(query)
    .split(/\s+/)
    .filter((word) => word !== '');
}
