import { describe, expect, test } from '@jest/globals';
import { firstLineOf } from '../../../../daemon/core/history/rows.js';

// A History row's first line (docs/app.md#history): the body's first line of text, its Markdown without its marks.

describe("a row's first line", () => {
  test('the first line with text of the body as it reads: no heading, list, quote or code marks, no rule', () => {
    expect(firstLineOf('**Table 4**\nsecond line')).toBe('Table 4');
    expect(firstLineOf('# Deploy *done*\nmore')).toBe('Deploy done');
    expect(firstLineOf('```sh\nnpm test\n```')).toBe('npm test');
    expect(firstLineOf('---\n\n- first item\n- second')).toBe('• first item');
    expect(firstLineOf('1. one\n2. two')).toBe('1. one');
    expect(firstLineOf('> quoted `code`')).toBe('quoted code');
    expect(firstLineOf('\n\n   indented words  ')).toBe('indented words');
    expect(firstLineOf(undefined)).toBe('');
  });

  test('at most 200 characters, also when a code block holds the first line and the body is long', () => {
    expect(firstLineOf('x'.repeat(500))).toBe('x'.repeat(200));
    expect(firstLineOf(`\`\`\`\n${'y'.repeat(3000)}\n${'z\n'.repeat(5000)}\`\`\``)).toBe('y'.repeat(200));
  });

  test('a body of one long line is read only as far as a row needs (its first 4,000 characters)', () => {
    // Read whole, a 16 KB line in the reader's slowest shape would cost each row of a History page milliseconds. What
    // shows it: a bold run closed 4,500 characters on is not read as closed, so its mark stays.
    expect(firstLineOf(`**${'a'.repeat(4500)}** done`)).toBe(`**${'a'.repeat(198)}`);
    expect(firstLineOf(`**${'a'.repeat(3000)}** done`)).toBe('a'.repeat(200));
  });
});
