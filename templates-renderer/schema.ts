// The one description of the template format (docs/api/templates.md#the-template-object and
// docs/api/templates.md#get-v1-components).
// Every property of the template, the grid, a cell and each component type is listed here once, with its JSON type,
// allowed values, range, default, whether it is required and a one-line description. The validator
// (templates-renderer/validate.ts) reads a template by walking these tables, and the `GET /v1/components` document
// (templates-renderer/components-doc.ts) is printed from them, so the two cannot disagree.
//
// The tables are typed against the model (templates-renderer/model.ts): each one must name exactly the keys of its
// model interface, so a property added to the model and forgotten here (or the reverse) fails the type-check.

import { FOLLOW_UP_AFTER_SECONDS, MAX_BODY_LINES_RANGE } from '../protocol/limits.js';
import {
  BUTTON_KINDS,
  CALLBACK_METHODS,
  FOLLOW_UP_KINDS,
  LAYOUTS,
  PRIORITIES,
  type Button,
  type FollowUp,
  type InlineAction,
} from '../protocol/types.js';
import {
  ALIGNMENTS,
  TEXT_STYLES,
  type ActionRule,
  type ActionsComponent,
  type BadgeComponent,
  type ButtonComponent,
  type Cell,
  type ComponentType,
  type Grid,
  type IconButtonComponent,
  type ImageComponent,
  type IssuerIconComponent,
  type ProgressComponent,
  type RiveComponent,
  type SpacerComponent,
  type StackBadgeComponent,
  type SymbolComponent,
  type Template,
  type TemplateAction,
  type TextComponent,
  type TimestampComponent,
} from './model.js';

// ---------------------------------------------------------------------------------------------------------------
// The shape of the description

export type JsonType = 'string' | 'integer' | 'number' | 'boolean' | 'object' | 'array';

/**
 * A rule the validator applies by name, beyond the JSON type, enum and range: a track size, a colour, a link, an
 * action, a component... (validate.ts implements each).
 */
export type Reader =
  | 'size'
  | 'color'
  | 'hexColor'
  | 'link'
  | 'layoutVersion'
  | 'grid'
  | 'trackSizes'
  | 'cell'
  | 'component'
  | 'action'
  | 'actionOrId'
  | 'actionRule'
  | 'button'
  | 'followUp'
  | 'symbol';

/** Names of the shared definitions (`definitions` in the components document). */
export type DefinitionName =
  | 'grid'
  | 'cell'
  | 'size'
  | 'alignment'
  | 'color'
  | 'emptyBehavior'
  | 'action'
  | 'actionRule'
  | 'button'
  | 'followUp'
  | 'followUpAction'
  | 'callback'
  | 'openApp'
  | 'reply'
  | 'reminder';

export interface PropertySpec {
  /** The JSON type(s) accepted; `any` for free JSON (a callback payload). */
  type: JsonType | readonly JsonType[] | 'any';
  /** One line for people and agents. */
  description: string;
  required?: boolean;
  /** The message when a required value is missing, or when a `nonBlank` text is blank. Default `<key> is required`. */
  requiredMessage?: string;
  /** A text that may not be empty or only white space. */
  nonBlank?: boolean;
  /** With `enum`: the empty text is allowed too (it clears). */
  allowEmpty?: boolean;
  enum?: readonly string[];
  /** Other spellings read as one of the `enum` values (`normal` is `default`). */
  enumAliases?: Readonly<Record<string, string>>;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  /** Unit named in the range message and the document (`points`). */
  unit?: string;
  /** The message when the value is out of range; default `<key> must be <min> to <max>` and the like. */
  rangeMessage?: string;
  /** Report a range problem at the enclosing object's path (a cell's `row`, `col`, spans), not at the key. */
  reportAtObject?: boolean;
  /** For arrays: at most this many items (`maxItemsMessage` when more). */
  maxItems?: number;
  maxItemsMessage?: string;
  /** Written into the normalised template when the value is absent (unless `computedDefault`). */
  default?: unknown;
  /** The default is worked out by the validator (from other values); `default`, if any, is for the document. */
  computedDefault?: boolean;
  /** A default that depends on other values, in words (e.g. "22% of size"); never written out. */
  defaultDescription?: string;
  /** The shared definition this property is (the document prints a `$ref`). */
  ref?: DefinitionName;
  /** A named rule of the validator (see `Reader`). */
  reader?: Reader;
  /** For arrays: the items. */
  items?: PropertySpec;
  /** For objects used as maps: the values (keys are free). */
  values?: PropertySpec;
}

/** One object of the format: its properties in the order they are written out. */
export interface ObjectSpec {
  description: string;
  properties: Readonly<Record<string, PropertySpec>>;
  /** Other spellings of a key, read as the canonical key (a dotted target moves the value into a sub-object). */
  aliases?: Readonly<Record<string, string>>;
  /** At least one of `keys` must be given (a text must not be blank). */
  needsOneOf?: readonly { keys: readonly string[]; message: string }[];
  /** Keys that are not properties here but that people write here: why each is ignored, and what to write instead. */
  misplaced?: Readonly<Record<string, string>>;
  example?: unknown;
}

export interface ComponentSpec extends ObjectSpec {
  /** When the component has nothing to show (and so collapses, or keeps its blank space). */
  emptyWhen: string;
  example: Record<string, unknown>;
}

/** The keys of a model interface, each described once (no more, no fewer). */
type Props<T> = { readonly [K in Exclude<keyof T, 'type'>]-?: PropertySpec };

// ---------------------------------------------------------------------------------------------------------------
// Limits and value lists (docs/api/templates.md#t8, docs/api/limits.md)

