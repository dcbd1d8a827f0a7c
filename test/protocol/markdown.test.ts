import { describe, expect, test } from '@jest/globals';
import { createCanvas } from 'canvas';
import {
  type Block,
  bodyMarkup,
  escapeMarkdown,
  type List,
  parseBlocks,
  parseMarkdown,
  plainText,
  type StyledRun,
} from '../../protocol/markdown.js';
import { layoutText, runsOf } from '../../templates-renderer/text.js';
import { font, MONO } from '../../templates-renderer/theme.js';

// The body's Markdown (docs/api/notifications.md#n46): its blocks, as the details page draws them, and the same
// text without its marks, as freedesktop body markup and as plain text (banners, cards, History's preview), with
// hostile input: the sender's text must never become markup, and no text takes more than linear time to read.

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
    expect(plain('\\*escaped\\* and \\`ticks\\`')).toBe('*escaped* and `ticks`');
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

/** A run of text in a style (the others off). */
const run = (text: string, style: Partial<StyledRun> = {}): StyledRun => ({
  text,
  bold: false,
  italic: false,
  code: false,
  link: false,
  ...style,
});

/** Blocks in short: `{ p: text }`, `{ h2: text }`, `{ code, label }`, `{ quote: [...] }`, `{ ul: items }`, `{ ol3: items }`, 'hr'. */
function outline(blocks: Block[]): unknown[] {
  const items = (list: List): unknown[] =>
    list.items.map((item) => (item.list ? [plainText(item.runs), { [listKey(item.list)]: items(item.list) }] : plainText(item.runs)));
  const listKey = (list: List): string => (list.ordered ? `ol${list.start}` : 'ul');
  return blocks.map((block) => {
    switch (block.kind) {
      case 'paragraph':
        return { p: plainText(block.runs) };
      case 'heading':
        return { [`h${block.level}`]: plainText(block.runs) };
      case 'code':
        return { code: block.text, ...(block.label ? { label: block.label } : {}) };
      case 'quote':
        return { quote: outline(block.blocks) };
      case 'list':
        return { [listKey(block)]: items(block) };
      case 'rule':
        return 'hr';
    }
  });
}
const blocks = (text: string): unknown[] => outline(parseBlocks(text));

describe('inline code', () => {
  test('`code` is a run of code, its text literal: no emphasis, link or escape inside', () => {
    expect(parseMarkdown('Run `npm test` now')).toEqual([run('Run '), run('npm test', { code: true }), run(' now')]);
    expect(parseMarkdown('`**x** [a](https://x.example) \\*`')).toEqual([run('**x** [a](https://x.example) \\*', { code: true })]);
    expect(parseMarkdown('**`x`** and [`y`](https://x.example)')).toEqual([
      run('x', { bold: true, code: true }),
      run(' and '),
      run('y', { code: true, link: true, href: 'https://x.example' }),
    ]);
    expect(markup('`<b>` & `a`')).toBe('&lt;b&gt; &amp; a');
  });

  test('as many backticks close it as open it; one space inside each end goes; a line break is a space', () => {
    expect(parseMarkdown('``a ` b``')).toEqual([run('a ` b', { code: true })]);
    expect(parseMarkdown('`` `x` ``')).toEqual([run('`x`', { code: true })]);
    expect(parseMarkdown('`a\nb`')).toEqual([run('a b', { code: true })]);
    expect(parseMarkdown('` `')).toEqual([run(' ', { code: true })]);
  });

  test('backticks that nothing closes, or escaped, are text', () => {
    expect(plain('a ` b')).toBe('a ` b');
    expect(plain('``x` and')).toBe('``x` and');
    expect(parseMarkdown('\\`x` `y`')).toEqual([run('`x'), run(' ', { code: true }), run('y`')]);
  });
});

