import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from '@jest/globals';
import { tempFolder } from '../helpers/daemon.js';
import { startInProcess } from '../helpers/in-process.js';
import { IMAGES, writeSupportFile } from '../helpers/support.js';

// A notification drawn through a template stores its resolved fields; with the `bannerCardImage` setting
// the banner carries the rendered card as its picture (380 points wide, drawn at scale 2, plus the shadow margin).

const CARD_PIXEL_WIDTH = (380 + 2 * 12) * 2;
const pngWidth = (png: Buffer): number => png.readUInt32BE(16);

async function withTemplate(settings: Record<string, unknown>) {
  const supportDir = await tempFolder('notifier-cards-');
  await writeSupportFile(supportDir, 'settings.json', settings);
  const n = await startInProcess({ supportDir });
  const ok = async (method: string, route: string, body: unknown) =>
    expect((await n.api(method, route, { body })).json).toMatchObject({ ok: true });
  await ok('PUT', '/v1/manifest', {
    app: 'cards',
    fields: [
      { key: 'count', type: 'number' },
      { key: 'done', type: 'bool' },
    ],
  });
  await ok('PUT', '/v1/templates', {
    app: 'cards',
    name: 'team',
    title: '{count} builds for {extra.team}',
    extra: { team: 'Platform' },
    grid: { rows: 2, cols: 1 },
    cells: [
      { id: 'title', row: 0, col: 0, component: { type: 'text', binding: '{title}', style: 'title' } },
      { id: 'body', row: 1, col: 0, component: { type: 'text', binding: '{body}' } },
    ],
  });
  await ok('PUT', '/v1/templates/default', { app: 'cards', name: 'team' });
  return { n, supportDir };
}

describe('notifications drawn through templates', () => {
  test('History keeps the resolved fields: template extra, and number and bool fields read as such', async () => {
    const { n } = await withTemplate({});
    expect((await n.notify({ app: 'cards', id: 'f', count: '2.0', done: 'yes' })).status).toBe(200);
    const record = await n.record('cards', 'f');
    expect(record.notification.title).toBe('2 builds for Platform');
    expect(record.fields).toMatchObject({ count: '2', done: 'true', 'extra.team': 'Platform', title: '2 builds for Platform' });
  });

  test('with bannerCardImage on, the banner shows the card drawn through its template', async () => {
    const { n, supportDir } = await withTemplate({ bannerCardImage: true });
    expect((await n.notify({ app: 'cards', id: 'c', count: 3, body: 'All green', image: path.join(IMAGES, 'sample.png') })).status).toBe(
      200,
    );
    const banner = n.person.banner('cards', 'c')!;
    expect(banner.card).toMatch(new RegExp(`^${supportDir}/cards/cards/[0-9a-f]{32}\\.png$`));
    const png = await readFile(banner.card!);
    expect(png.subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(pngWidth(png)).toBe(CARD_PIXEL_WIDTH);
    // The picture the sender gave stays the record's own, and the banner's, for displays that show no card.
    expect((await n.record('cards', 'c')).imagePath).toBe(banner.imagePath);
  });

  test('without the setting, the banner shows the notification picture itself', async () => {
    const { n } = await withTemplate({});
    await n.notify({ app: 'cards', id: 'p', count: 1, image: path.join(IMAGES, 'sample.png') });
    const record = await n.record('cards', 'p');
    expect(n.person.banner('cards', 'p')!.imagePath).toBe(record.imagePath);
  });
});
