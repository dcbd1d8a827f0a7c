import { describe, expect, test } from '@jest/globals';
import { ApiError } from '../../../../protocol/errors.js';
import { strToU8, unzipSync, zipSync, type Zippable } from 'fflate';
import {
  BUNDLE_EXTENSION,
  BUNDLE_FORMAT,
  BUNDLE_MAX_ENTRIES,
  BUNDLE_MAX_ENTRY_BYTES,
  BUNDLE_MAX_TEMPLATE_BYTES,
  BUNDLE_MAX_TOTAL_BYTES,
  BUNDLE_VERSION,
  readBundle,
  writeBundle,
} from '../../../../daemon/core/templates/bundle.js';

const TEMPLATE = { id: 'deploy', title: 'Deploy {{service}}', rows: [{ text: 'ünïcødé ✓' }], nested: { n: 1, ok: true } };
const MANIFEST = {
  format: BUNDLE_FORMAT,
  version: BUNDLE_VERSION,
  app: 'ci',
  name: 'deploy',
  createdAt: '2024-05-01T12:00:00.000Z',
  assets: [],
};

const json = (value: unknown): Uint8Array => strToU8(JSON.stringify(value));
const rive = (n: number, seed = 1): Uint8Array => Uint8Array.from({ length: n }, (_, i) => (i * 31 + seed) & 0xff);

/** A zip of the given files; bundle.json and template.json are valid unless replaced or removed (`null`). */
function bundleZip(extra: Record<string, Uint8Array | null> = {}, prefix = ''): Uint8Array {
  const files: Zippable = {};
  const base: Record<string, Uint8Array | null> = { 'bundle.json': json(MANIFEST), 'template.json': json(TEMPLATE), ...extra };
  for (const [name, data] of Object.entries(base)) if (data) files[prefix + name] = data;
  return zipSync(files);
}

/** Where each central-directory record of a zip starts, by name (for patching a zip into a hostile one). */
function centralRecords(zip: Uint8Array): Map<string, number> {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  let eocd = zip.length - 22;
  while (view.getUint32(eocd, true) !== 0x06054b50) eocd--;
  const records = new Map<string, number>();
  let at = view.getUint32(eocd + 16, true);
  for (let i = 0; i < view.getUint16(eocd + 10, true); i++) {
    const nameLength = view.getUint16(at + 28, true);
    records.set(new TextDecoder().decode(zip.subarray(at + 46, at + 46 + nameLength)), at);
    at += 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
  }
  return records;
}

/** Makes an entry declare another uncompressed size, in both its central-directory record and its local header. */
function patchDeclaredSize(zip: Uint8Array, name: string, size: number): Uint8Array {
  const patched = zip.slice();
  const view = new DataView(patched.buffer);
  const record = centralRecords(patched).get(name)!;
  view.setUint32(record + 24, size, true);
  view.setUint32(view.getUint32(record + 42, true) + 22, size, true);
  return patched;
}

function patchCentral(zip: Uint8Array, name: string, patch: (view: DataView, record: number) => void): Uint8Array {
  const patched = zip.slice();
  patch(new DataView(patched.buffer), centralRecords(patched).get(name)!);
  return patched;
}

function expectRefused(read: () => unknown, status: 400 | 413, message: string | RegExp): ApiError {
  let caught: unknown;
  try {
    read();
  } catch (err) {
    caught = err;
  }
  expect(caught).toBeInstanceOf(ApiError);
  const error = caught as ApiError;
  expect(error.status).toBe(status);
  if (typeof message === 'string') expect(error.message).toBe(message);
  else expect(error.message).toMatch(message);
  return error;
}

