// The four built-in layouts (docs/api/templates.md#t3): `builtin.imageLeft`,
// `builtin.imageRight`, `builtin.hero` and `builtin.compact`. They always exist, are read-only and never listed;
// a notification without a template, and a version-1 template, is drawn with one of them (its `layout`).
//
// Each is an ordinary version-2 grid template, 380 points wide (live banners), checked by the validator when this
// module loads. Collapsing does what a fixed layout did by hand: without an image there is no picture column or
// row, without a subtitle no subtitle row, without buttons no action row.

import { LAYOUTS, type Layout, type Notification } from '../protocol/types.js';
import type { Cell, Template } from './model.js';
import { BUILTIN_PREFIX, isBuiltinName } from './names.js';
import { LIVE_BANNER_WIDTH } from './schema.js';
import { templateErrorMessage, validateTemplate } from './validate.js';

export { isBuiltinName };

export const BUILTIN_NAMES: readonly string[] = LAYOUTS.map((layout) => `${BUILTIN_PREFIX}${layout}`);

type Json = Record<string, unknown>;

const cell = (id: string, row: number, col: number, component: Json, more: Json = {}): Json => ({ id, row, col, ...more, component });

// The parts every layout shares.
const icon = (size = 20): Json => ({ type: 'issuerIcon', size, shape: 'rounded' });
const appName: Json = { type: 'text', binding: '{appName}', style: 'caption', maxLines: 1 };
const time: Json = { type: 'timestamp', style: 'caption' };
const title = (maxLines = 2): Json => ({ type: 'text', binding: '{title}', style: 'title', maxLines });
const subtitle: Json = { type: 'text', binding: '{subtitle}', style: 'subtitle', maxLines: 2 };
/** No maxLines: body text follows the template's maxBodyLines. */
const body: Json = { type: 'text', binding: '{body}', style: 'body' };
const picture: Json = {
  type: 'image',
  binding: '{image}',
  fit: 'cover',
  cornerRadius: 8,
  aspectRatio: 1,
  height: 64,
  emptyBehavior: 'collapse',
};
const wide: Json = { type: 'image', binding: '{image}', fit: 'cover', cornerRadius: 10, aspectRatio: 16 / 9, emptyBehavior: 'collapse' };
const actions: Json = { type: 'actions', source: 'merged', layout: 'wrap' };

/** Columns: a content-sized start column, the text, a content-sized end column. */
const grid = (rows: number): Json => ({
  rows,
  cols: 3,
  rowSizes: Array.from({ length: rows }, () => 'auto'),
  colSizes: ['auto', 'fill', 'auto'],
  gap: 6,
  padding: 12,
  width: LIVE_BANNER_WIDTH,
});

/** The header row: app icon, app name, time. */
const header = (row: number): Json[] => [
  cell('icon', row, 0, icon(), { align: 'leading' }),
  cell('app', row, 1, appName, { align: 'leading' }),
  cell('time', row, 2, time, { align: 'trailing' }),
];

/**
 * Title, subtitle and body one under the other from `row`, in `colSpan` columns from `col`; the action row under
 * them, across the card.
 */
const textAndActions = (row: number, col: number, colSpan: number): Json[] => [
  cell('title', row, col, title(), { colSpan }),
  cell('subtitle', row + 1, col, subtitle, { colSpan }),
  cell('body', row + 2, col, body, { colSpan }),
  cell('actions', row + 3, 0, actions, { colSpan: 3 }),
];

