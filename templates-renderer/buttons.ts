// The buttons and actions of a card (docs/api/templates.md#t11, #t32): which actions a component shows, their rows,
// a button drawn, and the reply field drawn in their place while the person replies.

import type { CanvasRenderingContext2D } from 'canvas';
import type { Frame } from './grid.js';
import type { Component } from './model.js';
import { roundRect } from './paint.js';
import { type DrawnAction, type Prepared, type Scene, symbolKey } from './scene.js';
import { fitText, measurer } from './text.js';
import { font } from './theme.js';

const BUTTON_HEIGHT = 26;
const BUTTON_PADDING = 12;
const BUTTON_FONT = 12;
const SYMBOL_IN_BUTTON = 14;

/**
 * The actions a component shows (docs/api/templates.md#t11): the notification's (`issuer`), the template's own
 * (`template`: actionRules `add`), or both (`merged`, the default), after the template's action rules, filtered
 * by `include`. A `button` component shows one: its inline action, or the action its id names.
 */
export function actionsFor(component: Extract<Component, { type: 'button' | 'actions' }>, scene: Scene): DrawnAction[] {
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

export function buttons(
  actions: DrawnAction[],
  layout: string,
  spacing: number,
  scene: Scene,
  hidden: boolean,
  maxVisible?: number,
): Prepared {
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
export function fitLabel(ctx: CanvasRenderingContext2D, label: string, width: number): string {
  return fitText(ctx, label.length > 40 ? `${label.slice(0, 39)}…` : label, width);
}

export function replyField(scene: Scene): Prepared {
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
