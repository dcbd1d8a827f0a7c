// Draws a banner card to a PNG with node-canvas (docs/api/templates.md#t24: previews are drawn by the same code as
// real banners). The steps: pick the grid (a version-1 template uses its built-in layout), load the pictures and
// symbols it needs, prepare each cell's component, solve the grid with the collapse planner, then draw the card —
// alone, as the top card of a closed stack, or as an open stack — with the reply field or an inline question when
// asked.

import { type CanvasRenderingContext2D, type Image, createCanvas, loadImage } from 'canvas';
import { resolveBinding } from '../protocol/fields.js';
import { builtinTemplate, shownPart } from './builtins.js';
import { drawButton } from './buttons.js';
import { neededSymbols, prepare } from './components.js';
import { place, roundRect } from './paint.js';
import { type DrawnAction, type Prepared, type Scene, symbolKey } from './scene.js';
import { type Confirmation, type Question, questionOf } from './confirmation.js';
import { type Frame, type GridItem, solveGrid } from './grid.js';
import type { Cell, Grid, Template } from './model.js';
import { symbolSVG } from './symbols.js';
import { type Line, fitText, layoutText, measurer, runsOf } from './text.js';
import { encodePNG } from './png.js';
import { drawingTurn } from './turns.js';
import { type Appearance, MONO, type Theme, font, themeFor } from './theme.js';
import { isValidColor } from './validate.js';

export { SCALE_RANGE, STACK_COUNT_RANGE } from '../protocol/limits.js';
export { LIVE_BANNER_WIDTH } from './schema.js';

export interface RenderInput {
  /** A validated template (templates-renderer/validate.ts). */
  template: Template;
  /** The resolved fields (protocol/fields.ts, resolveFields). */
  fields: Record<string, string>;
  /** The notification's actions as buttons (a template's own come from its action rules). */
  actions: DrawnAction[];
  /** The app's icon (a source the picture loader reads); none draws the app's initial. */
  appIcon?: string;
  appearance: Appearance;
  scale: number;
  stackCount: number;
  stackExpanded: boolean;
  confirmation?: Confirmation;
  replying: boolean;
  replySample?: string;
  now: Date;
  timeZone?: string;
  /** Draw at this width instead of the grid's (live banners). */
  width?: number;
}

/** Reads a picture by its source (a path, a data: URI, an https URL); null when it cannot be had. */
export type PictureLoader = (source: string) => Promise<Image | null>;

export interface Rendered {
  png: Buffer;
  /** Size in points (the PNG is `scale` times larger). */
  width: number;
  height: number;
}

/** Room around the card for its shadow. */
const MARGIN = 12;
const CARD_RADIUS = 16;
const GHOST_STEP = 7;
const GHOST_INSET = 12;
const MAX_GHOSTS = 2;
/** An open stack lists at most this many cards, then "+N more". */
const MAX_LISTED = 4;
const LIST_GAP = 8;
/** The header above an open stack's list (a pill and the gap below it), and the "+N more" line below it. */
const LIST_HEADER = 30;
const QUESTION_BUTTON = 26;

export async function renderBanner(input: RenderInput, pictures: PictureLoader): Promise<Rendered> {
  const template = withGrid(input.template, input.width);
  const theme = themeFor(input.appearance, template.accentColor ?? accentOfFields(input.fields));
  const question = input.confirmation ? questionOf(input.confirmation) : undefined;
  const [images, symbols] = await Promise.all([loadPictures(template, input, pictures), loadSymbols(template, theme, input.actions)]);
  const scene = (stackCount: number): Scene => ({
    template,
    theme,
    fields: input.fields,
    actions: input.actions,
    images,
    symbols,
    ...(input.appIcon ? { appIcon: input.appIcon } : {}),
    stackCount,
    replying: input.replying && !question,
    ...(input.replySample !== undefined ? { replySample: input.replySample } : {}),
    questioning: question !== undefined,
    now: input.now,
    ...(input.timeZone ? { timeZone: input.timeZone } : {}),
    measure: MEASURE,
  });

  const finished = await drawingTurn();
  try {
    const open = input.stackExpanded && input.stackCount > 1;
    const card = cardOf(open ? scene(1) : scene(input.stackCount), question);
    const width = template.grid.width + MARGIN * 2;
    const height = open ? openStackHeight(card, input.stackCount) : card.height + ghostCount(input.stackCount) * GHOST_STEP + MARGIN * 2;

    const canvas = createCanvas(Math.ceil(width * input.scale), Math.ceil(height * input.scale));
    const ctx = canvas.getContext('2d');
    ctx.scale(input.scale, input.scale);
    if (open) drawOpenStack(ctx, card, input.stackCount, theme, input.fields);
    else {
      drawGhosts(ctx, card, input.stackCount, theme);
      card.draw(ctx, MARGIN, MARGIN);
    }
    // The pixels are read within the turn; the deflate then runs on the thread pool while the next card is drawn.
    const png = encodePNG(canvas);
    finished();
    return { png: await png, width, height };
  } finally {
    finished();
  }
}

