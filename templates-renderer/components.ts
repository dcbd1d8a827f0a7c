import type { CanvasRenderingContext2D, Image } from 'canvas';
import { resolveBinding } from '../protocol/fields.js';
import type { Frame } from './grid.js';
import type { Alignment, Cell, Component, Template } from './model.js';
import { fitText, measurer, runsOf, setText } from './text.js';
import { DEFAULT_MAX_LINES, LINE_HEIGHT, MONO, TEXT_STYLE, type Theme, colorOf, font } from './theme.js';

/** An action as a banner shows it (a button of the notification, or one the template adds). */
export interface DrawnAction {
  id: string;
  label: string;
  kind: string;
  style?: string;
  symbol?: string;
}

/** What the components read: the resolved fields, the actions, pictures already loaded, the clock. */
export interface Scene {
  template: Template;
  theme: Theme;
  fields: Record<string, string>;
  actions: DrawnAction[];
  /** Loaded pictures by their source (the image binding's value, the app icon). */
  images: Map<string, Image>;
  /** Loaded symbols by `name|color`. */
  symbols: Map<string, Image>;
  appIcon?: string;
  stackCount: number;
  /** The reply field is drawn where the actions are. */
  replying: boolean;
  replySample?: string;
  /** An inline question shows: buttons and actions collapse. */
  questioning: boolean;
  now: Date;
  timeZone?: string;
  /** A measuring context (scale 1). */
  measure: CanvasRenderingContext2D;
}

/** A component ready to lay out and draw. */
export interface Prepared {
  empty: boolean;
  measureWidth(): number;
  measureHeight(width: number): number;
  draw(ctx: CanvasRenderingContext2D, frame: Frame): void;
}

const BUTTON_HEIGHT = 26;
const BUTTON_PADDING = 12;
const BUTTON_FONT = 12;
const BADGE_HEIGHT = 20;
const SYMBOL_IN_BUTTON = 14;

export const symbolKey = (name: string, color: string): string => `${name}|${color}`;

/** The symbols and pictures a template needs before it can be drawn (they load asynchronously). */
export function neededSymbols(template: Template, theme: Theme, actions: DrawnAction[]): Array<{ name: string; color: string }> {
  const wanted: Array<{ name: string; color: string }> = [];
  for (const { component } of template.cells) {
    if (component.type === 'symbol') wanted.push({ name: component.name, color: colorOf(component.color, theme, theme.primary) });
    if (component.type === 'iconButton') wanted.push({ name: component.symbol, color: colorOf(component.color, theme, theme.primary) });
    if (component.type === 'badge' && component.symbol)
      wanted.push({ name: component.symbol, color: colorOf(component.textColor, theme, theme.onAccent) });
    if (component.type === 'issuerIcon' && component.symbol) wanted.push({ name: component.symbol, color: theme.onAccent });
  }
  for (const action of actions) if (action.symbol) wanted.push({ name: action.symbol, color: theme.primary });
  return wanted;
}

export function prepare(cell: Cell, scene: Scene): Prepared {
  const component = cell.component;
  switch (component.type) {
    case 'text':
      return text(component, scene);
    case 'image':
      return image(component, scene);
    case 'issuerIcon':
      return issuerIcon(component, scene);
    case 'timestamp':
      return timestamp(component, scene);
    case 'button':
      return buttons(actionsFor(component, scene), 'row', 6, scene, scene.questioning);
    case 'actions':
      if (scene.replying) return replyField(scene);
      return buttons(actionsFor(component, scene), component.layout, component.spacing, scene, scene.questioning, component.maxVisible);
    case 'iconButton':
      return symbolBox(component.symbol, component.size ?? 28, colorOf(component.color, scene.theme, scene.theme.primary), scene, true);
    case 'badge':
      return badge(component, scene);
    case 'stackBadge':
      return stackBadge(component, scene);
    case 'progress':
      return progress(component, scene);
    case 'rive':
      return rive(component, scene);
    case 'symbol':
      return symbolBox(component.name, component.size, colorOf(component.color, scene.theme, scene.theme.primary), scene, false);
    case 'spacer':
      return { empty: false, measureWidth: () => 0, measureHeight: () => 0, draw: () => undefined };
  }
}