/** Zero bytes compress to almost nothing: the zip bombs below are a few kB that would inflate to megabytes. */
const zeros = new Uint8Array(BUNDLE_MAX_ENTRY_BYTES + 1);
let bombZip: Uint8Array | undefined;
/** A bundle with an asset of 10 MB + 1 zero bytes (compressed to ~10 kB). */
const bomb = (): Uint8Array => (bombZip ??= bundleZip({ 'assets/bomb.riv': zeros }));
let seventyZip: Uint8Array | undefined;
/** A bundle with 7 assets of 10 MB of zero bytes each (compressed to ~70 kB). */
function seventyMegabytes(): Uint8Array {
  if (!seventyZip) {
    const extra: Record<string, Uint8Array> = {};
    for (let i = 0; i < 7; i++) extra[`assets/z${i}.riv`] = zeros.subarray(0, BUNDLE_MAX_ENTRY_BYTES);
    seventyZip = bundleZip(extra);
  }
  return seventyZip;
}

describe('constants', () => {
  test('name the format and its limits', () => {
    expect(BUNDLE_FORMAT).toBe('notifiertemplate');
    expect(BUNDLE_VERSION).toBe(1);
    expect(BUNDLE_EXTENSION).toBe('.notifiertemplate');
    expect(BUNDLE_MAX_ENTRIES).toBe(80);
    expect(BUNDLE_MAX_ENTRY_BYTES).toBe(10 * 1024 * 1024);
    expect(BUNDLE_MAX_TOTAL_BYTES).toBe(64 * 1024 * 1024);
    expect(BUNDLE_MAX_TEMPLATE_BYTES).toBe(2 * 1024 * 1024);
  });
});

describe('writeBundle and readBundle', () => {
  test('round trip: the template and the asset bytes come back equal', () => {
    const assets = new Map([
      ['spinner.riv', rive(5000, 3)],
      ['check mark.riv', rive(123, 7)],
      ['empty.riv', new Uint8Array(0)],
    ]);
    const zip = writeBundle({ app: 'ci', name: 'deploy', template: TEMPLATE, assets, createdAt: '2024-05-01T12:00:00.000Z' });
    const read = readBundle(zip);
    expect(read.template).toEqual(TEMPLATE);
    expect(read.manifest).toEqual({
      format: 'notifiertemplate',
      version: 1,
      app: 'ci',
      name: 'deploy',
      createdAt: '2024-05-01T12:00:00.000Z',
      assets: ['spinner.riv', 'check mark.riv', 'empty.riv'],
    });
    expect([...read.assets.keys()].sort()).toEqual(['check mark.riv', 'empty.riv', 'spinner.riv']);
    for (const [name, data] of assets) expect(read.assets.get(name)).toEqual(data);
    expect(read.warnings).toEqual([]);
  });

  test('writes pretty JSON deflated and .riv files stored, in the order given', () => {
    const zip = writeBundle({
      app: 'ci',
      name: 'deploy',
      template: TEMPLATE,
      assets: new Map([
        ['b.riv', rive(10)],
        ['a.riv', rive(20)],
      ]),
    });
    const compression = new Map<string, number>();
    const files = unzipSync(zip, { filter: (file) => (compression.set(file.name, file.compression), true) });
    expect([...compression.keys()]).toEqual(['bundle.json', 'template.json', 'assets/b.riv', 'assets/a.riv']);
    expect(compression.get('bundle.json')).toBe(8);
    expect(compression.get('template.json')).toBe(8);
    expect(compression.get('assets/b.riv')).toBe(0);
    expect(compression.get('assets/a.riv')).toBe(0);
    expect(new TextDecoder().decode(files['template.json'])).toBe(JSON.stringify(TEMPLATE, null, 2));
    const manifest = JSON.parse(new TextDecoder().decode(files['bundle.json'])) as Record<string, unknown>;
    expect(manifest.assets).toEqual(['b.riv', 'a.riv']);
    expect(typeof manifest.createdAt).toBe('string');
    expect(Number.isNaN(Date.parse(manifest.createdAt as string))).toBe(false);
  });

  test.each(['', '.', '..', 'a/b.riv', '../x.riv', 'a\\b.riv', 'nul\0.riv'])('writeBundle refuses the asset name %j', (name) => {
    expectRefused(
      () => writeBundle({ app: 'ci', name: 'deploy', template: TEMPLATE, assets: new Map([[name, rive(4)]]) }),
      400,
      /^an asset name must be a plain file name/,
    );
  });

  test('writeBundle refuses a template.json over 2 MB', () => {
    const template = { text: 'x'.repeat(BUNDLE_MAX_TEMPLATE_BYTES) };
    expectRefused(
      () => writeBundle({ app: 'ci', name: 'big', template, assets: new Map() }),
      413,
      /^the bundle is too large: template\.json/,
    );
  });
});

