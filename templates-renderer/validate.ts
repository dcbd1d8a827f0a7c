// Reads a template as sent (PUT /v1/templates, an inline template of POST /v1/preview, a file on disk, a bundle) into
// the validated model (model.ts): every problem is collected at once, defaults are written out and sizes become
// numbers. What is checked, and with which message, is docs/api/templates.md#t6; the properties, types, ranges
// and defaults come from the one description of the format (schema.ts).
//
// Errors make a template unusable: `PUT /v1/templates` answers 400 `templateErrorMessage(errors)`. Warnings never
// block: unknown keys (dropped), undeclared tokens, rules that change nothing, columns that were fitted.

import { checkFollowUp, isOpenableLink, type FollowUpInput } from '../protocol/notification-rules.js';
import type { Button, FollowUp } from '../protocol/types.js';
import type { Cell, Component, Grid, Issue, Size, Template, TemplateAction } from './model.js';
import { offeredByTemplate, readAction, readActionOrId, readActionRule, readButton } from './validate-actions.js';
import {
  Context,
  inSchemaOrder,
  isPlainObject,
  join,
  readList,
  readObject,
  Report,
  tokensIn,
  type Json,
  type ReaderFn,
  type ValidationResult,
} from './validate-kit.js';
import {
  COLOR_ROLES,
  COMPONENT_TYPES,
  COMPONENTS,
  CURRENT_LAYOUT_VERSION,
  LIMITS,
  STANDARD_TOKENS,
  TEMPLATE,
  objectDefinition,
  type PropertySpec,
} from './schema.js';

export interface ValidateOptions {
  /** The app the template is for, when the template names none (an inline template of a preview). */
  app?: string;
  /**
   * The field keys the app declares (its manifest's `fields`). When given, a token that is neither one of them, a
   * standard token nor `extra.<key>` gives a warning (it only resolves when the app happens to send it).
   */
  knownFields?: readonly string[];
  /**
   * The actions the app offers (its manifest's `actions`). When given, a follow-up `actionRef` must name one of them,
   * a legacy button or an action the template adds; when not, only the template's own actions can be checked.
   */
  offeredActions?: readonly Button[];
}

/** Validates and normalises a template; every problem is reported, none stops the others from being found. */
export function validateTemplate(input: unknown, options: ValidateOptions = {}): ValidationResult {
  const report = new Report();
  if (!isPlainObject(input)) {
    report.error('', 'a template is a JSON object with at least name and app');
    return report.result();
  }
  const raw: Json = { ...input };
  if (options.app !== undefined && (raw.app === undefined || raw.app === null)) raw.app = options.app;

  const context = new Context(READERS);
  const template = readObject(TEMPLATE, raw, '', 'template', report, context) as unknown as Template;

  // layoutVersion: 2 with a grid, else 1; anything else is an error (docs/api/templates.md#t7).
  const hasGrid = raw.grid !== undefined && raw.grid !== null;
  const version = raw.layoutVersion;
  if (version === undefined || version === null) template.layoutVersion = hasGrid ? CURRENT_LAYOUT_VERSION : 1;
  else if (version === 1 || version === 2) template.layoutVersion = version;
  else {
    report.error(
      'layoutVersion',
      `unsupported layoutVersion ${typeof version === 'string' ? JSON.stringify(version) : String(version)} (1 or ${CURRENT_LAYOUT_VERSION})`,
    );
    template.layoutVersion = hasGrid ? CURRENT_LAYOUT_VERSION : 1;
  }
  if (version === 2 && !hasGrid) report.error('grid', 'layoutVersion 2 needs a grid');
  if (template.layoutVersion === 1 && (hasGrid || (Array.isArray(raw.cells) && raw.cells.length > 0))) {
    report.warn('layoutVersion', 'grid and cells are ignored while layoutVersion is 1; set layoutVersion to 2 to use them');
  }

  if (Array.isArray(template.cells)) checkActionClaims(template.cells, report);
  if (Array.isArray(template.cells)) checkTokens(template, options.knownFields, report);

  // The follow-up last: its actionRef may name the template's own buttons and added actions.
  if (context.followUp !== undefined) {
    const offered = [...offeredByTemplate(template), ...(options.offeredActions ?? [])];
    const checked = validateFollowUp(context.followUp, {
      offered,
      ...(options.offeredActions === undefined ? { offeredIsPartial: true } : {}),
      ...(typeof template.timeout === 'number' ? { timeout: template.timeout } : {}),
      ...(template.persistent === true ? { persistent: true } : {}),
    });
    report.absorb(checked);
    if (checked.followUp) template.followUp = checked.followUp;
  }
  return report.result(inSchemaOrder(TEMPLATE, template as unknown as Json) as unknown as Template);
}

