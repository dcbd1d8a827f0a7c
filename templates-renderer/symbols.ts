// The symbol catalogue behind `GET /v1/symbols` (docs/api/templates.md#t26) and the `symbol` drawings. SF Symbols
// is macOS's own list; Linux has none, so the catalogue is Lucide's icon set (`lucide-static`, ISC
// licence): 24x24 stroke icons, each with a list of search words (`tags.json`).
//
// Search: the query is split on white space and folded (lower case, no accents); every word must match the icon in
// at least one of these ways:
//   - it is a substring of the icon name (`arr` and `w-ri` match `arrow-right`);
//   - it is a prefix of a word of one of the icon's tags (`notif` matches the tag `notification`; tags of several
//     words such as `speech bubble` are split on white space and hyphens);
//   - it is a prefix of a word of one of the icon's synonyms (SYNONYMS below: SF Symbols and everyday names such as
//     `xmark`, `gear`, `envelope` given to the Lucide icons that stand for them).
// Matches are ordered: the icon named by the words joined with hyphens first (`arrow right` -> `arrow-right`), then
// names that start with the first query word, then other name matches, then icons found only through tags or
// synonyms; alphabetical by name within each group. Without words every icon matches, alphabetically.
//
// Categories: Lucide has none, so CATEGORY_RULES defines them by rules over the icon names and tags. `all` comes
// first and holds every icon; an icon may be in any number of the others. The category counts in a reply are over
// the whole catalogue (not over the query's matches); `total` counts the matches of the query and category before
// paging.

import { queryWords } from '../protocol/search-text.js';

type IconNode = [tag: string, attributes: Record<string, string | number>];

export interface SymbolQuery {
  q?: string;
  category?: string;
  limit?: number;
  offset?: number;
}

export interface SymbolCategory {
  key: string;
  title: string;
  /** A symbol name that exists in the catalogue. */
  icon: string;
  /** How many symbols the category holds (over the whole catalogue). */
  count: number;
}

export interface SymbolListing {
  /** Matches of `q` and `category` before paging. */
  total: number;
  offset: number;
  limit: number;
  /** `categories` are the keys of the symbol's categories, `all` first. */
  symbols: Array<{ name: string; categories: string[] }>;
  categories: SymbolCategory[];
}

/** Why the catalogue cannot answer. The renderer knows no HTTP: the route that serves the catalogue answers for it. */
export type SymbolsProblem = { kind: 'no-symbol-list'; cause: string } | { kind: 'unknown-category'; category: string; known: string[] };

export class SymbolsError extends Error {
  constructor(readonly problem: SymbolsProblem) {
    super(
      problem.kind === 'no-symbol-list'
        ? `this computer has no symbol list: ${problem.cause}`
        : `unknown category: ${problem.category} (known: ${problem.known.join(', ')})`,
    );
    this.name = 'SymbolsError';
  }
}

export interface SymbolSVGOptions {
  /** Any CSS/SVG colour; it is written as the `stroke` (XML-escaped). */
  color: string;
  /** Width and height of the document in pixels, default 24 (clamped to 1..4096). */
  size?: number;
  /** Stroke width in viewBox units, default 2 (clamped to 0..24). */
  strokeWidth?: number;
}

export const SYMBOL_LIMIT_DEFAULT = 100;
export const SYMBOL_LIMIT_MAX = 1000;

interface CategoryRule {
  key: string;
  title: string;
  icon: string;
  /** Names that belong, exactly. */
  names?: string[];
  /** Hyphen-separated parts of a name (a part may itself contain hyphens: `hard-drive`). */
  nameWords?: string[];
  /** Whole tags (lower case). */
  tags?: string[];
}