export const LIMITS = {
  /** rows and cols. */
  tracks: { min: 1, max: 12 },
  /** A track size in points. */
  sizePoints: { min: 0, max: 4000 },
  gap: { min: 0, max: 64 },
  padding: { min: 0, max: 64 },
  width: { min: 160, max: 800 },
  maxCells: 100,
  fontSize: { min: 6, max: 72 },
  iconSize: { min: 8, max: 128 },
  snoozeMinutes: { min: 1, max: 10_080 },
  maxBodyLines: MAX_BODY_LINES_RANGE,
  followUpAfter: FOLLOW_UP_AFTER_SECONDS,
  /** Fixed columns narrower than this are raised to it when a template is saved (docs/api/templates.md#t8). */
  minColumnPoints: 24,
} as const;

export const SCHEMA_VERSION = 2;
export const CURRENT_LAYOUT_VERSION = 2;
/** Built-in layouts and live banners are this wide; a template's default is 400 (docs/api/templates.md#t8). */
export const LIVE_BANNER_WIDTH = 380;

export const COMPONENT_TYPES = [
  'text',
  'image',
  'issuerIcon',
  'timestamp',
  'button',
  'actions',
  'iconButton',
  'badge',
  'stackBadge',
  'progress',
  'rive',
  'spacer',
  'symbol',
] as const satisfies readonly ComponentType[];

/** docs/api/templates.md#t11, docs/api/actions.md#x1: what an action does. */
export const ACTION_KINDS = ['url', 'callback', 'command', 'script', 'shortcut', 'openApp', 'reply', 'dismiss', 'snooze'] as const;
export type ActionKind = (typeof ACTION_KINDS)[number];

/** docs/api/templates.md#t35: the kind of an action written without one, from the first of these fields it has. */
export const KIND_INFERENCE_ORDER = ['reply', 'shortcut', 'script', 'command', 'callback', 'url', 'openApp'] as const;

/**
 * Button styles of the model (docs/api/notifications.md#button-object); `normal` and `prominent` are read as
 * `default`.
 */
export const ACTION_STYLES = ['default', 'destructive', 'cancel'] as const;
export const ACTION_STYLE_ALIASES = { normal: 'default', prominent: 'default' } as const;

export const COLOR_ROLES = ['accent', 'primary', 'secondary'] as const;
export const EMPTY_BEHAVIORS = ['collapse', 'keep'] as const;
export const SIZE_KEYWORDS = ['auto', 'fill'] as const;

/** Tokens every notification can fill (docs/api/templates.md#t10), besides metadata keys and `extra.<key>`. */
export const STANDARD_TOKENS = [
  'title',
  'subtitle',
  'body',
  'image',
  'url',
  'app',
  'id',
  'priority',
  'sound',
  'group',
  'appName',
  'deliveredAt',
  'stack.count',
] as const;

/** `{` + letters, digits, `_`, `.`, `-` + `}`; any other brace is kept as written. */
export const TOKEN_PATTERN = /\{([A-Za-z0-9_.-]+)\}/g;

// ---------------------------------------------------------------------------------------------------------------
// Shared pieces

const range = (r: { readonly min: number; readonly max: number }): { minimum: number; maximum: number } => ({
  minimum: r.min,
  maximum: r.max,
});

const color = (description: string, extra: Partial<PropertySpec> = {}): PropertySpec => ({
  type: 'string',
  ref: 'color',
  reader: 'color',
  description,
  ...extra,
});

const emptyBehavior: PropertySpec = {
  type: 'string',
  ref: 'emptyBehavior',
  enum: EMPTY_BEHAVIORS,
  description:
    "collapse: drop the empty component (and a row or column left with nothing); keep: keep its blank space. Omitted: the template's collapseEmpty.",
};

const symbolName = (description: string): PropertySpec => ({ type: 'string', reader: 'symbol', description });

const fontSize: PropertySpec = {
  type: 'number',
  ...range(LIMITS.fontSize),
  unit: 'points',
  description: "Font size in points; omitted: the style's size.",
};

const textStyle = (fallback: string): PropertySpec => ({
  type: 'string',
  enum: TEXT_STYLES,
  default: fallback,
  description: 'Typography preset: font, size, weight and colour.',
});

const bindingRequired = 'a binding is required, for example "{title}"';

const actionSlot = (what: string): PropertySpec => ({
  type: ['object', 'string'],
  ref: 'action',
  reader: 'actionOrId',
  description: `The action ${what} runs: an inline action object, or the id of an action in the resolved list.`,
});

const actionRef: PropertySpec = {
  type: 'string',
  nonBlank: true,
  description: 'The id of an action in the resolved list (an issuer action, a manifest action or one a rule adds). Also written actionId.',
};

const positive = (description: string): PropertySpec => ({ type: 'number', exclusiveMinimum: 0, description });

/** A text of {tokens} that must be given and not blank: what a text, badge or progress component shows. */
const requiredBinding = (description: string): PropertySpec => ({
  type: 'string',
  required: true,
  nonBlank: true,
  requiredMessage: bindingRequired,
  description,
});

/** An icon's size in points; its default (or what is drawn without one) differs by component. */
const iconSize = (description: string, fallback: Pick<PropertySpec, 'default' | 'defaultDescription'>): PropertySpec => ({
  type: 'number',
  ...range(LIMITS.iconSize),
  unit: 'points',
  ...fallback,
  description,
});

// ---------------------------------------------------------------------------------------------------------------
// Shared definitions

const SIZE: PropertySpec = {
  type: ['string', 'number'],
  ref: 'size',
  reader: 'size',
  ...range(LIMITS.sizePoints),
  unit: 'points',
  rangeMessage: `a size in points must be ${LIMITS.sizePoints.min} to ${LIMITS.sizePoints.max}`,
  description: '"auto" (as large as the content), "fill" (an equal share of the space left) or points (72, "72", "72pt", "72px").',
};

const ALIGNMENT: PropertySpec = {
  type: 'string',
  ref: 'alignment',
  enum: ALIGNMENTS,
  default: 'topLeading',
  description: 'Where the component sits inside its cell when the cell is larger than the component.',
};