/**
 * `invalid template: <path>: <message>; ...` (docs/api/templates.md#t6): a problem inside a cell starts
 * `cell <id>: `.
 */
export function templateErrorMessage(errors: readonly Issue[]): string {
  if (errors.length === 0) return 'invalid template';
  return `invalid template: ${errors.map(issueText).join('; ')}`;
}

/** One issue as the message writes it: `cell <id>: <path>: <message>`. */
export function issueText(issue: Issue): string {
  const where = issue.path ? `${issue.path}: ` : '';
  return `${issue.cellId !== undefined ? `cell ${issue.cellId}: ` : ''}${where}${issue.message}`;
}

export interface FollowUpOptions {
  /** The actions an `actionRef` may name (by id or label, any case). */
  offered?: readonly Button[];
  /**
   * The list is not everything the banner can offer (the app's manifest actions are not known here): an `actionRef`
   * naming none of them is taken as one of the app's actions rather than reported.
   */
  offeredIsPartial?: boolean;
  /** The template's banner timeout and persistence, for the warning that the banner may close first. */
  timeout?: number;
  persistent?: boolean;
}

/**
 * Validates a template's follow-up alone (the rules of the follow-up object, docs/api/notifications.md#n19 to
 * #n29), with `checkFollowUp`. Paths start `followUp`.
 */
export function validateFollowUp(
  input: unknown,
  options: FollowUpOptions = {},
): { followUp?: FollowUp; errors: Issue[]; warnings: Issue[] } {
  const report = new Report();
  const spec = objectDefinition('followUp');
  if (!isPlainObject(input)) {
    report.error('followUp', 'followUp must be an object with after and actionRef or action');
    return report.result();
  }
  const read = readObject(spec, input, 'followUp', 'followUp', report, new Context(READERS));
  if (report.errors.length > 0) return report.result();

  const followUp = { ...read } as FollowUpInput;
  if (followUp.action) {
    // A follow-up action written without its kind or label (docs/api/templates.md#put-v1-templates-follow-up).
    const action = { ...followUp.action };
    action.kind ??= (['shortcut', 'script', 'command', 'callback'] as const).find((field) => action[field] !== undefined) as string;
    if (action.kind === undefined) {
      report.error('followUp.action.kind', "an action needs a 'kind'");
      return report.result();
    }
    action.label ??= action.shortcut ?? action.script ?? 'Follow-up';
    followUp.action = action;
  }
  let offered = [...(options.offered ?? [])];
  const ref = followUp.actionRef?.toLowerCase();
  if (options.offeredIsPartial && ref !== undefined && !offered.some((b) => b.id?.toLowerCase() === ref || b.label.toLowerCase() === ref)) {
    // Not one of the template's own actions: it may be one the app declares, which is checked when it runs.
    offered = [...offered, { id: followUp.actionRef!, label: followUp.actionRef!, callback: {} }];
  }
  let followUpOut: FollowUp;
  try {
    followUpOut = checkFollowUp(followUp, offered);
  } catch (error) {
    report.fromApiError(error, 'followUp');
    return report.result();
  }
  const after = followUpOut.after;
  if (
    after !== undefined &&
    options.persistent !== true &&
    options.timeout !== undefined &&
    options.timeout > 0 &&
    options.timeout <= after
  ) {
    report.warn(
      'followUp.after',
      `the banner closes after ${formatNumber(options.timeout)} s, not later than after (${formatNumber(after)} s), so the follow-up may never run`,
    );
  }
  return { ...report.result(), followUp: followUpOut };
}