/** The categories after `all`, in reply order. An icon belongs when any of the rule's lists matches it. */
export const CATEGORY_RULES: readonly CategoryRule[] = [
  {
    key: 'arrows',
    title: 'Arrows',
    icon: 'arrow-right',
    nameWords: [
      'arrow',
      'arrows',
      'chevron',
      'chevrons',
      'move',
      'undo',
      'redo',
      'rotate',
      'refresh',
      'repeat',
      'shuffle',
      'iteration',
      'corner-down-left',
      'corner-down-right',
      'corner-left-down',
      'corner-left-up',
      'corner-right-down',
      'corner-right-up',
      'corner-up-left',
      'corner-up-right',
      'log-in',
      'log-out',
    ],
  },
  {
    key: 'communication',
    title: 'Communication',
    icon: 'message-circle',
    names: ['send', 'send-horizontal', 'forward', 'speech'],
    nameWords: [
      'message',
      'messages',
      'mail',
      'mails',
      'mailbox',
      'phone',
      'inbox',
      'at-sign',
      'voicemail',
      'rss',
      'contact',
      'megaphone',
      'reply',
      'reply-all',
    ],
    tags: ['email', 'chat', 'comment'],
  },
  {
    key: 'files',
    title: 'Files and folders',
    icon: 'file',
    nameWords: [
      'file',
      'files',
      'folder',
      'folders',
      'archive',
      'clipboard',
      'save',
      'paperclip',
      'notebook',
      'sticky-note',
      'sticky-notes',
      'scroll',
    ],
    tags: ['document'],
  },
  {
    key: 'media',
    title: 'Media and audio',
    icon: 'play',
    nameWords: [
      'play',
      'pause',
      'music',
      'volume',
      'video',
      'videotape',
      'film',
      'camera',
      'mic',
      'image',
      'images',
      'headphones',
      'headphone',
      'disc',
      'radio',
      'skip-back',
      'skip-forward',
      'step-back',
      'step-forward',
      'rewind',
      'fast-forward',
      'speaker',
      'clapperboard',
      'cassette-tape',
      'audio-lines',
      'audio-waveform',
      'tv',
      'eject',
      'cast',
      'boom-box',
      'turntable',
      'guitar',
      'piano',
      'drum',
      'clef',
      'eighth-note',
      'eighth-notes',
      'half-note',
      'sixteenth-notes',
    ],
    tags: ['music', 'movie', 'photo'],
  },
  {
    key: 'weather',
    title: 'Weather',
    icon: 'cloud-sun',
    nameWords: [
      'sun',
      'moon',
      'snowflake',
      'umbrella',
      'thermometer',
      'rainbow',
      'tornado',
      'cloudy',
      'haze',
      'cloud-rain',
      'cloud-snow',
      'cloud-sun',
      'cloud-moon',
      'cloud-lightning',
    ],
    tags: ['weather'],
  },
  {
    key: 'time',
    title: 'Time and dates',
    icon: 'clock',
    nameWords: ['clock', 'calendar', 'calendars', 'timer', 'alarm-clock', 'hourglass', 'watch', 'history'],
    tags: ['time', 'schedule'],
  },
  {
    key: 'devices',
    title: 'Devices',
    icon: 'monitor',
    nameWords: [
      'monitor',
      'laptop',
      'smartphone',
      'tablet',
      'tablets',
      'tv',
      'keyboard',
      'mouse',
      'printer',
      'cpu',
      'gpu',
      'microchip',
      'server',
      'hard-drive',
      'battery',
      'plug',
      'usb',
      'bluetooth',
      'wifi',
      'router',
      'gamepad',
      'watch',
      'computer',
      'headset',
      'webcam',
      'memory-stick',
      'projector',
      'pc-case',
      'circuit-board',
      'cable',
      'card-sim',
    ],
    tags: ['device', 'computer', 'mobile'],
  },
  {
    key: 'people',
    title: 'People',
    icon: 'user',
    nameWords: ['user', 'users', 'person-standing', 'baby', 'contact', 'face', 'accessibility'],
    tags: ['person', 'people', 'profile', 'avatar'],
  },
  {
    key: 'shapes',
    title: 'Shapes',
    icon: 'square',
    names: [
      'square',
      'circle',
      'triangle',
      'triangle-right',
      'hexagon',
      'octagon',
      'pentagon',
      'diamond',
      'star',
      'heart',
      'shapes',
      'rectangle-horizontal',
      'rectangle-vertical',
      'rectangle-circle',
      'cone',
      'cylinder',
      'torus',
      'pyramid',
      'spline',
      'squircle',
      'circle-dashed',
      'square-dashed',
      'circle-small',
      'squares-exclude',
      'squares-intersect',
      'squares-subtract',
      'squares-unite',
      'box',
      'ellipse',
    ],
    tags: ['shape', 'geometry'],
  },
  {
    key: 'text',
    title: 'Text and formatting',
    icon: 'type',
    nameWords: [
      'text',
      'type',
      'heading',
      'bold',
      'italic',
      'underline',
      'strikethrough',
      'align',
      'pilcrow',
      'quote',
      'languages',
      'spell-check',
      'case-sensitive',
      'case-lower',
      'case-upper',
      'subscript',
      'superscript',
      'wrap-text',
      'remove-formatting',
      'a-large-small',
      'baseline',
      'letter-spacing',
      'line-height',
      'ligature',
      'whole-word',
      'letters',
      'highlighter',
    ],
    tags: ['typography', 'font', 'paragraph'],
  },
  {
    key: 'places',
    title: 'Maps, travel and places',
    icon: 'map-pin',
    nameWords: [
      'map',
      'map-pin',
      'compass',
      'navigation',
      'locate',
      'milestone',
      'signpost',
      'route',
      'globe',
      'earth',
      'plane',
      'car',
      'bus',
      'train',
      'ship',
      'bike',
      'truck',
      'luggage',
      'tent',
      'house',
      'building',
      'landmark',
      'hotel',
      'hospital',
      'school',
      'store',
    ],
    tags: ['location', 'travel', 'vehicle', 'transport', 'gps', 'building'],
  },
  {
    key: 'development',
    title: 'Development',
    icon: 'code',
    nameWords: [
      'code',
      'code-xml',
      'git',
      'github',
      'gitlab',
      'terminal',
      'bug',
      'braces',
      'brackets',
      'database',
      'binary',
      'webhook',
      'bot',
      'regex',
      'variable',
      'function',
      'container',
      'workflow',
      'blocks',
      'package',
    ],
    tags: ['programming', 'version control'],
  },
  {
    key: 'finance',
    title: 'Money and shopping',
    icon: 'wallet',
    nameWords: [
      'wallet',
      'banknote',
      'credit-card',
      'coins',
      'receipt',
      'piggy-bank',
      'dollar-sign',
      'euro',
      'pound-sterling',
      'bitcoin',
      'shopping-bag',
      'shopping-basket',
      'shopping-cart',
      'hand-coins',
      'percent',
      'ticket',
      'tickets',
    ],
    tags: ['money', 'payment', 'finance', 'currency', 'banking', 'purchase', 'checkout', 'cash'],
  },
  {
    key: 'nature',
    title: 'Nature and animals',
    icon: 'leaf',
    nameWords: [
      'leaf',
      'leafy-green',
      'tree',
      'trees',
      'tree-deciduous',
      'tree-palm',
      'tree-pine',
      'flower',
      'flower-2',
      'sprout',
      'mountain',
      'bird',
      'fish',
      'cat',
      'dog',
      'rabbit',
      'rat',
      'turtle',
      'snail',
      'squirrel',
      'worm',
      'panda',
      'paw-print',
      'shell',
      'feather',
      'clover',
      'shrub',
      'rose',
    ],
    tags: ['nature', 'plant', 'animal', 'pet', 'forest'],
  },
  {
    key: 'food',
    title: 'Food and drink',
    icon: 'utensils',
    nameWords: [
      'utensils',
      'coffee',
      'cup-soda',
      'pizza',
      'beer',
      'wine',
      'martini',
      'cake',
      'cookie',
      'egg',
      'milk',
      'glass-water',
      'chef-hat',
      'cooking-pot',
    ],
    tags: ['food', 'drink', 'beverage', 'meal', 'restaurant', 'fruit', 'vegetable', 'cooking'],
  },
  {
    key: 'security',
    title: 'Security',
    icon: 'lock',
    nameWords: [
      'lock',
      'lock-open',
      'lock-keyhole',
      'key',
      'key-round',
      'key-square',
      'shield',
      'fingerprint-pattern',
      'scan-face',
      'vault',
      'door-closed-locked',
    ],
    tags: ['security', 'password', 'privacy', 'encryption', 'authentication'],
  },
  {
    key: 'alerts',
    title: 'Status and alerts',
    icon: 'triangle-alert',
    nameWords: [
      'alert',
      'bell',
      'check',
      'x',
      'info',
      'ban',
      'siren',
      'badge-check',
      'badge-info',
      'badge-x',
      'exclamation-point',
      'question-mark',
      'flag',
      'loader',
      'loader-circle',
    ],
    tags: ['warning', 'error', 'notification', 'danger', 'failure', 'success'],
  },
];

