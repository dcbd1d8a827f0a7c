// The template model (docs/api/templates.md#the-template-object; every property, default and range is in the
// component schema, docs/api/templates.md#get-v1-components). These are the shapes after validation
// (templates-renderer/validate.ts): defaults written out, sizes as numbers. The validator, the `GET /v1/components`
// document, the grid solver and the drawing all work from these.

import type { Button, FollowUp, Layout, Notification } from '../protocol/types.js';

/** A track size: sized by its content, sharing the space left, or fixed in points (0-4000). */
export type Size = 'auto' | 'fill' | number;

export interface Grid {
  /** 1-12; default: the number of rowSizes, else 3. */
  rows: number;
  /** 1-12; default: the number of colSizes, else 4. */
  cols: number;
  /** One per row; default all `auto`. */
  rowSizes: Size[];
  /** One per column; default all `fill`. */
  colSizes: Size[];
  /** 0-64, default 8. */
  gap: number;
  /** 0-64, default 14. */
  padding: number;
  /** 160-800 points, default 400 (live banners are drawn 380 wide). */
  width: number;
}

export const ALIGNMENTS = [
  'topLeading',
  'top',
  'topTrailing',
  'leading',
  'center',
  'trailing',
  'bottomLeading',
  'bottom',
  'bottomTrailing',
] as const;
export type Alignment = (typeof ALIGNMENTS)[number];

/** `collapse` drops an empty cell; `keep` keeps its space. Omitted: the template's `collapseEmpty`. */
export type EmptyBehavior = 'collapse' | 'keep';

/** `#RGB`, `#RGBA`, `#RRGGBB`, `#RRGGBBAA`, or a role: `accent`, `primary`, `secondary`. */
export type Color = string;

export const TEXT_STYLES = ['title', 'subtitle', 'body', 'caption', 'mono'] as const;
export type TextStyle = (typeof TEXT_STYLES)[number];

/** An action written in a template (docs/api/templates.md#t11). */
export interface TemplateAction extends Button {
  id: string;
  kind: string;
  snoozeMinutes?: number;
  symbol?: string;
}

export interface TextComponent {
  type: 'text';
  /** Required, not blank: text with `{tokens}`, e.g. `{title}`. */
  binding: string;
  /** Default `body`. */
  style: TextStyle;
  /** At least 1; default by style: title 2, subtitle 2, body = maxBodyLines (8), caption 1, mono 4. */
  maxLines?: number;
  color?: Color;
  /** 6-72. */
  fontSize?: number;
  weight?: 'regular' | 'medium' | 'semibold' | 'bold';
  alignment?: 'leading' | 'center' | 'trailing';
  /** Markdown links drawn as links; default true for the body style. */
  markdown?: boolean;
  emptyBehavior?: EmptyBehavior;
  lineSpacing?: number;
}

export interface ImageComponent {
  type: 'image';
  /** Default `{image}`. */
  binding: string;
  /** Default `cover`. */
  fit: 'fit' | 'fill' | 'cover';
  /** At least 0, default 0. */
  cornerRadius: number;
  aspectRatio?: number;
  height?: number;
  emptyBehavior?: EmptyBehavior;
}

export interface IssuerIconComponent {
  type: 'issuerIcon';
  /** 8-128, default 22. */
  size: number;
  shape: 'rounded' | 'circle';
  /** Default 22 % of size. */
  cornerRadius?: number;
  symbol?: string;
}

export interface TimestampComponent {
  type: 'timestamp';
  /** None: the delivery time. ISO 8601 or epoch seconds (above 1e11: milliseconds). */
  binding?: string;
  relative: boolean;
  /** Default `caption`. */
  style: TextStyle;
  color?: Color;
  fontSize?: number;
}

export interface ButtonComponent {
  type: 'button';
  /** An inline action, or the id of one. */
  action?: TemplateAction | string;
  /** Alias `actionId`. */
  actionRef?: string;
  style?: string;
  symbol?: string;
}

export interface ActionsComponent {
  type: 'actions';
  /** Default `merged`. */
  source: 'issuer' | 'template' | 'merged';
  /** Default `wrap`. */
  layout: 'row' | 'wrap' | 'stack';
  maxVisible?: number;
  include?: string[];
  /** 0-64. */
  spacing: number;
  align?: 'leading' | 'center' | 'trailing' | 'spaceBetween';
  symbol?: string;
}