/** rows and cols: how many tracks, said by the sizes when they are given. */
const trackCount = (key: 'rows' | 'cols', fallback: number): PropertySpec => {
  const [sizes, words] = key === 'rows' ? ['rowSizes', 'rows'] : ['colSizes', 'columns'];
  return {
    type: 'integer',
    ...range(LIMITS.tracks),
    default: fallback,
    computedDefault: true,
    defaultDescription: `the number of ${sizes}, else ${fallback}`,
    description: `Number of ${words}.`,
  };
};

/** A cell's row and col: one rule, one message for both (reported at the cell, where the two are read together). */
const cellStart = (description: string): PropertySpec => ({
  type: 'integer',
  required: true,
  minimum: 0,
  rangeMessage: 'row and col start at 0',
  reportAtObject: true,
  description,
});

/** A cell's rowSpan and colSpan, likewise. */
const cellSpan = (description: string): PropertySpec => ({
  type: 'integer',
  minimum: 1,
  rangeMessage: 'rowSpan and colSpan must be at least 1',
  reportAtObject: true,
  default: 1,
  description,
});

const GRID_PROPS = {
  rows: trackCount('rows', 3),
  cols: trackCount('cols', 4),
  rowSizes: {
    type: 'array',
    reader: 'trackSizes',
    items: SIZE,
    computedDefault: true,
    defaultDescription: '"auto" for every row',
    description: 'One size per row: exactly `rows` entries.',
  },
  colSizes: {
    type: 'array',
    reader: 'trackSizes',
    items: SIZE,
    computedDefault: true,
    defaultDescription: '"fill" for every column',
    description: `One size per column: exactly \`cols\` entries. Fixed columns under ${LIMITS.minColumnPoints} points are raised; an all-fixed set is fitted on its last column.`,
  },
  gap: {
    type: 'number',
    ...range(LIMITS.gap),
    unit: 'points',
    default: 8,
    description: 'Space between rows and between columns.',
  },
  padding: {
    type: 'number',
    ...range(LIMITS.padding),
    unit: 'points',
    default: 14,
    description: 'Space between the banner edge and the tracks.',
  },
  width: {
    type: 'number',
    ...range(LIMITS.width),
    unit: 'points',
    rangeMessage: `width must be ${LIMITS.width.min} to ${LIMITS.width.max} points`,
    default: 400,
    description: `Banner width; live banners are drawn ${LIVE_BANNER_WIDTH} wide.`,
  },
} as const satisfies Props<Grid>;

const CELL_PROPS = {
  id: {
    type: 'string',
    nonBlank: true,
    requiredMessage: 'a cell needs an id',
    computedDefault: true,
    defaultDescription: 'r<row>c<col>',
    description: 'Unique within the template; problems are reported by cell id.',
  },
  row: cellStart('First row, 0-based.'),
  col: cellStart('First column, 0-based.'),
  rowSpan: cellSpan('Rows covered.'),
  colSpan: cellSpan('Columns covered.'),
  align: ALIGNMENT,
  padding: {
    type: 'number',
    ...range(LIMITS.padding),
    unit: 'points',
    default: 0,
    description: 'Inset around the component.',
  },
  component: {
    type: 'object',
    required: true,
    requiredMessage: 'a cell needs a component',
    reader: 'component',
    description: 'One component object, {"type": "text", ...}; see `components`.',
  },
} as const satisfies Props<Cell>;

const CALLBACK_PROPS = {
  url: { type: 'string', description: "http or https URL to POST to; default the app's callback URL." },
  payload: { type: 'any', description: 'Any JSON sent along.' },
  method: {
    type: 'string',
    enum: CALLBACK_METHODS,
    description: "With headers and body: a request written out, sent as written instead of Notifier's JSON.",
  },
  headers: { type: 'object', description: 'A written request: header names and their values, all strings.' },
  body: { type: 'string', description: 'A written request: its body.' },
} as const satisfies Props<NonNullable<Button['callback']>>;

const OPEN_APP_PROPS = {
  bundleId: { type: 'string', description: 'Application id to bring to the front.' },
  path: { type: 'string', description: 'Path of the application.' },
} as const satisfies Props<NonNullable<Button['openApp']>>;

const REPLY_PROPS = {
  placeholder: { type: 'string', description: 'Hint shown in the empty reply field.' },
  callback: { type: 'object', ref: 'callback', description: 'Where the reply is POSTed besides the reply queue.' },
  voice: { type: 'boolean', description: 'Offer dictation.' },
} as const satisfies Props<NonNullable<Button['reply']>>;

const ACTION_PROPS = {
  id: {
    type: 'string',
    nonBlank: true,
    requiredMessage: 'an action needs an id',
    defaultDescription: 'the slug of the label ("Mark as Read" -> mark-as-read)',
    description: 'Stable name that rules (`match`), components (`actionRef`) and follow-ups refer to.',
  },
  label: {
    type: 'string',
    required: true,
    nonBlank: true,
    requiredMessage: 'an action needs a label',
    description: 'Button text, {tokens} filled; long labels are cut at 40 characters.',
  },
  kind: {
    type: 'string',
    enum: ACTION_KINDS,
    defaultDescription: 'inferred from the first of reply, shortcut, script, command, callback, url, openApp it has',
    description: 'What pressing it does; see `actions.kinds`.',
  },
  style: {
    type: 'string',
    enum: ACTION_STYLES,
    enumAliases: ACTION_STYLE_ALIASES,
    defaultDescription: 'default',
    description: 'Button look: destructive always asks before running; normal and prominent are read as default.',
  },
  url: { type: 'string', reader: 'link', description: 'kind url: an http, https or mailto link; {tokens} are filled (percent-encoded).' },
  command: { type: 'string', description: 'kind command: a shell command line; its text is never token-filled.' },
  script: { type: 'string', description: 'kind script: a plain file name in the scripts folder; receives the merged payload on stdin.' },
  shortcut: { type: 'string', description: 'kind shortcut: the name of an installed shortcut (GET /v1/shortcuts).' },
  input: { type: 'string', description: 'kind shortcut or script: input text with {tokens}; omitted: the merged payload as JSON.' },
  callback: { type: 'object', ref: 'callback', description: 'kind callback: {url?, payload?}; POSTed to the app.' },
  openApp: {
    type: 'object',
    ref: 'openApp',
    description: 'kind openApp: {bundleId?, path?}; also written as top-level bundleId and path.',
  },
  reply: {
    type: 'object',
    ref: 'reply',
    description: 'kind reply: {placeholder?, callback?, voice?}; also written as top-level placeholder and voice.',
  },
  snoozeMinutes: {
    type: 'integer',
    ...range(LIMITS.snoozeMinutes),
    defaultDescription: '15',
    description: 'kind snooze: minutes until the banner comes back.',
  },
  symbol: symbolName('Icon name drawn on the button.'),
} as const satisfies Props<TemplateAction>;

