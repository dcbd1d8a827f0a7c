import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from '@jest/globals';
import { createCanvas, loadImage } from 'canvas';
import { drawCard } from '../../daemon/core/templates/previews.js';
import { escapeMarkdown } from '../../protocol/markdown.js';
import type { Notification } from '../../protocol/types.js';
import { builtinTemplate } from '../../templates-renderer/builtins.js';
import type { Template } from '../../templates-renderer/model.js';
import type { Appearance } from '../../templates-renderer/theme.js';
import { ROOT } from '../helpers/daemon.js';
import { IMAGES } from '../helpers/support.js';

// Golden pictures of the four built-in layouts (docs/api/templates.md#t3) in both appearances, drawn by the
// renderer that draws previews and live banners, from fixed inputs: a fixed clock, UTC, the sample picture.
// Pictures are compared by decoded pixels with a tolerance, so that a machine whose fonts hint a little
// differently still matches but a moved, resized, recoloured or missing part does not.
//
// UPDATE_GOLDENS=1 writes the pictures instead of comparing them (fixtures/README.md, "Golden pictures").

const GOLDEN = path.join(ROOT, 'fixtures', 'golden');
const UPDATE = process.env.UPDATE_GOLDENS === '1';

/** A pixel differs when one of its channels (0-255, straight alpha) differs by more than this. */
const CHANNEL_TOLERANCE = 48;
/** A picture differs when more than this share of its pixels differ, or when its size differs. */
const PIXEL_SHARE_TOLERANCE = 0.01;

const LAYOUTS = ['imageLeft', 'imageRight', 'hero', 'compact'] as const;
const APPEARANCES: Appearance[] = ['light', 'dark'];

const DELIVERED_AT = '2024-05-14T09:41:00Z';
const NOW = new Date('2024-05-14T09:45:00Z');

const NOTIFICATION: Notification = {
  app: 'golden',
  id: 'golden-1',
  title: 'Deploy finished',
  subtitle: 'api · production',
  body: 'Version 2.4.1 is live on 12 servers. [Open the dashboard](https://example.com/dash) or read the notes.',
  image: path.join(IMAGES, 'sample.png'),
  buttons: [
    { id: 'open', label: 'Open', url: 'https://example.com/dash' },
    { id: 'rollback', label: 'Roll back', command: 'deploy --rollback', style: 'destructive' },
  ],
};

async function render(
  layout: string,
  appearance: Appearance,
  notification: Notification = NOTIFICATION,
  template: Template = builtinTemplate(`builtin.${layout}`, 'golden')!,
): Promise<Buffer> {
  const { png } = await drawCard(
    template,
    { notification, deliveredAt: DELIVERED_AT, appName: 'Build Bot' },
    { appearance, scale: 2, stackCount: 1, stackExpanded: false, replying: false, now: NOW, timeZone: 'UTC' },
  );
  return png;
}

interface Pixels {
  width: number;
  height: number;
  data: Uint8ClampedArray;
}

async function decode(png: Buffer): Promise<Pixels> {
  const image = await loadImage(png);
  const canvas = createCanvas(image.width, image.height);
  const ctx = canvas.getContext('2d');
  ctx.drawImage(image, 0, 0);
  return { width: image.width, height: image.height, data: ctx.getImageData(0, 0, image.width, image.height).data };
}

interface Comparison {
  same: boolean;
  /** Why not, in words a failing test prints. */
  reason: string;
  differentShare: number;
}

/** Compares two pictures pixel by pixel, within the tolerances above. */
function compare(actual: Pixels, expected: Pixels): Comparison {
  if (actual.width !== expected.width || actual.height !== expected.height) {
    return {
      same: false,
      reason: `size ${actual.width}x${actual.height}, expected ${expected.width}x${expected.height}`,
      differentShare: 1,
    };
  }
  let different = 0;
  for (let i = 0; i < actual.data.length; i += 4) {
    for (let channel = 0; channel < 4; channel++) {
      if (Math.abs(actual.data[i + channel]! - expected.data[i + channel]!) > CHANNEL_TOLERANCE) {
        different++;
        break;
      }
    }
  }
  const share = different / (actual.width * actual.height);
  const percent = (share * 100).toFixed(2);
  return {
    same: share <= PIXEL_SHARE_TOLERANCE,
    reason: `${different} pixels (${percent}%) differ by more than ${CHANNEL_TOLERANCE}`,
    differentShare: share,
  };
}

const goldenFile = (name: string, appearance: Appearance): string => path.join(GOLDEN, `${name}-${appearance}.png`);

async function readGolden(name: string, appearance: Appearance): Promise<Buffer> {
  const file = goldenFile(name, appearance);
  try {
    return await readFile(file);
  } catch {
    throw new Error(
      `${path.relative(ROOT, file)} is missing: run UPDATE_GOLDENS=1 npx jest test/templates-renderer/golden.test.ts and look at the pictures`,
    );
  }
}

describe('golden pictures of the built-in layouts', () => {
  for (const layout of LAYOUTS) {
    for (const appearance of APPEARANCES) {
      test(`builtin.${layout}, ${appearance}`, async () => {
        const png = await render(layout, appearance);
        if (UPDATE) {
          await mkdir(GOLDEN, { recursive: true });
          await writeFile(goldenFile(layout, appearance), png);
          return;
        }
        const result = compare(await decode(png), await decode(await readGolden(layout, appearance)));
        // On a failure the reason is printed; look at the render (UPDATE_GOLDENS=1 and git diff) before accepting it.
        expect(result.same ? 'same' : result.reason).toBe('same');
      });
    }
  }
});

