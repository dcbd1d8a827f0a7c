// What makes the person's app installable as a window of its own (docs/app.md#installing-the-window), made at build
// time next to the built app: the web app manifest, its icons (PNGs drawn from app/src/favicon.svg with
// node-canvas, the renderer the daemon draws cards with) and the service worker, whose list of files to keep is the
// build's own (Vite's hashed names). All three sit at the top of dist/app, which the daemon serves without a session.

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createCanvas, loadImage } from 'canvas';
import { transformWithOxc, type Plugin } from 'vite';

export const MANIFEST_FILE = 'manifest.webmanifest';
export const WORKER_FILE = 'sw.js';
/** Where the app is served: the manifest's scope and the worker's. */
const BASE = '/app/';
/** The page an installed window opens at. */
const START_PAGE = '/app/history';

/** The sizes browsers ask for (192 for the launcher, 512 for the splash), and one that may be cut to any shape. */
const ICONS = [
  { file: 'icon-192.png', size: 192, purpose: 'any' },
  { file: 'icon-512.png', size: 512, purpose: 'any' },
  { file: 'icon-maskable-512.png', size: 512, purpose: 'maskable' },
] as const;
/**
 * A maskable icon's drawing stays inside the middle 80% circle (the spec's safe zone). The favicon's glyph fills
 * 24/32 of it: drawn at 70%, the glyph's corners are 0.37 of the size from the middle, inside the 0.40 circle.
 */
const MASKABLE_MARK_SHARE = 0.7;

/** The stand-in in the worker's source that the build replaces with the shell's files and version. */
const SHELL_PLACEHOLDER = '__NOTIFIER_SHELL__';

/** A colour of app/src/ui/tokens.css in the light theme: `--name: light-dark(#light, #dark)`. */
function lightColour(css: string, name: string): string {
  const found = new RegExp(`--${name}:\\s*light-dark\\((#[0-9a-fA-F]{3,8})`).exec(css);
  if (!found) throw new Error(`app/src/ui/tokens.css has no --${name} colour`);
  return found[1]!;
}

/** The favicon drawn at `size` pixels; for a maskable icon, small on a square of its own blue. */
async function drawIcon(svg: string, size: number, maskable: boolean, background: string): Promise<Buffer> {
  const mark = maskable ? Math.round(size * MASKABLE_MARK_SHARE) : size;
  // node-canvas draws an SVG only at the size its root element says.
  const image = await loadImage(Buffer.from(svg.replace('<svg ', `<svg width="${mark}" height="${mark}" `)));
  const canvas = createCanvas(size, size);
  const context = canvas.getContext('2d');
  if (maskable) {
    context.fillStyle = background;
    context.fillRect(0, 0, size, size);
  }
  const at = (size - mark) / 2;
  context.drawImage(image, at, at, mark, mark);
  return canvas.toBuffer('image/png');
}

/** The favicon's own blue: the maskable icon's background, so the cut shape is all of one colour. */
function markColour(svg: string): string {
  return /<rect[^>]*fill="(#[0-9a-fA-F]{3,8})"/.exec(svg)?.[1] ?? '#2557c7';
}

export function installableApp(here: string): Plugin {
  const svgFile = path.join(here, 'src', 'favicon.svg');
  const cssFile = path.join(here, 'src', 'ui', 'tokens.css');
  const workerFile = path.join(here, 'src', 'sw.ts');
  return {
    name: 'notifier-installable',
    apply: 'build',
    enforce: 'post', // after Vite's own plugins have put index.html and every asset in the bundle
    // The page names its manifest (added here: Vite would look for the file among the sources).
    transformIndexHtml: () => [
      { tag: 'link', attrs: { rel: 'manifest', href: `${BASE}${MANIFEST_FILE}` }, injectTo: 'head' },
      { tag: 'link', attrs: { rel: 'apple-touch-icon', href: `${BASE}${ICONS[0].file}` }, injectTo: 'head' },
    ],
    async generateBundle(_options, bundle) {
      const svg = readFileSync(svgFile, 'utf8');
      const css = readFileSync(cssFile, 'utf8');
      for (const icon of ICONS) {
        const source = await drawIcon(svg, icon.size, icon.purpose === 'maskable', markColour(svg));
        this.emitFile({ type: 'asset', fileName: icon.file, source });
      }
      const manifest = {
        name: 'Notifier',
        short_name: 'Notifier',
        description: 'Your notifications: History, Approvals, Compose, Settings, the Designer and the Relay.',
        id: START_PAGE,
        start_url: START_PAGE,
        scope: BASE,
        display: 'standalone',
        theme_color: lightColour(css, 'accent'),
        background_color: lightColour(css, 'bg'),
        icons: ICONS.map((icon) => ({
          src: `${BASE}${icon.file}`,
          sizes: `${icon.size}x${icon.size}`,
          type: 'image/png',
          purpose: icon.purpose,
        })),
      };
      this.emitFile({ type: 'asset', fileName: MANIFEST_FILE, source: `${JSON.stringify(manifest, null, 2)}\n` });

      // The shell: every built file but the page itself (the worker keeps that as the daemon answers it), and the
      // files made here. Its version changes with any of their names, so a new build replaces the kept copies.
      const built = Object.keys(bundle).filter((file) => file !== 'index.html' && !file.endsWith('.map'));
      const files = [...built, MANIFEST_FILE, ...ICONS.map((icon) => icon.file)].map((file) => `${BASE}${file}`).sort();
      const source = readFileSync(workerFile, 'utf8');
      const version = createHash('sha256').update(files.join('\n')).update(source).digest('hex').slice(0, 16);
      const { code } = await transformWithOxc(source, workerFile, { lang: 'ts' });
      if (!code.includes(SHELL_PLACEHOLDER)) this.error(`app/src/sw.ts does not use ${SHELL_PLACEHOLDER}`);
      this.emitFile({ type: 'asset', fileName: WORKER_FILE, source: code.replace(SHELL_PLACEHOLDER, JSON.stringify({ version, files })) });
    },
  };
}
