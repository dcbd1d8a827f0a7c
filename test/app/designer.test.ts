// The Designer in the person's app (docs/app.md#designer): in headless Chromium against a real daemon that shows its
// banners on a real desktop (Xvfb, a private session bus, dunst). The library is read on every visit and follows the
// templates and manifests saved or deleted through /v1 while the page is open, its pictures big enough to read; a
// template edited in the code editor is drawn again by the renderer (its pixels change); a problem is marked at the
// very cell it names, and Save stays in view however long the list of problems; "Send test" puts the card on
// dunst as a banner of Notifier; a picture dropped or chosen is listed, drawn by a template and deleted; manifests
// are edited and deleted; what a template can use is inserted with the keyboard; and the editor's JavaScript is
// loaded on this page only, under the window's strict Content-Security-Policy.

import { beforeAll, describe, expect, test } from '@jest/globals';
import { createCanvas } from 'canvas';
import type { Browser, Page } from 'playwright-core';
import { axeViolations, focusBecomes, openAppTab, startBrowser, startWebApp } from '../helpers/app-pages.js';
import type { AppDaemon } from '../helpers/app.js';
import { bannerOnDunst, type Desktop, startDesktop } from '../helpers/desktop.js';

let desktop: Desktop;
let daemon: AppDaemon;
let browser: Browser;
let page: Page;
let problems: string[];

/** A 3×3 card: the icon, the title and the time on top, the body, the buttons. */
const card = (changes: { title?: Record<string, unknown>; extraCell?: Record<string, unknown>; name?: string } = {}) => ({
  app: 'notifier',
  name: changes.name ?? 'status card',
  grid: { rows: 3, cols: 3, colSizes: ['auto', 'fill', 'auto'] },
  cells: [
    { id: 'icon', row: 0, col: 0, component: { type: 'issuerIcon', size: 28 } },
    { id: 'title', row: 0, col: 1, component: { type: 'text', binding: '{title}', style: 'title', ...changes.title } },
    { id: 'time', row: 0, col: 2, component: { type: 'timestamp' } },
    { id: 'body', row: 1, col: 1, colSpan: 2, component: { type: 'text', binding: '{body}' } },
    changes.extraCell ?? { id: 'buttons', row: 2, col: 0, colSpan: 3, component: { type: 'actions' } },
  ],
});

const editor = () => page.getByRole('textbox', { name: 'Template', exact: true });
const preview = () => page.getByRole('img', { name: 'Preview', exact: true });

/** Replaces the editor's text as a person pasting it would. */
async function setEditor(value: unknown): Promise<void> {
  await editor().click();
  await page.keyboard.press('Control+A');
  await page.keyboard.insertText(typeof value === 'string' ? value : JSON.stringify(value, null, 2));
}

/** Whether the editor has the focus (it lives in a shadow root: the document's active element is its host). */
const editorHasFocus = (): Promise<boolean> =>
  editor().evaluate((element) => (element.getRootNode() as unknown as { activeElement: unknown }).activeElement === element);

const previewSrc = (): Promise<string> =>
  preview()
    .getAttribute('src')
    .then((src) => src ?? '');

/** Waits until the preview shows a picture other than `before`, fully loaded. */
async function newPicture(before: string): Promise<string> {
  await page.waitForFunction(
    (old) => {
      const img = (
        globalThis as unknown as { document: { querySelector(s: string): { src: string; complete: boolean } | null } }
      ).document.querySelector('img[alt="Preview"]');
      return img !== null && img.src !== old && img.complete;
    },
    before,
    { timeout: 10_000 },
  );
  return previewSrc();
}

/** How many of the preview's pixels are pure red (the picture the tests upload). */
const redPixels = (): Promise<number> =>
  page.evaluate(() => {
    const doc = (globalThis as any).document;
    const img = doc.querySelector('img[alt="Preview"]');
    const canvas = doc.createElement('canvas');
    canvas.width = img.naturalWidth;
    canvas.height = img.naturalHeight;
    const drawing = canvas.getContext('2d');
    drawing.drawImage(img, 0, 0);
    const { data } = drawing.getImageData(0, 0, canvas.width, canvas.height);
    let red = 0;
    for (let index = 0; index < data.length; index += 4) if (data[index] > 220 && data[index + 1] < 40 && data[index + 2] < 40) red++;
    return red;
  });

