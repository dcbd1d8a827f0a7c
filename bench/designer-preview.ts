// The Designer in headless Chromium: how soon a keystroke in the template editor becomes a new card on screen.
//   npm run bench:designer [-- --runs 40]
// (a) a keystroke in the editor -> the new preview picture on screen, for a 3x3 card, against the same preview's
//     fetch alone in the page (POST /app/api/designer/preview: the daemon drawing the card and the network);
// (b) each chunk of the app's JavaScript, gzipped: the first page (History) against its budget, and the Designer's
//     own chunk (the code editor), which only the Designer page loads.
// "On screen" is the first animation frame after the new picture is decoded in the document, plus a task: the time
// is taken in the page, on the wall clock this process also reads. The daemon runs pinned to CPU 0; Chromium and
// this process are not pinned. Each keystroke waits for the previous picture, so none is folded into the next.

import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { APP_CSRF_HEADER, APP_CSRF_STORAGE } from '../protocol/app-api.js';
import { designerPaths } from '../protocol/app-api-designer.js';
import { signInLink } from '../rigs/person-app.js';
import { defineBenchmark } from './lib.js';
import { FRAME_DRAWN, painted } from './kit/paint.js';
import { ms, percentile, printTable, ratio, verdict } from './kit/print.js';
import { ROOT } from './kit/processes.js';

/** The target: keystroke -> new preview on screen, p50. */
const TARGET_KEYSTROKE_MS = 150;
const BUDGET_GZIP_BYTES = 80 * 1024;

/** A 3x3 card, every cell used; the last cell shows `extra.note`, which each keystroke changes. On one line. */
const CARD = {
  app: 'notifier',
  name: 'bench card',
  grid: { rows: 3, cols: 3, colSizes: ['auto', 'fill', 'auto'], width: 380 },
  cells: [
    { id: 'icon', row: 0, col: 0, component: { type: 'issuerIcon', size: 28 } },
    { id: 'title', row: 0, col: 1, component: { type: 'text', binding: '{title}', style: 'title' } },
    { id: 'time', row: 0, col: 2, component: { type: 'timestamp' } },
    { id: 'badge', row: 1, col: 0, component: { type: 'badge', binding: '3' } },
    { id: 'body', row: 1, col: 1, component: { type: 'text', binding: '{body}' } },
    { id: 'symbol', row: 1, col: 2, component: { type: 'symbol', name: 'bell' } },
    { id: 'progress', row: 2, col: 0, component: { type: 'progress', binding: '40' } },
    { id: 'caption', row: 2, col: 1, component: { type: 'text', binding: '{appName}', style: 'caption' } },
    { id: 'note', row: 2, col: 2, component: { type: 'text', binding: '{extra.note}', style: 'caption', maxLines: 1 } },
  ],
  extra: { note: 'x' },
};
const SAMPLE = { title: 'Build 812 passed', body: 'All 1,204 tests passed in 3 min 12 s.' };

/** In the page: resolves with the wall-clock time of the frame after the preview shows a picture other than `old`. */
const MARKER = `
window.__newPicture = (old) => new Promise((resolve) => {
  const drawn = () => (${FRAME_DRAWN})().then(resolve);
  const check = () => {
    const img = document.querySelector('img[alt="Preview"]');
    if (!img || img.src === old) return false;
    img.decode().then(drawn, drawn);
    return true;
  };
  if (check()) return;
  const observer = new MutationObserver(() => { if (check()) observer.disconnect(); });
  observer.observe(document, { subtree: true, attributes: true, attributeFilter: ['src'], childList: true });
});`;

const previewSrc = (page: Page): Promise<string> => page.evaluate(`document.querySelector('img[alt="Preview"]')?.src ?? ''`);