// ---------------------------------------------------------------------------------------------------------------

function text(component: Extract<Component, { type: 'text' }>, scene: Scene): Prepared {
  const { text: value, empty } = resolveBinding(component.binding, scene.fields);
  const style = TEXT_STYLE[component.style];
  const size = component.fontSize ?? style.size;
  const bold = component.weight ? component.weight === 'bold' || component.weight === 'semibold' : style.bold;
  const family = component.style === 'mono' ? MONO : style.family;
  const limit = DEFAULT_MAX_LINES[component.style];
  const maxLines = component.maxLines ?? (limit === 'body' ? scene.template.maxBodyLines : limit);
  const markdown = component.markdown ?? component.style === 'body';
  const runs = runsOf(value, markdown);
  // Bold and italic runs of the body's Markdown (docs/api/notifications.md#n46) in their own font, measured and drawn.
  const fontFor = (run: { bold?: boolean; italic?: boolean }): string => font(size, bold || run.bold === true, family, run.italic === true);
  const lineHeight = size * LINE_HEIGHT + (component.lineSpacing ?? 0);
  const color = colorOf(component.color, scene.theme, style.secondary ? scene.theme.secondary : scene.theme.primary);
  const { naturalWidth, lines } = setText(scene.measure, runs, maxLines, fontFor);
  return {
    empty,
    measureWidth: naturalWidth,
    measureHeight: (width) => (empty ? 0 : Math.ceil(lines(width).length * lineHeight)),
    draw: (ctx, frame) => {
      ctx.textBaseline = 'alphabetic';
      lines(frame.width).forEach((line, index) => {
        const offset =
          component.alignment === 'center'
            ? (frame.width - line.width) / 2
            : component.alignment === 'trailing'
              ? frame.width - line.width
              : 0;
        let x = frame.x + offset;
        const y = frame.y + index * lineHeight + size * 1.02;
        for (const run of line.runs) {
          ctx.font = fontFor(run);
          ctx.fillStyle = run.link ? scene.theme.accent : color;
          ctx.fillText(run.text, x, y);
          if (run.link) ctx.fillRect(x, y + 2, run.width, 1);
          x += run.width;
        }
      });
    },
  };
}

function image(component: Extract<Component, { type: 'image' }>, scene: Scene): Prepared {
  const { text: source, empty: unbound } = resolveBinding(component.binding, scene.fields);
  const picture = unbound ? undefined : scene.images.get(source);
  const heightFor = (width: number): number =>
    component.height ??
    (component.aspectRatio
      ? width / component.aspectRatio
      : picture && component.fit !== 'cover'
        ? (width * picture.height) / picture.width
        : width);
  return {
    empty: !picture,
    measureWidth: () => component.height ?? 64,
    measureHeight: (width) => (picture ? Math.round(heightFor(width)) : 0),
    draw: (ctx, frame) => {
      if (!picture) return;
      const height = Math.min(frame.height, heightFor(frame.width));
      drawPicture(ctx, picture, { ...frame, height }, component.fit, component.cornerRadius);
    },
  };
}