const BUTTON_PROPS = {
  label: { type: 'string', required: true, nonBlank: true, requiredMessage: 'a button needs a label', description: 'Button text.' },
  id: { type: 'string', nonBlank: true, defaultDescription: 'the slug of the label', description: 'Stable name of the button.' },
  style: { type: 'string', enum: ACTION_STYLES, enumAliases: ACTION_STYLE_ALIASES, description: 'Button look.' },
  url: { type: 'string', reader: 'link', description: 'Open this http, https or mailto link.' },
  command: { type: 'string', description: "Run this shell command (the template's own code: confirmed once by the person)." },
  script: { type: 'string', description: 'Run this file of the scripts folder.' },
  shortcut: { type: 'string', description: 'Run this shortcut.' },
  input: { type: 'string', description: 'Input of the shortcut or script.' },
  callback: { type: 'object', ref: 'callback', description: 'Tell the app: {url?, payload?}.' },
  openApp: { type: 'object', ref: 'openApp', description: 'Bring an application to the front: {bundleId?, path?}.' },
  reply: { type: 'object', ref: 'reply', description: 'Ask for a typed reply: {placeholder?, callback?, voice?}.' },
} as const satisfies Props<Button>;

const RULE_PROPS = {
  match: { type: 'string', description: 'An action id or label (any case), or "*" for every action.' },
  hide: { type: 'boolean', description: 'Remove the matched actions.' },
  relabel: { type: 'string', description: 'New label of the matched actions ({tokens} filled).' },
  style: {
    type: 'string',
    enum: ACTION_STYLES,
    enumAliases: ACTION_STYLE_ALIASES,
    allowEmpty: true,
    description: 'New style of the matched actions; the empty text clears it.',
  },
  position: {
    type: 'integer',
    minimum: 0,
    description: 'Move the matched actions to this 0-based place (clamped), or insert an added one there.',
  },
  symbol: symbolName('Icon of the matched actions.'),
  add: {
    type: 'object',
    ref: 'action',
    reader: 'action',
    description: 'Append a template action; one with the id of an existing action replaces it.',
  },
} as const satisfies Props<ActionRule>;

const FOLLOW_UP_ACTION_PROPS = {
  id: { type: 'string', defaultDescription: 'the slug of the label', description: 'Id of the follow-up action.' },
  label: {
    type: 'string',
    defaultDescription: 'the shortcut or script name, else "Follow-up"',
    description: 'Name in the banner line about the follow-up.',
  },
  kind: {
    type: 'string',
    defaultDescription: 'inferred from the field given',
    description: `What runs: one of ${FOLLOW_UP_KINDS.join(', ')} (a follow-up cannot open, reply, snooze or dismiss).`,
  },
  command: { type: 'string', description: 'kind command: shell command line.' },
  script: { type: 'string', description: 'kind script: plain file name in the scripts folder.' },
  shortcut: { type: 'string', description: 'kind shortcut: shortcut name.' },
  input: { type: 'string', description: 'Input text of a shortcut or script, {tokens} filled.' },
  callback: { type: 'object', ref: 'callback', description: 'kind callback: {url?, payload?}; the body adds event "unattended".' },
} as const satisfies Props<InlineAction>;

const FOLLOW_UP_PROPS = {
  after: {
    type: ['number', 'string'],
    description: `Seconds the banner stays unattended before the action runs: ${FOLLOW_UP_AFTER_SECONDS.min} to ${FOLLOW_UP_AFTER_SECONDS.max} (7 days), or 90s, 10m, 2h.`,
  },
  actionRef: { type: 'string', description: 'The id (or label) of an action the banner offers: issuer, manifest or rule-added.' },
  action: { type: 'object', ref: 'followUpAction', description: 'An inline action instead of actionRef.' },
  enabled: { type: 'boolean', description: 'false switches the follow-up off (also one the issuer declares).' },
} as const satisfies Props<FollowUp>;

const REMINDER_PROPS = {
  title: { type: 'string', description: 'Reminder title, {tokens} filled; default the banner title.' },
  due: { type: 'string', description: 'When it is due: ISO 8601 date or date-time.' },
} as const satisfies Props<NonNullable<Template['reminder']>>;