/**
 * Extra search words per part of an icon name: every icon whose name has the part (as for `nameWords`) is also found
 * by these words. SF Symbols names (macOS's catalogue) and common alternatives.
 */
export const SYNONYMS: Readonly<Record<string, readonly string[]>> = {
  x: ['xmark', 'close', 'cross', 'cancel'],
  check: ['checkmark', 'tick', 'done'],
  settings: ['gear', 'gearshape', 'preferences', 'options'],
  cog: ['gear', 'gearshape', 'settings'],
  mail: ['envelope', 'email'],
  search: ['magnifyingglass', 'find', 'lookup'],
  user: ['person', 'account', 'profile'],
  users: ['person', 'people', 'group'],
  house: ['home'],
  file: ['doc', 'document'],
  volume: ['speaker', 'sound'],
  message: ['bubble', 'chat'],
  trash: ['bin', 'delete', 'garbage'],
  alert: ['exclamationmark', 'warning'],
  info: ['information'],
  'question-mark': ['questionmark', 'help'],
  bell: ['notification', 'alarm'],
  plus: ['add'],
  minus: ['subtract', 'remove'],
  clock: ['time'],
  calendar: ['date'],
  lock: ['padlock'],
  heart: ['love', 'favorite', 'like'],
  star: ['favorite', 'rating'],
  pencil: ['edit', 'pen'],
  pen: ['edit', 'pencil'],
  phone: ['telephone', 'call'],
  camera: ['photo'],
  image: ['picture', 'photo'],
  play: ['start'],
  eye: ['view', 'show', 'visible'],
  'eye-off': ['hide', 'hidden', 'invisible'],
  smartphone: ['iphone', 'mobile'],
  laptop: ['macbook'],
  monitor: ['display', 'screen'],
  'refresh-cw': ['reload', 'sync'],
  'rotate-ccw': ['undo', 'reload'],
  download: ['save'],
  upload: ['share'],
  share: ['square.and.arrow.up'],
  zap: ['bolt', 'lightning'],
  'cloud-lightning': ['bolt', 'thunderstorm'],
  sun: ['sunny'],
  moon: ['night', 'dark'],
  'loader-circle': ['spinner', 'progress'],
  loader: ['spinner', 'progress'],
  terminal: ['console', 'shell'],
  flame: ['fire'],
  'thumbs-up': ['like'],
  'map-pin': ['mappin', 'location'],
  'circle-x': ['xmark.circle'],
  'circle-check': ['checkmark.circle'],
};

