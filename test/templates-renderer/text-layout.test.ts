import { describe, expect, test } from '@jest/globals';
import { createCanvas } from 'canvas';
import { prepare } from '../../templates-renderer/components.js';
import type { Scene } from '../../templates-renderer/scene.js';
import type { Template } from '../../templates-renderer/model.js';
import { themeFor } from '../../templates-renderer/theme.js';
import { validateTemplate } from '../../templates-renderer/validate.js';

// A text cell of a card, measured and drawn as the grid does it (templates-renderer/render.ts): the grid gives a
// cell shorter than its column its natural width (measureWidth), asks for the height at that width
// (measureHeight), and the text is drawn in that box. Bold, italic and link runs have their own fonts; the width
// the grid is told must be the width the lines are laid out in, or the last word wraps onto a line the box has no
// room for and is cut off.

/** One text cell, validated like a saved template, in a column wide enough for any of the texts below. */
function textCell(style: 'title' | 'body' | 'caption', markdown?: boolean): { scene: Scene; template: Template } {
  const { template, errors } = validateTemplate(
    {
      app: 'acme',
      name: 'one-text',
      layoutVersion: 2,
      grid: { rows: 1, cols: 1, width: 380 },
      cells: [{ id: 'text', row: 0, col: 0, component: { type: 'text', binding: '{text}', style, ...(markdown ? { markdown } : {}) } }],
    },
    { app: 'acme' },
  );
  expect(errors).toEqual([]);
  const scene: Scene = {
    template: template!,
    theme: themeFor('light'),
    fields: {},
    actions: [],
    images: new Map(),
    symbols: new Map(),
    stackCount: 1,
    replying: false,
    questioning: false,
    now: new Date('2026-03-01T12:00:00Z'),
    measure: createCanvas(1, 1).getContext('2d'),
  };
  return { scene, template: template! };
}

/**
 * The words of each line as drawn at the text's natural width, with the height the grid gives that box: a line
 * below the box is cut off, so it is not listed (and is reported in `hidden`).
 */
function drawnLines(style: 'title' | 'body' | 'caption', text: string, markdown?: boolean): { lines: string[][]; hidden: string[][] } {
  const { scene, template } = textCell(style, markdown);
  const prepared = prepare(template.cells[0]!, { ...scene, fields: { text } });
  const width = prepared.measureWidth();
  const height = prepared.measureHeight(width);
  const canvas = createCanvas(400, 400);
  const ctx = canvas.getContext('2d');
  const byLine = new Map<number, string[]>();
  const fillText = ctx.fillText.bind(ctx);
  ctx.fillText = (piece: string, x: number, y: number) => {
    byLine.set(y, [...(byLine.get(y) ?? []), piece]);
    fillText(piece, x, y);
  };
  prepared.draw(ctx, { x: 0, y: 0, width, height });
  const lines = [...byLine.entries()].sort(([a], [b]) => a - b);
  const words = (pieces: string[]): string[] => pieces.join('').split(/\s+/).filter(Boolean);
  return {
    lines: lines.filter(([baseline]) => baseline <= height).map(([, pieces]) => words(pieces)),
    hidden: lines.filter(([baseline]) => baseline > height).map(([, pieces]) => words(pieces)),
  };
}

describe('a text cell at its natural width keeps every word on its one line', () => {
  test.each([
    ['bold', '**Acme** ships now'],
    ['italic', '*Acme* ships now'],
    ['a link', '[Acme](https://acme.example) ships now'],
    ['bold at the end', 'Acme ships **now**'],
    ['bold, italic and a link', '**Acme** ships *v2* and [notes](https://acme.example) today'],
  ])('body with %s', (_kind, text) => {
    const plain = text.replace(/\*|\[|\]\([^)]*\)/g, '');
    expect(drawnLines('body', text)).toEqual({ lines: [plain.split(' ')], hidden: [] });
  });

  test('a bold style with an italic run (a title with Markdown)', () => {
    expect(drawnLines('title', 'Deploy *finished* now', true)).toEqual({ lines: [['Deploy', 'finished', 'now']], hidden: [] });
  });

  test('a line break in the text: each line whole, the box as wide as the widest', () => {
    expect(drawnLines('body', '**Acme** ships now\nand *later* too')).toEqual({
      lines: [
        ['Acme', 'ships', 'now'],
        ['and', 'later', 'too'],
      ],
      hidden: [],
    });
  });

  test('plain text, whose words are measured one by one, fits its natural width too', () => {
    expect(drawnLines('caption', 'Parcel 1 of 2 left the warehouse')).toEqual({
      lines: [['Parcel', '1', 'of', '2', 'left', 'the', 'warehouse']],
      hidden: [],
    });
  });
});

test("a list item that wraps is drawn on under its text, where its first line's words start after the bullet", () => {
  const { scene, template } = textCell('body');
  const item = '- Run the whole suite on Node 20 and on Node 24, then the package test, then tag the release';
  const prepared = prepare(template.cells[0]!, { ...scene, fields: { text: item } });
  const width = 200; // narrower than the item: it wraps
  const drawn: Array<{ text: string; x: number; y: number; bullet: number }> = [];
  const ctx = createCanvas(400, 400).getContext('2d');
  const fillText = ctx.fillText.bind(ctx);
  ctx.fillText = (text: string, x: number, y: number) => {
    drawn.push({ text, x, y, bullet: ctx.measureText('• ').width }); // in the font the line is drawn in
    fillText(text, x, y);
  };
  prepared.draw(ctx, { x: 10, y: 0, width, height: prepared.measureHeight(width) });
  const lines = [...new Set(drawn.map(({ y }) => y))].map((y) => drawn.filter((piece) => piece.y === y));
  expect(lines.length).toBeGreaterThan(2);
  expect(lines[0]![0]).toMatchObject({ x: 10, text: expect.stringMatching(/^• Run/) });
  for (const line of lines.slice(1)) {
    expect(line[0]!.text).not.toMatch(/^•/);
    expect(line[0]!.x).toBeCloseTo(10 + line[0]!.bullet, 5);
  }
});
