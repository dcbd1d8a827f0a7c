// The grid solver (the grid and its cells, docs/api/templates.md#t8; collapsing, docs/api/templates.md#t9): it turns
// a validated `Grid` and the cells placed on it into track sizes and frames. It is pure: no canvas, no I/O; content
// is measured through the callbacks each item carries. Same input, same output, and every number it returns is finite
// and at least 0 (rule 6).

import type { Grid, Size } from './model.js';

export interface GridItem {
  id: string;
  row: number;
  col: number;
  rowSpan: number;
  colSpan: number;
  /** Inner padding of the cell, points (0-64). */
  padding: number;
  /** True when the cell is empty and collapses (it is dropped from layout). */
  collapsed: boolean;
  /** Natural width of its content in points (used to size `auto` columns). */
  measureWidth(): number;
  /** Height of its content when given this content width (used to size `auto` and `fill` rows). */
  measureHeight(width: number): number;
}

export interface Frame {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Layout {
  /** grid.width */
  width: number;
  /** padding + rows + gaps + padding */
  height: number;
  /** Width of each column (0 when collapsed). */
  columns: number[];
  /** Height of each row (0 when collapsed). */
  rows: number[];
  /** Outer frame of each live cell (its span incl. the gaps inside it), and its content frame (inset by the cell padding). */
  cells: Map<string, { frame: Frame; content: Frame }>;
}

export interface GridOptions {
  /** The template's `collapseEmpty`: whether tracks no cell touches at all collapse. */
  collapseEmpty: boolean;
}

/** A finite number at least 0; anything else (NaN, infinities, negatives, non-numbers) is 0. */
function nonNegative(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0;
}

/** A track count: a whole number at least 0. */
function count(value: unknown): number {
  return Math.floor(nonNegative(value));
}

/** Size of track `i`, filling in the model's defaults when the list is short (rows `auto`, columns `fill`). */
function sizeAt(sizes: readonly Size[] | undefined, i: number, fallback: Size): Size {
  const size = Array.isArray(sizes) ? sizes[i] : undefined;
  if (size === 'auto' || size === 'fill') return size;
  if (typeof size === 'number') return nonNegative(size);
  return fallback;
}

/** An item placed on the grid after rule 6: whole-number position inside the grid, span clamped to its edge. */
interface Placed {
  item: GridItem;
  row: number;
  col: number;
  rowSpan: number;
  colSpan: number;
  padding: number;
  order: number;
}

/** Where a placed item sits along one axis of the grid: its first track, and how many tracks it spans. */
interface Axis {
  start(p: Placed): number;
  span(p: Placed): number;
}
const COLUMNS: Axis = { start: (p) => p.col, span: (p) => p.colSpan };
const ROWS: Axis = { start: (p) => p.row, span: (p) => p.rowSpan };

/**
 * Rule 6 (total): an item whose row or col is not a whole number inside the grid is ignored (the validator reports
 * it). A span below 1 (or not a number) counts as 1; a span that runs past the grid's edge is cut at the edge.
 */
function place(items: readonly GridItem[], rows: number, cols: number): Placed[] {
  const placed: Placed[] = [];
  items.forEach((item, order) => {
    const { row, col } = item;
    if (!Number.isInteger(row) || !Number.isInteger(col)) return;
    if (row < 0 || col < 0 || row >= rows || col >= cols) return;
    const rowSpan = Math.min(Math.max(1, count(item.rowSpan)), rows - row);
    const colSpan = Math.min(Math.max(1, count(item.colSpan)), cols - col);
    placed.push({ item, row, col, rowSpan, colSpan, padding: nonNegative(item.padding), order });
  });
  return placed;
}

/**
 * Rule 2, the collapse planner (docs/api/templates.md#t9). Items marked `collapsed` are dropped. A track
 * (row or column) is touched by every item whose span covers it. A track touched only by dropped items collapses
 * (size 0, no gap next to it); a track no item touches at all collapses only when `collapseEmpty` is true, and is
 * otherwise kept with its own size (see rules 3 and 4). Returns `visible[i]` per track.
 */
function planTracks(placed: readonly Placed[], tracks: number, axis: Axis, collapseEmpty: boolean): boolean[] {
  const touched = new Array<boolean>(tracks).fill(false);
  const live = new Array<boolean>(tracks).fill(false);
  for (const p of placed) {
    for (let i = axis.start(p); i < axis.start(p) + axis.span(p); i++) {
      touched[i] = true;
      if (!p.item.collapsed) live[i] = true;
    }
  }
  return live.map((isLive, i) => isLive || (!touched[i] && !collapseEmpty));
}

/** Calls a measuring callback and keeps its answer total: anything not a finite number at least 0 is 0. */
function measured(fn: () => number): number {
  return nonNegative(fn());
}

/** Total of `gap` between the visible tracks among `visible[from .. to)` (one gap fewer than visible tracks). */
function gapsBetween(visible: readonly boolean[], from: number, to: number, gap: number): number {
  let shown = 0;
  for (let i = from; i < to; i++) if (visible[i]) shown++;
  return shown > 1 ? (shown - 1) * gap : 0;
}

/** Start offset of each track: the tracks before it plus one gap before every visible track but the first. */
function offsets(sizes: readonly number[], visible: readonly boolean[], origin: number, gap: number): number[] {
  const at: number[] = [];
  let cursor = origin;
  let seen = false;
  sizes.forEach((size, i) => {
    if (visible[i]) {
      if (seen) cursor += gap;
      seen = true;
    }
    at.push(cursor);
    cursor += size;
  });
  return at;
}

/** The extent of a span: its tracks plus the gaps between the visible tracks inside it (rule 5). */
function spanExtent(sizes: readonly number[], visible: readonly boolean[], from: number, span: number, gap: number): number {
  let total = 0;
  for (let i = from; i < from + span; i++) total += sizes[i];
  return total + gapsBetween(visible, from, from + span, gap);
}

/** Lays out the cells of a banner template's grid (rules 1-6 in the comments of this file). */
export function solveGrid(grid: Grid, items: GridItem[], options: { collapseEmpty: boolean }): Layout {
  const rowCount = count(grid.rows);
  const colCount = count(grid.cols);
  const gap = nonNegative(grid.gap);
  const padding = nonNegative(grid.padding);
  const width = nonNegative(grid.width);

  // Rule 1: the content area runs from x = padding to x = width - padding (never narrower than 0); y starts at padding.
  const innerWidth = Math.max(0, width - 2 * padding);

  const placed = place(items, rowCount, colCount);
  const live = placed.filter((p) => !p.item.collapsed);

  // Rule 2: which tracks are visible.
  const colVisible = planTracks(placed, colCount, COLUMNS, options.collapseEmpty);
  const rowVisible = planTracks(placed, rowCount, ROWS, options.collapseEmpty);

  // Rule 3: column widths. Collapsed columns are 0. Fixed columns keep their points (they may overfill the width:
  // fixed is fixed). Gaps sit only between visible columns. An `auto` column is as wide as the widest live item that
  // sits in it alone (colSpan 1): its measureWidth() plus its padding on both sides, so its content gets its natural
  // width; an auto column nobody sits in alone is 0. Auto columns never take more than the space still available
  // (content width minus fixed columns, gaps and the auto columns to their left). `fill` columns share what is left
  // after fixed, auto and gaps equally, and get 0 when nothing is left (never negative).
  const colSizes: Size[] = [];
  for (let c = 0; c < colCount; c++) colSizes.push(sizeAt(grid.colSizes, c, 'fill'));
  const columns = new Array<number>(colCount).fill(0);
  const colGaps = gapsBetween(colVisible, 0, colCount, gap);
  let fixedWidth = 0;
  for (let c = 0; c < colCount; c++) {
    const size = colSizes[c];
    if (colVisible[c] && typeof size === 'number') {
      columns[c] = size;
      fixedWidth += size;
    }
  }
  let available = Math.max(0, innerWidth - fixedWidth - colGaps);
  for (let c = 0; c < colCount; c++) {
    if (!colVisible[c] || colSizes[c] !== 'auto') continue;
    let widest = 0;
    for (const p of live) {
      if (p.col === c && p.colSpan === 1) widest = Math.max(widest, measured(() => p.item.measureWidth()) + 2 * p.padding);
    }
    columns[c] = Math.min(widest, available);
    available -= columns[c];
  }
  const fillColumns = colSizes.filter((size, c) => colVisible[c] && size === 'fill').length;
  const share = fillColumns > 0 ? available / fillColumns : 0;
  for (let c = 0; c < colCount; c++) if (colVisible[c] && colSizes[c] === 'fill') columns[c] = share;

  // Frames need the column offsets; content widths (for measureHeight) follow from them.
  const colX = offsets(columns, colVisible, padding, gap);
  const frameWidth = (p: Placed): number => spanExtent(columns, colVisible, p.col, p.colSpan, gap);
  const inset = (extent: number, pad: number): number => Math.min(pad, extent / 2);
  const contentWidth = (p: Placed): number => {
    const w = frameWidth(p);
    return Math.max(0, w - 2 * inset(w, p.padding));
  };
  const neededHeight = (p: Placed): number => measured(() => p.item.measureHeight(contentWidth(p))) + 2 * p.padding;

  // Rule 4: row heights. Collapsed rows are 0. Fixed rows keep their points. `auto` and `fill` rows are as tall as
  // the tallest live item that sits in them alone (rowSpan 1): measureHeight(its content width) plus its padding top
  // and bottom; a row nobody sits in alone starts at 0. Then items spanning several rows (shortest spans first, then
  // top to bottom, left to right, then input order): when the spanned rows plus the gaps between them are shorter
  // than the item needs, the difference goes to the last non-fixed row of the span; when every spanned row is fixed
  // they are left as they are. Gaps sit only between visible rows.
  const rowSizes: Size[] = [];
  for (let r = 0; r < rowCount; r++) rowSizes.push(sizeAt(grid.rowSizes, r, 'auto'));
  const rows = new Array<number>(rowCount).fill(0);
  for (let r = 0; r < rowCount; r++) {
    const size = rowSizes[r];
    if (rowVisible[r] && typeof size === 'number') rows[r] = size;
  }
  for (const p of live) {
    if (p.rowSpan !== 1 || typeof rowSizes[p.row] === 'number') continue;
    rows[p.row] = Math.max(rows[p.row], neededHeight(p));
  }
  const spanning = live
    .filter((p) => p.rowSpan > 1)
    .sort((a, b) => a.rowSpan - b.rowSpan || a.row - b.row || a.col - b.col || a.order - b.order);
  for (const p of spanning) {
    const missing = neededHeight(p) - spanExtent(rows, rowVisible, p.row, p.rowSpan, gap);
    if (!(missing > 0)) continue;
    for (let r = p.row + p.rowSpan - 1; r >= p.row; r--) {
      if (rowVisible[r] && typeof rowSizes[r] !== 'number') {
        rows[r] += missing;
        break;
      }
    }
  }
  const rowY = offsets(rows, rowVisible, padding, gap);
  const rowGaps = gapsBetween(rowVisible, 0, rowCount, gap);
  const height = padding + rows.reduce((sum, h) => sum + h, 0) + rowGaps + padding;

  // Rule 5: frames. x and y come from the tracks (and visible gaps) before the cell; width and height are the spanned
  // tracks plus the gaps between the visible tracks inside the span. The content frame is the frame inset by the cell
  // padding on every side; when the padding is more than half the frame, the inset stops at the middle (size 0).
  const cells = new Map<string, { frame: Frame; content: Frame }>();
  for (const p of live) {
    const frame: Frame = {
      x: colX[p.col],
      y: rowY[p.row],
      width: frameWidth(p),
      height: spanExtent(rows, rowVisible, p.row, p.rowSpan, gap),
    };
    const dx = inset(frame.width, p.padding);
    const dy = inset(frame.height, p.padding);
    const content: Frame = {
      x: frame.x + dx,
      y: frame.y + dy,
      width: frame.width - 2 * dx,
      height: frame.height - 2 * dy,
    };
    cells.set(p.item.id, { frame, content });
  }

  return { width, height, columns, rows, cells };
}