/** A sender's `accentColor` field counts only when it is a hex colour (anything else would leave buttons unpainted). */
function accentOfFields(fields: Record<string, string>): string | undefined {
  const color = fields.accentColor?.trim();
  return color && isValidColor(color, true) ? color : undefined;
}

// ---------------------------------------------------------------------------------------------------------------
// The template's grid

type GridTemplate = Template & { grid: Grid };

/**
 * A version-2 template draws its own grid; a version-1 template draws the built-in layout it names, without the
 * parts its `show*` switches turn off, and with its line limit (docs/api/templates.md#t7).
 */
function withGrid(template: Template, width: number | undefined): GridTemplate {
  let drawn: GridTemplate;
  if (template.grid) drawn = template as GridTemplate;
  else {
    const builtin = builtinTemplate(`builtin.${template.layout}`, template.app)!;
    const cells = builtin.cells.filter((cell) => shownPart(cell, template));
    drawn = { ...template, grid: builtin.grid!, cells, collapseEmpty: true };
  }
  return width === undefined ? drawn : { ...drawn, grid: { ...drawn.grid, width } };
}

// ---------------------------------------------------------------------------------------------------------------
// Pictures and symbols

/** Every picture source the cells bind to, and the app icon. */
async function loadPictures(template: GridTemplate, input: RenderInput, pictures: PictureLoader): Promise<Map<string, Image>> {
  const sources = new Set<string>();
  for (const { component } of template.cells) {
    if (component.type !== 'image') continue;
    const { text, empty } = resolveBinding(component.binding, input.fields);
    if (!empty) sources.add(text);
  }
  if (input.appIcon) sources.add(input.appIcon);
  const loaded = new Map<string, Image>();
  await Promise.all(
    [...sources].map(async (source) => {
      const picture = await pictures(source).catch(() => null);
      if (picture) loaded.set(source, picture);
    }),
  );
  return loaded;
}

/** Symbols drawn so far, by `name|color` (the set is small and fixed; a bound keeps it from growing without end). */
const SYMBOL_CACHE = new Map<string, Promise<Image | null>>();
const SYMBOL_CACHE_SIZE = 512;

async function loadSymbols(template: GridTemplate, theme: Theme, actions: DrawnAction[]): Promise<Map<string, Image>> {
  const loaded = new Map<string, Image>();
  const wanted = neededSymbols(template, theme, [...actions, ...template.actionRules.flatMap((rule) => (rule.add ? [rule.add] : []))]);
  await Promise.all(
    wanted.map(async ({ name, color }) => {
      const key = symbolKey(name, color);
      let pending = SYMBOL_CACHE.get(key);
      if (!pending) {
        if (SYMBOL_CACHE.size >= SYMBOL_CACHE_SIZE) SYMBOL_CACHE.clear();
        // Drawn from SVG at the size it is painted, so symbols stay sharp at every scale.
        pending = symbolSVG(name, { color, size: 48 })
          .then((svg) => (svg ? loadImage(svg) : null))
          .catch(() => null);
        SYMBOL_CACHE.set(key, pending);
      }
      const image = await pending;
      if (image) loaded.set(key, image);
    }),
  );
  return loaded;
}

// ---------------------------------------------------------------------------------------------------------------
// One card

