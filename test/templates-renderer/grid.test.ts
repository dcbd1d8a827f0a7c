import { beforeEach, describe, expect, test } from '@jest/globals';
import { solveGrid, type GridItem, type Layout } from '../../templates-renderer/grid.js';
import type { Grid, Size } from '../../templates-renderer/model.js';

const grid = (over: Partial<Grid> & { rowSizes: Size[]; colSizes: Size[] }): Grid => ({
  rows: over.rowSizes.length,
  cols: over.colSizes.length,
  gap: 0,
  padding: 0,
  width: 400,
  ...over,
});

interface ItemSpec {
  id: string;
  row: number;
  col: number;
  rowSpan?: number;
  colSpan?: number;
  padding?: number;
  collapsed?: boolean;
  /** Natural content width; default 0. */
  w?: number;
  /** Content height, a number or a function of the content width; default 0. */
  h?: number | ((width: number) => number);
}

/** Items record the widths they were measured at, so the tests can check what measureHeight was given. */
const measuredAt = new Map<string, number[]>();
beforeEach(() => measuredAt.clear());

const item = (spec: ItemSpec): GridItem => ({
  id: spec.id,
  row: spec.row,
  col: spec.col,
  rowSpan: spec.rowSpan ?? 1,
  colSpan: spec.colSpan ?? 1,
  padding: spec.padding ?? 0,
  collapsed: spec.collapsed ?? false,
  measureWidth: () => spec.w ?? 0,
  measureHeight: (width: number) => {
    measuredAt.set(spec.id, [...(measuredAt.get(spec.id) ?? []), width]);
    return typeof spec.h === 'function' ? spec.h(width) : (spec.h ?? 0);
  },
});

/** An item that must never be measured (dropped or ignored items). */
const untouchable = (spec: ItemSpec): GridItem => ({
  ...item(spec),
  measureWidth: () => {
    throw new Error(`${spec.id} measured`);
  },
  measureHeight: () => {
    throw new Error(`${spec.id} measured`);
  },
});

const frameOf = (layout: Layout, id: string) => layout.cells.get(id)?.frame;
const contentOf = (layout: Layout, id: string) => layout.cells.get(id)?.content;

const keep = { collapseEmpty: false };
const collapse = { collapseEmpty: true };