function redPng(): Buffer {
  const canvas = createCanvas(48, 48);
  const drawing = canvas.getContext('2d');
  drawing.fillStyle = '#ff0000';
  drawing.fillRect(0, 0, 48, 48);
  return canvas.toBuffer('image/png');
}

/** The page's problems, less the refusals a test asked for (a template with a problem is answered 400). */
const unexpected = (allowed: RegExp): string[] => problems.filter((problem) => !allowed.test(problem));

beforeAll(async () => {
  [desktop, browser] = await Promise.all([startDesktop(), startBrowser()]);
  daemon = await startWebApp({ env: desktop.env, presenter: 'dbus' });
  const saved = { ...card({ name: 'deploy' }), app: 'ci' };
  expect((await daemon.api('PUT', '/v1/templates', { body: saved })).status).toBe(200);
  ({ page, problems } = await openAppTab(browser, daemon));
}, 30_000);

describe('the Designer', () => {
  test("the editor's JavaScript is loaded on the Designer page only, and works under the strict policy", async () => {
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
    expect(scripts).toEqual([]); // History's scripts were loaded before: nothing more
    await page.getByRole('navigation').getByRole('link', { name: 'Designer', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Designer' }).waitFor();
    await editor().waitFor();
    expect(scripts.length).toBeGreaterThan(0); // the editor's chunk, asked for now
    // …and named nowhere in the page History opened with (no preload of it).
    const html = await page.evaluate(() => fetch('/app/history').then((reply) => reply.text()));
    expect(html).toContain('<script');
    for (const script of scripts) expect(html).not.toContain(script);
    expect(await page.title()).toBe('Notifier — Designer');
    await preview().waitFor();
    // CodeMirror's own rules are applied (a constructed style sheet): its line numbers sit in a gutter beside the text.
    const gutter = await page.locator('.cm-gutters').boundingBox();
    const content = await page.locator('.cm-content').boundingBox();
    expect(gutter!.x + gutter!.width).toBeLessThanOrEqual(content!.x + 1);
    expect(problems).toEqual([]); // a refused style or script would be a console error here
  });

  test('the library shows the built-in layouts and saved templates with their pictures; one opens in the editor', async () => {
    const library = page.getByRole('region', { name: 'Templates' });
    await library.getByRole('button', { name: /^hero/ }).waitFor();
    const deploy = library.getByRole('button', { name: /deploy/ });
    await deploy.locator('img').waitFor();
    expect(await library.locator('img').count()).toBeGreaterThanOrEqual(5);
    await deploy.click();
    await page.getByRole('heading', { level: 2, name: 'Template: deploy (ci)' }).waitFor();
    expect(JSON.parse(await page.locator('.cm-content').innerText())).toMatchObject({ app: 'ci', name: 'deploy' });
    await library.getByRole('button', { name: /^hero/ }).click();
    await page.getByRole('heading', { level: 2, name: 'Template: hero copy (notifier)' }).waitFor();
  });

  test('the library is read on every visit, and follows what is saved or deleted through /v1 while the page is open', async () => {
    const library = page.getByRole('region', { name: 'Templates' });
    const manifests = page.getByRole('region', { name: 'Manifests' });
    const navigation = page.getByRole('navigation');
    // Saved while the person is on another page: there on the next visit.
    await navigation.getByRole('link', { name: 'History', exact: true }).click();
    expect((await daemon.api('PUT', '/v1/templates', { body: { ...card({ name: 'while away' }), app: 'ci' } })).status).toBe(200);
    await navigation.getByRole('link', { name: 'Designer', exact: true }).click();
    await library.getByRole('button', { name: /while away/ }).waitFor();
    // Saved and deleted while the page is open: it follows, without a reload.
    expect((await daemon.api('PUT', '/v1/templates', { body: { ...card({ name: 'from a script' }), app: 'ci' } })).status).toBe(200);
    await library.getByRole('button', { name: /from a script/ }).waitFor();
    expect((await daemon.api('DELETE', '/v1/templates?app=ci&name=while%20away')).status).toBe(200);
    await library.getByRole('button', { name: /while away/ }).waitFor({ state: 'detached' });
    expect((await daemon.api('PUT', '/v1/manifest', { body: { app: 'ci', appName: 'CI' } })).status).toBe(200);
    await manifests.getByRole('button', { name: 'Edit the manifest of ci' }).waitFor();
    expect((await daemon.api('DELETE', '/v1/manifest?app=ci')).status).toBe(200);
    await manifests.getByRole('button', { name: 'Edit the manifest of ci' }).waitFor({ state: 'detached' });
    expect((await daemon.api('DELETE', '/v1/templates?app=ci&name=from%20a%20script')).status).toBe(200);
    await library.getByRole('button', { name: /from a script/ }).waitFor({ state: 'detached' });
    expect(problems).toEqual([]);
  });

  test("the library's pictures are big enough to read, each with its template's name, wide and narrow; axe finds nothing", async () => {
    const library = page.getByRole('region', { name: 'Templates' });
    await library
      .getByRole('button', { name: /deploy/ })
      .locator('img')
      .waitFor();
    for (const width of [1280, 400]) {
      await page.setViewportSize({ width, height: 800 });
      const shown = await library.locator('img').evaluateAll((images) => images.map((image) => image.getBoundingClientRect().width));
      expect(shown.length).toBeGreaterThanOrEqual(5);
      // A card is drawn about 400 px wide: shown at three quarters of that or more, its words stay readable.
      expect({ width, shown: shown.filter((picture) => picture < 300) }).toEqual({ width, shown: [] });
      const names = await library.getByRole('button').allTextContents();
      expect(names).toContainEqual(expect.stringMatching(/^.*deploy.*ci$/));
      for (const colorScheme of ['light', 'dark'] as const) {
        await page.emulateMedia({ colorScheme });
        expect({ width, colorScheme, violations: await axeViolations(page) }).toEqual({ width, colorScheme, violations: [] });
      }
    }
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.emulateMedia({ colorScheme: 'light' });
  });

  test('editing a template draws it again: the picture on screen changes', async () => {
    await setEditor(card());
    const first = await newPicture(await previewSrc());
    const before = await preview().screenshot();
    // A keystroke: the title drawn in the mono style instead.
    await setEditor(card({ title: { style: 'mono' } }));
    const second = await newPicture(first);
    expect(second).not.toBe(first);
    const after = await preview().screenshot();
    expect(after.equals(before)).toBe(false);
    expect(unexpected(/^$/)).toEqual([]);
  });

  test('a problem is marked at the cell it names, with its message; the last picture stays', async () => {
    const shown = await previewSrc();
    await setEditor(card({ title: { fontSize: 99 } }));
    const mark = page.locator('.cm-lintRange-error');
    await mark.waitFor();
    expect(await mark.innerText()).toBe('99'); // the value at cells[1].component.fontSize, in the cell "title"
    const list = page.getByRole('list', { name: 'Problems' });
    const problem = list.getByRole('button', { name: /fontSize must be 6 to 72/ });
    const lineOf99 = (await page.locator('.cm-line').allInnerTexts()).findIndex((line) => line.includes('"fontSize": 99')) + 1;
    expect(await problem.innerText()).toMatch(new RegExp(`^Line ${lineOf99}, cell title: .*fontSize must be 6 to 72`));
    expect(await previewSrc()).toBe(shown); // the last picture is kept
    // Pressing the problem puts the cursor on it, in the editor.
    await problem.click();
    expect(await editorHasFocus()).toBe(true);
    expect(await page.evaluate(() => (globalThis as any).document.getSelection().toString())).toBe('99');
    // Not JSON: marked where it stops being JSON.
    await setEditor('{"app": "notifier", "name": "x" "grid": {}}');
    await list.getByRole('button', { name: /Line 1: This is not valid JSON here/ }).waitFor();
    expect(unexpected(/^400 .*\/app\/api\/designer\/preview$/)).toEqual([]);
    problems.length = 0;
  });

  test('Save stays in view on a long editor, however many problems are listed under it', async () => {
    const cell = (index: number) => ({ id: `line${index}`, row: 0, col: 0, component: { type: 'text', binding: '{title}', fontSize: 99 } });
    await setEditor({ ...card(), cells: Array.from({ length: 30 }, (_, index) => cell(index)) });
    const list = page.getByRole('list', { name: 'Problems' });
    await page.waitForFunction(() => (globalThis as any).document.querySelectorAll('#designer-problems li').length >= 30);
    // The editor's heading at the top of the page, as a person reading the template has it.
    await page.getByRole('heading', { level: 2, name: /^Template: / }).evaluate((heading) => heading.scrollIntoView({ block: 'start' }));
    const main = (await page.locator('main').boundingBox())!;
    const last = (await list.getByRole('listitem').last().boundingBox())!;
    expect(last.y).toBeGreaterThan(main.y + main.height); // the list goes on below the window…
    const save = (await page.getByRole('button', { name: 'Save', exact: true }).boundingBox())!;
    expect(save.y).toBeGreaterThanOrEqual(main.y); // …and Save is in view
    expect(save.y + save.height).toBeLessThanOrEqual(main.y + main.height);
    expect(unexpected(/^400 .*\/app\/api\/designer\/preview$/)).toEqual([]);
    problems.length = 0;
  });

  test('"Send test" puts the card on the desktop as a banner of Notifier', async () => {
    await setEditor(card());
    const sample = page.getByRole('textbox', { name: 'Sample data', exact: true });
    await sample.fill(JSON.stringify({ title: 'Designer test banner', body: 'Drawn by the status card' }));
    await page.getByRole('button', { name: 'Send test', exact: true }).click();
    await page.getByText('Sent: the card is on the screen as a banner of Notifier.').waitFor();
    const banner = await bannerOnDunst(desktop, 'Designer test banner');
    expect(banner.appname).toBe('Notifier');
    expect(banner.body).toBe('Drawn by the status card');
    const history = await daemon.api('GET', '/v1/history?app=notifier');
    expect(history.json.items[0].notification).toMatchObject({ title: 'Designer test banner', template: '_designer-test' });
    // Bad sample data: the API's words, next to the sample data, and the text stays.
    await sample.fill(JSON.stringify({ title: 'Bad priority', priority: 'loudest' }));
    await page.getByRole('button', { name: 'Send test', exact: true }).click();
    await page
      .locator('#designer-sample-problem')
      .getByText(/priority/)
      .waitFor();
    expect(await sample.inputValue()).toContain('loudest');
    await sample.fill(JSON.stringify({ title: 'Build 812 passed', body: 'All tests passed.' }));
    problems.length = 0;
  });

  test('a picture dropped or chosen is listed, drawn by a template that names it, and deleted', async () => {
    const pictures = page.getByRole('region', { name: 'Pictures of notifier' });
    // Chosen with the file picker (its button is reached with the keyboard like any other).
    await pictures.getByLabel('Choose an image').setInputFiles({ name: 'red.png', mimeType: 'image/png', buffer: redPng() });
    await pictures.getByRole('list', { name: 'Pictures of notifier' }).getByRole('button', { name: 'Delete red.png' }).waitFor();
    // Dropped.
    const bytes = [...redPng()];
    await pictures.locator('.drop-zone').evaluate((zone, given) => {
      const transfer = new (globalThis as any).DataTransfer();
      transfer.items.add(new (globalThis as any).File([new Uint8Array(given)], 'dropped.png', { type: 'image/png' }));
      zone.dispatchEvent(new (globalThis as any).DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
    }, bytes);
    await pictures.getByRole('list', { name: 'Pictures of notifier' }).getByRole('button', { name: 'Delete dropped.png' }).waitFor();
    const listed = await daemon.api('GET', '/v1/assets?app=notifier');
    const red = (listed.json.assets as Array<{ file: string; path: string }>).find((asset) => asset.file === 'red.png')!;
    // Usable: a template whose image cell names it draws it.
    const before = await newPicture('');
    expect(await redPixels()).toBe(0);
    await setEditor(card({ extraCell: { id: 'picture', row: 2, col: 0, colSpan: 3, component: { type: 'image', binding: red.path } } }));
    await newPicture(before);
    expect(await redPixels()).toBeGreaterThan(100);
    // Deleted, after a question whose safe answer has the focus.
    await pictures.getByRole('button', { name: 'Delete dropped.png' }).click();
    await focusBecomes(page, 'Cancel');
    await page.getByRole('dialog').getByRole('button', { name: 'Delete', exact: true }).click();
    await pictures.getByRole('button', { name: 'Delete dropped.png' }).waitFor({ state: 'detached' });
    const after = await daemon.api('GET', '/v1/assets?app=notifier');
    expect((after.json.assets as Array<{ file: string }>).map((asset) => asset.file)).toEqual(['red.png']);
    expect(problems).toEqual([]);
  });

  test('with the keyboard: a component found and inserted, the template saved, a refused name marked', async () => {
    await setEditor(card({ name: 'keyboard card' }));
    // Tab leaves the editor (it does not indent): the keyboard is not trapped.
    await editor().focus();
    await page.keyboard.press('Control+End');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => (globalThis as any).document.activeElement?.textContent?.trim())).not.toBe('');
    const browse = page.getByRole('region', { name: 'What a template can use' });
    const search = browse.getByRole('searchbox', { name: 'Search components' });
    await search.focus();
    await page.keyboard.type('progress');
    const insert = browse.getByRole('button', { name: 'Insert progress', exact: true });
    await insert.waitFor();
    await browse
      .getByRole('button', { name: /^Insert / })
      .nth(1)
      .waitFor({ state: 'detached' }); // the search's answer, not an earlier key's
    expect(await browse.getByRole('button', { name: /^Insert / }).count()).toBe(1);
    await insert.focus();
    await page.keyboard.press('Enter');
    expect(await editorHasFocus()).toBe(true);
    expect(await page.locator('.cm-content').innerText()).toMatch(/\}progress$/);
    await page.keyboard.press('Control+Z');
    // Symbols: searched by the catalogue.
    await browse.getByRole('radio', { name: 'Symbols' }).check();
    await browse.getByRole('searchbox', { name: 'Search symbols' }).fill('bell');
    await browse.getByRole('button', { name: 'Insert bell', exact: true }).waitFor();
    // Save with the keyboard.
    const save = page.getByRole('button', { name: 'Save', exact: true });
    await save.focus();
    await page.keyboard.press('Enter');
    await page.getByText('Saved “keyboard card”.').waitFor();
    const saved = await daemon.api('GET', '/v1/templates?app=notifier');
    expect((saved.json.items as Array<{ name: string }>).map((template) => template.name)).toContain('keyboard card');
    await page
      .getByRole('region', { name: 'Templates' })
      .getByRole('button', { name: /keyboard card/ })
      .waitFor();
    // A saved template can be deleted, after a question whose safe answer has the focus; the text stays.
    await page.getByRole('button', { name: 'Delete template', exact: true }).click();
    await focusBecomes(page, 'Cancel');
    await page.getByRole('dialog').getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByText('Deleted “keyboard card”.').waitFor();
    await page
      .getByRole('region', { name: 'Templates' })
      .getByRole('button', { name: /keyboard card/ })
      .waitFor({ state: 'detached' });
    const left = await daemon.api('GET', '/v1/templates?app=notifier');
    expect((left.json.items as Array<{ name: string }>).map((template) => template.name)).not.toContain('keyboard card');
    expect(await page.locator('.cm-content').innerText()).toContain('keyboard card');
    // A name the API refuses: its words, marked at the name.
    await setEditor({ ...card(), name: 'builtin.mine' });
    await save.click();
    await page
      .getByRole('list', { name: 'Problems' })
      .getByRole('button', { name: /Line 3: .*reserved for the built-in layouts/ })
      .waitFor();
    expect(await page.locator('.cm-lintRange-error').innerText()).toBe('"builtin.mine"');
    expect(unexpected(/^400 .*\/app\/api\/templates$/)).toEqual([]);
    problems.length = 0;
  });

  test("completion offers the renderer's names: a component's properties, the component types", async () => {
    const start =
      '{"app": "notifier", "name": "c", "grid": {"rows": 1, "cols": 1}, "cells": [{"row": 0, "col": 0, "component": {"type": "text", "binding": "{title}", ';
    await setEditor(start + '"max');
    await page.keyboard.press('Control+Space');
    const listbox = page.getByRole('listbox');
    await listbox.getByRole('option', { name: 'maxLines' }).waitFor();
    expect(await listbox.getByRole('option', { name: 'cornerRadius' }).count()).toBe(0); // an image's, not a text's
    await listbox.getByRole('option', { name: 'maxLines' }).click();
    expect(await page.locator('.cm-content').innerText()).toBe(`${start}"maxLines"`);
    await setEditor('{"app": "notifier", "name": "c", "cells": [{"component": {"type": "prog');
    await page.keyboard.press('Control+Space');
    await listbox.getByRole('option', { name: 'progress' }).waitFor();
  });

  test('a template that runs code says it needs the approval of the person', async () => {
    const note = page.getByText(/This template runs code on this computer/);
    expect(await note.count()).toBe(0);
    const runs = card({
      extraCell: {
        id: 'go',
        row: 2,
        col: 0,
        colSpan: 3,
        component: { type: 'button', action: { id: 'go', label: 'Go', command: 'true' } },
      },
    });
    await setEditor(runs);
    await note.waitFor();
    expect(await note.getByRole('link', { name: 'Approvals' }).getAttribute('href')).toBe('/app/approvals');
  });

  test('manifests: listed, edited through the same rules as the API, deleted', async () => {
    await daemon.api('PUT', '/v1/manifest', {
      body: { app: 'backup', appName: 'Backup', fields: [{ key: 'title', sample: 'Backup done' }] },
    });
    await page.reload();
    const manifests = page.getByRole('region', { name: 'Manifests' });
    await manifests.getByRole('button', { name: 'Edit the manifest of backup' }).click();
    await page.getByRole('heading', { level: 2, name: 'Manifest: backup' }).waitFor();
    const manifestEditor = page.getByRole('textbox', { name: 'Manifest', exact: true });
    expect(JSON.parse(await page.locator('.cm-content').innerText())).toMatchObject({ app: 'backup', appName: 'Backup' });
    await manifestEditor.click();
    await page.keyboard.press('Control+A');
    await page.keyboard.insertText(
      JSON.stringify({ app: 'backup', appName: 'Nightly backup', fields: [{ key: 'title', type: 'colour' }] }),
    );
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page
      .getByRole('list', { name: 'Problems' })
      .getByRole('button', { name: /fields\[0\]\.type/ })
      .waitFor();
    expect((await daemon.api('GET', '/v1/manifest?app=backup')).json.appName).toBe('Backup'); // refused: unchanged
    await page.keyboard.press('Control+A');
    await manifestEditor.click();
    await page.keyboard.press('Control+A');
    await page.keyboard.insertText(JSON.stringify({ app: 'backup', appName: 'Nightly backup' }));
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByText('Saved the manifest of backup.').waitFor();
    expect((await daemon.api('GET', '/v1/manifest?app=backup')).json.appName).toBe('Nightly backup');
    await manifests.getByRole('button', { name: 'Delete the manifest of backup' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByText('Deleted the manifest of backup.').waitFor();
    expect((await daemon.api('GET', '/v1/manifest?app=backup')).status).toBe(404);
    expect(unexpected(/^400 .*\/app\/api\/manifest$/)).toEqual([]);
  });
});