interface Card {
  width: number;
  height: number;
  draw(ctx: CanvasRenderingContext2D, x: number, y: number): void;
}

/** A measuring context: text is measured at scale 1, once per process. */
const MEASURE = createCanvas(1, 1).getContext('2d');

/** Components whose box takes the cell's whole width (the others take their natural width and are aligned). */
const FULL_WIDTH = new Set(['image', 'progress', 'rive', 'actions', 'button', 'spacer']);

function cardOf(scene: Scene, question: Question | undefined): Card {
  const template = scene.template as GridTemplate;
  const grid = template.grid;
  const prepared = new Map<string, Prepared>();
  const items: GridItem[] = template.cells.map((cell) => {
    const component = prepare(cell, scene);
    prepared.set(cell.id, component);
    return {
      id: cell.id,
      row: cell.row,
      col: cell.col,
      rowSpan: cell.rowSpan,
      colSpan: cell.colSpan,
      padding: cell.padding,
      collapsed: collapses(cell, component, scene),
      measureWidth: () => component.measureWidth(),
      measureHeight: (width) => component.measureHeight(width),
    };
  });
  const layout = solveGrid(grid, items, { collapseEmpty: template.collapseEmpty });
  const panel = question ? questionPanel(question, scene, grid.width - grid.padding * 2) : undefined;
  const height = Math.max(layout.height + (panel ? panel.height : 0), CARD_RADIUS * 2);

  return {
    width: grid.width,
    height,
    draw: (ctx, x, y) => {
      drawCardShape(ctx, { x, y, width: grid.width, height }, scene.theme);
      for (const cell of template.cells) {
        const placed = layout.cells.get(cell.id);
        const component = prepared.get(cell.id);
        if (!placed || !component) continue;
        const content = { ...placed.content, x: placed.content.x + x, y: placed.content.y + y };
        const natural = FULL_WIDTH.has(cell.component.type) ? content.width : Math.min(component.measureWidth(), content.width);
        const box = place(content, natural, Math.min(component.measureHeight(natural), content.height), cell.align);
        ctx.save();
        ctx.beginPath();
        ctx.rect(placed.frame.x + x, placed.frame.y + y, placed.frame.width, placed.frame.height);
        ctx.clip();
        component.draw(ctx, box);
        ctx.restore();
      }
      panel?.draw(ctx, x + grid.padding, y + layout.height - grid.padding / 2);
    },
  };
}

/**
 * docs/api/templates.md#t9, the collapse planner: an empty cell is dropped when its `emptyBehavior` (omitted: the
 * template's `collapseEmpty`) says `collapse`; while an inline question shows, `actions` and `button` cells always
 * are.
 */
function collapses(cell: Cell, component: Prepared, scene: Scene): boolean {
  const type = cell.component.type;
  if (scene.questioning && (type === 'actions' || type === 'button')) return true;
  if (!component.empty) return false;
  const behavior = 'emptyBehavior' in cell.component ? cell.component.emptyBehavior : undefined;
  return (behavior ?? (scene.template.collapseEmpty ? 'collapse' : 'keep')) === 'collapse';
}

/** The shadow's rings: how far each reaches beyond the card and how dark it is (a blur costs ~20 ms; rings ~0.3). */
const SHADOW_RINGS = [
  { spread: 6, alpha: 0.1 },
  { spread: 4, alpha: 0.16 },
  { spread: 2, alpha: 0.24 },
  { spread: 1, alpha: 0.34 },
];
const SHADOW_DROP = 2;

function drawCardShape(ctx: CanvasRenderingContext2D, box: Frame, theme: Theme): void {
  ctx.save();
  ctx.fillStyle = theme.shadow;
  for (const { spread, alpha } of SHADOW_RINGS) {
    ctx.globalAlpha = alpha;
    roundRect(
      ctx,
      { x: box.x - spread, y: box.y - spread + SHADOW_DROP, width: box.width + spread * 2, height: box.height + spread * 2 },
      CARD_RADIUS + spread,
    );
    ctx.fill();
  }
  ctx.restore();
  roundRect(ctx, box, CARD_RADIUS);
  ctx.fillStyle = theme.card;
  ctx.fill();
  roundRect(ctx, { x: box.x + 0.5, y: box.y + 0.5, width: box.width - 1, height: box.height - 1 }, CARD_RADIUS);
  ctx.strokeStyle = theme.border;
  ctx.lineWidth = 1;
  ctx.stroke();
}