function issuerIcon(component: Extract<Component, { type: 'issuerIcon' }>, scene: Scene): Prepared {
  const size = component.size;
  const radius = component.shape === 'circle' ? size / 2 : (component.cornerRadius ?? size * 0.22);
  const picture = scene.appIcon ? scene.images.get(scene.appIcon) : undefined;
  const symbol = component.symbol ? scene.symbols.get(symbolKey(component.symbol, scene.theme.onAccent)) : undefined;
  return {
    empty: false,
    measureWidth: () => size,
    measureHeight: () => size,
    draw: (ctx, frame) => {
      const box = place(frame, size, size, 'leading');
      if (picture) return drawPicture(ctx, picture, box, 'cover', radius);
      roundRect(ctx, box, radius);
      ctx.fillStyle = scene.theme.accent;
      ctx.fill();
      if (symbol) return ctx.drawImage(symbol, box.x + size * 0.2, box.y + size * 0.2, size * 0.6, size * 0.6);
      const initial = initialOf(scene.fields.appName ?? scene.fields.app ?? '');
      ctx.fillStyle = scene.theme.onAccent;
      ctx.font = font(Math.round(size * 0.55), true);
      ctx.textAlign = 'center';
      ctx.fillText(initial, box.x + size / 2, box.y + size * 0.72);
      ctx.textAlign = 'left';
    },
  };
}

/**
 * The app's initial: its first character (a whole code point, so an emoji or a letter outside the BMP stays
 * whole), in upper case unless that makes more than one letter ("ß" would become "SS").
 */
export function initialOf(name: string): string {
  const first = Array.from(name.trim())[0];
  if (!first) return '?';
  const upper = first.toUpperCase();
  return Array.from(upper).length === 1 ? upper : first;
}

function timestamp(component: Extract<Component, { type: 'timestamp' }>, scene: Scene): Prepared {
  const raw = component.binding ? resolveBinding(component.binding, scene.fields).text : scene.fields.deliveredAt;
  const when = parseTime(raw);
  const label = when ? (component.relative ? relative(when, scene.now) : clock(when, scene.timeZone)) : '';
  const style = TEXT_STYLE[component.style];
  const size = component.fontSize ?? style.size;
  const color = colorOf(component.color, scene.theme, scene.theme.secondary);
  return {
    empty: label === '',
    measureWidth: () => {
      scene.measure.font = font(size, style.bold);
      return Math.ceil(measurer(scene.measure)(label));
    },
    measureHeight: () => Math.ceil(size * LINE_HEIGHT),
    draw: (ctx, frame) => {
      ctx.font = font(size, style.bold);
      ctx.fillStyle = color;
      const width = measurer(ctx)(label);
      ctx.fillText(label, alignedX(frame, width, 'leading'), frame.y + size * 1.02);
    },
  };
}

/** ISO 8601, or epoch seconds (milliseconds above 1e11). */
export function parseTime(value: string | undefined): Date | null {
  if (!value) return null;
  if (/^\d+(\.\d+)?$/.test(value)) {
    const number = Number(value);
    return new Date(number > 1e11 ? number : number * 1000);
  }
  const parsed = Date.parse(value);
  return Number.isNaN(parsed) ? null : new Date(parsed);
}

