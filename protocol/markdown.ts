// The Markdown a notification's body may carry (docs/api/notifications.md#n46): links, bold and italic, read
// into runs of styled text. Shared by the desktop banner (daemon/present/dbus.ts: freedesktop body markup or plain
// text) and the card renderer (templates-renderer/text.ts: bold, italic and links drawn), so both read a body the
// same way. Nothing here trusts the text: a run is text, never markup, and only an openable link has an `href`.

import { isOpenableLink } from './notification-rules.js';

/** A piece of text in one style. `link`: it was a Markdown link; `href`: the link may be opened (http, https, mailto). */
export interface StyledRun {
  text: string;
  bold: boolean;
  italic: boolean;
  link: boolean;
  href?: string;
}

type Style = Omit<StyledRun, 'text'>;

const PLAIN: Style = { bold: false, italic: false, link: false };
/** Characters a backslash makes literal (CommonMark's ASCII punctuation). */
const ESCAPABLE = /[!-/:-@[-`{-~]/;
/** How deep links and emphasis may nest before the rest is read as plain text (hostile input stays linear). */
const MAX_DEPTH = 8;

/**
 * Plain text that a body's Markdown shows as written (docs/api/notifications.md#n46): a backslash before each mark
 * it would read (`*`, `_`, `` ` ``, `[`, `]`) and before a backslash itself, which the body honours.
 */
export const escapeMarkdown = (text: string): string => text.replace(/[\\*_`[\]]/g, '\\$&');

/** Reads inline Markdown: `[label](url)`, `**bold**`/`__bold__`, `*italic*`/`_italic_`, `` `code` `` (literal), `\*`. */
export function parseMarkdown(text: string): StyledRun[] {
  const runs: StyledRun[] = [];
  read(text, PLAIN, runs, 0);
  return merge(runs);
}

/** The runs as plain text: link labels without their URLs, no emphasis marks. */
export function plainText(runs: StyledRun[]): string {
  return runs.map((run) => run.text).join('');
}

/**
 * The runs as freedesktop body markup (`<b>`, `<i>`, `<a href>`): every `&`, `<` and `>` of the text escaped, so
 * the sender's text can never add markup of its own. Links become `<a>` only when `links` is true (the server has
 * `body-hyperlinks`); otherwise their label is plain text.
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

function read(text: string, style: Style, out: StyledRun[], depth: number): void {
  const scan: Scan = { text, pairs: undefined, noCloserFrom: new Map() };
  let plain = '';
  const flush = (): void => {
    if (plain !== '') out.push({ text: plain, ...style });
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
      const end = text.indexOf('`', at + 1);
      if (end > at + 1) {
        plain += text.slice(at, end + 1);
        at = end + 1;
        continue;
      }
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
 * One text being read: its bracket pairs (found in one pass when first needed) and, per emphasis delimiter, the
 * position from which no closing was found, so hostile input (`*a *a *a ...`, `[[[[...`) is read in linear time.
 */
interface Scan {
  text: string;
  pairs: Map<number, number> | undefined;
  noCloserFrom: Map<string, number>;
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

/** Neighbouring runs of the same style become one. */
function merge(runs: StyledRun[]): StyledRun[] {
  const merged: StyledRun[] = [];
  for (const run of runs) {
    const last = merged.at(-1);
    if (last && last.bold === run.bold && last.italic === run.italic && last.link === run.link && last.href === run.href) {
      last.text += run.text;
    } else merged.push({ ...run });
  }
  return merged;
}