interface Entry {
  name: string;
  /** Keys of the categories, `all` first, then in CATEGORY_RULES order. */
  categories: string[];
  /** Words of the tags and synonyms (lower case, split on white space and hyphens). */
  words: string[];
}

interface Catalogue {
  nodes: Map<string, IconNode[]>;
  entries: Entry[];
  byCategory: Map<string, Entry[]>;
  categories: SymbolCategory[];
  knownKeys: string[];
}

let loading: Promise<Catalogue> | undefined;

/** Loads lucide's data once; a failed load is retried on the next call. */
function catalogue(): Promise<Catalogue> {
  if (!loading) {
    loading = build().catch((error: unknown) => {
      loading = undefined;
      throw new SymbolsError({ kind: 'no-symbol-list', cause: (error as Error).message });
    });
  }
  return loading;
}

async function build(): Promise<Catalogue> {
  const [nodesModule, tagsModule] = await Promise.all([
    import('lucide-static/icon-nodes.json', { with: { type: 'json' } }),
    import('lucide-static/tags.json', { with: { type: 'json' } }),
  ]);
  const iconNodes = nodesModule.default as unknown as Record<string, IconNode[]>;
  const iconTags = tagsModule.default as unknown as Record<string, string[]>;

  const nodes = new Map<string, IconNode[]>();
  for (const name of Object.keys(iconNodes).sort()) nodes.set(name, iconNodes[name]!);

  const byCategory = new Map<string, Entry[]>([['all', []]]);
  for (const rule of CATEGORY_RULES) byCategory.set(rule.key, []);

  const entries: Entry[] = [];
  for (const name of nodes.keys()) {
    const tags = (Object.hasOwn(iconTags, name) ? iconTags[name]! : []).map((tag) => tag.toLowerCase());
    const categories = ['all'];
    for (const rule of CATEGORY_RULES) if (ruleMatches(rule, name, tags)) categories.push(rule.key);
    const words = new Set<string>();
    for (const tag of tags) for (const word of splitWords(tag)) words.add(word);
    for (const [part, synonyms] of Object.entries(SYNONYMS)) {
      if (!hasNamePart(name, part)) continue;
      for (const synonym of synonyms) for (const word of splitWords(synonym)) words.add(word);
    }
    const entry: Entry = { name, categories, words: [...words] };
    entries.push(entry);
    for (const key of categories) byCategory.get(key)!.push(entry);
  }

  const categories: SymbolCategory[] = [
    { key: 'all', title: 'All', icon: 'layout-grid', count: entries.length },
    ...CATEGORY_RULES.map((rule) => ({ key: rule.key, title: rule.title, icon: rule.icon, count: byCategory.get(rule.key)!.length })),
  ];
  for (const category of categories) {
    if (!nodes.has(category.icon)) throw new Error(`symbol category ${category.key}: no icon named ${category.icon}`);
  }
  return { nodes, entries, byCategory, categories, knownKeys: categories.map((c) => c.key) };
}