describe('columns and rows by kind', () => {
  test('fixed, auto and fill columns; fixed, auto and fill rows', () => {
    // width 400, padding 10 -> content 380; two gaps of 10; fixed 100; auto 60; fill gets 380 - 100 - 20 - 60 = 200.
    const layout = solveGrid(
      grid({ colSizes: [100, 'auto', 'fill'], rowSizes: [40, 'auto', 'fill'], gap: 10, padding: 10 }),
      [
        item({ id: 'fixed', row: 0, col: 0, h: 999 }),
        item({ id: 'auto', row: 0, col: 1, w: 60 }),
        item({ id: 'fill', row: 0, col: 2, w: 999 }),
        item({ id: 'autoRow', row: 1, col: 0, padding: 5, h: 25 }),
        item({ id: 'fillRow', row: 2, col: 2, h: (width) => width / 10 }),
      ],
      keep,
    );
    expect(layout.columns).toEqual([100, 60, 200]);
    // Row 0 is fixed (the 999-tall item does not grow it); row 1: 25 + 2 x 5; row 2: 200 / 10.
    expect(layout.rows).toEqual([40, 35, 20]);
    expect(layout.width).toBe(400);
    expect(layout.height).toBe(10 + 40 + 10 + 35 + 10 + 20 + 10);
    expect(frameOf(layout, 'fixed')).toEqual({ x: 10, y: 10, width: 100, height: 40 });
    expect(frameOf(layout, 'auto')).toEqual({ x: 120, y: 10, width: 60, height: 40 });
    expect(frameOf(layout, 'fill')).toEqual({ x: 190, y: 10, width: 200, height: 40 });
    expect(frameOf(layout, 'autoRow')).toEqual({ x: 10, y: 60, width: 100, height: 35 });
    expect(frameOf(layout, 'fillRow')).toEqual({ x: 190, y: 105, width: 200, height: 20 });
    // measureHeight gets the content width: the column less the cell padding on both sides.
    expect(measuredAt.get('autoRow')).toEqual([90]);
    expect(measuredAt.get('fillRow')).toEqual([200]);
  });

  test('two fill columns share the space equally', () => {
    const layout = solveGrid(
      grid({ colSizes: ['fill', 'fill'], rowSizes: [30], gap: 20, width: 300 }),
      [item({ id: 'a', row: 0, col: 0 }), item({ id: 'b', row: 0, col: 1 })],
      keep,
    );
    expect(layout.columns).toEqual([140, 140]);
    expect(frameOf(layout, 'a')).toEqual({ x: 0, y: 0, width: 140, height: 30 });
    expect(frameOf(layout, 'b')).toEqual({ x: 160, y: 0, width: 140, height: 30 });
  });

  test('an auto column is as wide as its widest single-span item (plus its padding)', () => {
    const layout = solveGrid(
      grid({ colSizes: ['auto', 'fill'], rowSizes: ['auto', 'auto', 'auto'], width: 200 }),
      [
        item({ id: 'narrow', row: 0, col: 0, w: 50 }),
        item({ id: 'wide', row: 1, col: 0, w: 80, padding: 4 }),
        // Spans both columns: it does not size the auto column.
        item({ id: 'span', row: 2, col: 0, colSpan: 2, w: 500 }),
      ],
      keep,
    );
    expect(layout.columns).toEqual([88, 112]);
    // Rows: 0 (narrow), 0 + 2 x 4 (wide), 0 (span).
    expect(frameOf(layout, 'span')).toEqual({ x: 0, y: 8, width: 200, height: 0 });
  });

  test('an auto column never takes more than the space available', () => {
    // content 180; fixed 50 and two gaps of 10 leave 110 for the auto column, nothing for fill.
    const layout = solveGrid(
      grid({ colSizes: [50, 'auto', 'fill'], rowSizes: [10], gap: 10, padding: 10, width: 200 }),
      [item({ id: 'huge', row: 0, col: 1, w: 1000 }), item({ id: 'fill', row: 0, col: 2 })],
      keep,
    );
    expect(layout.columns).toEqual([50, 110, 0]);
    expect(frameOf(layout, 'fill')).toEqual({ x: 190, y: 10, width: 0, height: 10 });
  });

  test('over-full fixed columns leave fill columns at 0, never negative', () => {
    // content 180, but 120 + 100 fixed + two gaps = 240.
    const layout = solveGrid(
      grid({ colSizes: [120, 'fill', 100], rowSizes: [20], gap: 10, padding: 10, width: 200 }),
      [item({ id: 'left', row: 0, col: 0 }), item({ id: 'mid', row: 0, col: 1, padding: 4 }), item({ id: 'right', row: 0, col: 2 })],
      keep,
    );
    expect(layout.columns).toEqual([120, 0, 100]);
    expect(frameOf(layout, 'mid')).toEqual({ x: 140, y: 10, width: 0, height: 20 });
    expect(contentOf(layout, 'mid')).toEqual({ x: 140, y: 14, width: 0, height: 12 });
    expect(frameOf(layout, 'right')).toEqual({ x: 150, y: 10, width: 100, height: 20 });
  });
});

describe('spanning rows', () => {
  test('a spanning item grows the last non-fixed row of its span', () => {
    // rows: 20 and 10 from single items, 30 fixed; the span has 20 + 10 + 30 + two gaps of 5 = 70, needs 200.
    const layout = solveGrid(
      grid({ colSizes: ['fill', 'fill'], rowSizes: ['auto', 'auto', 30], gap: 5, width: 205 }),
      [
        item({ id: 'tall', row: 0, col: 0, rowSpan: 3, h: 190, padding: 5 }),
        item({ id: 'r0', row: 0, col: 1, h: 20 }),
        item({ id: 'r1', row: 1, col: 1, h: 10 }),
        item({ id: 'r2', row: 2, col: 1, h: 5 }),
      ],
      keep,
    );
    expect(layout.rows).toEqual([20, 140, 30]);
    expect(frameOf(layout, 'tall')).toEqual({ x: 0, y: 0, width: 100, height: 200 });
    expect(contentOf(layout, 'tall')).toEqual({ x: 5, y: 5, width: 90, height: 190 });
    expect(frameOf(layout, 'r2')).toEqual({ x: 105, y: 170, width: 100, height: 30 });
    expect(layout.height).toBe(200);
    expect(measuredAt.get('tall')).toEqual([90]);
  });

  test('a spanning item over fixed rows only leaves them as they are', () => {
    const layout = solveGrid(
      grid({ colSizes: ['fill'], rowSizes: [30, 30], gap: 4, width: 200 }),
      [item({ id: 'tallFixed', row: 0, col: 0, rowSpan: 2, h: 500 })],
      keep,
    );
    expect(layout.rows).toEqual([30, 30]);
    expect(frameOf(layout, 'tallFixed')).toEqual({ x: 0, y: 0, width: 200, height: 64 });
  });

  test('a spanning item is measured at its spanned content width, gaps included', () => {
    const layout = solveGrid(
      grid({ colSizes: [50, 60], rowSizes: ['auto', 'fill'], gap: 10, width: 200 }),
      [item({ id: 'wide', row: 0, col: 0, colSpan: 2, rowSpan: 2, padding: 3, h: (width) => width })],
      keep,
    );
    // content width 50 + 10 + 60 - 6 = 114; needs 120; the span has 0 + 10 + 0, so the last row gets 110.
    expect(measuredAt.get('wide')).toEqual([114]);
    expect(layout.rows).toEqual([0, 110]);
    expect(frameOf(layout, 'wide')).toEqual({ x: 0, y: 0, width: 120, height: 120 });
  });
});

