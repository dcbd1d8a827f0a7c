import { describe, expect, test } from '@jest/globals';
import { createCanvas } from 'canvas';
import { bodyMarkup, parseMarkdown, plainText } from '../../protocol/markdown.js';
import { layoutText, runsOf } from '../../templates-renderer/text.js';
import { font } from '../../templates-renderer/theme.js';

// The body's Markdown (docs/api/notifications.md#n46) as freedesktop body markup and as plain text, with hostile
// input: the sender's text must never become markup.

const markup = (text: string, links = true) => bodyMarkup(parseMarkdown(text), { links });
const plain = (text: string) => plainText(parseMarkdown(text));

describe('links, bold and italic', () => {
  test('a link becomes <a href> with body-hyperlinks, its label otherwise', () => {
    expect(markup('[Join call](https://meet.example/abc) now')).toBe('<a href="https://meet.example/abc">Join call</a> now');
    expect(markup('[Join call](https://meet.example/abc) now', false)).toBe('Join call now');
    expect(plain('[Join call](https://meet.example/abc) now')).toBe('Join call now');
    expect(markup('[Write](mailto:a@example.com)')).toBe('<a href="mailto:a@example.com">Write</a>');
  });

  test('bold and italic, with * and _, nested, and inside a link', () => {
    expect(markup('**Acme** shipped *v2* and __more__ _today_')).toBe('<b>Acme</b> shipped <i>v2</i> and <b>more</b> <i>today</i>');
    expect(markup('***both***')).toBe('<b><i>both</i></b>');
    expect(markup('*a **b** c*')).toBe('<i>a </i><b><i>b</i></b><i> c</i>');
    expect(markup('[**Open** it](https://x.example)')).toBe(
      '<a href="https://x.example"><b>Open</b></a><a href="https://x.example"> it</a>',
    );
    expect(plain('**Acme** shipped *v2*')).toBe('Acme shipped v2');
  });

  test('what is not emphasis stays as it is', () => {
    expect(plain('snake_case_name and 2 * 3 * 4')).toBe('snake_case_name and 2 * 3 * 4');
    expect(plain('unclosed **bold and *italic')).toBe('unclosed **bold and *italic');
    expect(plain('** spaced **')).toBe('** spaced **');
    expect(plain('`**code**` and \\*escaped\\*')).toBe('`**code**` and *escaped*');
  });
});

describe('hostile input', () => {
  test('&, < and > are always escaped: no markup gets through, not even inside a label or a URL', () => {
    expect(markup('<script>alert(1)</script> & <b>bold</b>')).toBe('&lt;script&gt;alert(1)&lt;/script&gt; &amp; &lt;b&gt;bold&lt;/b&gt;');
    expect(markup('[<img src=x>](https://x.example/?a=1&b="2")')).toBe(
      '<a href="https://x.example/?a=1&amp;b=&quot;2&quot;">&lt;img src=x&gt;</a>',
    );
    expect(markup('**<i>x</i>**')).toBe('<b>&lt;i&gt;x&lt;/i&gt;</b>');
  });

  test('text already escaped stays the text it is', () => {
    expect(markup('Tom &amp; Jerry &lt;3')).toBe('Tom &amp;amp; Jerry &amp;lt;3');
    expect(plain('Tom &amp; Jerry')).toBe('Tom &amp; Jerry');
  });

  test('only http, https and mailto links become <a>; others show their label only', () => {
    expect(markup('[click](javascript:alert(1))')).toBe('click');
    expect(markup('[file](file:///etc/passwd) [data](data:text/html,x)')).toBe('file data');
    expect(markup('[x](JavaScript:alert(1))')).toBe('x');
  });

  test('nested and unbalanced brackets', () => {
    expect(markup('[a [b] c](https://x.example/(1))')).toBe('<a href="https://x.example/(1)">a [b] c</a>');
    expect(markup('[[x](https://inner.example)](https://outer.example)')).toBe(
      '<a href="https://outer.example">[x](https://inner.example)</a>',
    );
    expect(plain('[unclosed](https://x.example and [more')).toBe('[unclosed](https://x.example and [more');
    expect(plain('[](https://x.example) [x]() [x] (https://x.example)')).toBe('[](https://x.example) [x]() [x] (https://x.example)');
  });

  test("long runs of openings without closings (a body's whole 16 KB) stay plain text", () => {
    const inputs = ['*a '.repeat(5000), '['.repeat(16000), '**a '.repeat(4000), '[x]('.repeat(4000), '_a '.repeat(5000)];
    for (const input of inputs) expect(plain(input)).toBe(input);
  });

  test('deep nesting stops at a bound and keeps the text', () => {
    const deep = '*'.repeat(40) + 'x' + '*'.repeat(40);
    expect(plain(deep).replace(/\*/g, '')).toBe('x');
  });
});

describe('the card renderer reads the same Markdown (templates-renderer/text.ts)', () => {
  test('bold and italic runs are laid out in their own font', () => {
    const runs = runsOf('**Acme** shipped *v2* [docs](https://x.example)', true);
    expect(runs).toEqual([
      { text: 'Acme', link: false, bold: true },
      { text: ' shipped ', link: false },
      { text: 'v2', link: false, italic: true },
      { text: ' ', link: false },
      { text: 'docs', link: true },
    ]);
    const ctx = createCanvas(10, 10).getContext('2d');
    ctx.font = font(14, false);
    const fontFor = (style: { bold?: boolean; italic?: boolean }) => font(14, style.bold === true, undefined, style.italic === true);
    const [styled] = layoutText(ctx, runsOf('**Wide words**', true), 1000, 1, fontFor);
    const [plainLine] = layoutText(ctx, runsOf('Wide words', true), 1000, 1, fontFor);
    expect(styled!.runs).toMatchObject([{ text: 'Wide words', bold: true }]);
    expect(styled!.width).toBeGreaterThan(plainLine!.width);
  });
});
