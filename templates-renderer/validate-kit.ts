// The reading of a template's parts by the one description of the format (schema.ts): the problems collected as
// they are found, what the parts of one template's reading share, and the reading of an object, a value, a list by
// its description. The named rules it meets (schema.ts `Reader`: a grid, a cell, an action...) are given in the
// context by validate.ts, which holds them.

import { ApiError } from '../protocol/errors.js';
import type { Issue, Template } from './model.js';
import { DEFINITIONS, TOKEN_PATTERN, isObjectSpec, type JsonType, type ObjectSpec, type PropertySpec } from './schema.js';

// ---------------------------------------------------------------------------------------------------------------
// Collecting problems

export type Json = Record<string, unknown>;

export const isPlainObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);

export class Report {
  readonly errors: Issue[] = [];
  readonly warnings: Issue[] = [];
  /** The cell being read: problems inside it carry its id. */
  cellId: string | undefined;

  error(path: string, message: string, cellId = this.cellId): void {
    this.add(this.errors, { severity: 'error', path, ...(cellId !== undefined ? { cellId } : {}), message });
  }

  warn(path: string, message: string, cellId = this.cellId): void {
    this.add(this.warnings, { severity: 'warning', path, ...(cellId !== undefined ? { cellId } : {}), message });
  }

  private add(list: Issue[], issue: Issue): void {
    if (!list.some((known) => known.path === issue.path && known.message === issue.message && known.cellId === issue.cellId))
      list.push(issue);
  }

  /** An `invalid field: <path> (<why>)` thrown by the shared notification rules, as an issue of that path. */
  fromApiError(error: unknown, fallbackPath: string): void {
    if (!(error instanceof ApiError)) throw error;
    if (error.code === 'invalid_field') this.error(error.field!, error.reason ?? 'invalid value');
    else this.error(fallbackPath, error.message);
  }

  absorb(other: { errors: Issue[]; warnings: Issue[] }): void {
    for (const issue of other.errors) this.add(this.errors, issue);
    for (const issue of other.warnings) this.add(this.warnings, issue);
  }

  result(template?: Template): ValidationResult {
    return { ...(template && this.errors.length === 0 ? { template } : {}), errors: this.errors, warnings: this.warnings };
  }
}

/** A named rule of the format (schema.ts `Reader`): reads one value, reporting its problems. */
export type ReaderFn<T = unknown> = (spec: PropertySpec, value: unknown, path: string, key: string, report: Report, context: Context) => T;

/** What one template's reading shares between its parts: the named rules, the grid the cells must fit, the ids seen... */
export class Context {
  constructor(readonly readers: Record<NonNullable<PropertySpec['reader']>, ReaderFn>) {}

  rows: number | undefined;
  cols: number | undefined;
  readonly cellIds = new Set<string>();
  readonly owner = new Map<number, string>();
  readonly overlaps = new Set<string>();
  /** The grid as sent, for the rowSizes / colSizes counts. */
  gridInput: Json | undefined;
  followUp: unknown;
}

export const join = (path: string, key: string): string => (path ? `${path}.${key}` : key);

// ---------------------------------------------------------------------------------------------------------------
// Reading by the description

/** An object of the format: aliases, unknown keys, each property in order, defaults, "one of these is needed". */
export function readObject(
  spec: ObjectSpec,
  input: Json,
  path: string,
  key: string,
  report: Report,
  context: Context,
  beforeProperty?: (name: string, out: Json) => void,
): Json {
  const raw: Json = { ...input };
  for (const [alias, target] of Object.entries(spec.aliases ?? {})) {
    if (raw[alias] === undefined) continue;
    const value = raw[alias];
    delete raw[alias];
    const [head, tail] = target.split('.') as [string, string | undefined];
    if (tail === undefined) {
      if (raw[head] === undefined) raw[head] = value;
      else if (raw[head] !== value) report.warn(join(path, alias), `${alias} is another name for ${head}; ${head} is used`);
    } else {
      const inner = raw[head] === undefined ? {} : raw[head];
      if (!isPlainObject(inner)) continue;
      if (inner[tail] === undefined) raw[head] = { ...inner, [tail]: value };
      else if (inner[tail] !== value)
        report.warn(join(path, alias), `${alias} is another name for ${head}.${tail}; ${head}.${tail} is used`);
    }
  }
  for (const name of Object.keys(raw)) {
    if (Object.hasOwn(spec.properties, name)) continue;
    const misplaced = spec.misplaced && Object.hasOwn(spec.misplaced, name) ? spec.misplaced[name] : undefined;
    report.warn(join(path, name), misplaced ? `'${name}' is ignored: ${misplaced}` : `unknown key '${name}' is ignored`);
  }
  const out: Json = {};
  for (const [name, property] of Object.entries(spec.properties)) {
    beforeProperty?.(name, out);
    const value = raw[name];
    const at = join(path, name);
    if (value === undefined || value === null) {
      if (property.required) report.error(at, property.requiredMessage ?? `${name} is required`);
      else if (property.default !== undefined && !property.computedDefault) out[name] = structuredClone(property.default);
      continue;
    }
    const read = readValue(property, value, at, name, path, report, context);
    if (read !== undefined) out[name] = read;
  }
  for (const rule of spec.needsOneOf ?? []) {
    const given = rule.keys.some((name) => {
      const value = raw[name];
      return value !== undefined && value !== null && !(typeof value === 'string' && value.trim() === '');
    });
    if (!given) report.error(path || key, rule.message);
  }
  return inSchemaOrder(spec, out);
}

