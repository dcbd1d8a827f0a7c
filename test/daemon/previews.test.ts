import { rm } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { createCanvas, loadImage } from 'canvas';
import { type DaemonProcess, startDaemon } from '../helpers/daemon.js';
import { expectError, type Reply } from '../helpers/http.js';
import { IMAGES } from '../helpers/support.js';
import { COMPONENTS_DOCUMENT_KEYS } from '../helpers/components.js';

// docs/api/templates.md#previews (POST and GET /v1/preview) and #lookups (GET /v1/components, /v1/symbols,
// /v1/shortcuts), through a real daemon. A preview is judged by what a designer gets: a PNG whose pixel size follows
// the card's width, the scale and what the card shows (a field left out collapses, a stack adds cards, a question
// adds a panel), and whose pixels change with the options. Templates without a timestamp draw the same bytes for the
// same inputs, so two previews can be compared byte for byte.

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** Room the renderer leaves around a card for its shadow, each side (points). */
const MARGIN = 12;
const SAMPLE_IMAGE = path.join(IMAGES, 'sample.png');

/** A narrow saved template (240 points): title, the app's `{sku}` field, body and actions. No timestamp. */
const NARROW = {
  app: 'shop',
  name: 'narrow',
  layoutVersion: 2,
  grid: { rows: 4, cols: 1, width: 240 },
  cells: [
    { id: 'title', row: 0, col: 0, component: { type: 'text', binding: '{title}', style: 'title' } },
    { id: 'sku', row: 1, col: 0, component: { type: 'text', binding: 'Item {sku}', style: 'caption' } },
    { id: 'body', row: 2, col: 0, component: { type: 'text', binding: '{body}', style: 'body' } },
    { id: 'actions', row: 3, col: 0, component: { type: 'actions' } },
  ],
};

/** An inline template (300 points) with no timestamp: the same inputs give the same bytes. */
const STEADY = {
  layoutVersion: 2,
  grid: { rows: 3, cols: 1, width: 300 },
  cells: [
    { id: 'title', row: 0, col: 0, component: { type: 'text', binding: '{title}', style: 'title' } },
    { id: 'body', row: 1, col: 0, component: { type: 'text', binding: '{body}', style: 'body' } },
    { id: 'actions', row: 2, col: 0, component: { type: 'actions' } },
  ],
};

const SHOP_MANIFEST = {
  app: 'shop',
  appName: 'Shop Floor',
  defaultTemplate: 'narrow',
  fields: [
    { key: 'title', type: 'text', sample: 'Order shipped' },
    { key: 'body', type: 'text', sample: 'Parcel 1 of 2 left the warehouse.' },
    { key: 'sku', type: 'text', sample: 'SKU-1234' },
  ],
  actions: [{ id: 'track', label: 'Track', kind: 'url', url: 'https://example.com/track' }],
};

/** The notification the shop's samples make, written out as a data object. */
const SHOP_SAMPLE_DATA = {
  title: 'Order shipped',
  body: 'Parcel 1 of 2 left the warehouse.',
  sku: 'SKU-1234',
  buttons: [{ id: 'track', label: 'Track', url: 'https://example.com/track' }],
};

interface Png {
  width: number;
  height: number;
  bytes: Buffer;
}

/** A 200 `image/png` reply, read: the pixel size from the IHDR chunk (bytes 16..24). */
function png(reply: Reply): Png {
  if (reply.status !== 200) throw new Error(`expected a PNG, got ${reply.status}: ${reply.text}`);
  expect(reply.headers['content-type']).toBe('image/png');
  expect(reply.raw.subarray(0, 8)).toEqual(PNG_SIGNATURE);
  expect(reply.raw.subarray(12, 16).toString('latin1')).toBe('IHDR');
  expect(Number(reply.headers['content-length'])).toBe(reply.raw.length);
  return { width: reply.raw.readUInt32BE(16), height: reply.raw.readUInt32BE(20), bytes: reply.raw };
}

