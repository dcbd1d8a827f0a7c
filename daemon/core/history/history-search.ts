import { foldForSearch } from '../../../protocol/search-text.js';
import type { HistoryRecord } from '../../../protocol/types.js';

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
   * Records holding every word, newest first, lazily; `words` must be folded and non-empty. A leapfrog
   * intersection: each word jumps (`lastIndexOf`) to its latest occurrence before a limit; the oldest record
   * among those is the only one that can hold them all next, so the limit moves to it. The work grows with the
   * occurrences of the rarest word, whichever word that is.
   */
  *matches(words: string[], accept: (record: HistoryRecord) => boolean): Generator<HistoryRecord> {
    let limit = this.text.length;
    while (limit >= 0) {
      let oldest = Number.POSITIVE_INFINITY;
      let together = true;
      for (const word of words) {
        const found = this.text.lastIndexOf(word, limit);
        if (found < 0) return;
        const index = this.recordAt(found);
        if (index !== oldest && oldest !== Number.POSITIVE_INFINITY) together = false;
        oldest = Math.min(oldest, index);
      }
      if (together) {
        const record = this.records[oldest]!;
        if (accept(record)) yield record;
        limit = this.starts[oldest]! - 1; // the separator before it: the next match is an older record
      } else {
        limit = this.endOf(oldest) - 1; // nothing newer than `oldest` holds every word
      }
    }
  }

  /** Where a record's text ends (its separator, or the end of the text). */
  private endOf(index: number): number {
    return index + 1 < this.starts.length ? this.starts[index + 1]! - 1 : this.text.length;
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
