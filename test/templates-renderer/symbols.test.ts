import { beforeAll, describe, expect, test } from '@jest/globals';
import { createCanvas, loadImage } from 'canvas';
import { hasSymbol, listSymbols, symbolSVG, SYNONYMS } from '../../templates-renderer/symbols.js';

type IconNode = [string, Record<string, string | number>];

let iconNodes: Record<string, IconNode[]>;
let iconTags: Record<string, string[]>;
let iconCount: number;

beforeAll(async () => {
  iconNodes = (await import('lucide-static/icon-nodes.json', { with: { type: 'json' } })).default as unknown as Record<string, IconNode[]>;
  iconTags = (await import('lucide-static/tags.json', { with: { type: 'json' } })).default as unknown as Record<string, string[]>;
  iconCount = Object.keys(iconNodes).length;
});

const names = (listing: { symbols: Array<{ name: string }> }) => listing.symbols.map((s) => s.name);

/** The words of an icon's tags, split as the catalogue splits them. */
const tagWords = (name: string) => (iconTags[name] ?? []).flatMap((tag) => tag.toLowerCase().split(/[\s-]+/)).filter(Boolean);

/** The documented rule, from the raw data: a substring of the name, or a prefix of a tag word or a synonym word. */
function matchesWord(name: string, word: string): boolean {
  const parts = `-${name}-`;
  const synonymWords = Object.entries(SYNONYMS)
    .filter(([part]) => parts.includes(`-${part}-`))
    .flatMap(([, words]) => words.flatMap((w) => w.toLowerCase().split(/[\s-]+/)));
  return name.includes(word) || [...tagWords(name), ...synonymWords].some((w) => w.startsWith(word));
}

/** Every symbol of the catalogue (two pages of 1000). */
async function everything() {
  const first = await listSymbols({ limit: 1000, offset: 0 });
  const second = await listSymbols({ limit: 1000, offset: 1000 });
  return [...first.symbols, ...second.symbols];
}