export const DEFINITIONS: { readonly [N in DefinitionName]: PropertySpec | ObjectSpec } = {
  grid: {
    description: 'The grid the cells sit on: rows x cols tracks with sizes, a gap, an outer padding and the banner width.',
    properties: GRID_PROPS,
    example: { rows: 3, cols: 4, rowSizes: ['auto', 'auto', 'auto'], colSizes: [72, 'fill', 'fill', 56], gap: 8, padding: 14, width: 400 },
  },
  cell: {
    description: `A rectangle of rowSpan x colSpan tracks from (row, col) holding one component. Cells must fit the grid and not overlap; at most ${LIMITS.maxCells}.`,
    properties: CELL_PROPS,
    example: { id: 'title', row: 0, col: 1, colSpan: 2, component: { type: 'text', binding: '{title}', style: 'title' } },
  },
  size: SIZE,
  alignment: ALIGNMENT,
  color: {
    type: 'string',
    description:
      '#RGB, #RGBA, #RRGGBB or #RRGGBBAA, or a role: accent (the template accentColor, else the system accent), primary, secondary.',
  },
  emptyBehavior,
  action: {
    description: 'One action: what a button does. `kind` selects it; only the fields of that kind are used.',
    properties: ACTION_PROPS,
    aliases: { bundleId: 'openApp.bundleId', path: 'openApp.path', placeholder: 'reply.placeholder', voice: 'reply.voice' },
    example: { id: 'follow-up', label: 'Follow up', kind: 'shortcut', shortcut: 'Create follow-up', input: '{title}\n{url}' },
  },
  actionRule: {
    description:
      "Applied in order to the banner's actions: match one (or all) to hide, relabel, restyle, move or give it a symbol, or add one.",
    properties: RULE_PROPS,
    needsOneOf: [{ keys: ['match', 'add'], message: "a rule needs a 'match' or an 'add'" }],
    example: { match: 'archive', relabel: 'Archive it', style: 'destructive', position: 0 },
  },
  button: {
    description:
      'A legacy default button (used when the notification sends no buttons): a label and at most one of the kind fields, which is its kind (no `kind` key).',
    properties: BUTTON_PROPS,
    // docs/api/templates.md#t11: a template's actions with a kind are component actions and actionRules adds.
    misplaced: {
      kind: `a default button's kind is the field it gives (${BUTTON_KINDS.join(', ')}; none: it closes the banner); an action with a kind goes in actionRules as {"add": {...}}`,
      snoozeMinutes: 'a default button cannot snooze; add one with actionRules {"add": {"kind": "snooze", ...}}',
    },
    example: { label: 'Open', url: 'https://example.com' },
  },
  followUp: {
    description: 'Run an action when the banner has been left unattended for `after` seconds. Set with PUT /v1/templates/follow-up.',
    properties: FOLLOW_UP_PROPS,
    example: { after: '10m', actionRef: 'escalate' },
  },
  followUpAction: {
    description: 'An inline follow-up action: a shortcut, script, command or callback.',
    properties: FOLLOW_UP_ACTION_PROPS,
  },
  callback: { description: 'A callback target.', properties: CALLBACK_PROPS },
  openApp: { description: 'The application an openApp action brings to the front.', properties: OPEN_APP_PROPS },
  reply: { description: 'The inline reply a reply action asks for.', properties: REPLY_PROPS },
  reminder: { description: 'A default "Add to Reminders" action.', properties: REMINDER_PROPS },
};

export const isObjectSpec = (spec: PropertySpec | ObjectSpec): spec is ObjectSpec => 'properties' in spec;

export const objectDefinition = (name: DefinitionName): ObjectSpec => {
  const spec = DEFINITIONS[name];
  if (!isObjectSpec(spec)) throw new Error(`definition ${name} is not an object`);
  return spec;
};

// ---------------------------------------------------------------------------------------------------------------
// Components

const TEXT = {
  binding: requiredBinding('Text with {tokens}, e.g. "{title}" or "{count} new from {sender}".'),
  style: textStyle('body'),
  maxLines: {
    type: 'integer',
    minimum: 1,
    defaultDescription: "by style: title 2, subtitle 2, body the template's maxBodyLines (8), caption 1, mono 4",
    description: 'Line limit; longer text ends with an ellipsis.',
  },
  color: color("Text colour; omitted: the style's colour."),
  fontSize,
  weight: { type: 'string', enum: ['regular', 'medium', 'semibold', 'bold'], description: "Font weight; omitted: the style's weight." },
  alignment: { type: 'string', enum: ['leading', 'center', 'trailing'], description: 'Horizontal alignment of the lines.' },
  markdown: {
    type: 'boolean',
    defaultDescription: 'true for style body, else false',
    description: 'Draw Markdown links [text](url) as links.',
  },
  emptyBehavior,
  lineSpacing: { type: 'number', minimum: 0, unit: 'points', description: 'Extra space between lines.' },
} as const satisfies Props<TextComponent>;

const IMAGE = {
  binding: {
    type: 'string',
    nonBlank: true,
    requiredMessage: bindingRequired,
    default: '{image}',
    description: 'The picture: a file path, data: URI or https URL once the tokens are filled.',
  },
  fit: {
    type: 'string',
    enum: ['fit', 'fill', 'cover'],
    default: 'cover',
    description: 'fit letterboxes, fill stretches, cover crops to fill the cell.',
  },
  cornerRadius: { type: 'number', minimum: 0, unit: 'points', default: 0, description: 'Rounded corners.' },
  aspectRatio: positive('Width / height (1 square, 1.7778 for 16:9); fixes the height from the width.'),
  height: positive('Fixed height in points; wins over aspectRatio.'),
  emptyBehavior,
} as const satisfies Props<ImageComponent>;

const ISSUER_ICON = {
  size: iconSize('Icon width and height.', { default: 22 }),
  shape: { type: 'string', enum: ['rounded', 'circle'], default: 'rounded', description: 'Rounded square or circle.' },
  cornerRadius: {
    type: 'number',
    minimum: 0,
    unit: 'points',
    defaultDescription: '22% of size',
    description: 'Corner radius of the rounded shape.',
  },
  symbol: symbolName('Draw this icon instead of the app icon.'),
} as const satisfies Props<IssuerIconComponent>;

const TIMESTAMP = {
  binding: {
    type: 'string',
    description: 'A date field such as "{receivedAt}" (ISO 8601 or epoch seconds; above 1e11 milliseconds); omitted: the delivery time.',
  },
  relative: { type: 'boolean', default: false, description: '"3 min ago" instead of a clock time.' },
  style: textStyle('caption'),
  color: color('Text colour.'),
  fontSize,
} as const satisfies Props<TimestampComponent>;