/** The object's keys in the order the description lists them (values worked out later go in their place). */
export function inSchemaOrder(spec: ObjectSpec, object: Json): Json {
  const out: Json = {};
  for (const name of Object.keys(spec.properties)) if (object[name] !== undefined) out[name] = object[name];
  return out;
}

/** One value: its named rule, else its JSON type, enum, blank text and range. undefined when it is not usable. */
export function readValue(
  spec: PropertySpec,
  value: unknown,
  path: string,
  key: string,
  parentPath: string,
  report: Report,
  context: Context,
): unknown {
  if (spec.reader) return context.readers[spec.reader](spec, value, path, key, report, context);
  if (spec.ref && !spec.items && !spec.values) {
    const definition = DEFINITIONS[spec.ref];
    if (isObjectSpec(definition)) {
      if (!isPlainObject(value)) {
        report.error(path, `${key} must be an object`);
        return undefined;
      }
      return readObject(definition, value, path, key, report, context);
    }
  }
  if (!hasType(spec, value)) {
    report.error(path, typeMessage(spec, key));
    return undefined;
  }
  if (typeof value === 'string') return readText(spec, value, path, key, report);
  if (typeof value === 'number') return inRange(spec, value, path, key, parentPath, report) ? value : undefined;
  if (Array.isArray(value)) return readList(spec, value, path, key, report, context);
  if (isPlainObject(value) && spec.values) {
    const out: Json = {};
    for (const [name, item] of Object.entries(value)) {
      const read = readValue(spec.values, item, `${path}.${name}`, name, path, report, context);
      // defineProperty: a key such as __proto__ stays a plain key.
      if (read !== undefined) Object.defineProperty(out, name, { value: read, enumerable: true, writable: true, configurable: true });
    }
    return out;
  }
  return value;
}

export function hasType(spec: PropertySpec, value: unknown): boolean {
  if (spec.type === 'any') return true;
  const types: readonly JsonType[] = typeof spec.type === 'string' ? [spec.type] : spec.type;
  return types.some((type) => {
    switch (type) {
      case 'string':
        return typeof value === 'string';
      case 'integer':
        return typeof value === 'number' && Number.isInteger(value);
      case 'number':
        return typeof value === 'number' && Number.isFinite(value);
      case 'boolean':
        return typeof value === 'boolean';
      case 'array':
        return Array.isArray(value);
      case 'object':
        return isPlainObject(value);
    }
  });
}

export function typeMessage(spec: PropertySpec, key: string): string {
  const types: readonly JsonType[] = spec.type === 'any' ? [] : typeof spec.type === 'string' ? [spec.type] : spec.type;
  const words: Record<JsonType, string> = {
    string: 'a text',
    integer: 'a whole number',
    number: 'a number',
    boolean: 'true or false',
    array: 'a list',
    object: 'an object',
  };
  return `${key} must be ${types.map((type) => words[type]).join(' or ')}`;
}

export function readText(spec: PropertySpec, value: string, path: string, key: string, report: Report): string | undefined {
  if (spec.enum) {
    if (value === '' && spec.allowEmpty) return value;
    const aliases = spec.enumAliases ?? {};
    const canonical = spec.enum.includes(value) ? value : Object.hasOwn(aliases, value) ? aliases[value] : undefined;
    if (canonical === undefined) {
      report.error(path, `${key} must be one of ${spec.enum.join(', ')} (got '${value}')`);
      return undefined;
    }
    return canonical;
  }
  if (spec.nonBlank && value.trim() === '') {
    report.error(path, spec.requiredMessage ?? `${key} is required`);
    return undefined;
  }
  return value;
}

export function inRange(spec: PropertySpec, value: number, path: string, key: string, parentPath: string, report: Report): boolean {
  const { minimum: min, maximum: max, exclusiveMinimum: above } = spec;
  const ok = (min === undefined || value >= min) && (max === undefined || value <= max) && (above === undefined || value > above);
  if (ok) return true;
  report.error(spec.reportAtObject ? parentPath : path, spec.rangeMessage ?? rangeMessage(spec, key));
  return false;
}

export function rangeMessage(spec: PropertySpec, key: string): string {
  if (spec.minimum !== undefined && spec.maximum !== undefined) return `${key} must be ${spec.minimum} to ${spec.maximum}`;
  if (spec.exclusiveMinimum !== undefined) return `${key} must be greater than ${spec.exclusiveMinimum}`;
  if (spec.minimum === 0) return `${key} must be 0 or greater`;
  if (spec.minimum !== undefined) return `${key} must be at least ${spec.minimum}`;
  return `${key} must be at most ${spec.maximum}`;
}

export function readList(
  spec: PropertySpec,
  value: unknown[],
  path: string,
  key: string,
  report: Report,
  context: Context,
): unknown[] | undefined {
  let items = value;
  if (spec.maxItems !== undefined && value.length > spec.maxItems) {
    report.error(path, spec.maxItemsMessage ?? `${key} has more than ${spec.maxItems} entries`);
    items = value.slice(0, spec.maxItems);
  }
  if (!spec.items) return [...items];
  const out: unknown[] = [];
  items.forEach((item, index) => {
    const read = readValue(spec.items!, item, `${path}[${index}]`, `${key}[${index}]`, path, report, context);
    // An item that cannot be read is left out (and reported); the others are still checked.
    if (read !== undefined) out.push(read);
  });
  return out;
}

/** What reading a template gives: the template when it is usable, and every problem found. */
export interface ValidationResult {
  /** The normalised template; present only when there are no errors. */
  template?: Template;
  errors: Issue[];
  warnings: Issue[];
}

/** The distinct `{tokens}` of a text, in order of first appearance. */
export function tokensIn(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(TOKEN_PATTERN)) if (!found.includes(match[1]!)) found.push(match[1]!);
  return found;
}