/** Mean brightness (0-255) of the picture's opaque pixels: the card, not the transparent room around it. */
async function brightness(bytes: Buffer): Promise<number> {
  const image = await loadImage(bytes);
  const canvas = createCanvas(image.width, image.height);
  const ctx = canvas.getContext('2d');
  ctx.drawImage(image, 0, 0);
  const { data } = ctx.getImageData(0, 0, image.width, image.height);
  let sum = 0;
  let count = 0;
  for (let i = 0; i < data.length; i += 4) {
    if (data[i + 3]! < 250) continue;
    sum += (data[i]! + data[i + 1]! + data[i + 2]!) / 3;
    count++;
  }
  return sum / count;
}

/** The picture's width in pixels for a card `points` wide at `scale`. */
const pixelWidth = (points: number, scale: number): number => Math.ceil((points + MARGIN * 2) * scale);

describe('previews and lookups', () => {
  let daemon: DaemonProcess;
  const post = (body: unknown, token?: string | null) =>
    daemon.api('POST', '/v1/preview', { body, ...(token !== undefined ? { token } : {}) });
  const get = (query: string, token?: string | null) => daemon.api('GET', `/v1/preview?${query}`, token !== undefined ? { token } : {});

  beforeAll(async () => {
    daemon = await startDaemon();
    const put = async (route: string, body: unknown) => expect((await daemon.api('PUT', route, { body })).json).toEqual({ ok: true });
    await put('/v1/templates', NARROW);
    await put('/v1/templates', { ...NARROW, app: 'plain', name: 'saved-narrow' });
    await put('/v1/manifest', SHOP_MANIFEST);
    // A default that names a template that does not exist (any more): the built-in layout draws.
    await put('/v1/manifest', { app: 'ghost', defaultTemplate: 'gone' });
  });

  afterAll(async () => {
    await daemon.stop();
    await rm(daemon.supportDir, { recursive: true, force: true });
  });

  describe('POST /v1/preview: which template', () => {
    test("no template: the manifest's default template (here 240 points wide)", async () => {
      const picture = png(await post({ app: 'shop' }));
      expect(picture.width).toBe(pixelWidth(240, 2));
    });

    test('no template and no manifest: builtin.imageLeft (380 points), the same picture as naming it', async () => {
      const implicit = png(await post({ app: 'plain' }));
      const named = png(await post({ app: 'plain', template: 'builtin.imageLeft' }));
      expect(implicit.width).toBe(pixelWidth(380, 2));
      expect([implicit.width, implicit.height]).toEqual([named.width, named.height]);
      // builtin.compact is another layout: one line for the title, the body on one line.
      const compact = png(await post({ app: 'plain', template: 'builtin.compact' }));
      expect(compact.height).toBeLessThan(implicit.height);
    });

    test('a manifest default that names no template falls back to builtin.imageLeft', async () => {
      expect(png(await post({ app: 'ghost' })).width).toBe(pixelWidth(380, 2));
    });

    test('a saved template by name, and each built-in by name', async () => {
      expect(png(await post({ app: 'plain', template: 'saved-narrow' })).width).toBe(pixelWidth(240, 2));
      const data = { title: 'Deploy finished', body: 'Version 2.4.1 is live.', image: SAMPLE_IMAGE };
      const heights: Record<string, number> = {};
      for (const name of ['builtin.imageLeft', 'builtin.imageRight', 'builtin.hero', 'builtin.compact']) {
        const picture = png(await post({ app: 'plain', template: name, data }));
        expect(picture.width).toBe(pixelWidth(380, 2));
        heights[name] = picture.height;
      }
      // The hero's 16:9 picture across the top makes it the tallest; compact is the shortest.
      expect(heights['builtin.hero']).toBeGreaterThan(heights['builtin.imageLeft']!);
      expect(heights['builtin.compact']).toBeLessThan(heights['builtin.imageLeft']!);
      expect(heights['builtin.imageRight']).toBe(heights['builtin.imageLeft']);
    });

    test("an unknown template name is the caller's mistake: 404, as on the other template routes", async () => {
      expectError(await post({ app: 'shop', template: 'nope' }), 404, 'template not found: nope');
      expectError(await post({ app: 'shop', template: 'builtin.nope' }), 404, 'template not found: builtin.nope');
      expectError(await post({ app: 'nosuch', template: 'nosuch' }), 404, 'template not found: nosuch');
    });

    test('a whole template object is drawn at its own width', async () => {
      const picture = png(await post({ app: 'plain', template: STEADY }));
      expect(picture.width).toBe(pixelWidth(300, 2));
    });

    test("without app, the template object's app is the app (its manifest's samples fill the template)", async () => {
      const template = { ...NARROW, name: '_draft' };
      const asShop = png(await post({ template }));
      // The same template drawn for an app without a `sku` field: the `Item {sku}` cell collapses.
      const asPlain = png(await post({ app: 'plain', template }));
      expect(asShop.width).toBe(pixelWidth(240, 2));
      expect(asShop.height).toBeGreaterThan(asPlain.height);
      // And with app given, it is the app whose data is drawn.
      expect(png(await post({ app: 'shop', template })).bytes).toEqual(asShop.bytes);
    });

    test('an invalid template object: 400 naming the cell', async () => {
      const template = { ...STEADY, cells: [{ id: 'headline', row: 0, col: 0, component: { type: 'text', binding: '' } }] };
      expectError(await post({ app: 'plain', template }), 400, /^invalid template: cell headline: .*a binding is required/);
      const outside = { ...STEADY, cells: [{ id: 'far', row: 7, col: 0, component: { type: 'spacer' } }] };
      expectError(
        await post({ app: 'plain', template: outside }),
        400,
        /^invalid template: .*cell 'far' \(row 7, col 0, 1 x 1\) does not fit the 3 x 1 grid/,
      );
      const gap = { ...STEADY, grid: { ...STEADY.grid, gap: 65 } };
      expectError(await post({ app: 'plain', template: gap }), 400, /^invalid template: .*gap must be 0 to 64/);
    });

    test('template neither a name nor an object: 400', async () => {
      for (const template of [5, true, ['builtin.hero']]) {
        expectError(await post({ app: 'plain', template }), 400, 'invalid field: template (a name or a template object)');
      }
    });
  });

  describe('POST /v1/preview: data', () => {
    test("`sample` (the default) draws the manifest's sample values and actions", async () => {
      const implicit = png(await post({ app: 'shop' }));
      const sample = png(await post({ app: 'shop', data: 'sample' }));
      const written = png(await post({ app: 'shop', data: SHOP_SAMPLE_DATA }));
      expect(sample.bytes).toEqual(implicit.bytes);
      // The samples as a notification: the same picture as the same values sent as an object.
      expect(sample.bytes).toEqual(written.bytes);
      const other = png(await post({ app: 'shop', data: { ...SHOP_SAMPLE_DATA, title: 'Order delayed' } }));
      expect(other.bytes).not.toEqual(sample.bytes);
    });

    test('an object: a field left out collapses its cell and the picture is shorter', async () => {
      const full = png(await post({ app: 'shop', data: SHOP_SAMPLE_DATA }));
      const { sku: _sku, ...withoutSku } = SHOP_SAMPLE_DATA;
      const collapsed = png(await post({ app: 'shop', data: withoutSku }));
      expect(collapsed.width).toBe(full.width);
      expect(collapsed.height).toBeLessThan(full.height);
      const { buttons: _buttons, ...withoutButtons } = SHOP_SAMPLE_DATA;
      expect(png(await post({ app: 'shop', data: withoutButtons })).height).toBeLessThan(full.height);
    });

    test('`last`: the most recent notification of the app in History', async () => {
      const body = 'A long body that wraps over several lines in a narrow card, so that the picture is taller than the sample one.';
      for (const title of ['Order packed', 'Order delivered']) {
        const sent = await daemon.api('POST', '/v1/notify', { body: { app: 'shop', title, body, sku: 'SKU-77' } });
        expect(sent.status).toBe(200);
      }
      const last = png(await post({ app: 'shop', data: 'last' }));
      const sample = png(await post({ app: 'shop' }));
      expect(last.height).toBeGreaterThan(sample.height);
      expect(last.bytes).toEqual(png(await post({ app: 'shop', data: { title: 'Order delivered', body, sku: 'SKU-77' } })).bytes);
    });

    test('`last` for an app with no History: 400', async () => {
      expectError(
        await post({ app: 'plain', data: 'last' }),
        400,
        'no notification has been delivered for plain yet; use the sample data (data=sample, or a data object in a POST body)',
      );
    });

    test('an invalid field of the data object: 400 naming data.<field>', async () => {
      expectError(await post({ app: 'shop', data: { title: 5 } }), 400, 'invalid field: data.title (must be a string)');
      expectError(await post({ app: 'shop', data: { title: 't', buttons: 'Track' } }), 400, /^invalid field: data\.buttons/);
      expectError(await post({ app: 'shop', data: { title: 't', priority: 'extreme' } }), 400, /^invalid field: data\.priority/);
    });

    test('data neither an object, "sample" nor "last": 400', async () => {
      for (const data of ['recent', 7, ['sample'], true]) {
        expectError(await post({ app: 'shop', data }), 400, 'invalid field: data (an object, "sample" or "last")');
      }
    });
  });

  describe('POST /v1/preview: Markdown in the body', () => {
    /** The picture's pixels (RGBA), decoded: two previews compared by what they show. */
    const pixels = async (body: string): Promise<Buffer> => {
      const picture = png(await post({ app: 'plain', template: STEADY, data: { title: 'Release', body }, scale: 1 }));
      const image = await loadImage(picture.bytes);
      const ctx = createCanvas(image.width, image.height).getContext('2d');
      ctx.drawImage(image, 0, 0);
      return Buffer.from(ctx.getImageData(0, 0, image.width, image.height).data);
    };

    test.each([
      ['bold', '**Acme** ships'],
      ['italic', '*Acme* ships'],
      ['a link', '[Acme](https://acme.example) ships'],
    ])('a body with %s keeps its last word: "now" and "later" draw different pictures', async (_kind, start) => {
      const now = await pixels(`${start} now`);
      expect(now).not.toEqual(await pixels(`${start} later`));
      expect(now).not.toEqual(await pixels(start));
    });
  });

  describe('POST /v1/preview: options', () => {
    const steady = (more: Record<string, unknown> = {}) =>
      post({
        app: 'plain',
        template: STEADY,
        data: { title: 'Backup done', body: '12 GB copied.', buttons: [{ label: 'Open' }] },
        ...more,
      });

    test('appearance: light (default), dark, any case; anything else 400', async () => {
      const standard = png(await steady());
      const light = png(await steady({ appearance: 'light' }));
      const dark = png(await steady({ appearance: 'dark' }));
      const upper = png(await steady({ appearance: 'DARK' }));
      expect(light.bytes).toEqual(standard.bytes);
      expect(upper.bytes).toEqual(dark.bytes);
      expect(dark.bytes).not.toEqual(light.bytes);
      expect(await brightness(light.bytes)).toBeGreaterThan(200);
      expect(await brightness(dark.bytes)).toBeLessThan(90);
      for (const appearance of ['sepia', 5, true]) {
        expectError(await steady({ appearance }), 400, 'invalid field: appearance (light or dark)');
      }
    });

    test('scale: 1 to 3 (a number or a numeric string), default 2; the pixel width follows it', async () => {
      expect(png(await steady()).width).toBe(pixelWidth(300, 2));
      expect(png(await steady({ scale: 1 })).width).toBe(pixelWidth(300, 1));
      expect(png(await steady({ scale: 3 })).width).toBe(pixelWidth(300, 3));
      expect(png(await steady({ scale: 1.5 })).width).toBe(pixelWidth(300, 1.5));
      expect(png(await steady({ scale: '2' })).bytes).toEqual(png(await steady()).bytes);
      const one = png(await steady({ scale: 1 }));
      const three = png(await steady({ scale: 3 }));
      expect(three.height).toBe(one.height * 3);
      for (const scale of [0, 4, 0.5, 'x', '0x2', true, -1]) {
        expectError(await steady({ scale }), 400, 'invalid field: scale (a number from 1 to 3)');
      }
    });

    test('stackCount: 1 to 99 whole numbers; above 1 the card is the top of a closed stack', async () => {
      const one = png(await steady({ stackCount: 1 }));
      const three = png(await steady({ stackCount: 3 }));
      const many = png(await steady({ stackCount: 99 }));
      expect(png(await steady()).bytes).toEqual(one.bytes);
      expect(three.width).toBe(one.width);
      expect(three.height).toBeGreaterThan(one.height);
      // At most two cards peek out beneath the top one.
      expect(many.height).toBe(three.height);
      expect(png(await steady({ stackCount: 2 })).height).toBeGreaterThan(one.height);
      expect(png(await steady({ stackCount: 2 })).height).toBeLessThan(three.height);
      for (const stackCount of [0, 100, 1.5, -3, 'three', true]) {
        expectError(await steady({ stackCount }), 400, 'invalid field: stackCount (a whole number from 1 to 99)');
      }
    });

    test('stackExpanded: the stack open as a list is taller than closed; alone it changes nothing', async () => {
      const closed = png(await steady({ stackCount: 3 }));
      const open = png(await steady({ stackCount: 3, stackExpanded: true }));
      expect(open.height).toBeGreaterThan(closed.height * 2);
      // Up to four cards are listed, then "+N more".
      const four = png(await steady({ stackCount: 4, stackExpanded: true }));
      const five = png(await steady({ stackCount: 5, stackExpanded: true }));
      const ninetyNine = png(await steady({ stackCount: 99, stackExpanded: true }));
      expect(four.height).toBeGreaterThan(open.height);
      expect(five.height).toBeGreaterThan(four.height);
      expect(ninetyNine.height).toBe(five.height);
      expect(png(await steady({ stackCount: 1, stackExpanded: true })).bytes).toEqual(png(await steady()).bytes);
      expect(png(await steady({ stackCount: 3, stackExpanded: false })).bytes).toEqual(closed.bytes);
      for (const stackExpanded of ['maybe', 2, {}]) {
        expectError(await steady({ stackCount: 3, stackExpanded }), 400, 'invalid field: stackExpanded (true or false)');
      }
    });

    test('replying: the reply field in place of the buttons, with replySample in it', async () => {
      const buttons = png(await steady());
      const replying = png(await steady({ replying: true }));
      const withSample = png(await steady({ replying: true, replySample: 'On my way' }));
      expect(replying.bytes).not.toEqual(buttons.bytes);
      expect(withSample.bytes).not.toEqual(replying.bytes);
      expect(withSample.height).toBe(replying.height);
      // replySample alone draws nothing: the buttons show.
      expect(png(await steady({ replySample: 'On my way' })).bytes).toEqual(buttons.bytes);
      expectError(await steady({ replying: 'yes please' }), 400, 'invalid field: replying (true or false)');
      expectError(await steady({ replying: true, replySample: 12 }), 400, 'invalid field: replySample (must be a string)');
    });

    test('confirmation as a kind: an inline question in place of the buttons, for every kind', async () => {
      const plain = png(await steady());
      const seen = new Set<string>();
      const kinds =
        'callbackHost command script shortcut templateCommand destructiveAction connectorConsent remindersError remindersDenied'.split(' ');
      for (const kind of kinds) {
        const asked = png(await steady({ confirmation: kind }));
        expect(asked.height).toBeGreaterThan(plain.height);
        seen.add(asked.bytes.toString('base64'));
      }
      expect(seen.size).toBe(9);
    });

    test('confirmation as an object: its strings replace the sample values', async () => {
      const sample = png(await steady({ confirmation: 'command' }));
      expect(png(await steady({ confirmation: { kind: 'command' } })).bytes).toEqual(sample.bytes);
      const own = png(await steady({ confirmation: { kind: 'command', name: 'Backup', command: 'restic backup ~/Documents' } }));
      expect(own.bytes).not.toEqual(sample.bytes);
      // A command too long for one line is shown whole over more lines, not cut.
      const long = png(
        await steady({
          confirmation: {
            kind: 'command',
            command: 'rsync -a --delete ~/Documents/ backup.example.com:/srv/backups/documents/ && say done',
          },
        }),
      );
      expect(long.height).toBeGreaterThan(own.height);
      const host = png(
        await steady({ confirmation: { kind: 'callbackHost', host: 'hooks.example.org', url: 'https://hooks.example.org/in' } }),
      );
      expect(host.bytes).not.toEqual(png(await steady({ confirmation: 'callbackHost' })).bytes);
    });

    test('confirmation: an unknown kind or a non-string value is 400', async () => {
      const kinds =
        'callbackHost, command, script, shortcut, templateCommand, destructiveAction, connectorConsent, remindersError, remindersDenied';
      for (const confirmation of ['nuke', { kind: 'nuke' }, { name: 'x' }, 5, ['command']]) {
        expectError(await steady({ confirmation }), 400, `invalid field: confirmation (a kind (${kinds}) or an object with one)`);
      }
      expectError(
        await steady({ confirmation: { kind: 'command', command: ['rm'] } }),
        400,
        'invalid field: confirmation.command (must be a string)',
      );
    });
  });

  describe('POST /v1/preview: the request', () => {
    test('app missing: 400; app not a non-empty string: 400', async () => {
      expectError(await post({}), 400, 'missing field: app');
      expectError(await post({ template: 'builtin.hero' }), 400, 'missing field: app');
      expectError(await post({ template: { ...STEADY } }), 400, 'missing field: app');
      expectError(await post({ app: '' }), 400, 'invalid field: app');
      expectError(await post({ app: 5 }), 400, 'invalid field: app');
    });

    test('a body that is not a JSON object: 400', async () => {
      expectError(await daemon.api('POST', '/v1/preview', { body: '{"app": "plain",' }), 400, /^invalid JSON/);
      expectError(await post([{ app: 'plain' }]), 400, /^invalid JSON/);
    });

    test('without the token: 401, and nothing is drawn', async () => {
      const reply = await post({ app: 'plain' }, null);
      expect(reply.status).toBe(401);
      expect(reply.headers['content-type']).not.toBe('image/png');
      expect((await post({ app: 'plain' }, 'f'.repeat(64))).status).toBe(401);
    });
  });

  describe('GET /v1/preview', () => {
    test("the manifest's default template and sample data", async () => {
      const viaGet = png(await get('app=shop'));
      expect(viaGet.bytes).toEqual(png(await post({ app: 'shop' })).bytes);
      expect(png(await get('app=plain')).width).toBe(pixelWidth(380, 2));
    });

    test('template (saved or built-in), appearance, scale, stackCount, stackExpanded from the query', async () => {
      expect(png(await get('app=plain&template=saved-narrow')).width).toBe(pixelWidth(240, 2));
      const base = png(await get('app=shop&template=narrow'));
      expect(png(await get('app=shop&template=narrow&appearance=Dark')).bytes).toEqual(
        png(await post({ app: 'shop', appearance: 'dark' })).bytes,
      );
      expect(png(await get('app=shop&scale=3')).width).toBe(pixelWidth(240, 3));
      expect(png(await get('app=shop&scale=1.5')).width).toBe(pixelWidth(240, 1.5));
      const closed = png(await get('app=shop&stackCount=3'));
      expect(closed.height).toBeGreaterThan(base.height);
      for (const yes of ['yes', 'true', '1', 'TRUE']) {
        expect(png(await get(`app=shop&stackCount=3&stackExpanded=${yes}`)).bytes).toEqual(
          png(await post({ app: 'shop', stackCount: 3, stackExpanded: true })).bytes,
        );
      }
      for (const no of ['no', 'false', '0'])
        expect(png(await get(`app=shop&stackCount=3&stackExpanded=${no}`)).bytes).toEqual(closed.bytes);
      const hero = png(await get('app=plain&template=builtin.hero'));
      expect(hero.width).toBe(pixelWidth(380, 2));
    });

    test('data: `sample` (the default) or `last` (the newest History notification), as in the body; else 400', async () => {
      const sent = { title: 'Order returned', body: 'The customer sent parcel 2 back; a refund is due.', sku: 'SKU-9' };
      expect((await daemon.api('POST', '/v1/notify', { body: { app: 'shop', ...sent } })).status).toBe(200);
      const last = png(await get('app=shop&data=last'));
      expect(last.bytes).toEqual(png(await post({ app: 'shop', data: sent })).bytes);
      expect(last.bytes).not.toEqual(png(await get('app=shop')).bytes);
      expect(png(await get('app=shop&data=sample')).bytes).toEqual(png(await get('app=shop')).bytes);
      expectError(
        await get('app=plain&data=last'),
        400,
        'no notification has been delivered for plain yet; use the sample data (data=sample, or a data object in a POST body)',
      );
      for (const data of ['recent', 'LAST', '{}'])
        expectError(await get(`app=shop&data=${encodeURIComponent(data)}`), 400, 'invalid field: data ("sample" or "last")');
    });

    test('invalid appearance, scale, stackCount, stackExpanded: 400', async () => {
      expectError(await get('app=shop&appearance=blue'), 400, 'invalid field: appearance (light or dark)');
      for (const scale of ['0', '4', 'x', '2x', '0x2', '2e0'])
        expectError(await get(`app=shop&scale=${scale}`), 400, 'invalid field: scale (a number from 1 to 3)');
      for (const count of ['0', '100', '1.5', 'x']) {
        expectError(await get(`app=shop&stackCount=${count}`), 400, 'invalid field: stackCount (a whole number from 1 to 99)');
      }
      expectError(await get('app=shop&stackCount=3&stackExpanded=maybe'), 400, 'invalid field: stackExpanded (true or false)');
      expectError(await get('app=shop&scale=1&scale=2'), 400, /^invalid field: scale/);
    });

    test('app missing: 400; an unknown template: 404; no token: 401', async () => {
      expectError(await get(''), 400, 'missing field: app');
      expectError(await get('app='), 400, 'missing field: app');
      expectError(await get('app=shop&template=nope'), 404, 'template not found: nope');
      expectError(await get('app=a&template=nosuch'), 404, 'template not found: nosuch');
      expect((await get('app=shop', null)).status).toBe(401);
    });
  });

  describe('GET /v1/components', () => {
    test('the document: every part docs/api/templates.md#get-v1-components lists, schemaVersion 2', async () => {
      const reply = await daemon.api('GET', '/v1/components');
      expect(reply.status).toBe(200);
      const doc = reply.json;
      for (const key of COMPONENTS_DOCUMENT_KEYS) {
        expect(doc).toHaveProperty([key]);
      }
      expect(doc.schemaVersion).toBe(2);
      expect(typeof doc.$schema).toBe('string');
      expect(typeof doc.title).toBe('string');
      expect(typeof doc.description).toBe('string');
      expect(doc.type).toBe('object');
      expect(doc.required).toEqual(['name', 'app']);
      for (const name of ['grid', 'cell', 'size', 'alignment']) expect(doc.definitions).toHaveProperty([name]);
      const types = 'text image issuerIcon timestamp button actions iconButton badge stackBadge progress rive spacer symbol'.split(' ');
      for (const type of types) {
        expect(doc.components[type].properties.type).toEqual({ const: type, description: 'The component type.' });
      }
      expect(doc.definitions.grid.properties.gap).toMatchObject({ minimum: 0, maximum: 64 });
      expect(doc.examples.length).toBeGreaterThan(0);
      expect(Array.isArray(doc.workflow)).toBe(true);
      expect(doc.workflow.join('\n')).toMatch(/\/v1\/preview/);
      expect((await daemon.api('GET', '/v1/components', { token: null })).status).toBe(401);
    });

    test('every example saves with PUT /v1/templates and draws with POST /v1/preview: the document and the validator agree', async () => {
      const { examples } = (await daemon.api('GET', '/v1/components')).json as {
        examples: Array<{ name: string; template: Record<string, unknown> }>;
      };
      const outcomes = [];
      for (const example of examples) {
        const saved = await daemon.api('PUT', '/v1/templates', { body: example.template });
        const drawn = await post({ app: example.template.app, template: example.template });
        outcomes.push({
          example: example.name,
          saved: saved.status,
          error: saved.json?.error,
          drawn: drawn.status,
          type: drawn.headers['content-type'],
        });
      }
      expect(outcomes).toEqual(
        examples.map((example) => ({ example: example.name, saved: 200, error: undefined, drawn: 200, type: 'image/png' })),
      );
    });
  });

  describe('GET /v1/symbols', () => {
    const symbols = (query = '') => daemon.api('GET', `/v1/symbols${query}`);

    test('without parameters: the first 100 of the catalogue, the categories with `all` first', async () => {
      const reply = await symbols();
      expect(reply.status).toBe(200);
      const { total, offset, limit, symbols: items, categories } = reply.json;
      expect({ offset, limit }).toEqual({ offset: 0, limit: 100 });
      expect(items).toHaveLength(100);
      expect(total).toBeGreaterThan(100);
      for (const item of items) expect(item).toEqual({ name: expect.any(String), categories: expect.arrayContaining(['all']) });
      expect(categories[0]).toMatchObject({ key: 'all', count: total });
      for (const category of categories)
        expect(category).toEqual({
          key: expect.any(String),
          title: expect.any(String),
          icon: expect.any(String),
          count: expect.any(Number),
        });
    });

    test('q: every word must match; the icon the words name comes first', async () => {
      const reply = await symbols('?q=arrow%20right');
      expect(reply.status).toBe(200);
      expect(reply.json.symbols[0].name).toBe('arrow-right');
      expect(reply.json.total).toBe(reply.json.symbols.length);
      const none = await symbols('?q=arrow%20zzqqxx');
      expect(none.json).toMatchObject({ total: 0, symbols: [] });
    });

    test('category: only its symbols, as many as its count', async () => {
      const all = (await symbols()).json;
      const arrows = all.categories.find((category: { key: string }) => category.key === 'arrows');
      const reply = await symbols('?category=arrows&limit=1000');
      expect(reply.json.total).toBe(arrows.count);
      expect(reply.json.symbols).toHaveLength(arrows.count);
      for (const item of reply.json.symbols) expect(item.categories).toContain('arrows');
    });

    test('limit and offset page through the same order; limit is at most 1000', async () => {
      const ten = (await symbols('?limit=10')).json.symbols;
      const page = await symbols('?limit=5&offset=5');
      expect(page.json).toMatchObject({ limit: 5, offset: 5 });
      expect(page.json.symbols).toEqual(ten.slice(5, 10));
      const big = await symbols('?limit=5000');
      expect(big.json.limit).toBe(1000);
      expect(big.json.symbols).toHaveLength(Math.min(1000, big.json.total));
      expect((await symbols('?limit=0')).json.symbols).toEqual([]);
      const past = await symbols('?offset=100000');
      expect(past.json.symbols).toEqual([]);
    });

    test('an unknown category: 400 listing the keys; a limit or offset that is not a number: 400', async () => {
      const keys = (await symbols()).json.categories.map((category: { key: string }) => category.key);
      const reply = await symbols('?category=spaceships');
      expect(reply.status).toBe(400);
      expect(reply.json.error).toBe(`unknown category: spaceships (known: ${keys.join(', ')})`);
      expectError(await symbols('?limit=ten'), 400, 'invalid field: limit (a whole number, 0 or more)');
      expectError(await symbols('?limit=-1'), 400, 'invalid field: limit (a whole number, 0 or more)');
      expectError(await symbols('?offset=x'), 400, 'invalid field: offset (a whole number, 0 or more)');
    });

    test('a listed symbol draws in a preview; an unknown name draws nothing (its cell collapses)', async () => {
      const name = (await symbols('?q=rocket')).json.symbols[0].name;
      const template = (symbol: string) => ({
        layoutVersion: 2,
        grid: { rows: 2, cols: 1, width: 200 },
        cells: [
          { id: 'title', row: 0, col: 0, component: { type: 'text', binding: '{title}' } },
          { id: 'symbol', row: 1, col: 0, component: { type: 'symbol', name: symbol, size: 32 } },
        ],
      });
      const drawn = png(await post({ app: 'plain', template: template(name) }));
      const missing = png(await post({ app: 'plain', template: template('no-such-symbol-anywhere') }));
      expect(drawn.height).toBeGreaterThan(missing.height);
    });
  });

  describe('GET /v1/shortcuts', () => {
    test('502 with a message: this computer has no `shortcuts` tool', async () => {
      const reply = await daemon.api('GET', '/v1/shortcuts');
      expect(reply.status).toBe(502);
      expect(reply.json.error).toMatch(/shortcuts tool/);
      expect((await daemon.api('GET', '/v1/shortcuts', { token: null })).status).toBe(401);
    });
  });
});