/** (a) */
async function keystrokeToPicture(page: Page, runs: number): Promise<{ keystroke: number[]; fetch: number[] }> {
  const editor = page.getByRole('textbox', { name: 'Template', exact: true });
  await editor.click();
  await page.keyboard.press('Control+A');
  await page.keyboard.insertText(JSON.stringify(CARD));
  const sample = page.getByRole('textbox', { name: 'Sample data', exact: true });
  await sample.fill(JSON.stringify(SAMPLE));
  await page.waitForTimeout(500); // the first picture of this card
  // The cursor inside the note's text: before its closing `"}}`.
  await editor.click();
  await page.keyboard.press('Control+End');
  for (let step = 0; step < 3; step++) await page.keyboard.press('ArrowLeft');
  const keystroke: number[] = [];
  const fetch: number[] = [];
  for (let run = 0; run < runs + 2; run++) {
    const old = await previewSrc(page);
    const shown = page.evaluate(`window.__newPicture(${JSON.stringify(old)})`);
    const started = Date.now();
    await page.keyboard.press(run % 2 === 0 ? 'w' : 'Backspace'); // a letter typed, then taken back
    const at = await painted(shown, 'the new preview').catch(async (error: Error) => {
      throw new Error(
        `${error.message} (key ${run}; the editor holds ${await editor.innerText()}; the page says ${await page.locator('#designer-problems').innerText()})`,
      );
    });
    // The baseline: the same drawing fetched by the page alone.
    const text = await editor.innerText();
    const fetched = (await page.evaluate(
      `(async () => {
        const body = JSON.stringify({ template: JSON.parse(${JSON.stringify(text)}), data: ${JSON.stringify(SAMPLE)}, theme: 'light' });
        const started = performance.now();
        const reply = await fetch(${JSON.stringify(designerPaths.preview)}, {
          method: 'POST', body, credentials: 'same-origin',
          headers: { 'Content-Type': 'application/json', ${JSON.stringify(APP_CSRF_HEADER)}: localStorage.getItem(${JSON.stringify(APP_CSRF_STORAGE)}) },
        });
        if (!reply.ok) throw new Error('preview answered ' + reply.status);
        await reply.blob();
        return performance.now() - started;
      })()`,
    )) as number;
    if (run < 2) continue; // the first ones warm the page and the renderer up
    keystroke.push(at - started);
    fetch.push(fetched);
    await page.waitForTimeout(100);
  }
  return { keystroke, fetch };
}

/** (b) Each built chunk, gzipped as a server would send it; the first page's are those index.html names. */
async function chunkSizes(): Promise<string[][]> {
  const app = path.join(ROOT, 'dist', 'app');
  const index = await readFile(path.join(app, 'index.html'), 'utf8');
  const kb = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KB`;
  const rows: string[][] = [];
  let firstPage = 0;
  for (const name of (await readdir(path.join(app, 'assets'))).filter((file) => file.endsWith('.js'))) {
    const gzipped = gzipSync(await readFile(path.join(app, 'assets', name)), { level: 9 }).length;
    const first = index.includes(`assets/${name}`);
    if (first) firstPage += gzipped;
    rows.push([
      `    ${name}`,
      kb(gzipped),
      first ? 'the first page (History)' : 'its page only (Settings, Relay or the Designer), when it opens',
    ]);
  }
  return [
    ["(b) the first page's JavaScript, gzipped", kb(firstPage), `<= ${kb(BUDGET_GZIP_BYTES)}: ${verdict(firstPage <= BUDGET_GZIP_BYTES)}`],
    ...rows,
  ];
}

await defineBenchmark({
  title: "Notifier benchmark: the Designer's live preview in Chromium",
  options: { runs: 40 },
  pin: false,
  needs: { daemon: { personApp: true }, chromium: true },
  async measure({ options, daemon, chromium: browser }) {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, colorScheme: 'light' });
    await context.addInitScript({ content: MARKER });
    const page = await context.newPage();
    await page.goto(await signInLink(daemon.supportDir, 'designer'));
    await page.getByRole('img', { name: 'Preview', exact: true }).waitFor();
    const { keystroke, fetch } = await keystrokeToPicture(page, options.runs);
    const p50 = percentile(keystroke, 50);
    const baseline = percentile(fetch, 50);
    console.log('');
    printTable([
      ['measured', 'p50', 'p90', 'baseline p50', 'p50 / baseline', 'target'],
      [
        `(a) keystroke -> new 3x3 preview on screen (${keystroke.length} keys)`,
        ms(p50),
        ms(percentile(keystroke, 90)),
        ms(baseline),
        ratio(p50 / baseline),
        `< ${ms(TARGET_KEYSTROKE_MS)}: ${verdict(p50 < TARGET_KEYSTROKE_MS)}`,
      ],
    ]);
    console.log('\nbaseline: the same preview fetched by the page alone (POST /app/api/designer/preview: drawing and network).');
    console.log("The keystroke includes the editor's debounce (40 ms), the request, decoding the picture and the frame.\n");
    printTable([['chunk', 'gzipped', 'loaded by'], ...(await chunkSizes())]);
    await context.close();
  },
});
