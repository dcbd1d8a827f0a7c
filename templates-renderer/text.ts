import type { CanvasRenderingContext2D } from 'canvas';
import { parseMarkdown } from '../protocol/markdown.js';

/** A run of text: plain, bold, italic, code (drawn in the monospace face), or a Markdown link (in the accent colour). */
export interface Run {
  text: string;
  link: boolean;
  bold?: boolean;
  italic?: boolean;
  code?: boolean;
}

/** The font of a run of a given style (bold, italic, code), for measuring and drawing it. */
export type FontFor = (style: { bold?: boolean; italic?: boolean; code?: boolean }) => string;

/** One laid-out line: its runs (each with its width) and its width. */
export interface Line {
  runs: Array<Run & { width: number }>;
  /** With `indent`, when there is one. */
  width: number;
  /** Room left before the first run: a list item's lines after its first stand under its text, not its mark. */
  indent?: number;
}

const ELLIPSIS = '…';
const NO_BREAK_SPACE = '\u00a0';

/**
 * Splits text into runs: with `markdown`, its links (`[label](url)` draws `label`), bold, italic and code, its
 * blocks without their marks (a list's items after "• ", a heading in bold; docs/api/notifications.md#n46), read as
 * the desktop banner reads them (protocol/markdown.ts).
 */
export function runsOf(text: string, markdown: boolean): Run[] {
  if (!markdown) return [{ text, link: false }];
  return parseMarkdown(text).map(({ text: piece, link, bold, italic, code }) => ({
    text: piece,
    link,
    ...(bold ? { bold } : {}),
    ...(italic ? { italic } : {}),
    ...(code ? { code } : {}),
  }));
}

/**
 * Widths of words by font. Measuring is the costly part of drawing a card (a Pango layout per call); a banner's
 * words repeat from one card to the next, so each is measured once. Bounded: cleared when it grows large.
 */
const WIDTHS = new Map<string, number>();
const WIDTHS_SIZE = 20_000;

/**
 * The width of text in a font. The font is set on the context only to measure a text not yet in the cache: setting
 * it costs a font parse, as much as a cached lookup many times over, and a layout asks for every word.
 */
export function widthIn(ctx: CanvasRenderingContext2D, font: string, text: string): number {
  const key = `${font}\u0000${text}`;
  let width = WIDTHS.get(key);
  if (width === undefined) {
    if (WIDTHS.size >= WIDTHS_SIZE) WIDTHS.clear();
    ctx.font = font;
    width = ctx.measureText(text).width;
    WIDTHS.set(key, width);
  }
  return width;
}

/** A measuring function for the context's current font. */
export function measurer(ctx: CanvasRenderingContext2D): (text: string) => number {
  const font = ctx.font;
  return (text) => widthIn(ctx, font, text);
}

/** One line of text cut with "…" to fit a width (in the context's current font). */
export function fitText(ctx: CanvasRenderingContext2D, text: string, width: number): string {
  const measure = measurer(ctx);
  let shown = text;
  while (shown.length > 1 && measure(shown) > width) shown = `${shown.slice(0, -2)}${ELLIPSIS}`;
  return shown;
}

type Piece = Run & { width: number };

type Word = Run & {
  /** A line break comes before this word. */
  breakBefore: boolean;
};

/** A run's style alone (no text), for the words and pieces cut from it. */
const styleOf = (run: Run): Omit<Run, 'text'> => ({
  link: run.link,
  ...(run.bold ? { bold: true } : {}),
  ...(run.italic ? { italic: true } : {}),
  ...(run.code ? { code: true } : {}),
});
const sameStyle = (a: Run, b: Run): boolean =>
  a.link === b.link &&
  Boolean(a.bold) === Boolean(b.bold) &&
  Boolean(a.italic) === Boolean(b.italic) &&
  Boolean(a.code) === Boolean(b.code);

