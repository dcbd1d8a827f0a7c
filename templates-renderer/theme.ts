import type { Color, TextStyle } from './model.js';

export type Appearance = 'light' | 'dark';

/** The colours of a banner card in one appearance. `accent` is the template's accentColor when it has one. */
export interface Theme {
  appearance: Appearance;
  card: string;
  border: string;
  shadow: string;
  primary: string;
  secondary: string;
  accent: string;
  /** Background of a button, the reply field, a ghost card behind a closed stack. */
  fill: string;
  fillStrong: string;
  /** Text on the accent colour. */
  onAccent: string;
  danger: string;
}

/**
 * The accent when a template sets none: a calm blue, a shade darker on the light card so that links and white
 * text on a prominent button keep a 4.5:1 contrast (#0A84FF on white is 3.6:1).
 */
export const DEFAULT_ACCENT: Record<Appearance, string> = { light: '#0071E3', dark: '#0A84FF' };

export function themeFor(appearance: Appearance, accentColor?: string): Theme {
  const accent = accentColor ?? DEFAULT_ACCENT[appearance];
  return appearance === 'dark'
    ? {
        appearance,
        card: '#2C2C2E',
        border: 'rgba(255,255,255,0.10)',
        shadow: 'rgba(0,0,0,0.45)',
        primary: '#F5F5F7',
        secondary: '#A1A1A6',
        accent,
        fill: 'rgba(255,255,255,0.10)',
        fillStrong: 'rgba(255,255,255,0.18)',
        onAccent: '#FFFFFF',
        danger: '#FF453A',
      }
    : {
        appearance,
        card: '#FFFFFF',
        border: 'rgba(0,0,0,0.08)',
        shadow: 'rgba(0,0,0,0.16)',
        primary: '#1D1D1F',
        secondary: '#6E6E73',
        accent,
        fill: 'rgba(0,0,0,0.06)',
        fillStrong: 'rgba(0,0,0,0.10)',
        onAccent: '#FFFFFF',
        danger: '#D70015',
      };
}

/** A colour of the model: a hex value as it is, or a role of the theme. */
export function colorOf(color: Color | undefined, theme: Theme, fallback: string): string {
  if (color === undefined) return fallback;
  if (color === 'accent') return theme.accent;
  if (color === 'primary') return theme.primary;
  if (color === 'secondary') return theme.secondary;
  return color;
}

export const SANS = 'DejaVu Sans';
export const MONO = 'DejaVu Sans Mono';

/** Font size (points), weight and family of each text style. */
export const TEXT_STYLE: Record<TextStyle, { size: number; bold: boolean; family: string; secondary: boolean }> = {
  title: { size: 15, bold: true, family: SANS, secondary: false },
  subtitle: { size: 13, bold: true, family: SANS, secondary: false },
  body: { size: 13, bold: false, family: SANS, secondary: false },
  caption: { size: 11, bold: false, family: SANS, secondary: true },
  mono: { size: 12, bold: false, family: MONO, secondary: false },
};

/** docs/api/templates.md#t34: default line limits by style (body: the template's maxBodyLines). */
export const DEFAULT_MAX_LINES: Record<TextStyle, number | 'body'> = { title: 2, subtitle: 2, body: 'body', caption: 1, mono: 4 };

export const LINE_HEIGHT = 1.3;

export function font(size: number, bold: boolean, family = SANS, italic = false): string {
  return `${italic ? 'italic ' : ''}${bold ? 'bold ' : ''}${size}px "${family}"`;
}