// ---------------------------------------------------------------------------------------------------------------
// Small value rules, exported for the renderer and the routes

/** `"auto"`, `"fill"`, a number, or a number written `"72"`, `"72pt"`, `"72px"`; null when it is none of those. */
export function parseSize(value: unknown): Size | null {
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (typeof value !== 'string') return null;
  const text = value.trim().toLowerCase();
  if (text === 'auto' || text === 'fill') return text;
  const match = /^(-?\d+(?:\.\d+)?|-?\.\d+)\s*(pt|px)?$/.exec(text);
  return match ? Number(match[1]) : null;
}

/** `#RGB`, `#RGBA`, `#RRGGBB`, `#RRGGBBAA`, or (unless `hexOnly`) a role: accent, primary, secondary. */
export function isValidColor(value: string, hexOnly = false): boolean {
  if (!hexOnly && (COLOR_ROLES as readonly string[]).includes(value)) return true;
  return /^#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i.test(value);
}

/**
 * A template link: with no token it must be an openable link (http, https with a host, or mailto); with tokens,
 * the text before the first token must be empty or start an http, https or mailto link.
 */
export function isTemplateLink(link: string): boolean {
  const firstToken = link.search(/\{[A-Za-z0-9_.-]+\}/);
  if (firstToken < 0) return isOpenableLink(link);
  const prefix = link.slice(0, firstToken).trim().toLowerCase();
  if (prefix === '') return true;
  return ['http://', 'https://', 'mailto:'].some((scheme) => prefix.startsWith(scheme));
}

// ---------------------------------------------------------------------------------------------------------------
// The named rules (schema.ts `Reader`): each a ReaderFn, and READERS, at the end, by name

const readSize: ReaderFn<Size | undefined> = (spec, value, path, key, report) => {
  const size = parseSize(value);
  if (size === null) {
    report.error(path, `size '${typeof value === 'string' ? value : JSON.stringify(value)}' must be "auto", "fill" or a number of points`);
    return undefined;
  }
  if (typeof size === 'number' && !(size >= LIMITS.sizePoints.min && size <= LIMITS.sizePoints.max)) {
    report.error(path, spec.rangeMessage ?? `a size in points must be ${LIMITS.sizePoints.min} to ${LIMITS.sizePoints.max}`);
    return undefined;
  }
  return size;
};

/** Whether the value is a string; if not, the problem is reported. */
function isText(value: unknown, path: string, key: string, report: Report): value is string {
  if (typeof value !== 'string') report.error(path, `${key} must be a text`);
  return typeof value === 'string';
}

function readColor(value: unknown, path: string, key: string, report: Report, hexOnly: boolean): string | undefined {
  if (!isText(value, path, key, report)) return undefined;
  if (!isValidColor(value, hexOnly)) {
    report.error(
      path,
      hexOnly
        ? `'${value}' is not a hex colour (#RGB, #RGBA, #RRGGBB or #RRGGBBAA)`
        : `'${value}' is not a hex colour (#RGB, #RGBA, #RRGGBB or #RRGGBBAA) or one of ${COLOR_ROLES.join(', ')}`,
    );
    return undefined;
  }
  return value;
}

const readLink: ReaderFn<string | undefined> = (spec, value, path, key, report) => {
  if (!isText(value, path, key, report)) return undefined;
  if (!isTemplateLink(value)) {
    report.error(path, 'only http, https and mailto URLs can be opened');
    return undefined;
  }
  return value;
};

const readSymbol: ReaderFn<string | undefined> = (spec, value, path, key, report) => {
  // docs/api/templates.md#t30: a styled symbol object ({name, weight, ...}) is drawn by its name alone, with a warning.
  if (isPlainObject(value) && typeof value.name === 'string' && value.name.trim() !== '') {
    report.warn(path, `only the symbol's name is used ('${value.name}')`);
    return value.name;
  }
  if (typeof value !== 'string') {
    report.error(path, `${key} must be a text (an icon name)`);
    return undefined;
  }
  if (value.trim() === '') {
    report.error(path, spec.requiredMessage ?? `${key} must name an icon`);
    return undefined;
  }
  return value;
};