describe('collapse planner', () => {
  test('gaps are skipped next to a collapsed column and row', () => {
    const layout = solveGrid(
      grid({ colSizes: ['fill', 'fill', 'fill'], rowSizes: [20, 20, 20], gap: 10, width: 300 }),
      [item({ id: 'a', row: 0, col: 0 }), untouchable({ id: 'gone', row: 1, col: 1, collapsed: true }), item({ id: 'c', row: 2, col: 2 })],
      keep,
    );
    // Only columns 0 and 2 are visible: one gap, 290 / 2 each. Row 1 collapses even though it is fixed.
    expect(layout.columns).toEqual([145, 0, 145]);
    expect(layout.rows).toEqual([20, 0, 20]);
    expect(layout.height).toBe(50);
    expect(frameOf(layout, 'a')).toEqual({ x: 0, y: 0, width: 145, height: 20 });
    expect(frameOf(layout, 'c')).toEqual({ x: 155, y: 30, width: 145, height: 20 });
    expect(layout.cells.has('gone')).toBe(false);
  });

  test('a collapsed cell collapses its column and row, and its neighbours move up and left', () => {
    const cells = (collapsed: boolean) => [
      item({ id: 'corner', row: 0, col: 0, collapsed, h: 30 }),
      item({ id: 'b', row: 1, col: 1, h: 20 }),
    ];
    const shape = grid({ colSizes: ['fill', 'fill'], rowSizes: ['auto', 'auto'], gap: 8, padding: 10, width: 208 });

    const full = solveGrid(shape, cells(false), keep);
    expect(full.columns).toEqual([90, 90]);
    expect(full.rows).toEqual([30, 20]);
    expect(frameOf(full, 'b')).toEqual({ x: 108, y: 48, width: 90, height: 20 });

    const dropped = solveGrid(shape, cells(true), keep);
    expect(dropped.columns).toEqual([0, 188]);
    expect(dropped.rows).toEqual([0, 20]);
    expect(dropped.height).toBe(40);
    expect(frameOf(dropped, 'b')).toEqual({ x: 10, y: 10, width: 188, height: 20 });
    expect([...dropped.cells.keys()]).toEqual(['b']);
  });

  test('a track a live cell spans over stays, even when a dropped cell sits in it', () => {
    const layout = solveGrid(
      grid({ colSizes: ['fill', 'fill'], rowSizes: [20, 20], gap: 10, width: 210 }),
      [item({ id: 'top', row: 0, col: 0, colSpan: 2 }), untouchable({ id: 'gone', row: 1, col: 1, collapsed: true })],
      keep,
    );
    expect(layout.columns).toEqual([100, 100]);
    expect(layout.rows).toEqual([20, 0]);
    expect(frameOf(layout, 'top')).toEqual({ x: 0, y: 0, width: 210, height: 20 });
  });

  test('untouched tracks are kept when collapseEmpty is false and collapse when it is true', () => {
    const shape = grid({ colSizes: [60, 'fill', 'fill'], rowSizes: ['auto', 40], gap: 10, width: 300 });
    const cells = [item({ id: 'x', row: 0, col: 1, h: 20 })];

    const kept = solveGrid(shape, cells, keep);
    expect(kept.columns).toEqual([60, 110, 110]);
    expect(kept.rows).toEqual([20, 40]);
    expect(kept.height).toBe(70);
    expect(frameOf(kept, 'x')).toEqual({ x: 70, y: 0, width: 110, height: 20 });

    const collapsed = solveGrid(shape, cells, collapse);
    expect(collapsed.columns).toEqual([0, 300, 0]);
    expect(collapsed.rows).toEqual([20, 0]);
    expect(collapsed.height).toBe(20);
    expect(frameOf(collapsed, 'x')).toEqual({ x: 0, y: 0, width: 300, height: 20 });
  });

  test('an untouched auto column kept by collapseEmpty false is 0 wide but keeps its gap', () => {
    const shape = grid({ colSizes: ['auto', 'fill'], rowSizes: [10], gap: 10, width: 300 });
    const kept = solveGrid(shape, [item({ id: 'x', row: 0, col: 1 })], keep);
    expect(kept.columns).toEqual([0, 290]);
    expect(frameOf(kept, 'x')).toEqual({ x: 10, y: 0, width: 290, height: 10 });
    const collapsed = solveGrid(shape, [item({ id: 'x', row: 0, col: 1 })], collapse);
    expect(collapsed.columns).toEqual([0, 300]);
    expect(frameOf(collapsed, 'x')).toEqual({ x: 0, y: 0, width: 300, height: 10 });
  });
});