describe('blocks', () => {
  test('paragraphs: apart after a blank line, their line breaks kept as written', () => {
    expect(blocks('one\n  two\n\n\nthree')).toEqual([{ p: 'one\n  two' }, { p: 'three' }]);
    expect(parseBlocks('a\n\nb').map((block) => block.afterBlank)).toEqual([false, true]);
  });

  test('headings # to ######, a closing run of # dropped; #word, ####### and # alone are text', () => {
    expect(blocks('# One\n## Two ##\n###### Six\n### **Bold** `code`')).toEqual([
      { h1: 'One' },
      { h2: 'Two' },
      { h6: 'Six' },
      { h3: 'Bold code' },
    ]);
    expect(blocks('#hashtag\n####### seven\n#')).toEqual([{ p: '#hashtag\n####### seven\n#' }]);
    expect(blocks('# C#')).toEqual([{ h1: 'C#' }]);
  });

  test('fenced code: its lines literal, the first word after the fence its label; ~~~ too; unclosed, to the end', () => {
    expect(blocks('```sh title="x"\nnpm test\n  **not bold** <b>\n```\nafter')).toEqual([
      { code: 'npm test\n  **not bold** <b>', label: 'sh' },
      { p: 'after' },
    ]);
    expect(blocks('~~~~\n~~~\n```\n~~~~~')).toEqual([{ code: '~~~\n```' }]);
    expect(blocks('```\nnever closed\n\n# still code')).toEqual([{ code: 'never closed\n\n# still code' }]);
    expect(blocks('  ```\n    indented\n  ```')).toEqual([{ code: '  indented' }]);
    expect(blocks('```inline``` is not a fence')).toEqual([{ p: 'inline is not a fence' }]);
  });

  test('bullet lists (-, *, +) and numbered ones (1. or 1)), from their first number', () => {
    expect(blocks('- one\n* two\n+ **three**')).toEqual([{ ul: ['one', 'two', 'three'] }]);
    expect(blocks('3. three\n4) four\n9. nine')).toEqual([{ ol3: ['three', 'four', 'nine'] }]);
    expect(blocks('-not an item\n*emphasis* no\n1.5 litres')).toEqual([{ p: '-not an item\nemphasis no\n1.5 litres' }]);
  });

  test("an item's text goes on in the lines after it; after a blank line, when indented; other kinds end the list", () => {
    expect(blocks('- one\ngoes on\n- two\n\n  its second paragraph\n- three\n\nafter')).toEqual([
      { ul: ['one\ngoes on', 'two\n\nits second paragraph', 'three'] },
      { p: 'after' },
    ]);
    expect(blocks('- a\n1. b')).toEqual([{ ul: ['a'] }, { ol1: ['b'] }]);
    expect(blocks('- a\n# b\n- c\n```\nd\n```')).toEqual([{ ul: ['a'] }, { h1: 'b' }, { ul: ['c'] }, { code: 'd' }]);
  });

  test('a paragraph goes on into a numbered line unless it starts at 1; a bullet starts a list', () => {
    expect(blocks('The year was\n2024. A good one')).toEqual([{ p: 'The year was\n2024. A good one' }]);
    expect(blocks('Steps:\n1. build\n2. test')).toEqual([{ p: 'Steps:' }, { ol1: ['build', 'test'] }]);
    expect(blocks('Failed:\n- lint')).toEqual([{ p: 'Failed:' }, { ul: ['lint'] }]);
  });

  test("one level of nesting: an indented item is in its item's list, a deeper one joins that list", () => {
    expect(blocks('- a\n  - a1\n    - a1x\n  - a2\n- b\n  1. b1')).toEqual([
      {
        ul: [
          ['a', { ul: ['a1', 'a1x', 'a2'] }],
          ['b', { ol1: ['b1'] }],
        ],
      },
    ]);
  });

  test('quotes: the > and a space after it go; they hold blocks, quotes too', () => {
    expect(blocks('> said\n> twice\n>\n> - item\n> > inner\nafter')).toEqual([
      { quote: [{ p: 'said\ntwice' }, { ul: ['item'] }, { quote: [{ p: 'inner' }] }] },
      { p: 'after' },
    ]);
    expect(blocks('>no space')).toEqual([{ quote: [{ p: 'no space' }] }]);
  });

  test('rules: three or more -, * or _ alone on a line (spaces between allowed)', () => {
    expect(blocks('a\n---\nb\n***\n_ _ _\n- - -')).toEqual([{ p: 'a' }, 'hr', { p: 'b' }, 'hr', 'hr', 'hr']);
    expect(blocks('--\n-- x')).toEqual([{ p: '--\n-- x' }]);
  });

  test('Windows line ends read as line ends', () => {
    expect(blocks('# Title\r\n- a\r\n- b\r\n')).toEqual([{ h1: 'Title' }, { ul: ['a', 'b'] }]);
  });
});

