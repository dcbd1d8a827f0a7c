// The Markdown a notification's body may carry (docs/api/notifications.md#n46), read in one place for everyone who
// shows a body: as blocks (paragraphs, headings, fenced code, lists, quotes, rules) for the person's details page
// (app/src/ui/markdown.tsx), and as the same blocks made one flow of styled runs without their marks for the desktop
// banner (daemon/present/dbus.ts: freedesktop body markup or plain text), the card renderer
// (templates-renderer/text.ts), History's one-line preview, Copy and speech. Nothing here trusts the text: a run is
// text, never markup, and only an openable link has an `href`. Every reader here is linear in the text's length
// (bodies are read on the notify path, and a sender may write anything).

import { isOpenableLink } from './notification-rules.js';

/**
 * A piece of text in one style. `code`: inline code or a code block's text (drawn in a monospace face); `link`: it
 * was a Markdown link; `href`: the link may be opened (http, https, mailto).
 */
export interface StyledRun {
  text: string;
  bold: boolean;
  italic: boolean;
  code: boolean;
  link: boolean;
  href?: string;
}

/** A list: bulleted, or numbered from `start`. Its items may hold one list of their own, whose items hold none. */
export interface List {
  ordered: boolean;
  start: number;
  items: ListItem[];
}

export interface ListItem {
  runs: StyledRun[];
  list?: List;
}

/**
 * A block of a body. A heading's `level` is the sender's (1 for `#`); a code block's `label` is the first word after
 * its opening fence (`sh`), never more than a label. `afterBlank`: a blank line comes before it in the text.
 */
export type Block = (
  | { kind: 'paragraph'; runs: StyledRun[] }
  | { kind: 'heading'; level: number; runs: StyledRun[] }
  | { kind: 'code'; text: string; label?: string }
  | { kind: 'quote'; blocks: Block[] }
  | ({ kind: 'list' } & List)
  | { kind: 'rule' }
) & { afterBlank: boolean };

type Style = Omit<StyledRun, 'text'>;