describe('frames', () => {
  test('content frames are inset by the cell padding', () => {
    const layout = solveGrid(
      grid({ colSizes: [100, 20], rowSizes: ['auto'], gap: 0, padding: 6, width: 132 }),
      [item({ id: 'padded', row: 0, col: 0, padding: 12, h: 16 }), item({ id: 'thin', row: 0, col: 1, padding: 15 })],
      keep,
    );
    // Row: max(16 + 24, 0 + 30) = 40.
    expect(layout.rows).toEqual([40]);
    expect(frameOf(layout, 'padded')).toEqual({ x: 6, y: 6, width: 100, height: 40 });
    expect(contentOf(layout, 'padded')).toEqual({ x: 18, y: 18, width: 76, height: 16 });
    // Padding 15 in a 20-wide column: the inset stops at the middle, never a negative size.
    expect(frameOf(layout, 'thin')).toEqual({ x: 106, y: 6, width: 20, height: 40 });
    expect(contentOf(layout, 'thin')).toEqual({ x: 116, y: 21, width: 0, height: 10 });
    expect(measuredAt.get('thin')).toEqual([0]);
  });
});

describe('totality', () => {
  test('items outside the grid are ignored; spans past the edge are cut at it', () => {
    const layout = solveGrid(
      grid({ colSizes: ['auto', 'fill', 'fill'], rowSizes: ['auto', 'auto'], gap: 10, width: 320 }),
      [
        item({ id: 'in', row: 0, col: 1, colSpan: 5, rowSpan: 9, h: 30 }),
        untouchable({ id: 'below', row: 2, col: 0, w: 999, h: 999 }),
        untouchable({ id: 'right', row: 0, col: 3, w: 999 }),
        untouchable({ id: 'negative', row: -1, col: 0, w: 999 }),
        untouchable({ id: 'fraction', row: 0.5, col: 0, w: 999 }),
        untouchable({ id: 'nan', row: Number.NaN, col: 0, w: 999 }),
      ],
      collapse,
    );
    // Column 0 is touched by no item that is inside the grid, so it collapses; row 1 is spanned by 'in'.
    expect(layout.columns).toEqual([0, 155, 155]);
    expect(layout.rows).toEqual([0, 20]);
    expect([...layout.cells.keys()]).toEqual(['in']);
    expect(frameOf(layout, 'in')).toEqual({ x: 0, y: 0, width: 320, height: 30 });
  });

  test('bad measurements count as 0: never NaN, never negative', () => {
    const layout = solveGrid(
      grid({ colSizes: ['auto', 'fill'], rowSizes: ['auto', 'fill'], width: 200 }),
      [
        item({ id: 'nan', row: 0, col: 0, w: Number.NaN, h: Number.NaN }),
        item({ id: 'neg', row: 1, col: 1, w: -50, h: -50 }),
        item({ id: 'inf', row: 1, col: 0, w: Number.POSITIVE_INFINITY, h: Number.POSITIVE_INFINITY }),
      ],
      keep,
    );
    expect(layout.columns).toEqual([0, 200]);
    expect(layout.rows).toEqual([0, 0]);
    expect(layout.height).toBe(0);
    expect(frameOf(layout, 'neg')).toEqual({ x: 0, y: 0, width: 200, height: 0 });
  });

  test('the same input gives the same layout', () => {
    const make = () =>
      solveGrid(
        grid({ colSizes: ['auto', 'fill', 60], rowSizes: ['auto', 'fill', 'auto'], gap: 6, padding: 14, width: 380 }),
        [
          item({ id: 'a', row: 0, col: 0, w: 40, h: 22, padding: 2 }),
          item({ id: 'b', row: 0, col: 1, rowSpan: 3, h: (w) => w / 2 }),
          item({ id: 'c', row: 1, col: 2, h: 18 }),
          item({ id: 'd', row: 2, col: 0, collapsed: true }),
        ],
        collapse,
      );
    expect(make()).toEqual(make());
  });
});