describe('search', () => {
  test('the lucide data is what the tests expect', () => {
    expect(iconCount).toBeGreaterThan(1500);
    expect(iconTags.bell).toEqual(expect.arrayContaining(['alarm', 'notification', 'sound', 'reminder']));
  });

  test('"bell" finds bell first, and only icons whose name or a tag word matches', async () => {
    const found = await listSymbols({ q: 'bell' });
    expect(found.symbols[0]).toEqual({ name: 'bell', categories: expect.arrayContaining(['all', 'alerts']) });
    expect(names(found)).toEqual(expect.arrayContaining(['bell-ring', 'bell-off', 'concierge-bell']));
    // Every icon with "bell" in its name is found...
    const withName = Object.keys(iconNodes).filter((n) => n.includes('bell'));
    expect(names(found)).toEqual(expect.arrayContaining(withName));
    // ...and nothing that matches neither by name nor by a tag word.
    for (const name of names(found)) {
      expect(matchesWord(name, 'bell')).toBe(true);
    }
    expect(found.total).toBe(found.symbols.length);
  });

  test('exact name first, then names starting with the word, then other name matches, then tag matches', async () => {
    const found = names(await listSymbols({ q: 'bell', limit: 1000 }));
    const firstNonPrefix = found.findIndex((n) => !n.startsWith('bell'));
    expect(found.indexOf('concierge-bell')).toBeGreaterThan(found.lastIndexOf('bell-ring'));
    expect(found.slice(1, firstNonPrefix)).toEqual([...found.slice(1, firstNonPrefix)].sort());
    expect(found.slice(firstNonPrefix).every((n) => !n.startsWith('bell'))).toBe(true);
    // The words joined with hyphens name an icon: it comes first, before arrow-big-right and the like.
    const arrowRight = names(await listSymbols({ q: 'Arrow  RIGHT', limit: 1000 }));
    expect(arrowRight[0]).toBe('arrow-right');
    expect(arrowRight.indexOf('arrow-big-right')).toBeGreaterThan(0);
  });

  test.each(['alarm', 'notification', 'reminder', 'REMINDER', 'notif', '  Reminder  '])('the tag word %j finds bell', async (q) => {
    const found = await listSymbols({ q, limit: 1000 });
    expect(names(found)).toContain('bell');
    const word = q.trim().toLowerCase();
    for (const name of names(found)) {
      expect(matchesWord(name, word)).toBe(true);
    }
    expect(found.total).toBe(Object.keys(iconNodes).filter((name) => matchesWord(name, word)).length);
  });

  test('a tag word matches by prefix only, not in the middle of a word', async () => {
    // bell's tags: alarm, notification, sound, reminder. "minder" is inside "reminder" but starts none of its words.
    expect(names(await listSymbols({ q: 'minder', limit: 1000 }))).not.toContain('bell');
    expect(names(await listSymbols({ q: 'reminders', limit: 1000 }))).not.toContain('bell');
  });

  test('search is case-insensitive', async () => {
    expect(await listSymbols({ q: 'BeLL' })).toEqual(await listSymbols({ q: 'bell' }));
  });

  test('every word must match', async () => {
    const bellRing = await listSymbols({ q: 'bell ring', limit: 1000 });
    expect(names(bellRing)).toContain('bell-ring');
    expect(names(bellRing)).not.toContain('bell'); // bell has no "ring" in its name or tags
    for (const name of names(bellRing)) {
      for (const word of ['bell', 'ring']) {
        expect(matchesWord(name, word)).toBe(true);
      }
    }
    const both = await listSymbols({ q: 'bell\tnotification', limit: 1000 });
    expect(names(both)).toContain('bell');
    const bellOnly = await listSymbols({ q: 'bell', limit: 1000 });
    const notificationOnly = await listSymbols({ q: 'notification', limit: 1000 });
    const intersection = names(bellOnly).filter((n) => names(notificationOnly).includes(n));
    expect([...names(both)].sort()).toEqual(intersection.sort());
    expect(both.total).toBeLessThan(bellOnly.total);

    expect((await listSymbols({ q: 'bell zzzqqq' })).total).toBe(0);
  });

  test('synonyms: SF Symbols and everyday names', async () => {
    expect(names(await listSymbols({ q: 'xmark', limit: 1000 }))).toContain('x');
    expect(names(await listSymbols({ q: 'envelope', limit: 1000 }))).toContain('mail');
    expect(names(await listSymbols({ q: 'gear', limit: 1000 }))).toContain('settings');
    expect(names(await listSymbols({ q: 'magnifyingglass', limit: 1000 }))).toContain('search');
    expect(iconTags.x ?? []).not.toContain('xmark'); // really found through the synonym table
  });

  test('an empty or blank query lists everything, alphabetically', async () => {
    const all = await listSymbols({ q: '   ', limit: 1000 });
    expect(all.total).toBe(iconCount);
    expect(names(all)).toEqual(Object.keys(iconNodes).sort().slice(0, 1000));
    expect(await listSymbols({})).toEqual(await listSymbols({ q: '' }));
  });
});

describe('paging', () => {
  test('limit and offset page through the matches; total counts all of them', async () => {
    const ten = await listSymbols({ q: 'arrow', limit: 10 });
    const first = await listSymbols({ q: 'arrow', limit: 5, offset: 0 });
    const second = await listSymbols({ q: 'arrow', limit: 5, offset: 5 });
    expect(ten.total).toBeGreaterThan(10);
    expect(first.total).toBe(ten.total);
    expect(second.total).toBe(ten.total);
    expect([first.limit, first.offset, second.limit, second.offset]).toEqual([5, 0, 5, 5]);
    expect(first.symbols).toHaveLength(5);
    expect([...names(first), ...names(second)]).toEqual(names(ten));

    const past = await listSymbols({ q: 'arrow', limit: 5, offset: ten.total });
    expect(past.symbols).toEqual([]);
    expect(past.total).toBe(ten.total);
    const last = await listSymbols({ q: 'arrow', limit: 5, offset: ten.total - 2 });
    expect(last.symbols).toHaveLength(2);
  });

  test('defaults: limit 100, offset 0', async () => {
    const listing = await listSymbols({});
    expect([listing.limit, listing.offset, listing.total, listing.symbols.length]).toEqual([100, 0, iconCount, 100]);
  });

  test('limit is clamped to 0..1000 and offset to >= 0', async () => {
    const big = await listSymbols({ limit: 5000 });
    expect([big.limit, big.symbols.length, big.total]).toEqual([1000, 1000, iconCount]);
    const negative = await listSymbols({ limit: -1 });
    expect([negative.limit, negative.symbols.length, negative.total]).toEqual([0, 0, iconCount]);
    const zero = await listSymbols({ limit: 0 });
    expect(zero.symbols).toEqual([]);
    expect(zero.categories[0]!.count).toBe(iconCount);
    const backwards = await listSymbols({ limit: 3, offset: -5 });
    expect(backwards.offset).toBe(0);
    expect(names(backwards)).toEqual(names(await listSymbols({ limit: 3 })));
    expect((await listSymbols({ limit: 2.9 })).symbols).toHaveLength(2);
    expect((await listSymbols({ limit: Number.NaN })).limit).toBe(100);
  });
});