const RICH = [
  'Build **failed** on `main`:',
  '',
  '## What broke',
  '- lint: 3 errors',
  '- tests:',
  '  - `history.test.ts`',
  '1. fix',
  '2. push',
  '',
  '```sh',
  'npm test -- <filter>',
  '```',
  '> Retry *later*',
  '---',
  'Done.',
].join('\n');

describe('text without marks: banners, cards, the preview, Copy and speech', () => {
  test('code kept, bullets as "•", numbers kept, headings and quotes without marks, rules gone, blocks apart as written', () => {
    expect(plain(RICH)).toBe(
      [
        'Build failed on main:',
        '',
        'What broke',
        '• lint: 3 errors',
        '• tests:',
        '  ◦ history.test.ts',
        '1. fix',
        '2. push',
        '',
        'npm test -- <filter>',
        'Retry later',
        '',
        'Done.',
      ].join('\n'),
    );
  });

  test('as body markup: a heading in bold, code as text (the markup has no monospace), all of it escaped', () => {
    expect(markup('# Deploy **now**\n- `<main>` & more\n```\n<b>x</b>\n```')).toBe(
      '<b>Deploy now</b>\n• &lt;main&gt; &amp; more\n&lt;b&gt;x&lt;/b&gt;',
    );
  });

  test('each block mark is read, and escaped it reads back as written', () => {
    for (const text of [
      '# a',
      '## b ##',
      '- c',
      '+ d',
      '* e',
      '1. f',
      '2) g',
      '> h',
      '---',
      '***',
      '___',
      '```\ni\n```',
      '~~~\nj\n~~~',
      '  - k',
    ]) {
      expect({ text, kind: parseBlocks(text)[0]!.kind }).not.toEqual({ text, kind: 'paragraph' });
      expect({ text, plain: plain(escapeMarkdown(text)) }).toEqual({ text, plain: text });
    }
  });
});