/** docs/api/notifications.md#n7: a notification's own layout fields, which the built-in layouts draw. */
const LAYOUT_FIELDS: Array<{ name: string; layout: string; appearance: Appearance; fields: Partial<Notification> }> = [
  {
    name: 'imageLeft-fields',
    layout: 'imageLeft',
    appearance: 'light',
    fields: { accentColor: '#D9480F', showSubtitle: false, showTimestamp: false, maxBodyLines: 1 },
  },
  { name: 'hero-fields', layout: 'hero', appearance: 'dark', fields: { accentColor: '#2F9E44', showBody: false } },
];

describe("the built-in layouts draw a notification's accentColor, show* and maxBodyLines", () => {
  for (const { name, layout, appearance, fields } of LAYOUT_FIELDS) {
    test(`builtin.${layout} with ${JSON.stringify(fields)}, ${appearance}`, async () => {
      const png = await render(layout, appearance, { ...NOTIFICATION, ...fields });
      if (UPDATE) {
        await writeFile(goldenFile(name, appearance), png);
        return;
      }
      const drawn = await decode(png);
      const result = compare(drawn, await decode(await readGolden(name, appearance)));
      expect(result.same ? 'same' : result.reason).toBe('same');
      // ...and it is not the card without the fields.
      expect(compare(drawn, await decode(await readGolden(layout, appearance))).same).toBe(false);
    });
  }

  test('a saved template is drawn with its own settings: the fields change nothing', async () => {
    const saved: Template = { ...builtinTemplate('builtin.imageLeft', 'golden')!, name: 'mine' };
    const plain = await decode(await render('imageLeft', 'light', NOTIFICATION, saved));
    const withFields = await decode(await render('imageLeft', 'light', { ...NOTIFICATION, ...LAYOUT_FIELDS[0]!.fields }, saved));
    expect(compare(withFields, plain)).toMatchObject({ same: true, differentShare: 0 });
  });
});

/** docs/api/notifications.md#n46: a body as agents write it, with inline code, a list in a list and a code block. */
const MARKDOWN_BODY = [
  'Build **failed** on `main`:',
  '- lint: `3 errors`',
  '- tests:',
  '  - `history.test.ts`',
  '```sh',
  'npm test',
  '  --watch',
  '```',
].join('\n');

describe("a body's Markdown on the card", () => {
  for (const appearance of APPEARANCES) {
    test(`code in the monospace face on its fill, a list's items after bullets, no marks: builtin.imageLeft, ${appearance}`, async () => {
      const notification = { ...NOTIFICATION, body: MARKDOWN_BODY, maxBodyLines: 8 };
      const png = await render('imageLeft', appearance, notification);
      if (UPDATE) {
        await writeFile(goldenFile('imageLeft-markdown', appearance), png);
        return;
      }
      const drawn = await decode(png);
      const result = compare(drawn, await decode(await readGolden('imageLeft-markdown', appearance)));
      expect(result.same ? 'same' : result.reason).toBe('same');
      // ...and it is not the same text with its marks shown as written.
      const asWritten = await decode(await render('imageLeft', appearance, { ...notification, body: escapeMarkdown(MARKDOWN_BODY) }));
      expect(compare(drawn, asWritten).same).toBe(false);
    });
  }
});

// The comparison itself: it must tell a real change from the noise of another machine's fonts, or the tests above
// could pass whatever the renderer draws.
describe('the golden comparison', () => {
  test('a picture matches itself with no pixel different', async () => {
    const golden = await decode(await readGolden('imageLeft', 'light'));
    expect(compare(golden, golden)).toMatchObject({ same: true, differentShare: 0 });
  });

  test('small differences in every pixel (as from other font hinting) are within the tolerance', async () => {
    const golden = await decode(await readGolden('imageLeft', 'light'));
    const nudged = { ...golden, data: golden.data.map((value, index) => (index % 4 === 3 ? value : value + (value > 127 ? -30 : 30))) };
    expect(compare(nudged, golden).same).toBe(true);
  });

  test('the dark render is reported as different from the light golden', async () => {
    const dark = await decode(await render('imageLeft', 'dark'));
    const result = compare(dark, await decode(await readGolden('imageLeft', 'light')));
    expect(result.same).toBe(false);
    expect(result.differentShare).toBeGreaterThan(0.3);
  });

  test('a layout change of the same size is reported: the picture on the other side', async () => {
    const right = await decode(await render('imageRight', 'light'));
    const left = await decode(await readGolden('imageLeft', 'light'));
    expect([right.width, right.height]).toEqual([left.width, left.height]);
    const result = compare(right, left);
    expect(result.same).toBe(false);
    expect(result.reason).toMatch(/pixels \(\d+\.\d+%\) differ/);
  });

  test('another picture in the same place is reported', async () => {
    const canvas = createCanvas(16, 16);
    const ctx = canvas.getContext('2d');
    ctx.fillStyle = '#E8412C';
    ctx.fillRect(0, 0, 16, 16);
    const red = { ...NOTIFICATION, image: `data:image/png;base64,${canvas.toBuffer('image/png').toString('base64')}` };
    const result = compare(await decode(await render('imageLeft', 'light', red)), await decode(await readGolden('imageLeft', 'light')));
    expect(result.same).toBe(false);
  });

  test('a size change is reported (a missing subtitle makes the card shorter)', async () => {
    const { subtitle: _subtitle, ...withoutSubtitle } = NOTIFICATION;
    const result = compare(
      await decode(await render('imageLeft', 'light', withoutSubtitle)),
      await decode(await readGolden('imageLeft', 'light')),
    );
    expect(result).toMatchObject({ same: false, differentShare: 1 });
    expect(result.reason).toMatch(/^size 808x\d+, expected 808x\d+$/);
  });
});
