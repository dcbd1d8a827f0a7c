// What the components of a card read and what they give the layout: the scene a card is drawn in, and a component
// ready to measure and draw.

import type { CanvasRenderingContext2D, Image } from 'canvas';
import type { Frame } from './grid.js';
import type { Template } from './model.js';
import type { Theme } from './theme.js';

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

/** A symbol is loaded once per name and colour. */
export const symbolKey = (name: string, color: string): string => `${name}|${color}`;