function splitWords(text: string): string[] {
  return queryWords(text.replace(/-/g, ' '));
}

/** `part` (which may contain hyphens) is a whole run of the hyphen-separated parts of `name`. */
function hasNamePart(name: string, part: string): boolean {
  return name === part || name.startsWith(`${part}-`) || name.endsWith(`-${part}`) || name.includes(`-${part}-`);
}

function ruleMatches(rule: CategoryRule, name: string, tags: string[]): boolean {
  if (rule.names?.includes(name)) return true;
  if (rule.nameWords?.some((part) => hasNamePart(name, part))) return true;
  return rule.tags?.some((tag) => tags.includes(tag)) ?? false;
}

function wordMatches(entry: Entry, word: string): boolean {
  return entry.name.includes(word) || entry.words.some((w) => w.startsWith(word));
}

/** 0 exact name, 1 name starts with the first word, 2 other name match, 3 found through tags or synonyms only. */
function rank(entry: Entry, words: string[]): number {
  const joined = words.join('-');
  if (entry.name === joined) return 0;
  if (entry.name.startsWith(words[0]!)) return 1;
  if (words.some((word) => entry.name.includes(word))) return 2;
  return 3;
}

function clampInteger(value: number | undefined, min: number, max: number, fallback: number): number {
  if (value === undefined || !Number.isFinite(value)) return fallback;
  return Math.min(max, Math.max(min, Math.trunc(value)));
}

