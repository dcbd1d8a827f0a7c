// A route's query parameters read by its contract (docs/api/README.md#g16): each one's text into its value, or the
// caller's 400 naming it. The router calls it for every route; no handler reads the query by hand.

import type { Request } from 'express';
import { errors } from '../../protocol/errors.js';
import type { QueryParameter, QueryReading } from './route.js';

/** The calendar date of an ISO 8601 date or date-time: `2025-01-31`, and what follows it (`T…`, or nothing). */
const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})(T.*)?$/;
/** A whole number, white space around it and a leading + allowed (`limit= 5`, `limit=+5`). */
const WHOLE = /^\s*\+?\d+\s*$/;
const TRUE_WORDS = ['true', '1', 'yes'];
const FALSE_WORDS = ['false', '0', 'no'];

/** The text of a parameter given at most once; undefined when absent. */
function textOf(req: Request, name: string): string | undefined {
  const value: unknown = req.query[name];
  if (Array.isArray(value)) throw errors.invalidField(name, 'give it once');
  if (value !== undefined && typeof value !== 'string') throw errors.invalidField(name);
  return value;
}

/** Is this a day of the calendar (not the 30th of February, which Date would carry over into March)? */
function isCalendarDay(year: number, month: number, day: number): boolean {
  const probe = new Date(0);
  probe.setUTCFullYear(year, month - 1, day);
  return probe.getUTCFullYear() === year && probe.getUTCMonth() === month - 1 && probe.getUTCDate() === day;
}

/** A date (that day's first or last millisecond, local time) or a date-time, as an ISO UTC time. */
function readDate(name: string, text: string, edge: 'start' | 'end'): string {
  const invalid = () => errors.invalidField(name, 'an ISO 8601 date (2025-01-31) or date-time');
  const parts = ISO_DATE.exec(text);
  if (!parts) throw invalid();
  const [year, month, day] = parts.slice(1, 4).map(Number) as [number, number, number];
  if (!isCalendarDay(year, month, day)) throw invalid();
  let time: number;
  if (parts[4] === undefined) {
    const start = new Date(0);
    start.setFullYear(year, month - 1, edge === 'start' ? day : day + 1); // setFullYear: year 99 is not 1999
    start.setHours(0, 0, 0, 0);
    time = edge === 'start' ? start.getTime() : start.getTime() - 1;
  } else time = Date.parse(text);
  if (Number.isNaN(time)) throw invalid();
  return new Date(time).toISOString();
}

/** A whole number in its range; above the range it is cut to it when the parameter says so. */
function readWhole(name: string, text: string, reading: Extract<QueryReading, { kind: 'whole' }>): number {
  const bounded = reading.max < Number.MAX_SAFE_INTEGER && !reading.cut;
  const rule =
    reading.rule ?? (bounded ? `a whole number from ${reading.min} to ${reading.max}` : `a whole number, ${reading.min} or more`);
  const value = WHOLE.test(text) ? Number(text.trim()) : Number.NaN;
  if (!Number.isSafeInteger(value) || value < reading.min || (bounded && value > reading.max)) throw errors.invalidField(name, rule);
  return Math.min(value, reading.max);
}

function readOne(parameter: QueryParameter, text: string | undefined): unknown {
  const { name, read = { kind: 'text' } } = parameter;
  if (parameter.required && (text === undefined || text === '')) throw errors.missingField(name);
  if (read.kind === 'read') return read.read(text);
  const given = text === undefined || text === '' ? undefined : text;
  switch (read.kind) {
    case 'text':
      return given;
    case 'choice': {
      const value = given ?? read.default;
      if (value !== undefined && !read.choices.includes(value)) throw errors.invalidChoice(name, read.choices);
      return value;
    }
    case 'whole':
      return given === undefined ? read.default : readWhole(name, given, read);
    case 'flag': {
      if (given === undefined) return read.default;
      const word = given.toLowerCase();
      if (TRUE_WORDS.includes(word)) return true;
      if (FALSE_WORDS.includes(word)) return false;
      throw errors.invalidField(name, 'true or false');
    }
    case 'date':
      return given === undefined ? undefined : readDate(name, given, read.edge);
  }
}

/** Every parameter of the contract, read: `{name: value}` (absent ones undefined, or their default). */
export function readQuery(req: Request, parameters: readonly QueryParameter[]): Record<string, unknown> {
  return Object.fromEntries(parameters.map((parameter) => [parameter.name, readOne(parameter, textOf(req, parameter.name))]));
}