const PLAIN: Style = { bold: false, italic: false, code: false, link: false };
const CODE: Style = { ...PLAIN, code: true };
/** Characters a backslash makes literal (CommonMark's ASCII punctuation). */
const ESCAPABLE = /[!-/:-@[-`{-~]/;
/** A character that may start inline Markdown: most lines of most bodies have none, and are one run of text. */
const INLINE_MARK = /[\\`[*_]/;
/** How deep links and emphasis may nest before the rest is read as plain text (hostile input stays linear). */
const MAX_DEPTH = 8;
/** How deep quotes may nest; a deeper `>` is text. Each level reads its lines once more, so this bounds the work. */
const MAX_QUOTE_DEPTH = 4;
/** The longest label a code block's fence gives it, in characters. */
const CODE_LABEL_CHARS = 24;
/** What stands for a list's mark in text without marks: a bullet, and an item's own list's bullet, indented. */
const BULLET = '• ';
const INNER_BULLET = '◦ ';
const INNER_INDENT = '  ';

/**
 * Plain text that a body's Markdown shows as written (docs/api/notifications.md#n46): a backslash before each mark
 * it would read (`*`, `_`, `` ` ``, `[`, `]`, and at the start of a line `#`, `>`, `-`, `+`, `~` and the `.` or `)`
 * after a number) and before a backslash itself, which the body honours.
 */
export const escapeMarkdown = (text: string): string =>
  text
    .replace(/[\\*_`[\]]/g, '\\$&')
    .replace(/^([ \t]*)([#>+~-])/gm, '$1\\$2')
    .replace(/^([ \t]*\d{1,9})([.)])/gm, '$1\\$2');

/** A body's blocks: `#` headings, ``` or ~~~ fenced code, `-`/`*`/`+` and `1.` lists, `>` quotes, `---` rules. */
export function parseBlocks(text: string): Block[] {
  const lines = (text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text).split('\n');
  return readBlocks(lines, 0);
}

/**
 * The body as one flow of styled runs, its marks gone: a heading's text in bold, code as code, a list's items on
 * lines of their own after "• " (or their number), a quote's text, no rule; the blocks apart as they were written
 * (on the next line, or after a blank one).
 */
export function parseMarkdown(text: string): StyledRun[] {
  const runs: StyledRun[] = [];
  flatten(parseBlocks(text), runs);
  return merge(runs);
}

/** The runs as plain text: link labels without their URLs, no emphasis marks. */
export function plainText(runs: StyledRun[]): string {
  return runs.map((run) => run.text).join('');
}

/**
 * The runs as freedesktop body markup (`<b>`, `<i>`, `<a href>`): every `&`, `<` and `>` of the text escaped, so
 * the sender's text can never add markup of its own. Links become `<a>` only when `links` is true (the server has
 * `body-hyperlinks`); otherwise their label is plain text. Code is plain text: the markup has no monospace face.
 */
export function bodyMarkup(runs: StyledRun[], options: { links: boolean }): string {
  return runs
    .map((run) => {
      let piece = escapeMarkup(run.text);
      if (run.italic) piece = `<i>${piece}</i>`;
      if (run.bold) piece = `<b>${piece}</b>`;
      if (run.href && options.links) piece = `<a href="${escapeMarkup(run.href).replace(/"/g, '&quot;')}">${piece}</a>`;
      return piece;
    })
    .join('');
}

/** `&`, `<` and `>` as entities: text that a markup-reading server shows as it is. */
export const escapeMarkup = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

// Blocks -------------------------------------------------------------------------------------------------------

/** A block read, and the line after it. */
interface Read {
  block: Block;
  next: number;
}

/** What a line starts, by its first character: most lines are text, told from their first character alone. */
type LineKind = 'blank' | 'fence' | 'heading' | 'rule' | 'quote' | 'item' | 'text';

const FENCE = /^([ \t]*)(`{3,}|~{3,})(.*)$/;
const RULE = /^[ \t]*([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const BULLET_ITEM = /^([ \t]*)[-*+][ \t]+(\S.*)$/;
const NUMBERED_ITEM = /^([ \t]*)(\d{1,9})[.)][ \t]+(\S.*)$/;

/**
 * The kind of block a line starts. Inside a paragraph (`inParagraph`), a numbered item starts a list only at 1, so
 * that a line such as "2024. A good year" goes on with the text.
 */
function kindOf(line: string, quoteDepth: number, inParagraph = false): LineKind {
  const first = line[indentOf(line)];
  switch (first) {
    case undefined:
      return 'blank';
    case '`':
    case '~':
      return fenceOf(line) ? 'fence' : 'text';
    case '#':
      return headingOf(line) ? 'heading' : 'text';
    case '>':
      return quoteDepth < MAX_QUOTE_DEPTH ? 'quote' : 'text';
    case '-':
    case '*':
    case '_':
    case '+':
      if (RULE.test(line)) return 'rule';
      return first !== '_' && BULLET_ITEM.test(line) ? 'item' : 'text';
    default: {
      if (first < '0' || first > '9') return 'text';
      const item = markerOf(line);
      return item && (!inParagraph || item.number === 1) ? 'item' : 'text';
    }
  }
}

/** Where a line's text starts, after its spaces and tabs. */
function indentOf(line: string): number {
  let at = 0;
  while (line[at] === ' ' || line[at] === '\t') at++;
  return at;
}

function readBlocks(lines: string[], quoteDepth: number): Block[] {
  const blocks: Block[] = [];
  let afterBlank = false;
  let at = 0;
  while (at < lines.length) {
    const kind = kindOf(lines[at]!, quoteDepth);
    if (kind === 'blank') {
      afterBlank = blocks.length > 0;
      at++;
      continue;
    }
    let read: Read;
    if (kind === 'fence') read = readFence(lines, at);
    else if (kind === 'quote') read = readQuote(lines, at, quoteDepth);
    else if (kind === 'item') read = readList(lines, at, quoteDepth);
    else if (kind === 'heading') read = readHeading(lines[at]!, at);
    else if (kind === 'rule') read = { block: { kind: 'rule', afterBlank: false }, next: at + 1 };
    else read = readParagraph(lines, at, quoteDepth);
    read.block.afterBlank = afterBlank;
    blocks.push(read.block);
    afterBlank = false;
    at = read.next;
  }
  return blocks;
}

/** Lines of text up to a blank line or a line that starts another block; as written, line breaks kept. */
function readParagraph(lines: string[], at: number, quoteDepth: number): Read {
  let next = at + 1;
  while (next < lines.length && kindOf(lines[next]!, quoteDepth, true) === 'text') next++;
  const text = next === at + 1 ? lines[at]! : lines.slice(at, next).join('\n');
  return { block: { kind: 'paragraph', runs: inline(text), afterBlank: false }, next };
}

/** `#` to `######`, a space and its text; a closing run of `#` is not text. Null when there is no text. */
function headingOf(line: string): { level: number; text: string } | null {
  const start = indentOf(line);
  let level = 0;
  while (line[start + level] === '#') level++;
  const after = line[start + level];
  if (level > 6 || (after !== undefined && after !== ' ' && after !== '\t')) return null;
  let text = line.slice(start + level).trim();
  let end = text.length;
  while (end > 0 && text[end - 1] === '#') end--;
  if (end === 0 || text[end - 1] === ' ' || text[end - 1] === '\t') text = text.slice(0, end).trimEnd();
  return text === '' ? null : { level, text };
}

function readHeading(line: string, at: number): Read {
  const { level, text } = headingOf(line)!;
  return { block: { kind: 'heading', level, runs: inline(text), afterBlank: false }, next: at + 1 };
}

/** A fence: three or more backticks (with none in the words after them) or tildes. */
function fenceOf(line: string): { indent: number; fence: string; info: string } | null {
  const match = FENCE.exec(line);
  if (!match || (match[2]![0] === '`' && match[3]!.includes('`'))) return null;
  return { indent: match[1]!.length, fence: match[2]!, info: match[3]!.trim() };
}

/**
 * A fenced code block: its lines as written (less the fence's own indentation) up to a fence of the same character
 * at least as long, or to the end of the text.
 */
function readFence(lines: string[], at: number): Read {
  const { indent, fence, info } = fenceOf(lines[at]!)!;
  const body: string[] = [];
  let next = at + 1;
  for (; next < lines.length; next++) {
    const line = lines[next]!;
    const trimmed = line.trim();
    if (trimmed.length >= fence.length && trimmed[0] === fence[0] && [...trimmed].every((char) => char === fence[0])) {
      next++;
      break;
    }
    body.push(line.slice(Math.min(indent, indentOf(line))));
  }
  const label = info.split(/[ \t]/, 1)[0]!.slice(0, CODE_LABEL_CHARS);
  return { block: { kind: 'code', text: body.join('\n'), ...(label ? { label } : {}), afterBlank: false }, next };
}

/** The lines that start with `>`, the mark (and one space after it) taken away, read as blocks of their own. */
function readQuote(lines: string[], at: number, quoteDepth: number): Read {
  const inner: string[] = [];
  let next = at;
  for (; next < lines.length; next++) {
    const line = lines[next]!;
    const mark = indentOf(line);
    if (line[mark] !== '>') break;
    inner.push(line.slice(mark + (line[mark + 1] === ' ' ? 2 : 1)));
  }
  return { block: { kind: 'quote', blocks: readBlocks(inner, quoteDepth + 1), afterBlank: false }, next };
}

interface Marker {
  indent: number;
  ordered: boolean;
  number: number;
  content: string;
}

function markerOf(line: string): Marker | null {
  const bullet = BULLET_ITEM.exec(line);
  if (bullet) return { indent: bullet[1]!.length, ordered: false, number: 1, content: bullet[2]!.trimEnd() };
  const numbered = NUMBERED_ITEM.exec(line);
  if (numbered) return { indent: numbered[1]!.length, ordered: true, number: Number(numbered[2]), content: numbered[3]!.trimEnd() };
  return null;
}

interface ItemText {
  text: string;
  items?: { ordered: boolean; start: number; texts: ItemText[] };
}

/**
 * A list: items of the same kind (bulleted or numbered) at its first item's indentation or less; an item indented
 * further belongs to the list of the item before it (one level: deeper ones join that list too). A line of text goes
 * on with the item before it; after a blank line, only when indented. Anything else ends the list.
 */
function readList(lines: string[], at: number, quoteDepth: number): Read {
  const first = markerOf(lines[at]!)!;
  const items: ItemText[] = [];
  let last: ItemText | undefined;
  /** The first of the blank lines just passed: where the list ends if nothing after them goes on with it. */
  let blankFrom = -1;
  let next = at;
  for (; next < lines.length; next++) {
    const line = lines[next]!;
    const kind = kindOf(line, quoteDepth);
    if (kind === 'blank') {
      if (blankFrom < 0) blankFrom = next;
      continue;
    }
    const marker = kind === 'item' ? markerOf(line)! : null;
    if (marker && marker.indent > first.indent && items.length > 0) {
      const parent = items.at(-1)!;
      parent.items ??= { ordered: marker.ordered, start: marker.number, texts: [] };
      parent.items.texts.push((last = { text: marker.content }));
    } else if (marker && marker.ordered === first.ordered) {
      items.push((last = { text: marker.content }));
    } else if (kind === 'text' && last && (blankFrom < 0 || indentOf(line) > first.indent)) {
      last.text += (blankFrom < 0 ? '\n' : '\n\n') + line.trim();
    } else break;
    blankFrom = -1;
  }
  const list = (ordered: boolean, start: number, texts: ItemText[]): List => ({
    ordered,
    start,
    items: texts.map(({ text, items: inner }) => ({
      runs: inline(text),
      ...(inner ? { list: list(inner.ordered, inner.start, inner.texts) } : {}),
    })),
  });
  const block: Block = { kind: 'list', ...list(first.ordered, first.number, items), afterBlank: false };
  return { block, next: blankFrom < 0 ? next : blankFrom };
}

/** Blocks as one flow of runs (parseMarkdown). A rule left out still keeps the blocks around it a blank line apart. */
function flatten(blocks: Block[], out: StyledRun[]): void {
  let apart = false;
  let started = false;
  for (const block of blocks) {
    if (block.kind === 'rule') {
      apart = true;
      continue;
    }
    if (started) out.push(styled(block.afterBlank || apart ? '\n\n' : '\n', PLAIN));
    started = true;
    apart = false;
    if (block.kind === 'paragraph') for (const run of block.runs) out.push(run);
    else if (block.kind === 'heading') for (const run of block.runs) out.push(styled(run.text, { ...run, bold: true }));
    else if (block.kind === 'code') out.push(styled(block.text, CODE));
    else if (block.kind === 'quote') flatten(block.blocks, out);
    else flattenList(block, out, false);
  }
}

function flattenList(list: List, out: StyledRun[], inner: boolean): void {
  list.items.forEach((item, index) => {
    if (index > 0 || inner) out.push(styled('\n', PLAIN));
    const mark = list.ordered ? `${list.start + index}. ` : inner ? INNER_BULLET : BULLET;
    out.push(styled(inner ? INNER_INDENT + mark : mark, PLAIN));
    for (const run of item.runs) out.push(run);
    if (item.list) flattenList(item.list, out, true);
  });
}

// Inline -------------------------------------------------------------------------------------------------------

/** Reads inline Markdown: `[label](url)`, `**bold**`/`__bold__`, `*italic*`/`_italic_`, `` `code` `` (literal), `\*`. */
function inline(text: string): StyledRun[] {
  if (!INLINE_MARK.test(text)) return text === '' ? [] : [styled(text, PLAIN)];
  const runs: StyledRun[] = [];
  read(text, PLAIN, runs, 0);
  return merge(runs);
}

function read(text: string, style: Style, out: StyledRun[], depth: number): void {
  const scan: Scan = { text, pairs: undefined, noCloserFrom: new Map(), backticks: undefined };
  let plain = '';
  const flush = (): void => {
    if (plain !== '') out.push(styled(plain, style));
    plain = '';
  };
  let at = 0;
  while (at < text.length) {
    const char = text[at]!;
    if (char === '\\' && ESCAPABLE.test(text[at + 1] ?? '')) {
      plain += text[at + 1];
      at += 2;
      continue;
    }
    if (char === '`') {
      const code = codeAt(scan, at);
      if (code.end === undefined) plain += text.slice(at, at + code.length);
      else {
        flush();
        out.push(styled(code.text, { ...style, code: true }));
      }
      at = code.end ?? at + code.length;
      continue;
    }
    if (depth < MAX_DEPTH && char === '[' && !style.link) {
      const link = linkAt(scan, at);
      if (link) {
        flush();
        const href = isOpenableLink(link.url) ? { href: link.url } : {};
        read(link.label, { ...style, link: true, ...href }, out, depth + 1);
        at = link.end;
        continue;
      }
    }
    if (depth < MAX_DEPTH && (char === '*' || char === '_')) {
      const emphasis = emphasisAt(scan, at);
      if (emphasis) {
        flush();
        read(emphasis.inner, emphasis.strong ? { ...style, bold: true } : { ...style, italic: true }, out, depth + 1);
        at = emphasis.end;
        continue;
      }
    }
    plain += char;
    at++;
  }
  flush();
}

/**
 * One text being read: its bracket pairs and its runs of backticks (each found in one pass when first needed) and,
 * per emphasis delimiter, the position from which no closing was found, so hostile input (`*a *a *a ...`,
 * `[[[[...`, `` ` `` `` `` `` ``` ``...) is read in linear time.
 */
interface Scan {
  text: string;
  pairs: Map<number, number> | undefined;
  noCloserFrom: Map<string, number>;
  backticks: Map<number, { starts: number[]; next: number }> | undefined;
}

/**
 * Inline code at `at`: a run of backticks closed by the next run of as many, its text read literally (a line break
 * as a space; one space inside each end taken away when there are both). `end` is undefined when nothing closes it:
 * then the run is text, all of it.
 */
function codeAt(scan: Scan, at: number): { length: number; text: string; end?: number } {
  const { text } = scan;
  scan.backticks ??= backtickRuns(text);
  let length = 1;
  while (text[at + length] === '`') length++;
  // The runs of one length are looked through once, in order: the text is read from left to right.
  const same = scan.backticks.get(length) ?? { starts: [], next: 0 };
  while (same.next < same.starts.length && same.starts[same.next]! <= at) same.next++;
  const close = same.starts[same.next];
  if (close === undefined) return { length, text: '' };
  let code = text.slice(at + length, close);
  if (code.includes('\n')) code = code.replace(/\n/g, ' ');
  if (code.length > 2 && code[0] === ' ' && code.at(-1) === ' ' && code.trim() !== '') code = code.slice(1, -1);
  return { length, text: code, end: close + length };
}

/** Where each run of backticks starts, by its length (a backslash escape skipped, as the reading does). */
function backtickRuns(text: string): Map<number, { starts: number[]; next: number }> {
  const runs = new Map<number, { starts: number[]; next: number }>();
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (char === '\\' && ESCAPABLE.test(text[index + 1] ?? '')) index++;
    else if (char === '`') {
      let length = 1;
      while (text[index + length] === '`') length++;
      let same = runs.get(length);
      if (!same) runs.set(length, (same = { starts: [], next: 0 }));
      same.starts.push(index);
      index += length - 1;
    }
  }
  return runs;
}

/** `[label](url)` at `at`: brackets in the label must balance; the URL has no spaces and balanced parentheses. */
function linkAt(scan: Scan, at: number): { label: string; url: string; end: number } | null {
  const { text } = scan;
  scan.pairs ??= bracketPairs(text);
  const close = scan.pairs.get(at);
  if (close === undefined || text[close + 1] !== '(') return null;
  const end = scan.pairs.get(close + 1);
  if (end === undefined) return null;
  const label = text.slice(at + 1, close);
  const url = text.slice(close + 2, end).trim();
  if (label.trim() === '' || url === '' || /\s/.test(url)) return null;
  return { label, url, end: end + 1 };
}

/** Where each `[` and `(` is closed (nesting counted, backslash escapes skipped; a parenthesis not across lines). */
function bracketPairs(text: string): Map<number, number> {
  const pairs = new Map<number, number>();
  const square: number[] = [];
  let round: number[] = [];
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (char === '\\') index++;
    else if (char === '[') square.push(index);
    else if (char === ']' && square.length > 0) pairs.set(square.pop()!, index);
    else if (char === '(') round.push(index);
    else if (char === ')' && round.length > 0) pairs.set(round.pop()!, index);
    else if (char === '\n') round = [];
  }
  return pairs;
}

const WORD = /[\p{L}\p{N}]/u;

/**
 * Emphasis opening at `at`: `**`/`__` (bold) or `*`/`_` (italic), closed by the same delimiter later on the text.
 * As in Markdown, the opening is followed and the closing preceded by a non-space; `_` only at word edges, so
 * `snake_case_name` stays as it is. An opening without its closing is plain text.
 */
function emphasisAt(scan: Scan, at: number): { inner: string; strong: boolean; end: number } | null {
  const { text } = scan;
  const char = text[at]!;
  const strong = text[at + 1] === char;
  const delimiter = strong ? char + char : char;
  const start = at + delimiter.length;
  if (start >= text.length || /\s/.test(text[start]!)) return null;
  if (char === '_' && WORD.test(text[at - 1] ?? '')) return null;
  // Whether a closing fits does not depend on the opening: none after an earlier start means none after this one.
  if (start >= (scan.noCloserFrom.get(delimiter) ?? Infinity)) return null;
  for (let close = text.indexOf(delimiter, start + 1); close >= 0; close = text.indexOf(delimiter, close + 1)) {
    // A run of more delimiters than needed closes at its end (`***x***`: bold around italic).
    while (text[close + delimiter.length] === char) close++;
    if (close <= start) continue;
    if (/\s/.test(text[close - 1]!)) continue;
    if (char === '_' && WORD.test(text[close + delimiter.length] ?? '')) continue;
    if (!strong && text[close - 1] === char) continue;
    return { inner: text.slice(start, close), strong, end: close + delimiter.length };
  }
  scan.noCloserFrom.set(delimiter, Math.min(start, scan.noCloserFrom.get(delimiter) ?? Infinity));
  return null;
}

/**
 * A run of text in a style, its fields always in the same order: runs made alike are read and copied faster (a
 * body may make thousands).
 */
function styled(text: string, style: Style): StyledRun {
  const run: StyledRun = { text, bold: style.bold, italic: style.italic, code: style.code, link: style.link };
  if (style.href !== undefined) run.href = style.href;
  return run;
}

/** Neighbouring runs of the same style become one (the runs are this reading's own: the first takes the text of the next); empty ones go. */
function merge(runs: StyledRun[]): StyledRun[] {
  const merged: StyledRun[] = [];
  for (const run of runs) {
    const last = merged.at(-1);
    if (run.text === '') continue;
    if (
      last &&
      last.bold === run.bold &&
      last.italic === run.italic &&
      last.code === run.code &&
      last.link === run.link &&
      last.href === run.href
    ) {
      last.text += run.text;
    } else merged.push(run);
  }
  return merged;
}