function wordsOf(runs: Run[]): Word[] {
  const words: Word[] = [];
  let breakNext = false;
  for (const run of runs) {
    for (const piece of run.text.split(/(\n| +)/)) {
      if (piece === '\n') breakNext = true;
      else if (piece !== '' && (breakNext || words.length === 0) && piece.trim() === '') {
        // A line's indentation (a code line's, an item of an item's list) is kept: no-break spaces, a word that
        // the line does not drop as it drops a space.
        words.push({ ...styleOf(run), text: NO_BREAK_SPACE.repeat(piece.length), breakBefore: breakNext });
        breakNext = false;
      } else if (piece !== '' && piece.trim() === '') words.push({ ...styleOf(run), text: ' ', breakBefore: false });
      else if (piece !== '') {
        words.push({ ...styleOf(run), text: piece, breakBefore: breakNext });
        breakNext = false;
      }
    }
  }
  return words;
}

/** A list item's mark as the Markdown reader writes it in text (protocol/markdown.ts): a bullet, or a number. */
const LIST_MARK = /^(?:•|◦|\d{1,9}\.)$/;
/** A hanging indent takes at most this share of the width: in a narrow column, the text keeps its room. */
const HANG_MAX_SHARE = 1 / 3;

/**
 * How far a line may pass its width and still fit: a millionth of a point. A line's width is a sum of its words'
 * widths, and the same widths added in another order (a run's, then the line's) may differ in the last bit; a
 * line laid out at its own width must never lose its last word to that.
 */
const FIT_SLACK = 1e-6;

/**
 * Lays text out in lines of at most `width` (in the context's current font), at most `maxLines` lines; the last
 * line ends in an ellipsis when text was cut. A word longer than a line is broken between characters. A line's
 * width is the sum of its words' widths (kerning across a space is not worth a measurement). `fontFor` gives bold
 * and italic runs their own font (measured in it); without it every run is in the context's current font.
 */
export function layoutText(ctx: CanvasRenderingContext2D, runs: Run[], width: number, maxLines: number, fontFor?: FontFor): Line[] {
  const base = ctx.font;
  const measureIn = (style: Omit<Run, 'text'>, text: string): number => widthIn(ctx, fontFor ? fontFor(style) : base, text);
  const fits = (lineWidth: number): boolean => lineWidth <= width + FIT_SLACK;
  const words = wordsOf(runs);
  const wordWidth = (word: Run): number => measureIn(styleOf(word), word.text);
  /** The hanging indent of the line of text starting at `words[at]`: its indentation, list mark and space, or 0. */
  const hangAt = (at: number): number => {
    let next = at;
    let hang = 0;
    if (/^\u00a0+$/.test(words[next]?.text ?? '')) hang += wordWidth(words[next++]!);
    if (!LIST_MARK.test(words[next]?.text ?? '') || words[next + 1]?.text !== ' ') return 0;
    hang += wordWidth(words[next]!) + wordWidth(words[next + 1]!);
    return hang <= width * HANG_MAX_SHARE ? hang : 0;
  };
  const lines: Array<{ pieces: Piece[]; indent: number }> = [];
  let current: Piece[] = [];
  let indent = 0;
  let used = 0;
  let hang = hangAt(0);
  let cut = false;
  /** Ends the line; the next one is the same line of text wrapped (`wrapped`), standing under its text, or a new one. */
  const finishLine = (wrapped: boolean): boolean => {
    while (current.at(-1)?.text === ' ') used -= current.pop()!.width;
    lines.push({ pieces: current, indent });
    current = [];
    indent = wrapped ? hang : 0;
    used = indent;
    if (lines.length >= maxLines) cut = true;
    return !cut;
  };
  const push = (style: Omit<Run, 'text'>, text: string, pieceWidth: number): void => {
    current.push({ ...style, text, width: pieceWidth });
    used += pieceWidth;
  };

  for (const [at, word] of words.entries()) {
    if (word.breakBefore) {
      if (current.length > 0 && !finishLine(false)) break;
      hang = hangAt(at);
    }
    const style = styleOf(word);
    const measure = (text: string): number => measureIn(style, text);
    const measured = measure(word.text);
    if (word.text === ' ') {
      if (current.length > 0) push(style, ' ', measured);
      continue;
    }
    if (current.length > 0 && !fits(used + measured) && !finishLine(true)) break;
    if (fits(used + measured)) {
      push(style, word.text, measured);
      continue;
    }
    // A word wider than the line: as many characters as fit, then the rest on the next lines.
    let rest = word.text;
    while (rest !== '') {
      let count = 1;
      while (count < rest.length && fits(used + measure(rest.slice(0, count + 1)))) count++;
      push(style, rest.slice(0, count), measure(rest.slice(0, count)));
      rest = rest.slice(count);
      if (rest !== '' && !finishLine(true)) break;
    }
    if (cut) break;
  }
  if (!cut && current.length > 0) finishLine(false);
  else if (cut && lines.length > 0) {
    const last = lines.at(-1)!;
    ellipsize(last.pieces, width - last.indent, measureIn);
  }
  if (ctx.font !== base) ctx.font = base;
  return lines.map(({ pieces, indent }) => toLine(pieces, indent));
}