function relative(when: Date, now: Date): string {
  const seconds = Math.max(0, (now.getTime() - when.getTime()) / 1000);
  if (seconds < 60) return 'now';
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h ago`;
  return `${Math.floor(seconds / 86_400)} d ago`;
}

/** Formatters by time zone (making one costs more than drawing the card's text). */
const CLOCKS = new Map<string, Intl.DateTimeFormat>();

function clock(when: Date, timeZone?: string): string {
  const key = timeZone ?? '';
  let format = CLOCKS.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', ...(timeZone ? { timeZone } : {}) });
    CLOCKS.set(key, format);
  }
  return format.format(when);
}

// ---------------------------------------------------------------------------------------------------------------
// Buttons and actions

/**
 * The actions a component shows (docs/api/templates.md#t11): the notification's (`issuer`), the template's own
 * (`template`: actionRules `add`), or both (`merged`, the default), after the template's action rules, filtered
 * by `include`. A `button` component shows one: its inline action, or the action its id names.
 */
function actionsFor(component: Extract<Component, { type: 'button' | 'actions' }>, scene: Scene): DrawnAction[] {
  const issuer = scene.actions;
  const added = scene.template.actionRules.flatMap((rule) => (rule.add ? [toDrawn(rule.add)] : []));
  if (component.type === 'button') {
    const wanted = component.actionRef ?? (typeof component.action === 'string' ? component.action : undefined);
    if (component.action && typeof component.action === 'object') return [toDrawn(component.action)];
    const found = [...issuer, ...added].find((action) => sameAction(action, wanted ?? ''));
    return found ? [found] : [];
  }
  const chosen = component.source === 'issuer' ? issuer : component.source === 'template' ? added : mergeById(issuer, added);
  return component.include ? chosen.filter((action) => component.include!.some((id) => sameAction(action, id))) : chosen;
}

const toDrawn = (action: { id: string; label: string; kind: string; style?: string; symbol?: string }): DrawnAction => ({
  id: action.id,
  label: action.label,
  kind: action.kind,
  ...(action.style ? { style: action.style } : {}),
  ...(action.symbol ? { symbol: action.symbol } : {}),
});

const sameAction = (action: DrawnAction, wanted: string): boolean =>
  action.id.toLowerCase() === wanted.toLowerCase() || action.label.toLowerCase() === wanted.toLowerCase();

function mergeById(first: DrawnAction[], second: DrawnAction[]): DrawnAction[] {
  const merged = [...first];
  for (const action of second) {
    const at = merged.findIndex((existing) => existing.id === action.id);
    if (at >= 0) merged[at] = action;
    else merged.push(action);
  }
  return merged;
}

function buttonWidth(ctx: CanvasRenderingContext2D, action: DrawnAction): number {
  ctx.font = font(BUTTON_FONT, true);
  return Math.ceil(measurer(ctx)(action.label) + BUTTON_PADDING * 2 + (action.symbol ? SYMBOL_IN_BUTTON + 4 : 0));
}

/** Rows of buttons: one row (`row`, labels cut to fit), flowing rows (`wrap`), or one per row (`stack`). */
function buttonRows(
  ctx: CanvasRenderingContext2D,
  actions: DrawnAction[],
  layout: string,
  spacing: number,
  width: number,
): Array<Array<{ action: DrawnAction; width: number }>> {
  const sized = actions.map((action) => ({ action, width: Math.min(buttonWidth(ctx, action), width) }));
  if (layout === 'stack') return sized.map((button) => [{ ...button, width }]);
  if (layout === 'row') {
    const total = sized.reduce((sum, button) => sum + button.width, 0) + spacing * Math.max(0, sized.length - 1);
    const shrink =
      total > width ? (width - spacing * Math.max(0, sized.length - 1)) / Math.max(1, total - spacing * Math.max(0, sized.length - 1)) : 1;
    return sized.length ? [sized.map((button) => ({ ...button, width: Math.floor(button.width * shrink) }))] : [];
  }
  const rows: Array<Array<{ action: DrawnAction; width: number }>> = [];
  let row: Array<{ action: DrawnAction; width: number }> = [];
  let used = 0;
  for (const button of sized) {
    if (row.length > 0 && used + spacing + button.width > width) {
      rows.push(row);
      row = [];
      used = 0;
    }
    used += (row.length ? spacing : 0) + button.width;
    row.push(button);
  }
  if (row.length) rows.push(row);
  return rows;
}

function buttons(actions: DrawnAction[], layout: string, spacing: number, scene: Scene, hidden: boolean, maxVisible?: number): Prepared {
  const visible =
    maxVisible !== undefined && actions.length > maxVisible
      ? [...actions.slice(0, maxVisible), { id: 'more', label: `+${actions.length - maxVisible}`, kind: 'more' }]
      : actions;
  const empty = hidden || visible.length === 0;
  const height = (width: number): number => {
    const rows = buttonRows(scene.measure, visible, layout, spacing, width).length;
    return rows ? rows * BUTTON_HEIGHT + (rows - 1) * spacing : 0;
  };
  return {
    empty,
    measureWidth: () =>
      visible.reduce((sum, action) => sum + buttonWidth(scene.measure, action), 0) + spacing * Math.max(0, visible.length - 1),
    measureHeight: (width) => (empty ? 0 : height(width)),
    draw: (ctx, frame) => {
      if (empty) return;
      buttonRows(ctx, visible, layout, spacing, frame.width).forEach((row, index) => {
        let x = frame.x;
        const y = frame.y + index * (BUTTON_HEIGHT + spacing);
        for (const { action, width } of row) {
          drawButton(ctx, scene, action, { x, y, width, height: BUTTON_HEIGHT });
          x += width + spacing;
        }
      });
    },
  };
}

export function drawButton(ctx: CanvasRenderingContext2D, scene: Scene, action: DrawnAction, box: Frame): void {
  const { theme } = scene;
  const prominent = action.style === 'prominent';
  roundRect(ctx, box, box.height / 2);
  ctx.fillStyle = prominent ? theme.accent : theme.fill;
  ctx.fill();
  ctx.font = font(BUTTON_FONT, true);
  ctx.fillStyle = prominent
    ? theme.onAccent
    : action.style === 'destructive'
      ? theme.danger
      : action.style === 'cancel'
        ? theme.secondary
        : theme.primary;
  const symbol = action.symbol ? scene.symbols.get(symbolKey(action.symbol, theme.primary)) : undefined;
  const label = fitLabel(ctx, action.label, box.width - BUTTON_PADDING * 2 - (symbol ? SYMBOL_IN_BUTTON + 4 : 0));
  const width = measurer(ctx)(label) + (symbol ? SYMBOL_IN_BUTTON + 4 : 0);
  let x = box.x + (box.width - width) / 2;
  if (symbol) {
    ctx.drawImage(symbol, x, box.y + (box.height - SYMBOL_IN_BUTTON) / 2, SYMBOL_IN_BUTTON, SYMBOL_IN_BUTTON);
    x += SYMBOL_IN_BUTTON + 4;
  }
  ctx.fillText(label, x, box.y + box.height / 2 + BUTTON_FONT * 0.36);
}

/** docs/api/templates.md#t32: a label over 40 characters keeps its first 39 and an ellipsis, then is cut to fit. */
function fitLabel(ctx: CanvasRenderingContext2D, label: string, width: number): string {
  return fitText(ctx, label.length > 40 ? `${label.slice(0, 39)}…` : label, width);
}

function replyField(scene: Scene): Prepared {
  const height = 30;
  return {
    empty: false,
    measureWidth: () => 200,
    measureHeight: () => height,
    draw: (ctx, frame) => {
      const send = 30;
      const field = { x: frame.x, y: frame.y, width: frame.width - send - 6, height };
      roundRect(ctx, field, height / 2);
      ctx.fillStyle = scene.theme.fill;
      ctx.fill();
      ctx.strokeStyle = scene.theme.accent;
      ctx.lineWidth = 1.5;
      ctx.stroke();
      ctx.font = font(12, false);
      ctx.fillStyle = scene.replySample ? scene.theme.primary : scene.theme.secondary;
      ctx.fillText(fitLabel(ctx, scene.replySample || 'Reply…', field.width - 24), field.x + 12, field.y + height / 2 + 4.5);
      const button = { x: frame.x + frame.width - send, y: frame.y, width: send, height };
      roundRect(ctx, button, send / 2);
      ctx.fillStyle = scene.theme.accent;
      ctx.fill();
      ctx.strokeStyle = scene.theme.onAccent;
      ctx.lineWidth = 2;
      ctx.beginPath(); // an arrow pointing up: send
      ctx.moveTo(button.x + send / 2, button.y + 8);
      ctx.lineTo(button.x + send / 2, button.y + height - 8);
      ctx.moveTo(button.x + send / 2 - 5, button.y + 13);
      ctx.lineTo(button.x + send / 2, button.y + 8);
      ctx.lineTo(button.x + send / 2 + 5, button.y + 13);
      ctx.stroke();
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------

function badge(component: Extract<Component, { type: 'badge' }>, scene: Scene): Prepared {
  const { text: label, empty } = resolveBinding(component.binding, scene.fields);
  const textColor = colorOf(component.textColor, scene.theme, scene.theme.onAccent);
  const symbol = component.symbol ? scene.symbols.get(symbolKey(component.symbol, textColor)) : undefined;
  return capsule(label, empty, colorOf(component.color, scene.theme, scene.theme.accent), textColor, symbol, scene);
}

function stackBadge(component: Extract<Component, { type: 'stackBadge' }>, scene: Scene): Prepared {
  const count = scene.stackCount;
  return capsule(
    String(count),
    count < 2,
    colorOf(component.color, scene.theme, scene.theme.accent),
    colorOf(component.textColor, scene.theme, scene.theme.onAccent),
    undefined,
    scene,
  );
}

function capsule(label: string, empty: boolean, color: string, textColor: string, symbol: Image | undefined, scene: Scene): Prepared {
  const width = (ctx: CanvasRenderingContext2D): number => {
    ctx.font = font(11, true);
    return Math.ceil(measurer(ctx)(label) + 16 + (symbol ? 16 : 0));
  };
  return {
    empty,
    measureWidth: () => width(scene.measure),
    measureHeight: () => (empty ? 0 : BADGE_HEIGHT),
    draw: (ctx, frame) => {
      if (empty) return;
      const box = { x: frame.x, y: frame.y, width: Math.min(width(ctx), frame.width), height: BADGE_HEIGHT };
      roundRect(ctx, box, BADGE_HEIGHT / 2);
      ctx.fillStyle = color;
      ctx.fill();
      let x = box.x + 8;
      if (symbol) {
        ctx.drawImage(symbol, x, box.y + 3, 14, 14);
        x += 16;
      }
      ctx.font = font(11, true);
      ctx.fillStyle = textColor;
      ctx.fillText(fitLabel(ctx, label, box.width - 16), x, box.y + 14);
    },
  };
}

function progress(component: Extract<Component, { type: 'progress' }>, scene: Scene): Prepared {
  const value = fractionOf(resolveBinding(component.binding, scene.fields).text);
  return {
    empty: value === null,
    measureWidth: () => 80,
    measureHeight: () => (value === null ? 0 : component.height),
    draw: (ctx, frame) => {
      if (value === null) return;
      const track = { x: frame.x, y: frame.y, width: frame.width, height: component.height };
      roundRect(ctx, track, component.height / 2);
      ctx.fillStyle = scene.theme.fillStrong;
      ctx.fill();
      if (value <= 0) return;
      roundRect(ctx, { ...track, width: Math.max(component.height, frame.width * value) }, component.height / 2);
      ctx.fillStyle = colorOf(component.color, scene.theme, scene.theme.accent);
      ctx.fill();
    },
  };
}

/**
 * docs/api/templates.md#t33 (the `progress` value): a value up to 1 is a fraction; above 1, or "40%", a percentage;
 * clamped to 0-1. Null for anything that is not a decimal number.
 */
export function fractionOf(text: string): number | null {
  const match = /^\s*(-?\d+(?:\.\d+)?)\s*(%?)\s*$/.exec(text);
  if (!match) return null;
  const number = Number(match[1]);
  const fraction = match[2] === '%' || number > 1 ? number / 100 : number;
  return Math.min(1, Math.max(0, fraction));
}

/** Rive cannot draw here (no runtime): a labelled placeholder where the animation would be. */
function rive(component: Extract<Component, { type: 'rive' }>, scene: Scene): Prepared {
  const label = `Rive: ${component.asset ?? (component.path ?? '').split('/').pop()}`;
  const heightFor = (width: number): number => component.height ?? (component.aspectRatio ? width / component.aspectRatio : 60);
  return {
    empty: false,
    measureWidth: () => 80,
    measureHeight: (width) => Math.round(heightFor(width)),
    draw: (ctx, frame) => {
      const box = { ...frame, height: Math.min(frame.height, heightFor(frame.width)) };
      roundRect(ctx, box, 8);
      ctx.fillStyle = scene.theme.fill;
      ctx.fill();
      ctx.setLineDash([4, 3]);
      ctx.strokeStyle = scene.theme.secondary;
      ctx.lineWidth = 1;
      ctx.stroke();
      ctx.setLineDash([]);
      ctx.font = font(11, true);
      ctx.fillStyle = scene.theme.secondary;
      const text = fitLabel(ctx, label, box.width - 12);
      ctx.fillText(text, box.x + (box.width - measurer(ctx)(text)) / 2, box.y + box.height / 2 + 4);
    },
  };
}

function symbolBox(name: string, size: number, color: string, scene: Scene, button: boolean): Prepared {
  const symbol = scene.symbols.get(symbolKey(name, color));
  return {
    empty: !symbol,
    measureWidth: () => size,
    measureHeight: () => (symbol ? size : 0),
    draw: (ctx, frame) => {
      if (!symbol) return;
      const box = place(frame, size, size, 'leading');
      if (button) {
        roundRect(ctx, box, size / 2);
        ctx.fillStyle = scene.theme.fill;
        ctx.fill();
        ctx.drawImage(symbol, box.x + size * 0.2, box.y + size * 0.2, size * 0.6, size * 0.6);
      } else {
        ctx.drawImage(symbol, box.x, box.y, size, size);
      }
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Drawing helpers

export function roundRect(ctx: CanvasRenderingContext2D, box: Frame, radius: number): void {
  const r = Math.max(0, Math.min(radius, box.width / 2, box.height / 2));
  ctx.beginPath();
  ctx.moveTo(box.x + r, box.y);
  ctx.arcTo(box.x + box.width, box.y, box.x + box.width, box.y + box.height, r);
  ctx.arcTo(box.x + box.width, box.y + box.height, box.x, box.y + box.height, r);
  ctx.arcTo(box.x, box.y + box.height, box.x, box.y, r);
  ctx.arcTo(box.x, box.y, box.x + box.width, box.y, r);
  ctx.closePath();
}

/** A picture in a box: `cover` fills it (cropping), `fit` shows all of it, `fill` stretches it. */
function drawPicture(ctx: CanvasRenderingContext2D, picture: Image, box: Frame, fit: 'fit' | 'fill' | 'cover', radius: number): void {
  ctx.save();
  roundRect(ctx, box, radius);
  ctx.clip();
  if (fit === 'fill') ctx.drawImage(picture, box.x, box.y, box.width, box.height);
  else {
    const scale =
      fit === 'cover'
        ? Math.max(box.width / picture.width, box.height / picture.height)
        : Math.min(box.width / picture.width, box.height / picture.height);
    const width = picture.width * scale;
    const height = picture.height * scale;
    ctx.drawImage(picture, box.x + (box.width - width) / 2, box.y + (box.height - height) / 2, width, height);
  }
  ctx.restore();
}

/** A box of a given size placed in a frame by an alignment. */
export function place(frame: Frame, width: number, height: number, align: Alignment | 'leading'): Frame {
  const horizontal = /Leading$|^leading$/.test(align) ? 0 : /Trailing$|^trailing$/.test(align) ? 1 : 0.5;
  const vertical = /^top/.test(align)
    ? 0
    : /^bottom/.test(align)
      ? 1
      : align === 'leading' || align === 'trailing' || align === 'center'
        ? 0.5
        : 0;
  return {
    x: frame.x + (frame.width - Math.min(width, frame.width)) * horizontal,
    y: frame.y + (frame.height - Math.min(height, frame.height)) * vertical,
    width: Math.min(width, frame.width),
    height: Math.min(height, frame.height),
  };
}

function alignedX(frame: Frame, width: number, align: 'leading' | 'center' | 'trailing'): number {
  return align === 'center' ? frame.x + (frame.width - width) / 2 : align === 'trailing' ? frame.x + frame.width - width : frame.x;
}