describe('readBundle tolerates', () => {
  test('a wrapper folder and __MACOSX entries', () => {
    const zip = zipSync({
      MyTemplate: {
        'bundle.json': json(MANIFEST),
        'template.json': json(TEMPLATE),
        assets: { 'a.riv': rive(50) },
      },
      __MACOSX: { MyTemplate: { '._bundle.json': rive(8), assets: { '._a.riv': rive(8) } } },
      Empty: {},
    });
    const names = [...centralRecords(zip).keys()];
    expect(names).toContain('Empty/'); // a folder entry
    const read = readBundle(zip);
    expect(read.template).toEqual(TEMPLATE);
    expect([...read.assets.keys()]).toEqual(['a.riv']);
    expect(read.assets.get('a.riv')).toEqual(rive(50));
    expect(read.warnings).toEqual([]);
  });

  test('a wrapper folder with a folder entry of its own', () => {
    const zip = zipSync({ Wrap: { 'bundle.json': json(MANIFEST), 'template.json': json(TEMPLATE), assets: {} } });
    expect([...centralRecords(zip).keys()]).toContain('Wrap/assets/');
    expect(readBundle(zip).template).toEqual(TEMPLATE);
  });

  test('unexpected files, ignored with a warning', () => {
    const read = readBundle(bundleZip({ 'notes.txt': rive(3), 'assets/sub/deep.riv': rive(3), 'assets/ok.riv': rive(3) }));
    expect([...read.assets.keys()]).toEqual(['ok.riv']);
    expect(read.warnings).toHaveLength(2);
    expect(read.warnings.join('\n')).toMatch(/notes\.txt/);
    expect(read.warnings.join('\n')).toMatch(/assets\/sub\/deep\.riv/);
  });

  test('extra keys in bundle.json, kept as read', () => {
    const read = readBundle(bundleZip({ 'bundle.json': json({ ...MANIFEST, future: 'x', app: 42 }) }));
    expect(read.manifest.format).toBe('notifiertemplate');
    expect((read.manifest as Record<string, unknown>).future).toBe('x');
    expect(read.manifest.app).toBeUndefined(); // not a string: dropped
  });
});