const BUTTON_COMPONENT = {
  action: actionSlot('the button'),
  actionRef,
  style: { type: 'string', enum: ACTION_STYLES, enumAliases: ACTION_STYLE_ALIASES, description: "Overrides the action's style." },
  symbol: symbolName('Icon drawn on the button.'),
} as const satisfies Props<ButtonComponent>;

const ACTIONS_COMPONENT = {
  source: {
    type: 'string',
    enum: ['issuer', 'template', 'merged'],
    default: 'merged',
    description: "issuer: the app's actions; template: the ones rules add; merged: all, in resolved order.",
  },
  layout: {
    type: 'string',
    enum: ['row', 'wrap', 'stack'],
    default: 'wrap',
    description: 'row: one line; wrap: flows onto more lines; stack: one per line.',
  },
  maxVisible: { type: 'integer', minimum: 1, description: 'Show at most this many.' },
  include: {
    type: 'array',
    items: {
      type: 'string',
      nonBlank: true,
      requiredMessage: 'include lists action ids; one of them is blank',
      description: 'An action id.',
    },
    description: 'Show only these action ids, in this order.',
  },
  spacing: { type: 'number', ...range(LIMITS.gap), unit: 'points', default: 8, description: 'Space between the buttons.' },
  align: { type: 'string', enum: ['leading', 'center', 'trailing', 'spaceBetween'], description: 'Where the buttons sit in the row.' },
  symbol: symbolName('Icon drawn on every button that has none.'),
} as const satisfies Props<ActionsComponent>;

const ICON_BUTTON = {
  symbol: {
    type: 'string',
    required: true,
    nonBlank: true,
    reader: 'symbol',
    requiredMessage: 'an iconButton needs a symbol name, for example "x"',
    description: 'The icon, e.g. "x", "bell", "check".',
  },
  size: iconSize('Diameter of the round button.', { defaultDescription: '18' }),
  color: color('Icon colour.'),
  action: actionSlot('the icon button'),
  actionRef,
} as const satisfies Props<IconButtonComponent>;

const BADGE = {
  binding: requiredBinding('Text of the pill with {tokens}, e.g. "{count}".'),
  color: color('Pill colour.', { default: 'accent' }),
  textColor: color('Text colour; omitted: legible on the pill.'),
  symbol: symbolName('Icon drawn before the text.'),
} as const satisfies Props<BadgeComponent>;

const STACK_BADGE = {
  color: color('Pill colour; omitted: accent.'),
  textColor: color('Text colour; omitted: legible on the pill.'),
} as const satisfies Props<StackBadgeComponent>;

const PROGRESS = {
  binding: requiredBinding('The value: up to 1 a fraction, above 1 (or "40%") a percentage; clamped.'),
  color: color('Bar colour.', { default: 'accent' }),
  height: { type: 'number', exclusiveMinimum: 0, unit: 'points', default: 4, description: 'Bar thickness.' },
} as const satisfies Props<ProgressComponent>;

const RIVE = {
  asset: { type: 'string', description: "Id of an asset the app's manifest declares; wins over path." },
  path: { type: 'string', description: "A .riv file: absolute, ~/, file:// or a name in the app's asset folder." },
  stateMachine: { type: 'string', description: "State machine to run; default the asset's." },
  artboard: { type: 'string', description: "Artboard; default the file's default." },
  inputBindings: {
    type: 'object',
    values: {
      type: 'string',
      nonBlank: true,
      requiredMessage: 'an input binding is a {token}, a literal value, or hover / pressed',
      description: 'A {token}, a literal, or hover / pressed.',
    },
    description: 'State machine input name -> "{token}", a literal value, or the pointer keywords hover / pressed.',
  },
  action: actionSlot('a click on the animation'),
  actionRef,
  loop: { type: 'boolean', description: "Override the animation's looping." },
  aspectRatio: positive('Width / height.'),
  height: positive('Fixed height in points.'),
} as const satisfies Props<RiveComponent>;

const SPACER = {} as const satisfies Props<SpacerComponent>;

const SYMBOL = {
  name: {
    type: 'string',
    required: true,
    nonBlank: true,
    reader: 'symbol',
    requiredMessage: 'a symbol needs a name, for example "bell"',
    description: 'An icon name from the bundled set (GET /v1/symbols), e.g. "bell".',
  },
  size: iconSize('Icon width and height.', { default: 20 }),
  color: color('Icon colour; omitted: primary.'),
} as const satisfies Props<SymbolComponent>;

const actionNeeded = (what: string) => ({
  keys: ['action', 'actionRef'],
  message: `${what} needs an inline 'action' or an 'actionRef' (also written 'actionId')`,
});