const LAYOUT_CELLS: Record<Layout, { rows: number; cells: Json[] }> = {
  // Header; a 64-point square picture on the left of title, subtitle and body; the action row.
  imageLeft: {
    rows: 5,
    cells: [...header(0), cell('image', 1, 0, picture, { rowSpan: 3 }), ...textAndActions(1, 1, 2)],
  },
  // The same, mirrored: the picture on the right.
  imageRight: {
    rows: 5,
    cells: [...header(0), cell('image', 1, 2, picture, { rowSpan: 3, align: 'topTrailing' }), ...textAndActions(1, 0, 2)],
  },
  // A wide 16:9 picture across the top; header; title, subtitle, body; the action row.
  hero: {
    rows: 6,
    cells: [cell('image', 0, 0, wide, { colSpan: 3 }), ...header(1), ...textAndActions(2, 0, 3)],
  },
  // One line (icon, title, time), the body on one line under the title, the action row.
  compact: {
    rows: 3,
    cells: [
      cell('icon', 0, 0, icon(18), { align: 'leading' }),
      cell('title', 0, 1, title(1), { align: 'leading' }),
      cell('time', 0, 2, time, { align: 'trailing' }),
      cell('body', 1, 1, { ...body, maxLines: 1 }, { colSpan: 2 }),
      cell('actions', 2, 0, actions, { colSpan: 3 }),
    ],
  },
};

/** The built-in layout as a template object as it is sent (before validation): also an example of the format. */
export function builtinTemplateSource(layout: Layout, app: string): Json {
  const { rows, cells } = LAYOUT_CELLS[layout];
  return {
    name: `${BUILTIN_PREFIX}${layout}`,
    app,
    layoutVersion: 2,
    collapseEmpty: true,
    grid: grid(rows),
    cells: structuredClone(cells),
    layout,
  };
}

/** Validated once: a built-in that does not validate is a bug of this file, found on the first import. */
const BUILTINS = new Map<string, Template>(
  LAYOUTS.map((layout) => {
    const { template, errors } = validateTemplate(builtinTemplateSource(layout, 'app'));
    if (!template) throw new Error(`builtin.${layout}: ${templateErrorMessage(errors)}`);
    return [template.name, template];
  }),
);

/** A copy of the built-in layout `name` for `app`; undefined when `name` is not one of the four. */
export function builtinTemplate(name: string, app: string): Template | undefined {
  const template = BUILTINS.get(name);
  return template ? { ...structuredClone(template), app } : undefined;
}

/** All four, in BUILTIN_NAMES order, for `app`. */
export function builtinTemplates(app: string): Template[] {
  return BUILTIN_NAMES.map((name) => builtinTemplate(name, app)!);
}

/** The switches that leave parts of a built-in layout out (a version-1 template's, or a notification's). */
export type PartSwitches = Pick<Template, 'showSubtitle' | 'showBody' | 'showTimestamp'>;

/** Is this cell of a built-in layout shown with these switches? */
export function shownPart(cell: Cell, shown: PartSwitches): boolean {
  const component = cell.component;
  if (component.type === 'timestamp') return shown.showTimestamp;
  if (component.type === 'text' && component.binding.includes('{subtitle}')) return shown.showSubtitle;
  if (component.type === 'text' && component.binding.includes('{body}')) return shown.showBody;
  return true;
}

/** A notification's built-in layout fields (docs/api/notifications.md#n7). */
export type LayoutFields = Pick<Notification, 'accentColor' | 'showSubtitle' | 'showBody' | 'showTimestamp' | 'maxBodyLines'>;

/**
 * A built-in layout as it draws one notification (docs/api/notifications.md#n7): its `show*` switches leave the
 * subtitle, body or time out, `maxBodyLines` limits the body (where the layout does not fix it: compact shows one
 * line) and `accentColor` colours the accent-coloured parts. A template that is not built-in is returned as it is:
 * a saved template's own settings always win.
 */
export function builtinForNotification(template: Template, fields: LayoutFields): Template {
  if (!isBuiltinName(template.name)) return template;
  const shown: PartSwitches = {
    showSubtitle: fields.showSubtitle ?? template.showSubtitle,
    showBody: fields.showBody ?? template.showBody,
    showTimestamp: fields.showTimestamp ?? template.showTimestamp,
  };
  return {
    ...template,
    ...shown,
    cells: template.cells.filter((cell) => shownPart(cell, shown)),
    maxBodyLines: fields.maxBodyLines ?? template.maxBodyLines,
    ...(fields.accentColor !== undefined ? { accentColor: fields.accentColor } : {}),
  };
}