describe('readBundle refuses', () => {
  test.each([['../evil.riv'], ['assets/../../x'], ['/abs'], ['C:\\x'], ['\\\\server\\x'], ['assets\\..\\x.riv'], ['name\0with-nul.riv']])(
    'the unsafe name %j',
    (name) => {
      expectRefused(() => readBundle(bundleZip({ [name]: rive(10) })), 400, `unsafe name in the bundle: ${name}`);
    },
  );

  test('an unsafe name inside __MACOSX too', () => {
    expectRefused(() => readBundle(bundleZip({ '__MACOSX/../x': rive(10) })), 400, 'unsafe name in the bundle: __MACOSX/../x');
  });

  test('more than 80 entries (413)', () => {
    const extra: Record<string, Uint8Array> = {};
    for (let i = 0; i < BUNDLE_MAX_ENTRIES - 1; i++) extra[`assets/a${i}.riv`] = rive(1);
    const eighty = bundleZip(extra);
    expect(centralRecords(eighty).size).toBe(81);
    expectRefused(() => readBundle(eighty), 413, 'the bundle is too large: it has 81 entries (at most 80)');
    delete extra['assets/a0.riv'];
    expect(readBundle(bundleZip(extra)).assets.size).toBe(78);
  });

  test('an entry declared over 10 MB (413), before inflating it', () => {
    const zip = bomb();
    expect(zip.length).toBeLessThan(100_000);
    expectRefused(() => readBundle(zip), 413, /^the bundle is too large: assets\/bomb\.riv is 10485761 bytes/);
  });

  test('an entry of exactly 10 MB is read', () => {
    const read = readBundle(bundleZip({ 'assets/big.riv': zeros.subarray(0, BUNDLE_MAX_ENTRY_BYTES) }));
    expect(read.assets.get('big.riv')!.length).toBe(BUNDLE_MAX_ENTRY_BYTES);
  });

  test('entries totalling over 64 MB (413)', () => {
    expectRefused(() => readBundle(seventyMegabytes()), 413, /^the bundle is too large: its files total \d+ bytes/);
  });

  test('entries totalling over 64 MB once inflated, though declared under it: inflating stops at the limit (413)', () => {
    const liar = patchDeclaredSize(seventyMegabytes(), 'assets/z6.riv', 1024 * 1024); // declares 61 MB in all
    expectRefused(() => readBundle(liar), 413, /^the bundle is too large: its files total over 64 MB/);
  });

  test('a zip bomb whose directory claims a small size: inflating stops at the limit (413)', () => {
    const liar = patchDeclaredSize(bomb(), 'assets/bomb.riv', 100);
    expectRefused(() => readBundle(liar), 413, /^the bundle is too large: assets\/bomb\.riv is over 10 MB/);
  });

  test('a template.json bomb claiming a small size stops at 2 MB (413)', () => {
    const zip = bundleZip({ 'template.json': zeros.subarray(0, BUNDLE_MAX_TEMPLATE_BYTES + 1) });
    expectRefused(
      () => readBundle(patchDeclaredSize(zip, 'template.json', 10)),
      413,
      /^the bundle is too large: template\.json is over 2 MB/,
    );
  });

  test('an entry holding more than it declares, within the limits (400)', () => {
    const liar = patchDeclaredSize(bundleZip({ 'assets/a.riv': zeros.subarray(0, 5000) }), 'assets/a.riv', 100);
    expectRefused(() => readBundle(liar), 400, 'the bundle cannot be read: assets/a.riv does not hold the size its zip header declares');
  });

  test('an entry holding less than it declares (400)', () => {
    const liar = patchDeclaredSize(bundleZip({ 'assets/a.riv': zeros.subarray(0, 5000) }), 'assets/a.riv', 1_000_000);
    expectRefused(() => readBundle(liar), 400, /does not hold the size its zip header declares/);
  });

  test('a stored entry whose sizes disagree (400)', () => {
    const stored = writeBundle({ app: 'ci', name: 'x', template: TEMPLATE, assets: new Map([['a.riv', rive(500)]]) });
    expectRefused(() => readBundle(patchDeclaredSize(stored, 'assets/a.riv', 5)), 400, /does not hold the size its zip header declares/);
  });

  test('a template.json over 2 MB (413)', () => {
    const template = { text: 'x'.repeat(BUNDLE_MAX_TEMPLATE_BYTES) };
    expectRefused(
      () => readBundle(bundleZip({ 'template.json': json(template) })),
      413,
      /^the bundle is too large: template\.json is \d+ bytes/,
    );
  });

  test('a missing template.json (400)', () => {
    expectRefused(() => readBundle(bundleZip({ 'template.json': null })), 400, 'the bundle has no template.json');
  });

  test('a missing bundle.json (400)', () => {
    expectRefused(() => readBundle(bundleZip({ 'bundle.json': null })), 400, 'the bundle has no bundle.json');
  });

  test('two wrapper folders: no bundle.json at the top (400)', () => {
    const zip = zipSync({ A: { 'bundle.json': json(MANIFEST) }, B: { 'template.json': json(TEMPLATE) } });
    expectRefused(() => readBundle(zip), 400, 'the bundle has no bundle.json');
  });

  test('invalid JSON (400)', () => {
    expectRefused(
      () => readBundle(bundleZip({ 'template.json': strToU8('{"id": ') })),
      400,
      /^the bundle cannot be read: template\.json is not valid JSON/,
    );
    expectRefused(
      () => readBundle(bundleZip({ 'bundle.json': strToU8('nope') })),
      400,
      /^the bundle cannot be read: bundle\.json is not valid JSON/,
    );
    expectRefused(
      () => readBundle(bundleZip({ 'bundle.json': json([1]) })),
      400,
      'the bundle cannot be read: bundle.json is not a JSON object',
    );
  });

  test('bytes that are not a zip (400)', () => {
    expectRefused(() => readBundle(rive(4096, 99)), 400, 'the bundle cannot be read: it is not a zip file');
    expectRefused(() => readBundle(new Uint8Array(0)), 400, 'the bundle cannot be read: it is not a zip file');
    expectRefused(() => readBundle(strToU8('{"format":"notifiertemplate"}')), 400, 'the bundle cannot be read: it is not a zip file');
  });

  test('a zip cut short or damaged (400)', () => {
    const zip = bundleZip({ 'assets/a.riv': rive(2000) });
    expectRefused(() => readBundle(zip.subarray(0, zip.length - 30)), 400, /^the bundle cannot be read: /);
    const garbled = zip.slice();
    const record = centralRecords(garbled).get('template.json')!;
    const local = new DataView(garbled.buffer).getUint32(record + 42, true);
    garbled.fill(0xff, local + 30 + 'template.json'.length, local + 30 + 'template.json'.length + 4);
    expectRefused(() => readBundle(garbled), 400, /^the bundle cannot be read: template\.json is damaged/);
  });

  test('an encrypted entry (400)', () => {
    const zip = patchCentral(bundleZip(), 'template.json', (view, record) =>
      view.setUint16(record + 8, view.getUint16(record + 8, true) | 1, true),
    );
    expectRefused(() => readBundle(zip), 400, 'the bundle cannot be read: template.json is encrypted');
  });

  test('an unknown compression method (400)', () => {
    const zip = patchCentral(bundleZip(), 'template.json', (view, record) => view.setUint16(record + 10, 14, true));
    expectRefused(() => readBundle(zip), 400, /^the bundle cannot be read: template\.json uses compression method 14/);
  });

  test('a zip64 size (400)', () => {
    const zip = patchCentral(bundleZip(), 'template.json', (view, record) => view.setUint32(record + 20, 0xffffffff, true));
    expectRefused(() => readBundle(zip), 400, /zip64/);
  });

  test('the same file twice (400)', () => {
    const zip = bundleZip({ 'assets/a.riv': rive(5), 'assets/b.riv': rive(5) });
    const patched = patchCentral(zip, 'assets/b.riv', (view, record) => view.setUint8(record + 46 + 'assets/'.length, 'a'.charCodeAt(0)));
    expectRefused(() => readBundle(patched), 400, 'the bundle cannot be read: it holds assets/a.riv twice');
  });

  test('bundle.json of another version (400)', () => {
    expectRefused(
      () => readBundle(bundleZip({ 'bundle.json': json({ ...MANIFEST, version: 2 }) })),
      400,
      'the bundle is format version 2; this Notifier reads version 1',
    );
  });

  test('bundle.json of another format (400)', () => {
    expectRefused(
      () => readBundle(bundleZip({ 'bundle.json': json({ ...MANIFEST, format: 'something-else' }) })),
      400,
      /^the bundle cannot be read: it is not a Notifier template bundle/,
    );
    expectRefused(
      () => readBundle(bundleZip({ 'bundle.json': json({ version: 1 }) })),
      400,
      /^the bundle cannot be read: it is not a Notifier template bundle/,
    );
  });

  test('bundle.json without a version (400)', () => {
    expectRefused(
      () => readBundle(bundleZip({ 'bundle.json': json({ format: BUNDLE_FORMAT }) })),
      400,
      'the bundle cannot be read: bundle.json has no format version',
    );
  });
});