const readGrid: ReaderFn<Grid | undefined> = (spec, value, path, key, report, context) => {
  if (!isPlainObject(value)) {
    report.error(path, 'grid must be an object');
    return undefined;
  }
  const errorsBefore = report.errors.length;
  context.gridInput = value;
  const grid = readObject(objectDefinition('grid'), value, path, key, report, context) as unknown as Grid;
  context.rows = fillTracks(value, 'rows', 'rowSizes', 3, 'auto', grid);
  context.cols = fillTracks(value, 'cols', 'colSizes', 4, 'fill', grid);
  if (report.errors.length === errorsBefore) fitColumns(grid, path, report);
  return inSchemaOrder(objectDefinition('grid'), grid as unknown as Json) as unknown as Grid;
};

const TRACK_AXES = { rowSizes: 'rows', colSizes: 'cols' } as const;

/** rowSizes / colSizes: the sizes, and one per track (`rowSizes has N entries but rows is M`). */
const readTrackSizes: ReaderFn<Size[] | undefined> = (spec, value, path, key, report, context) => {
  if (!Array.isArray(value)) {
    report.error(path, `${key} must be a list`);
    return undefined;
  }
  const sizes = readList(spec, value, path, key, report, context) as Size[];
  const countKey = TRACK_AXES[key as keyof typeof TRACK_AXES];
  const count = context.gridInput?.[countKey];
  if (count === undefined || count === null) {
    if (value.length < LIMITS.tracks.min || value.length > LIMITS.tracks.max) {
      report.error(path, `${countKey} must be ${LIMITS.tracks.min} to ${LIMITS.tracks.max}`);
    }
  } else if (isTrackCount(count) && value.length !== count) {
    report.error(path, `${key} has ${value.length} entries but ${countKey} is ${count}`);
  }
  return sizes;
};

const isTrackCount = (n: unknown): n is number =>
  typeof n === 'number' && Number.isInteger(n) && n >= LIMITS.tracks.min && n <= LIMITS.tracks.max;

/** rows (cols): given, else the number of sizes, else the default; sizes: given, else one default per track. */
function fillTracks(
  raw: Json,
  countKey: 'rows' | 'cols',
  sizesKey: 'rowSizes' | 'colSizes',
  fallback: number,
  fill: Size,
  grid: Grid,
): number | undefined {
  const given = raw[countKey] ?? (Array.isArray(raw[sizesKey]) ? (raw[sizesKey] as unknown[]).length : fallback);
  if (!isTrackCount(given)) return undefined;
  grid[countKey] = given;
  if (raw[sizesKey] === undefined || raw[sizesKey] === null) grid[sizesKey] = Array.from({ length: given }, () => fill);
  return given;
}

/**
 * docs/api/templates.md#t8: fixed columns below 24 points are raised to 24, and a set of columns that are all fixed
 * is stretched (or trimmed) on its last columns to the width inside the padding and gaps. Warnings, not errors.
 */
function fitColumns(grid: Grid, path: string, report: Report): void {
  const at = join(path, 'colSizes');
  const min = LIMITS.minColumnPoints;
  grid.colSizes = grid.colSizes.map((size, index) => {
    if (typeof size === 'number' && size < min) {
      report.warn(at, `column ${index + 1} was ${formatNumber(size)} points; fixed columns are at least ${min} points, so it was raised`);
      return min;
    }
    return size;
  });
  if (!grid.colSizes.every((size) => typeof size === 'number')) return;
  const points = grid.colSizes as number[];
  const inner = grid.width - 2 * grid.padding - grid.gap * (grid.cols - 1);
  const total = points.reduce((sum, size) => sum + size, 0);
  const difference = inner - total;
  if (difference > 0.5) {
    points[points.length - 1]! += difference;
    report.warn(
      at,
      `the columns add up to ${formatNumber(total)} points but the grid is ${formatNumber(inner)} points wide inside its padding and gaps; the last column takes the ${formatNumber(difference)} points left over`,
    );
  } else if (difference < -0.5) {
    let over = -difference;
    for (let index = points.length - 1; index >= 0 && over > 0; index--) {
      const take = Math.min(over, Math.max(points[index]! - min, 0));
      points[index]! -= take;
      over -= take;
    }
    report.warn(
      at,
      `the columns add up to ${formatNumber(total)} points but the grid is only ${formatNumber(inner)} points wide inside its padding and gaps; the last columns were trimmed`,
    );
  }
  grid.colSizes = points;
}