export const COMPONENTS: { readonly [T in ComponentType]: ComponentSpec } = {
  text: {
    description: 'Text from a binding: a title, subtitle or body line. The style sets font, size and colour.',
    properties: TEXT,
    emptyWhen: 'every {token} of the binding is absent or blank',
    example: { type: 'text', binding: '{title}', style: 'title', maxLines: 2 },
  },
  image: {
    description: 'A picture from a binding (file path, data: URI or https URL).',
    properties: IMAGE,
    emptyWhen: "the binding's tokens are absent",
    example: { type: 'image', binding: '{image}', fit: 'cover', cornerRadius: 8, aspectRatio: 1 },
  },
  issuerIcon: {
    description: "The issuing app's icon.",
    properties: ISSUER_ICON,
    emptyWhen: 'never',
    example: { type: 'issuerIcon', size: 22, shape: 'rounded' },
  },
  timestamp: {
    description: 'A time: the bound date field, or the delivery time when there is no binding.',
    properties: TIMESTAMP,
    emptyWhen: 'a binding is set and its token is absent (never without a binding)',
    example: { type: 'timestamp', binding: '{receivedAt}', relative: true },
  },
  button: {
    description: 'One button: an inline action, or actionRef naming an action of the resolved list.',
    properties: BUTTON_COMPONENT,
    aliases: { actionId: 'actionRef' },
    needsOneOf: [actionNeeded('a button')],
    emptyWhen: 'actionRef names an action that is not in the resolved list (hidden, or not sent); an inline action is never empty',
    example: { type: 'button', actionRef: 'mark-as-read' },
  },
  actions: {
    description: 'The action row: the resolved actions of `source`, as buttons.',
    properties: ACTIONS_COMPONENT,
    emptyWhen: 'the source has no actions (and while an inline question shows)',
    example: { type: 'actions', source: 'merged', layout: 'wrap' },
  },
  iconButton: {
    description: 'A round icon-only button, e.g. close or snooze.',
    properties: ICON_BUTTON,
    aliases: { actionId: 'actionRef' },
    needsOneOf: [actionNeeded('an iconButton')],
    emptyWhen: 'actionRef names an action that is not in the resolved list; an inline action is never empty',
    example: { type: 'iconButton', symbol: 'x', action: { id: 'dismiss', label: 'Dismiss', kind: 'dismiss' } },
  },
  badge: {
    description: 'A small pill with a value, e.g. an unread count.',
    properties: BADGE,
    emptyWhen: 'every {token} of the binding is absent or blank',
    example: { type: 'badge', binding: '{count}', color: '#FF3B30' },
  },
  stackBadge: {
    description: 'The stack counter: a pill showing {stack.count}, the number of notifications folded into this banner.',
    properties: STACK_BADGE,
    emptyWhen: 'the banner is not stacked ({stack.count} is absent below 2)',
    example: { type: 'stackBadge', color: '#FF3B30' },
  },
  progress: {
    description: 'A progress bar.',
    properties: PROGRESS,
    emptyWhen: 'every {token} of the binding is absent or blank',
    example: { type: 'progress', binding: '{percent}' },
  },
  rive: {
    description: 'A Rive animation whose state machine inputs follow fields and the pointer (previews draw a labelled placeholder).',
    properties: RIVE,
    aliases: { actionId: 'actionRef' },
    needsOneOf: [{ keys: ['asset', 'path'], message: "a rive component needs an 'asset' (from the manifest) or a 'path'" }],
    emptyWhen: 'neither asset nor path is set',
    example: { type: 'rive', asset: 'bell', stateMachine: 'Main', inputBindings: { count: '{count}', hover: 'hover' }, height: 40 },
  },
  spacer: {
    description: 'Empty space filling its cell.',
    properties: SPACER,
    emptyWhen: 'never',
    example: { type: 'spacer' },
  },
  symbol: {
    description: 'An icon from the bundled icon set.',
    properties: SYMBOL,
    emptyWhen: 'never',
    example: { type: 'symbol', name: 'bell', size: 20, color: 'accent' },
  },
};

// ---------------------------------------------------------------------------------------------------------------
// The template object

const TEMPLATE_PROPS = {
  name: {
    type: 'string',
    required: true,
    nonBlank: true,
    description: 'Template name, unique per app: no / or :, not starting with . or _ or builtin., at most 128 bytes.',
  },
  app: { type: 'string', required: true, nonBlank: true, description: 'The app the template belongs to.' },
  layoutVersion: {
    type: 'integer',
    reader: 'layoutVersion',
    default: CURRENT_LAYOUT_VERSION,
    computedDefault: true,
    defaultDescription: '2 when there is a grid, else 1',
    description: '2: a grid of cells; 1: the legacy look (layout and show* flags), grid and cells ignored.',
  },
  grid: { type: 'object', ref: 'grid', reader: 'grid', description: 'The grid; required for layoutVersion 2.' },
  cells: {
    type: 'array',
    items: { type: 'object', ref: 'cell', reader: 'cell', description: 'One cell.' },
    maxItems: LIMITS.maxCells,
    maxItemsMessage: `too many cells (at most ${LIMITS.maxCells})`,
    default: [],
    description: 'The cells, each holding one component; they must fit the grid and not overlap.',
  },
  collapseEmpty: {
    type: 'boolean',
    default: true,
    description: 'Default of components without emptyBehavior: true drops empty cells and the rows and columns left with nothing.',
  },
  actionRules: {
    type: 'array',
    items: { type: 'object', ref: 'actionRule', reader: 'actionRule', description: 'One rule.' },
    default: [],
    description: "Rules applied in order to the banner's actions: hide, relabel, restyle, move, add.",
  },
  extra: {
    type: 'object',
    values: { type: 'string', description: 'A value.' },
    default: {},
    description: 'Your own key/values: bindings read them as {extra.<key>}; every action receives them.',
  },
  accentColor: {
    type: 'string',
    reader: 'hexColor',
    description: 'Hex colour (#RGB, #RGBA, #RRGGBB, #RRGGBBAA) of accent-coloured parts.',
  },
  onClick: {
    type: 'string',
    enum: ['url', 'openApp'],
    defaultDescription: 'url',
    description: "A click on the banner opens its link (url) or brings the app's application to the front (openApp).",
  },
  followUp: { type: 'object', ref: 'followUp', reader: 'followUp', description: 'Run an action when the banner is left unattended.' },
  sound: { type: 'string', description: 'Default sound: a name, a file path, or "none".' },
  persistent: { type: 'boolean', description: 'Default: the banner stays until dismissed.' },
  timeout: { type: 'number', minimum: 0, unit: 'seconds', description: 'Default seconds before the banner closes (0: until dismissed).' },
  snooze: { type: 'boolean', description: 'Show the snooze menu by default.' },
  priority: { type: 'string', enum: PRIORITIES, description: 'Default priority.' },
  reminder: { type: 'object', ref: 'reminder', description: 'Default "Add to Reminders" action: {title?, due?}.' },
  title: { type: 'string', description: 'Default title with {tokens}, used when the notification has none.' },
  subtitle: { type: 'string', description: 'Default subtitle with {tokens}.' },
  body: { type: 'string', description: 'Default body with {tokens}.' },
  image: { type: 'string', description: 'Default image (path, data: URI or https URL, {tokens} filled).' },
  url: { type: 'string', reader: 'link', description: 'Default link with {tokens} (http, https or mailto).' },
  buttons: {
    type: 'array',
    items: { type: 'object', ref: 'button', reader: 'button', description: 'One button.' },
    default: [],
    description: 'Legacy default buttons, used when the notification sends none; prefer actionRules.',
  },
  layout: { type: 'string', enum: LAYOUTS, default: 'imageLeft', description: 'layoutVersion 1: which built-in layout draws the banner.' },
  showSubtitle: { type: 'boolean', default: true, description: 'layoutVersion 1: show the subtitle line.' },
  showBody: { type: 'boolean', default: true, description: 'layoutVersion 1: show the body.' },
  showTimestamp: { type: 'boolean', default: true, description: 'layoutVersion 1: show the time.' },
  maxBodyLines: {
    type: 'integer',
    ...range(MAX_BODY_LINES_RANGE),
    default: 8,
    description: 'Line limit of the body (and of body-style text without maxLines).',
  },
} as const satisfies Props<Template>;

