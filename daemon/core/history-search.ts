import { foldForSearch } from './search-text.js';
import type { HistoryRecord } from './types.js';

/** Separates records in an app's search text; it never occurs in a folded query word or record text. */
const SEPARATOR = '\u0001';
const CONTROL = /[\u0000-\u001f]/g;

/**
 * The searchable text of one app's History: every record's title, subtitle and body, folded (lower case, no
 * accents), joined into one string, oldest first. A query word is found with the engine's native
 * `lastIndexOf`, scanning backwards, so the newest matches come first and a search can stop after `limit`.
 */
export class SearchIndex {
  private readonly text: string;
  /** Where each record's text starts; `starts[i]` belongs to `records[i]`. */
  private readonly starts: Int32Array;

  constructor(private readonly records: readonly HistoryRecord[]) {
    const raw = records
      .map(({ notification: n }) => `${n.title ?? ''}\n${n.subtitle ?? ''}\n${n.body ?? ''}`.replace(CONTROL, ' '))
      .join(SEPARATOR);
    // Folding the whole app at once is much faster than record by record. It may change lengths (a few
    // characters decompose), so the record boundaries are found again in the folded text.
    this.text = foldForSearch(raw);
    this.starts = new Int32Array(records.length);
    let position = 0;
    for (let index = 1; index < records.length; index++) {
      position = this.text.indexOf(SEPARATOR, position) + 1;
      this.starts[index] = position;
    }
  }

  /**
   * Records holding every word, newest first, lazily. `words` must be folded and non-empty; the longest is
   * scanned for, the others checked inside each candidate record.
   */
  *matches(words: string[], accept: (record: HistoryRecord) => boolean): Generator<HistoryRecord> {
    const [scan, ...rest] = [...words].sort((a, b) => b.length - a.length) as [string, ...string[]];
    let from = this.text.length;
    while (from >= 0) {
      const found = this.text.lastIndexOf(scan, from);
      if (found < 0) return;
      const index = this.recordAt(found);
      const start = this.starts[index]!;
      const end = index + 1 < this.records.length ? this.starts[index + 1]! - 1 : this.text.length;
      const record = this.records[index]!;
      if (rest.every((word) => this.contains(word, start, end)) && accept(record)) yield record;
      from = start - 1; // the separator before this record: the next candidate is in an older record
    }
  }

  private contains(word: string, start: number, end: number): boolean {
    const at = this.text.indexOf(word, start);
    return at >= 0 && at + word.length <= end;
  }

  private recordAt(position: number): number {
    let low = 0;
    let high = this.starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (this.starts[middle]! <= position) low = middle;
      else high = middle - 1;
    }
    return low;
  }
}