/** `GET /v1/symbols`. Throws `unknown category: X (known: all, arrows, ...)` for a category that does not exist. */
export async function listSymbols(query: SymbolQuery = {}): Promise<SymbolListing> {
  const cat = await catalogue();
  const limit = clampInteger(query.limit, 0, SYMBOL_LIMIT_MAX, SYMBOL_LIMIT_DEFAULT);
  const offset = clampInteger(query.offset, 0, Number.MAX_SAFE_INTEGER, 0);
  const categoryKey = query.category === undefined || query.category.trim() === '' ? 'all' : query.category.trim().toLowerCase();
  const pool = cat.byCategory.get(categoryKey);
  if (!pool) throw new SymbolsError({ kind: 'unknown-category', category: String(query.category), known: cat.knownKeys });

  const words = queryWords(query.q ?? '');
  let matches = pool;
  if (words.length > 0) {
    matches = pool
      .filter((entry) => words.every((word) => wordMatches(entry, word)))
      .map((entry) => ({ entry, rank: rank(entry, words) }))
      .sort((a, b) => a.rank - b.rank || (a.entry.name < b.entry.name ? -1 : a.entry.name > b.entry.name ? 1 : 0))
      .map(({ entry }) => entry);
  }
  return {
    total: matches.length,
    offset,
    limit,
    symbols: matches.slice(offset, offset + limit).map((entry) => ({ name: entry.name, categories: [...entry.categories] })),
    categories: cat.categories.map((category) => ({ ...category })),
  };
}

function normaliseName(name: string): string {
  return name.trim().toLowerCase();
}

/** Whether the catalogue has a symbol of this name (trimmed, case-insensitive). */
export async function hasSymbol(name: string): Promise<boolean> {
  return (await catalogue()).nodes.has(normaliseName(name));
}

const XML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

export function escapeXML(value: string): string {
  return value.replace(/[&<>"']/g, (c) => XML_ESCAPES[c]!);
}

const ATTRIBUTE_NAME = /^[A-Za-z_:][A-Za-z0-9_.:-]*$/;
const ELEMENT_NAME = /^[A-Za-z][A-Za-z0-9]*$/;

function formatNumber(value: number): string {
  return String(Math.round(value * 1000) / 1000);
}

/**
 * A standalone SVG document of the symbol (24x24 viewBox, stroked, no fill), `size` pixels square; null for an
 * unknown name. Every attribute value is XML-escaped, so any `color` string stays inside its attribute.
 */
export async function symbolSVG(name: string, options: SymbolSVGOptions): Promise<Buffer | null> {
  const nodes = (await catalogue()).nodes.get(normaliseName(name));
  if (!nodes) return null;
  const size = options.size === undefined || !Number.isFinite(options.size) ? 24 : Math.min(4096, Math.max(1, options.size));
  const strokeWidth =
    options.strokeWidth === undefined || !Number.isFinite(options.strokeWidth) ? 2 : Math.min(24, Math.max(0, options.strokeWidth));
  const root = [
    ['xmlns', 'http://www.w3.org/2000/svg'],
    ['width', formatNumber(size)],
    ['height', formatNumber(size)],
    ['viewBox', '0 0 24 24'],
    ['fill', 'none'],
    ['stroke', String(options.color)],
    ['stroke-width', formatNumber(strokeWidth)],
    ['stroke-linecap', 'round'],
    ['stroke-linejoin', 'round'],
  ];
  const parts = [`<svg ${root.map(([key, value]) => `${key}="${escapeXML(value!)}"`).join(' ')}>`];
  for (const [tag, attributes] of nodes) {
    if (!ELEMENT_NAME.test(tag)) continue;
    const attrs = Object.entries(attributes)
      .filter(([key]) => ATTRIBUTE_NAME.test(key))
      .map(([key, value]) => ` ${key}="${escapeXML(String(value))}"`)
      .join('');
    parts.push(`<${tag}${attrs}/>`);
  }
  parts.push('</svg>');
  return Buffer.from(parts.join(''), 'utf8');
}
