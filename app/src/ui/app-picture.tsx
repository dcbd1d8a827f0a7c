// An app's picture: its icon when it registered one (GET /app/api/apps/<app>/icon), else two letters of its name on
// a colour of its own, so apps whose names start alike still look apart (CI, Claude Code, Calendar and cron: "CI",
// "CC", "Ca", "cr", each on its colour). Drawn in History's rows and details, and on Settings' app cards.

import type { VNode } from 'preact';
import { appPaths } from '../../../protocol/app-api.js';
import { useModels } from '../models/context.js';
import './app-picture.css';

/**
 * Two letters of an app's name, as it writes them: the first letters of its first two words ("Claude Code": CC),
 * else the first two of its one word ("CI", "Calendar": Ca, "cron": cr).
 */
export function lettersOf(name: string): string {
  const words = name.split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  if (words.length === 0) return '?';
  const [first, second] = words.length > 1 ? [[...words[0]!][0], [...words[1]!][0]] : [...words[0]!];
  return `${first}${second ?? ''}`;
}

/** White text must read on the colour (4.5:1, with a margin): light and dark themes alike. */
const CONTRAST = 4.7;
const colours = new Map<string, string>();

/** A colour of the app's own, from a hash of its id: the same app always gets the same one. */
export function colourOf(app: string): string {
  let colour = colours.get(app);
  if (colour) return colour;
  let hash = 2166136261; // FNV-1a: similar ids (ci, claude, calendar) still spread over the hues
  for (const char of app) hash = Math.imul(hash ^ char.charCodeAt(0), 16777619);
  hash ^= hash >>> 15; // FNV's low bits change little: mix the high ones in
  hash = Math.imul(hash, 0x2c1b3c6d);
  hash ^= hash >>> 12;
  const hue = (hash >>> 0) % 360;
  // Yellows and greens are light at the same lightness as blues: darker until white text reads on it.
  let lightness = 48;
  let rgb = hsl(hue, 0.55, lightness / 100);
  while (1.05 / (luminance(rgb) + 0.05) < CONTRAST) rgb = hsl(hue, 0.55, (lightness -= 2) / 100);
  colour = `rgb(${rgb.map((channel) => Math.round(channel * 255)).join(' ')})`;
  colours.set(app, colour);
  return colour;
}

function hsl(hue: number, saturation: number, lightness: number): number[] {
  const spread = saturation * Math.min(lightness, 1 - lightness);
  const at = (n: number): number => {
    const k = (n + hue / 30) % 12;
    return lightness - spread * Math.max(-1, Math.min(k - 3, 9 - k, 1));
  };
  return [at(0), at(8), at(4)];
}

/** The relative luminance of sRGB channels (0–1), as contrast is measured (WCAG). */
function luminance(rgb: number[]): number {
  const [r, g, b] = rgb.map((channel) => {
    const rounded = Math.round(channel * 255) / 255;
    return rounded <= 0.04045 ? rounded / 12.92 : ((rounded + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

export function AppPicture({ app, appName, size = 'small' }: { app: string; appName: string; size?: 'small' | 'large' }): VNode {
  const { apps, api } = useModels();
  const summary = apps.apps.value.find((known) => known.app === app);
  if (summary?.hasIcon) return <img class={`app-picture app-picture-${size}`} src={api.withCsrf(appPaths.appIcon(app))} alt="" />;
  return (
    <span class={`app-picture app-picture-${size}`} style={{ background: colourOf(app) }} aria-hidden="true">
      {lettersOf(appName || app)}
    </span>
  );
}
