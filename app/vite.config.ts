// The build of the person's app (docs/app.md): Preact with JSX through Vite's own transform, into dist/app/, served
// by the daemon at /app/ under a strict Content-Security-Policy — so no inline script or style in the HTML, and no
// module-preload polyfill (Vite would inline it). Run by scripts/setup.mjs with `--configLoader runner`, which reads
// this file without writing a temporary copy into node_modules.

import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import { installableApp } from './installable.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..');

/**
 * The JavaScript the first page loads (the entry chunk and the chunks it imports statically: what History needs),
 * gzipped, at most this (issue's budget: the window opens fast on any machine). A page's own chunk, loaded when the
 * person goes there (the Designer's code editor), is printed but not counted.
 */
export const JS_BUDGET_GZIP_BYTES = 80 * 1024;

/** Prints each chunk's gzipped size and the first page's total, and fails the build when that is above the budget. */
function scriptBudget(): Plugin {
  return {
    name: 'notifier-script-budget',
    apply: 'build',
    generateBundle(_options, bundle) {
      const chunks = Object.values(bundle).filter((file) => file.type === 'chunk');
      const gzipped = new Map(chunks.map((chunk) => [chunk.fileName, gzipSync(chunk.code, { level: 9 }).length]));
      const kb = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KB`;
      // The first page: the entry and what it imports statically, transitively.
      const first = new Set<string>();
      const visit = (fileName: string): void => {
        if (first.has(fileName)) return;
        first.add(fileName);
        const chunk = chunks.find((candidate) => candidate.fileName === fileName);
        for (const imported of chunk?.imports ?? []) visit(imported);
      };
      for (const chunk of chunks) if (chunk.isEntry) visit(chunk.fileName);
      for (const chunk of chunks) {
        const role = first.has(chunk.fileName)
          ? 'first page'
          : `loaded by ${chunk.facadeModuleId ? path.relative(here, chunk.facadeModuleId) : 'a page'}`;
        process.stderr.write(
          `setup: app chunk ${chunk.fileName}: ${kb(Buffer.byteLength(chunk.code))}, ${kb(gzipped.get(chunk.fileName)!)} gzipped (${role})\n`,
        );
      }
      const firstPage = [...first].reduce((sum, fileName) => sum + (gzipped.get(fileName) ?? 0), 0);
      const all = [...gzipped.values()].reduce((sum, bytes) => sum + bytes, 0);
      const line = `app JavaScript: the first page ${kb(firstPage)} gzipped (budget ${kb(JS_BUDGET_GZIP_BYTES)}), all pages ${kb(all)} gzipped`;
      if (firstPage > JS_BUDGET_GZIP_BYTES) this.error(`${line}: over the budget`);
      process.stderr.write(`setup: ${line}\n`);
    },
  };
}

/** The page folders of app/src: each imports ui/, the models, protocol/ and its own files, never another page. */
const PAGE_FOLDERS = ['history', 'approvals', 'compose', 'settings', 'designer', 'relay'] as const;
/** The folders every page builds on: they import no page at all. */
const SHARED_FOLDERS = ['ui', 'models'] as const;

/** The folder of app/src a file is in (`history` for app/src/history/list.tsx), or null for a file outside one. */
function folderOf(file: string): string | null {
  const parts = file.split(path.sep);
  return parts[0] === 'app' && parts[1] === 'src' && parts.length > 3 ? parts[2]! : null;
}

const isPage = (folder: string | null): boolean => (PAGE_FOLDERS as readonly string[]).includes(folder ?? '');

/**
 * Why `importer` may not import `imported` (paths from the repository's root), or null when it may: a page imports
 * no other page, and ui/ and the models import no page (docs/app.md#how-the-front-end-is-laid-out). What two pages
 * share goes to ui/ or a model.
 */
function pageRuleBroken(importer: string, imported: string): string | null {
  const from = folderOf(importer);
  const to = folderOf(imported);
  if (!isPage(to) || from === to) return null;
  if (isPage(from)) return `${importer} imports ${imported}: a page never imports another page (what both need goes to ui/ or a model)`;
  if ((SHARED_FOLDERS as readonly string[]).includes(from ?? '')) return `${importer} imports ${imported}: ${from}/ imports no page`;
  return null;
}

/**
 * The app's import boundary, on the graph Vite actually bundles: its own files, protocol/ (the contract it shares
 * with the daemon) and packages, nothing else of the project; and inside app/src, the pages' rule (`pageRuleBroken`),
 * for static and dynamic imports alike. dependency-cruiser checks the first rule in `npm run check`, but its reader
 * does not parse JSX, so the .tsx files are checked here. Type-only imports are erased before Vite sees a file, so
 * the pages' rule sees the imports that run (today no page imports even a type of another).
 */
function importBoundary(): Plugin {
  const fileOf = (id: string): string => path.relative(root, id.split('?')[0]!);
  return {
    name: 'notifier-import-boundary',
    apply: 'build',
    buildEnd() {
      for (const id of this.getModuleIds()) {
        if (id.startsWith('\0')) continue; // Vite's own virtual modules
        const file = fileOf(id);
        if (file.split(path.sep).includes('node_modules')) continue;
        if (!/^(app|protocol)\//.test(file)) this.error(`app/ imports only protocol/, its own files and packages, not ${file}`);
        const info = this.getModuleInfo(id);
        for (const imported of [...(info?.importedIds ?? []), ...(info?.dynamicallyImportedIds ?? [])]) {
          if (imported.startsWith('\0')) continue;
          const broken = pageRuleBroken(file, fileOf(imported));
          if (broken) this.error(broken);
        }
      }
    },
  };
}

export default defineConfig({
  root: here,
  base: '/app/',
  cacheDir: path.join(root, 'dist', '.vite-cache'),
  publicDir: false,
  logLevel: 'warn',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  plugins: [importBoundary(), scriptBudget(), installableApp(here)],
  build: {
    outDir: path.join(root, 'dist', 'app'),
    emptyOutDir: true,
    target: 'es2022',
    modulePreload: { polyfill: false },
    // Every asset a file of its own: a data: URL in CSS or script is one more thing the policy must allow.
    assetsInlineLimit: 0,
    reportCompressedSize: false,
  },
});