const readCell: ReaderFn<Cell | undefined> = (spec, value, path, key, report, context) => {
  if (!isPlainObject(value)) {
    report.error(path, 'a cell must be an object with row, col and component');
    return undefined;
  }
  const { row, col, id } = value;
  const wholeAtLeast0 = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n) && n >= 0;
  const cellId =
    typeof id === 'string' && id.trim() !== ''
      ? id
      : id === undefined && wholeAtLeast0(row) && wholeAtLeast0(col)
        ? `r${row}c${col}`
        : undefined;
  const outer = report.cellId;
  report.cellId = cellId;
  try {
    // The id and the place are checked before the component, so a cell's problems read in that order.
    const cell = readObject(objectDefinition('cell'), value, path, key, report, context, (name, out) => {
      if (name !== 'component' || cellId === undefined) return;
      out.id = cellId;
      if (context.cellIds.has(cellId)) report.error(`${path}.id`, `cell id '${cellId}' is used twice`);
      context.cellIds.add(cellId);
      placeCell(out as unknown as Cell, value, path, report, context);
    }) as unknown as Cell;
    return cell;
  } finally {
    report.cellId = outer;
  }
};

/** The cell must fit the grid and not cover a slot another cell covers (reported once per pair). */
function placeCell(cell: Cell, raw: Json, path: string, report: Report, context: Context): void {
  const { rows, cols } = context;
  const whole = (n: unknown, min: number): boolean => typeof n === 'number' && Number.isInteger(n) && n >= min;
  const rowSpan = raw.rowSpan ?? 1;
  const colSpan = raw.colSpan ?? 1;
  if (!whole(raw.row, 0) || !whole(raw.col, 0) || !whole(rowSpan, 1) || !whole(colSpan, 1)) return;
  if (rows === undefined || cols === undefined) return;
  if (cell.row + cell.rowSpan > rows || cell.col + cell.colSpan > cols) {
    report.error(
      path,
      `cell '${cell.id}' (row ${cell.row}, col ${cell.col}, ${cell.rowSpan} x ${cell.colSpan}) does not fit the ${rows} x ${cols} grid`,
    );
    return;
  }
  for (let r = cell.row; r < cell.row + cell.rowSpan; r++) {
    for (let c = cell.col; c < cell.col + cell.colSpan; c++) {
      const slot = r * 100 + c;
      const other = context.owner.get(slot);
      if (other === undefined) {
        context.owner.set(slot, cell.id);
        continue;
      }
      const pair = [other, cell.id].sort().join('\u0000');
      if (context.overlaps.has(pair)) continue;
      context.overlaps.add(pair);
      report.error(path, `cell '${cell.id}' overlaps cell '${other}' at row ${r}, col ${c}`);
    }
  }
}

const readComponent: ReaderFn<Component | undefined> = (spec, value, path, key, report, context) => {
  const types = COMPONENT_TYPES.join(', ');
  if (!isPlainObject(value)) {
    report.error(path, `component must be an object with a type (one of ${types})`);
    return undefined;
  }
  const { type, ...rest } = value;
  if (type === undefined || type === null) {
    report.error(`${path}.type`, `a component needs a type (one of ${types})`);
    return undefined;
  }
  if (typeof type !== 'string' || !(COMPONENT_TYPES as readonly string[]).includes(type)) {
    report.error(`${path}.type`, `unknown component type '${String(type)}' (one of ${types})`);
    return undefined;
  }
  const component = readObject(COMPONENTS[type as Component['type']], rest, path, key, report, context);
  return { type, ...component } as unknown as Component;
};