describe('categories', () => {
  test('the list starts with all, holding every icon; keys are unique; every icon exists', async () => {
    const { categories } = await listSymbols({ limit: 0 });
    expect(categories[0]).toEqual({ key: 'all', title: 'All', icon: expect.any(String), count: iconCount });
    expect(categories.length).toBeGreaterThanOrEqual(13);
    expect(new Set(categories.map((c) => c.key)).size).toBe(categories.length);
    for (const category of categories) {
      expect(category.title).not.toBe('');
      expect(await hasSymbol(category.icon)).toBe(true);
      expect(category.count).toBeGreaterThan(0);
      expect(category.count).toBeLessThanOrEqual(iconCount);
    }
    expect(categories.map((c) => c.key)).toEqual(
      expect.arrayContaining(['arrows', 'communication', 'files', 'media', 'weather', 'time', 'devices', 'people']),
    );
  });

  test('every icon is listed once, in all first', async () => {
    const symbols = await everything();
    expect(symbols).toHaveLength(iconCount);
    expect(new Set(symbols.map((s) => s.name)).size).toBe(iconCount);
    for (const symbol of symbols) expect(symbol.categories[0]).toBe('all');
  });

  test('each category count is the number of icons listing it and what its filter returns', async () => {
    const symbols = await everything();
    const { categories } = await listSymbols({ limit: 0 });
    for (const category of categories) {
      const members = symbols.filter((s) => s.categories.includes(category.key)).map((s) => s.name);
      expect(members).toHaveLength(category.count);
      const filtered = await listSymbols({ category: category.key, limit: 1000 });
      expect(filtered.total).toBe(category.count);
      expect(names(filtered)).toEqual(members.slice(0, 1000));
    }
  });

  test('weather holds the icons tagged weather plus sky and temperature icons, by name', async () => {
    const rule =
      /(^|-)(sun|moon|snowflake|umbrella|thermometer|rainbow|tornado|cloudy|haze|cloud-rain|cloud-snow|cloud-sun|cloud-moon|cloud-lightning)(-|$)/;
    const expected = Object.keys(iconNodes)
      .filter((name) => rule.test(name) || (iconTags[name] ?? []).some((tag) => tag.toLowerCase() === 'weather'))
      .sort();
    const weather = await listSymbols({ category: 'weather', limit: 1000 });
    expect(weather.categories.find((c) => c.key === 'weather')).toEqual({
      key: 'weather',
      title: 'Weather',
      icon: 'cloud-sun',
      count: expected.length,
    });
    expect(names(weather)).toEqual(expected);
    expect(names(weather)).toEqual(expect.arrayContaining(['cloud-sun', 'snowflake', 'moon', 'sun', 'umbrella', 'cloud-rain']));
    expect(names(weather)).not.toContain('cloud-upload');
  });

  test('a category combines with the query', async () => {
    const cloudy = await listSymbols({ q: 'cloud', category: 'weather', limit: 1000 });
    expect(cloudy.total).toBeGreaterThan(3);
    for (const symbol of cloudy.symbols) expect(symbol.categories).toContain('weather');
    expect(names(cloudy)).toContain('cloud-rain');
    expect(names(cloudy)).not.toContain('cloud-upload');
    expect(names(await listSymbols({ q: 'cloud', limit: 1000 }))).toContain('cloud-upload');
  });

  test('category keys are matched ignoring case and surrounding space; empty means all', async () => {
    expect(await listSymbols({ category: ' Weather ' })).toEqual(await listSymbols({ category: 'weather' }));
    expect((await listSymbols({ category: '' })).total).toBe(iconCount);
  });

  test('an unknown category is an error naming the known keys', async () => {
    const { categories } = await listSymbols({ limit: 0 });
    const keys = categories.map((c) => c.key).join(', ');
    expect(keys.startsWith('all, arrows, ')).toBe(true);
    await expect(listSymbols({ category: 'nope' })).rejects.toThrow(new Error(`unknown category: nope (known: ${keys})`));
  });
});