describe('hostile bodies are read in linear time', () => {
  /** Four times the body's limit (16 KB): read in a quadratic time, this takes many seconds; in linear, milliseconds. */
  const SIZE = 4 * 16_384;
  /** Processor time allowed for one reading: generous, for a machine busy with other work. */
  const BUDGET_MS = 1500;
  const repeat = (piece: string, size = SIZE): string => piece.repeat(Math.ceil(size / piece.length));
  /** The text as read and the processor time it took, once the code has run on a small one (compiled). */
  const timed = (make: (size: number) => string): { shown: string; fast: boolean } => {
    plain(make(SIZE / 64));
    const text = make(SIZE);
    const started = process.cpuUsage();
    const shown = plain(text);
    const used = process.cpuUsage(started);
    return { shown, fast: (used.user + used.system) / 1000 < BUDGET_MS };
  };

  test('quotes in quotes stop at a depth and keep the rest as text', () => {
    const { shown, fast } = timed((size) => repeat('>', size));
    expect(shown).toBe(repeat('>').slice(4));
    expect(fast).toBe(true);
  });

  test('items at ever deeper indentation, blank lines in lists, fences, rules, headings and code spans by the thousand', () => {
    const cases: Array<[string, (size: number) => string, (shown: string) => boolean]> = [
      [
        'indentation',
        (size) => Array.from({ length: size / 40 }, (_, index) => `${' '.repeat(index % 30)}- a`).join('\n'),
        (shown) => shown.startsWith('• a\n  ◦ a'),
      ],
      ['blank lines', (size) => repeat('- a\n\n\n\n', size), (shown) => shown.startsWith('• a\n• a')],
      ['fences', (size) => repeat('```\n', size), (shown) => !shown.includes('`')],
      ['rules and headings', (size) => repeat('---\n# h\n', size), (shown) => shown.startsWith('h\n\nh')],
      ['quoted items', (size) => repeat('> - `a` **b** [c](https://x.example)\n', size), (shown) => shown.startsWith('• a b c\n')],
      [
        'long marks',
        (size) => `${'- '.repeat(size / 4)}x\n${' '.repeat(size / 4)}\n${'#'.repeat(size / 4)}`,
        (shown) => shown.startsWith('• - - '),
      ],
      [
        'backtick runs',
        (size) => Array.from({ length: Math.sqrt(2 * size) }, (_, index) => '`'.repeat(index + 1)).join(' '),
        (shown) => shown.startsWith('` `` ```'),
      ],
      ['code spans', (size) => repeat('`a', size), (shown) => /^a+(`a)?$/.test(shown)],
    ];
    for (const [name, make, looksRight] of cases) {
      const { shown, fast } = timed(make);
      expect({ name, right: looksRight(shown), fast }).toEqual({ name, right: true, fast: true });
    }
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

  test("code is laid out in the monospace face; a list's items on lines of their own after a bullet, indented inside", () => {
    const runs = runsOf('Run `iiii` now\n- one\n  - inner', true);
    expect(runs).toEqual([
      { text: 'Run ', link: false },
      { text: 'iiii', link: false, code: true },
      { text: ' now\n• one\n  ◦ inner', link: false },
    ]);
    const ctx = createCanvas(10, 10).getContext('2d');
    ctx.font = font(14, false);
    const fontFor = (style: { code?: boolean }) => font(14, false, style.code ? MONO : undefined);
    const lines = layoutText(ctx, runs, 1000, 5, fontFor);
    expect(lines.map((line) => line.runs.map((run) => run.text).join(''))).toEqual(['Run iiii now', '• one', '\u00a0\u00a0◦ inner']);
    const [code] = layoutText(ctx, runsOf('`iiii`', true), 1000, 1, fontFor);
    const [words] = layoutText(ctx, runsOf('iiii', true), 1000, 1, fontFor);
    expect(code!.runs).toMatchObject([{ text: 'iiii', code: true }]);
    expect(code!.width).toBeGreaterThan(words!.width * 1.5); // an i is as wide as any letter in a monospace face
  });

  test('a list item that wraps goes on under its text, not under its mark; other lines that wrap start at the edge', () => {
    const ctx = createCanvas(10, 10).getContext('2d');
    ctx.font = font(14, false);
    const width = (text: string): number => ctx.measureText(text).width;
    const words = 'alpha bravo charlie delta echo foxtrot golf hotel india juliet';
    const lines = layoutText(ctx, runsOf(`Before the list, ${words}\n- ${words}\n  - ${words}\n12. ${words}`, true), 160, 40);
    const text = (line: (typeof lines)[number]): string => line.runs.map((run) => run.text).join('');
    const startOf = (prefix: string): number => lines.findIndex((line) => text(line).startsWith(prefix));
    const [bullet, inner, numbered] = [startOf('• '), startOf('\u00a0\u00a0◦ '), startOf('12. ')];
    expect([bullet, inner, numbered].every((at) => at > 0)).toBe(true);
    // The paragraph before: every line at the edge.
    expect(lines.slice(0, bullet).map((line) => line.indent)).toEqual(lines.slice(0, bullet).map(() => undefined));
    // Each item's later lines stand where its text starts, after the mark and its space; the line's width counts it.
    const hangs = [
      { first: bullet, last: inner, hang: width('• ') },
      { first: inner, last: numbered, hang: width('\u00a0\u00a0◦ ') },
      { first: numbered, last: lines.length, hang: width('12. ') },
    ];
    for (const { first, last, hang } of hangs) {
      expect(last - first).toBeGreaterThan(1); // it did wrap
      expect(lines[first]!.indent).toBeUndefined();
      for (const line of lines.slice(first + 1, last)) {
        expect(line.indent).toBeCloseTo(hang, 5);
        expect(line.width).toBeLessThanOrEqual(160 + 1e-6);
        expect(line.width).toBeCloseTo(hang + line.runs.reduce((sum, run) => sum + run.width, 0), 5);
      }
    }
    // In a column too narrow to give a third of itself to the mark, the text keeps its room.
    const narrow = layoutText(ctx, runsOf(`12. ${words}`, true), width('12. ') * 2, 40);
    expect(narrow.every((line) => line.indent === undefined)).toBe(true);
  });
});