// ---------------------------------------------------------------------------------------------------------------
// The inline question

/** Lines of the question's title and of each detail line: a command is shown whole up to its limit, not cut. */
const QUESTION_TITLE_LINES = 2;
const QUESTION_CODE_LINES = 4;
const QUESTION_DETAIL_LINES = 2;

function questionPanel(
  question: Question,
  scene: Scene,
  width: number,
): { height: number; draw(ctx: CanvasRenderingContext2D, x: number, y: number): void } {
  const titleSize = 13;
  const titleLine = 18;
  const detailSize = 12;
  const detailLine = 17;
  const titleFont = font(titleSize, true);
  const codeFont = font(detailSize, false, MONO);
  const detailFont = font(detailSize, false);
  // Laid out once with the measuring context (scale 1), drawn as laid out.
  scene.measure.font = titleFont;
  const title = layoutText(scene.measure, runsOf(question.title, false), width, QUESTION_TITLE_LINES);
  const details = question.detail.map((text, index) => {
    const code = question.code && index === 0;
    scene.measure.font = code ? codeFont : detailFont;
    return { code, lines: layoutText(scene.measure, runsOf(text, false), width, code ? QUESTION_CODE_LINES : QUESTION_DETAIL_LINES) };
  });
  const detailCount = details.reduce((sum, detail) => sum + detail.lines.length, 0);
  const height = 12 + title.length * titleLine + 2 + detailCount * detailLine + 10 + QUESTION_BUTTON + 6;
  const text = (ctx: CanvasRenderingContext2D, line: Line, x: number, baseline: number): void => {
    ctx.fillText(line.runs.map((run) => run.text).join(''), x + (line.indent ?? 0), baseline);
  };
  return {
    height,
    draw: (ctx, x, y) => {
      ctx.fillStyle = scene.theme.border;
      ctx.fillRect(x, y, width, 1);
      let top = y + 12;
      ctx.fillStyle = scene.theme.primary;
      ctx.font = titleFont;
      for (const line of title) {
        text(ctx, line, x, top + titleSize);
        top += titleLine;
      }
      top += 2;
      for (const { code, lines } of details) {
        ctx.font = code ? codeFont : detailFont;
        ctx.fillStyle = code ? scene.theme.primary : scene.theme.secondary;
        for (const line of lines) {
          text(ctx, line, x, top + detailSize);
          top += detailLine;
        }
      }
      top += 10;
      // Answers sit at the trailing edge, the first (the one that allows) last, as dialogs do.
      let right = x + width;
      for (const answer of question.answers) {
        ctx.font = font(12, true);
        const buttonWidth = Math.min(width / 2, Math.ceil(measurer(ctx)(answer.label)) + 28);
        right -= buttonWidth;
        const action = { id: answer.label, label: answer.label, kind: 'answer', style: answer.style };
        drawButton(ctx, scene, action, { x: right, y: top, width: buttonWidth, height: QUESTION_BUTTON });
        right -= 8;
      }
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Stacks

/** A closed stack shows the top card with up to two cards peeking out beneath it. */
const ghostCount = (stackCount: number): number => Math.min(MAX_GHOSTS, Math.max(0, stackCount - 1));

function drawGhosts(ctx: CanvasRenderingContext2D, card: Card, stackCount: number, theme: Theme): void {
  for (let depth = ghostCount(stackCount); depth >= 1; depth--) {
    const inset = GHOST_INSET * depth;
    const box = {
      x: MARGIN + inset,
      y: MARGIN + card.height - CARD_RADIUS * 2 + GHOST_STEP * depth,
      width: card.width - inset * 2,
      height: CARD_RADIUS * 2,
    };
    drawCardShape(ctx, box, theme);
    roundRect(ctx, box, CARD_RADIUS);
    ctx.fillStyle = depth === 1 ? theme.fill : theme.fillStrong;
    ctx.fill();
  }
}

const listedCards = (stackCount: number): number => Math.min(MAX_LISTED, stackCount);

function openStackHeight(card: Card, stackCount: number): number {
  const listed = listedCards(stackCount);
  const more = stackCount > listed ? LIST_HEADER : 0;
  return MARGIN * 2 + LIST_HEADER + listed * card.height + (listed - 1) * LIST_GAP + more;
}

const PILL_HEIGHT = 22;
const PILL_PADDING = 10;
/** How much each older card of an open list fades into its own background, and the most it fades. */
const LIST_FADE = 0.1;
const LIST_FADE_MAX = 0.3;

/**
 * An open stack: a header with the app and the count, then the cards as a list (a preview has one notification's
 * data, so each listed card shows it), then how many more the list holds. The header and the "more" line sit in
 * card-coloured pills: the picture is transparent around the cards, and text drawn straight on it would vanish on
 * a desktop of the text's own colour.
 */
function drawOpenStack(ctx: CanvasRenderingContext2D, card: Card, stackCount: number, theme: Theme, fields: Record<string, string>): void {
  const listed = listedCards(stackCount);
  // The longest wording that fits in a little over half the width (narrow cards drop the words, then the count).
  ctx.font = font(12, false);
  const room = card.width * 0.55;
  const wordings = [`${stackCount} notifications · Show less`, `${stackCount} · Show less`, 'Show less'];
  const label = wordings.find((wording) => measurer(ctx)(wording) + PILL_PADDING * 2 <= room) ?? wordings.at(-1)!;
  const labelWidth = Math.min(room, measurer(ctx)(label) + PILL_PADDING * 2);
  drawPill(ctx, label, { x: MARGIN + card.width - labelWidth, y: MARGIN, width: labelWidth }, theme, false);
  const header = `${fields.appName ?? fields.app ?? ''}`.trim();
  if (header) {
    ctx.font = font(12, true);
    const headerWidth = Math.min(card.width - labelWidth - 8, measurer(ctx)(header) + PILL_PADDING * 2);
    drawPill(ctx, header, { x: MARGIN, y: MARGIN, width: headerWidth }, theme, true);
  }
  let y = MARGIN + LIST_HEADER;
  for (let index = 0; index < listed; index++) {
    card.draw(ctx, MARGIN, y);
    // Older cards fade a little, as a list that fades away from the newest; the card itself stays opaque.
    if (index > 0) {
      ctx.save();
      ctx.globalAlpha = Math.min(LIST_FADE_MAX, index * LIST_FADE);
      roundRect(ctx, { x: MARGIN, y, width: card.width, height: card.height }, CARD_RADIUS);
      ctx.fillStyle = theme.card;
      ctx.fill();
      ctx.restore();
    }
    y += card.height + LIST_GAP;
  }
  if (stackCount > listed) {
    const more = `+${stackCount - listed} more`;
    ctx.font = font(12, true);
    const moreWidth = measurer(ctx)(more) + PILL_PADDING * 2;
    drawPill(ctx, more, { x: MARGIN + (card.width - moreWidth) / 2, y, width: moreWidth }, theme, true);
  }
}

function drawPill(
  ctx: CanvasRenderingContext2D,
  text: string,
  at: { x: number; y: number; width: number },
  theme: Theme,
  bold: boolean,
): void {
  const box = { ...at, height: PILL_HEIGHT };
  roundRect(ctx, box, PILL_HEIGHT / 2);
  ctx.fillStyle = theme.card;
  ctx.fill();
  roundRect(ctx, { x: box.x + 0.5, y: box.y + 0.5, width: box.width - 1, height: box.height - 1 }, PILL_HEIGHT / 2);
  ctx.strokeStyle = theme.border;
  ctx.lineWidth = 1;
  ctx.stroke();
  ctx.font = font(12, bold);
  ctx.fillStyle = bold ? theme.primary : theme.secondary;
  const shown = fitText(ctx, text, box.width - PILL_PADDING * 2);
  ctx.fillText(shown, box.x + (box.width - measurer(ctx)(shown)) / 2, box.y + PILL_HEIGHT / 2 + 4.3);
}