export const TEMPLATE: ObjectSpec = {
  description:
    'A banner template: a grid of cells, each holding one component bound to notification fields with {tokens}. ' +
    'A component whose tokens are all absent is empty and, following emptyBehavior / collapseEmpty, collapses ' +
    '(a row or column left with nothing shrinks to zero) or keeps its space. Actions come from the app (buttons, ' +
    "manifest actions) and from the template's actionRules.",
  properties: TEMPLATE_PROPS,
};

// ---------------------------------------------------------------------------------------------------------------
// Bindings and actions, in words (docs/api/templates.md#t10, docs/api/templates.md#t11)

export const BINDINGS = {
  syntax:
    '{token} inside text, where a token is letters, digits, "_", "." and "-". Other braces are kept as written; ' +
    'substituted text is never scanned again; there are no filters or default values.',
  tokenPattern: '\\{[A-Za-z0-9_.-]+\\}',
  standardTokens: STANDARD_TOKENS,
  tokenSources: [
    'Earliest wins, blank values are dropped:',
    'the notification: title, subtitle, body, image, url, app, id, priority, sound, group;',
    "appName: the app's name (registration, else manifest);",
    'metadata: scalars and lists; nested objects as dotted names up to 3 levels ({customer.name}); arrays of scalars as lists; null and mixed arrays skipped;',
    "extra.<key>: the template's own extra values;",
    'deliveredAt: the delivery time (ISO 8601);',
    'stack.count: the number of notifications folded into the stack, present only from 2 on.',
  ],
  formatting:
    'Numbers print without a trailing .0, booleans as true/false, lists joined with ", ". With a manifest, a number or ' +
    'bool field sent as text is read as one ("2" -> 2; true/yes/1, false/no/0).',
  empty:
    'A binding with tokens is empty when all its tokens are absent or blank; in mixed text an absent token becomes "" ' +
    'and the result is trimmed. A binding without tokens is its literal text.',
  defaults:
    "The template's title, subtitle, body, image and url fill what the notification leaves out, with tokens filled; the " +
    "sender's own text is never token-filled.",
  urls: 'In a template url (and url actions) token values are percent-encoded, except a leading {url} whose value is an openable link.',
  commands: 'Command text is never token-filled; commands, scripts and shortcuts receive the merged payload instead.',
} as const;

export const ACTION_KIND_DOCS: { readonly [K in ActionKind]: string } = {
  url: 'open `url` (http, https or mailto); needs nothing.',
  callback:
    "POST to the app (`callback.url`, else its registered callback URL) with `callback.payload`; a host other than this computer needs the person's approval.",
  command: 'run `command` with a login shell in the home folder; the merged payload is on stdin and NOTIFIER_* variables are set.',
  script: 'run the plain file `script` of the scripts folder with the merged payload on stdin.',
  shortcut: 'run the installed shortcut `shortcut` with `input` (tokens filled) or the merged payload as JSON.',
  openApp: "bring an application to the front (`openApp.bundleId` / `openApp.path`, else the app's own).",
  reply:
    'ask for a typed reply in the banner (`reply.placeholder`, `reply.voice`); the reply goes to the reply queue and `reply.callback`.',
  dismiss: 'close the banner.',
  snooze: 'hide the banner and bring it back after `snoozeMinutes` (default 15); template only.',
};

export const ACTION_RULES_DOC = {
  description:
    "The banner's actions are resolved in order: the notification's buttons (an explicit [] means none), else its " +
    "actionIds looked up in the manifest, else none; plus the snooze menu when snooze is on; then the template's " +
    'actionRules in order; then inline component actions. Manifest actions are never shown just because they are declared.',
  kinds: ACTION_KIND_DOCS,
  kindInference: `kind may be left out: it is taken from the first field present of ${KIND_INFERENCE_ORDER.join(', ')} (bundleId / path for openApp).`,
  ids: 'id defaults to the slug of the label: lower-case ASCII letters and digits joined by "-" ("Mark as Read" -> mark-as-read).',
  styles: `style is one of ${ACTION_STYLES.join(', ')} (normal and prominent read as default); destructive always asks before running.`,
  rules: [
    'match: an action id or label (any case) or * ; hide removes it; relabel, style (empty clears) and symbol change it; position (0-based, clamped) moves it.',
    'add: appends a template action, or replaces the action with the same id.',
    "a rule needs a 'match' or an 'add'.",
  ],
  gates: [
    "An app's own command, script and shortcut actions run only when the app registered allowCommands and the person allowed it.",
    "A template's command, script and shortcut actions need one approval per template, bound to the exact command text, script or shortcut.",
    "A callback to a host other than this computer needs the person's approval of that host.",
    'url, dismiss, snooze, openApp and reply need nothing. Nothing runs when a banner is delivered.',
  ],
  payload:
    'Process actions receive on stdin {app, id, action{id,label,kind}, fields{...}, extra{...}, notification{...}, template?, imagePath?, notifier{followUp, unattendedSeconds}}.',
} as const;