/** The named rules by name (schema.ts `Reader`), as a template's reading looks them up. */
const READERS: Record<NonNullable<PropertySpec['reader']>, ReaderFn> = {
  size: readSize,
  color: (spec, value, path, key, report) => readColor(value, path, key, report, false),
  hexColor: (spec, value, path, key, report) => readColor(value, path, key, report, true),
  link: readLink,
  // The template reads layoutVersion itself (it depends on the grid); here only the value is kept.
  layoutVersion: (spec, value) => value,
  grid: readGrid,
  trackSizes: readTrackSizes,
  cell: readCell,
  component: readComponent,
  action: (spec, value, path, key, report, context) => readAction(value, path, key, report, context),
  actionOrId: readActionOrId,
  actionRule: readActionRule,
  button: readButton,
  followUp: (spec, value, path, key, report, context) => {
    context.followUp = value;
    return undefined;
  },
  symbol: readSymbol,
};

// ---------------------------------------------------------------------------------------------------------------
// Warnings across cells

/**
 * docs/api/templates.md#t31: each later cell naming an action an earlier cell names gets a warning. Only a warning:
 * the drawing still shows the action in every button cell that names it.
 */
function checkActionClaims(cells: Cell[], report: Report): void {
  const claims = new Map<string, string[]>();
  for (const cell of cells) {
    const component = cell?.component;
    if (!component || !('action' in component || 'actionRef' in component)) continue;
    const action = 'action' in component ? component.action : undefined;
    const ref = 'actionRef' in component ? component.actionRef : undefined;
    const id = ref ?? (typeof action === 'string' ? action : action?.id);
    if (!id) continue;
    const claimants = claims.get(id.toLowerCase()) ?? [];
    claimants.push(cell.id);
    claims.set(id.toLowerCase(), claimants);
  }
  for (const [id, claimants] of claims) {
    for (const later of claimants.slice(1)) {
      report.warn(
        'cells',
        `action '${id}' is asked for by cells '${claimants[0]}' and '${later}': it is drawn once, in '${claimants[0]}'`,
        later,
      );
    }
  }
}

/** Tokens of the cells (bindings, inline action labels, links and inputs). */
function checkTokens(template: Template, knownFields: readonly string[] | undefined, report: Report): void {
  const extraKeys = new Set(Object.keys(isPlainObject(template.extra) ? template.extra : {}));
  for (const key of extraKeys) {
    if (!/^[A-Za-z0-9_.-]+$/.test(key)) {
      report.warn(`extra.${key}`, `extra key '${key}' cannot be read as {extra.${key}}: use letters, digits, '_', '.' or '-'`, undefined);
    }
  }
  const known = new Set<string>([...STANDARD_TOKENS, ...(knownFields ?? [])]);
  template.cells.forEach((cell, index) => {
    if (!cell?.component) return;
    const path = `cells[${index}].component`;
    for (const token of componentTokens(cell.component)) {
      if (token.startsWith('extra.')) {
        if (!extraKeys.has(token.slice('extra.'.length)))
          report.warn(path, `token {${token}} has no matching key in the template's extra`, cell.id);
      } else if (knownFields !== undefined && !known.has(token)) {
        report.warn(path, `token {${token}} is not declared in the manifest (it only resolves if the app sends it)`, cell.id);
      }
    }
  });
}

function componentTokens(component: Component): string[] {
  const texts: string[] = [];
  if ('binding' in component && typeof component.binding === 'string') texts.push(component.binding);
  if (component.type === 'rive' && component.inputBindings) texts.push(...Object.values(component.inputBindings));
  if ('action' in component && isPlainObject(component.action)) {
    const action = component.action as TemplateAction;
    texts.push(...[action.label, action.url, action.input].filter((text): text is string => typeof text === 'string'));
  }
  return [...new Set(texts.flatMap(tokensIn))];
}

function formatNumber(value: number): string {
  return Number.isInteger(value) ? String(value) : String(Math.round(value * 100) / 100);
}
