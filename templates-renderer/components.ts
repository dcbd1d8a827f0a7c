// The components of a card (docs/api/templates.md#t13): each made ready to measure and draw from the scene. The
// buttons and actions are buttons.ts's; the drawing helpers paint.ts's.

import type { CanvasRenderingContext2D, Image } from 'canvas';
import { resolveBinding } from '../protocol/fields.js';
import { actionsFor, buttons, fitLabel, replyField } from './buttons.js';
import type { Cell, Component, ComponentType, Template } from './model.js';
import { alignedX, drawPicture, place, roundRect } from './paint.js';
import { type DrawnAction, type Prepared, type Scene, symbolKey } from './scene.js';
import { measurer, runsOf, setText } from './text.js';
import { DEFAULT_MAX_LINES, LINE_HEIGHT, MONO, TEXT_STYLE, type Theme, colorOf, font } from './theme.js';

const BADGE_HEIGHT = 20;
/** How far the fill behind code reaches past its text at each side, and stays inside the line among words (points). */
const CODE_FILL_OUTSET = 2;
const CODE_FILL_INSET = 1.5;

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

type ComponentOf<T extends ComponentType> = Extract<Component, { type: T }>;
/** What makes a component of one type ready to measure and draw. */
type Preparer<T extends ComponentType> = (component: ComponentOf<T>, scene: Scene) => Prepared;

/** Each type of component and what prepares it: its own function below, or buttons.ts's. */
const PREPARERS: { [T in ComponentType]: Preparer<T> } = {
  text,
  image,
  issuerIcon,
  timestamp,
  button: (component, scene) => buttons(actionsFor(component, scene), 'row', 6, scene, scene.questioning),
  actions: (component, scene) =>
    scene.replying
      ? replyField(scene)
      : buttons(actionsFor(component, scene), component.layout, component.spacing, scene, scene.questioning, component.maxVisible),
  iconButton: (component, scene) =>
    symbolBox(component.symbol, component.size ?? 28, colorOf(component.color, scene.theme, scene.theme.primary), scene, true),
  badge,
  stackBadge,
  progress,
  rive,
  symbol: (component, scene) =>
    symbolBox(component.name, component.size, colorOf(component.color, scene.theme, scene.theme.primary), scene, false),
  spacer: () => ({ empty: false, measureWidth: () => 0, measureHeight: () => 0, draw: () => undefined }),
};

export function prepare(cell: Cell, scene: Scene): Prepared {
  // The entry looked up takes exactly this component's type: a pairing TypeScript cannot follow through the lookup.
  return PREPARERS[cell.component.type](cell.component as never, scene);
}

// ---------------------------------------------------------------------------------------------------------------

function text(component: ComponentOf<'text'>, scene: Scene): Prepared {
  const { text: value, empty } = resolveBinding(component.binding, scene.fields);
  const style = TEXT_STYLE[component.style];
  const size = component.fontSize ?? style.size;
  const bold = component.weight ? component.weight === 'bold' || component.weight === 'semibold' : style.bold;
  const family = component.style === 'mono' ? MONO : style.family;
  const limit = DEFAULT_MAX_LINES[component.style];
  const maxLines = component.maxLines ?? (limit === 'body' ? scene.template.maxBodyLines : limit);
  const markdown = component.markdown ?? component.style === 'body';
  const runs = runsOf(value, markdown);
  // Bold, italic and code runs of the body's Markdown (docs/api/notifications.md#n46) in their own font, measured
  // and drawn; code in the monospace face.
  const fontFor = (run: { bold?: boolean; italic?: boolean; code?: boolean }): string =>
    font(size, bold || run.bold === true, run.code ? MONO : family, run.italic === true);
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
        let x = frame.x + offset + (line.indent ?? 0);
        const y = frame.y + index * lineHeight + size * 1.02;
        // Code on the quieter fill, a little wider than its text; a line of code alone a whole line tall, so that
        // a code block's lines make one box, and code among words a little less, clear of the lines around it.
        const codeOnly = line.runs.every((run) => run.code);
        for (const run of line.runs) {
          if (run.code) {
            const inset = codeOnly ? 0 : CODE_FILL_INSET;
            ctx.fillStyle = scene.theme.fill;
            ctx.fillRect(
              x - CODE_FILL_OUTSET,
              frame.y + index * lineHeight + inset,
              run.width + 2 * CODE_FILL_OUTSET,
              lineHeight - 2 * inset,
            );
          }
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

function image(component: ComponentOf<'image'>, scene: Scene): Prepared {
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

function issuerIcon(component: ComponentOf<'issuerIcon'>, scene: Scene): Prepared {
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

function timestamp(component: ComponentOf<'timestamp'>, scene: Scene): Prepared {
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

function badge(component: ComponentOf<'badge'>, scene: Scene): Prepared {
  const { text: label, empty } = resolveBinding(component.binding, scene.fields);
  const textColor = colorOf(component.textColor, scene.theme, scene.theme.onAccent);
  const symbol = component.symbol ? scene.symbols.get(symbolKey(component.symbol, textColor)) : undefined;
  return capsule(label, empty, colorOf(component.color, scene.theme, scene.theme.accent), textColor, symbol, scene);
}

function stackBadge(component: ComponentOf<'stackBadge'>, scene: Scene): Prepared {
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

function progress(component: ComponentOf<'progress'>, scene: Scene): Prepared {
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
function rive(component: ComponentOf<'rive'>, scene: Scene): Prepared {
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