describe('SVG', () => {
  test('bell: a standalone SVG document with its paths and the colour', async () => {
    const svg = (await symbolSVG('bell', { color: '#ff0000' }))!.toString('utf8');
    expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg" ')).toBe(true);
    expect(svg.endsWith('</svg>')).toBe(true);
    for (const attribute of [
      'width="24"',
      'height="24"',
      'viewBox="0 0 24 24"',
      'fill="none"',
      'stroke="#ff0000"',
      'stroke-width="2"',
      'stroke-linecap="round"',
      'stroke-linejoin="round"',
    ]) {
      expect(svg).toContain(` ${attribute}`);
    }
    const paths = iconNodes.bell!.map(([, attrs]) => `<path d="${attrs.d}"/>`);
    expect(paths).toHaveLength(2);
    expect(svg).toContain(paths.join(''));
    expect(svg.match(/</g)).toHaveLength(4); // <svg>, two paths, </svg>
  });

  test('size and stroke width', async () => {
    const svg = (await symbolSVG('bell', { color: 'red', size: 48, strokeWidth: 1.5 }))!.toString();
    expect(svg).toContain(' width="48" height="48" viewBox="0 0 24 24"');
    expect(svg).toContain(' stroke-width="1.5"');
  });

  test('circles, rects and lines keep their attributes', async () => {
    const svg = (await symbolSVG('circle-alert', { color: 'black' }))!.toString();
    for (const [tag, attrs] of iconNodes['circle-alert']!) {
      const written = Object.entries(attrs)
        .map(([k, v]) => ` ${k}="${v}"`)
        .join('');
      expect(svg).toContain(`<${tag}${written}/>`);
    }
  });

  test('every icon builds, with one element per node', async () => {
    for (const [name, nodes] of Object.entries(iconNodes)) {
      const svg = (await symbolSVG(name, { color: '#000' }))!.toString();
      expect((svg.match(/</g) ?? []).length).toBe(nodes.length + 2);
    }
  });

  test('attribute values are XML-escaped: a hostile colour cannot break out', async () => {
    const svg = (await symbolSVG('bell', { color: `"><script>alert('x&y')</script>` }))!.toString();
    expect(svg).not.toContain('<script');
    expect(svg).toContain(' stroke="&quot;&gt;&lt;script&gt;alert(&apos;x&amp;y&apos;)&lt;/script&gt;"');
    expect(svg.match(/</g)).toHaveLength(4);
    expect(svg.match(/"/g)!.length % 2).toBe(0);
  });

  test('an unknown name gives null; hasSymbol', async () => {
    expect(await symbolSVG('no-such-symbol', { color: 'red' })).toBeNull();
    expect(await symbolSVG('__proto__', { color: 'red' })).toBeNull();
    expect(await hasSymbol('bell')).toBe(true);
    expect(await hasSymbol(' Bell ')).toBe(true);
    expect(await hasSymbol('no-such-symbol')).toBe(false);
    expect(await hasSymbol('constructor')).toBe(false);
    expect(await hasSymbol('')).toBe(false);
  });

  test('node-canvas draws it', async () => {
    const svg = await symbolSVG('bell', { color: '#ff0000', size: 48 });
    const image = await loadImage(svg!);
    expect([image.width, image.height]).toEqual([48, 48]);
    const canvas = createCanvas(48, 48);
    const context = canvas.getContext('2d');
    context.drawImage(image, 0, 0, 48, 48);
    const { data } = context.getImageData(0, 0, 48, 48);
    let painted = 0;
    let red = 0;
    for (let i = 0; i < data.length; i += 4) {
      if (data[i + 3]! > 0) painted++;
      if (data[i + 3]! > 200 && data[i]! > 200 && data[i + 1]! < 60 && data[i + 2]! < 60) red++;
    }
    // A stroked outline: a good number of pixels, far from all of them (fill is none).
    expect(painted).toBeGreaterThan(100);
    expect(painted).toBeLessThan((48 * 48) / 2);
    expect(red).toBeGreaterThan(50);
    // The middle of the bell is hollow; the corners are empty.
    const alphaAt = (x: number, y: number) => data[(y * 48 + x) * 4 + 3];
    expect(alphaAt(0, 0)).toBe(0);
    expect(alphaAt(24, 24)).toBe(0);
  });
});