/** A text of a card, set in its fonts: how wide it wants to be, and its lines at the width it is given. */
export interface SetText {
  /** The widest of its lines when nothing but its own line breaks cuts it, rounded up to a whole point. */
  naturalWidth(): number;
  /** Its lines at a width (at most `maxLines`), laid out once per width. */
  lines(width: number): Line[];
}

/**
 * Sets text for a cell whose grid asks for a natural width, then heights, then draws. Both answers come from
 * layoutText with the same fonts (`fontFor`, for every run), so the width the grid is told is a width the lines
 * fit in: measured any other way (the whole text in one font), a bold, italic or linked run makes the text wider
 * than the grid thinks, and its last word wraps onto a line the cell has no room for.
 */
export function setText(ctx: CanvasRenderingContext2D, runs: Run[], maxLines: number, fontFor: FontFor): SetText {
  // Its lines when only its own line breaks cut it, and the widest of them.
  let unbounded: { lines: Line[]; widest: number } | undefined;
  const natural = (): { lines: Line[]; widest: number } => {
    if (!unbounded) {
      const lines = layoutText(ctx, runs, Infinity, Infinity, fontFor);
      unbounded = { lines, widest: lines.reduce((widest, line) => Math.max(widest, line.width), 0) };
    }
    return unbounded;
  };
  const laidOut = new Map<number, Line[]>();
  return {
    naturalWidth: () => Math.ceil(natural().widest),
    lines: (width) => {
      let result = laidOut.get(width);
      if (!result) {
        // Where the widest line fits, no line wraps: the lines are those, unless there are more than maxLines.
        const known = unbounded && width >= unbounded.widest && unbounded.lines.length <= maxLines ? unbounded.lines : undefined;
        result = known ?? layoutText(ctx, runs, width, maxLines, fontFor);
        laidOut.set(width, result);
      }
      return result;
    },
  };
}

/** Cuts a line so that it ends in "…" within the width. */
function ellipsize(line: Piece[], width: number, measureIn: (style: Omit<Run, 'text'>, text: string) => number): void {
  const tail = line.at(-1);
  const ellipsis = measureIn(tail ? styleOf(tail) : { link: false }, ELLIPSIS);
  let used = line.reduce((sum, piece) => sum + piece.width, 0);
  while (line.length > 0 && used + ellipsis > width) {
    const last = line.at(-1)!;
    used -= last.width;
    last.text = last.text.slice(0, -1);
    if (last.text === '') line.pop();
    else {
      last.width = measureIn(styleOf(last), last.text);
      used += last.width;
    }
  }
  while (line.at(-1)?.text === ' ') line.pop();
  const last = line.at(-1);
  line.push({ ...(last ? styleOf(last) : { link: false }), text: ELLIPSIS, width: ellipsis });
}

/** Adjacent pieces of the same style become one run. */
function toLine(pieces: Piece[], indent: number): Line {
  const runs: Line['runs'] = [];
  for (const piece of pieces) {
    const last = runs.at(-1);
    if (last && sameStyle(last, piece)) {
      last.text += piece.text;
      last.width += piece.width;
    } else runs.push({ ...piece });
  }
  const width = runs.reduce((sum, run) => sum + run.width, indent);
  return indent > 0 ? { runs, width, indent } : { runs, width };
}