export interface IconButtonComponent {
  type: 'iconButton';
  symbol: string;
  size?: number;
  color?: Color;
  action?: TemplateAction | string;
  actionRef?: string;
}

export interface BadgeComponent {
  type: 'badge';
  binding: string;
  /** Default `accent`. */
  color?: Color;
  textColor?: Color;
  symbol?: string;
}

export interface StackBadgeComponent {
  type: 'stackBadge';
  color?: Color;
  textColor?: Color;
}

export interface ProgressComponent {
  type: 'progress';
  /** A value up to 1 is a fraction; above 1, or "40%", a percentage; clamped. */
  binding: string;
  color?: Color;
  /** Above 0, default 4. */
  height: number;
}

export interface RiveComponent {
  type: 'rive';
  asset?: string;
  path?: string;
  stateMachine?: string;
  artboard?: string;
  inputBindings?: Record<string, string>;
  action?: TemplateAction | string;
  actionRef?: string;
  loop?: boolean;
  aspectRatio?: number;
  height?: number;
}

export interface SpacerComponent {
  type: 'spacer';
}

/** A symbol from the bundled icon set (docs/api/templates.md#t26; `symbol` is one of the component types). */
export interface SymbolComponent {
  type: 'symbol';
  /** An icon name, e.g. `bell`. */
  name: string;
  /** 8-128, default 20. */
  size: number;
  color?: Color;
}

export type Component =
  | TextComponent
  | ImageComponent
  | IssuerIconComponent
  | TimestampComponent
  | ButtonComponent
  | ActionsComponent
  | IconButtonComponent
  | BadgeComponent
  | StackBadgeComponent
  | ProgressComponent
  | RiveComponent
  | SpacerComponent
  | SymbolComponent;

export type ComponentType = Component['type'];

export interface Cell {
  /** Default `r<row>c<col>`; unique, not empty. */
  id: string;
  /** 0-based. */
  row: number;
  col: number;
  /** At least 1, default 1. */
  rowSpan: number;
  colSpan: number;
  /** Default `topLeading`. */
  align: Alignment;
  /** 0-64, default 0. */
  padding: number;
  component: Component;
}

/**
 * docs/api/templates.md#t11 (`actionRules`): `match` an action (id or label, any case, or `*`) to change it, or
 * `add` one.
 */
export interface ActionRule {
  match?: string;
  hide?: boolean;
  relabel?: string;
  style?: string;
  position?: number;
  symbol?: string;
  add?: TemplateAction;
}

/** A template after validation. Everything but `name` and `app` is optional in what is sent. */
export interface Template {
  name: string;
  app: string;
  /** 2 when there is a grid, else 1. */
  layoutVersion: 1 | 2;
  grid?: Grid;
  cells: Cell[];
  /** Default true: cells whose fields are missing collapse. */
  collapseEmpty: boolean;
  actionRules: ActionRule[];
  /** Template-provided values, `{extra.<key>}` in bindings. */
  extra: Record<string, string>;
  accentColor?: string;
  onClick?: 'url' | 'openApp';
  followUp?: FollowUp;
  sound?: string;
  persistent?: boolean;
  timeout?: number;
  snooze?: boolean;
  priority?: Notification['priority'];
  reminder?: { title?: string; due?: string };
  /** Defaults for the notification's texts, with `{tokens}`. */
  title?: string;
  subtitle?: string;
  body?: string;
  image?: string;
  url?: string;
  /** Legacy default buttons. */
  buttons: Button[];
  /** The version-1 look: which built-in layout and what it shows. */
  layout: Layout;
  showSubtitle: boolean;
  showBody: boolean;
  showTimestamp: boolean;
  /** 1-30, default 8. */
  maxBodyLines: number;
}

/** One problem of a template, for `invalid template: ...` (errors) or the validator's warnings. */
export interface Issue {
  severity: 'error' | 'warning';
  /** `grid.rows`, `cells[2].component.fontSize`, ... */
  path: string;
  cellId?: string;
  message: string;
}
