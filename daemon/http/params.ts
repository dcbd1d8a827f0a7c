import type { Request } from 'express';
import { errors } from '../../protocol/errors.js';

// Reading a request's JSON body and query string. Every problem is the caller's and names the field.

/** The JSON body as an object; no body at all reads as `{}`. */
export function bodyObject(req: Request): Record<string, unknown> {
  const body: unknown = req.body;
  if (body === undefined) return {};
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw errors.bodyNotObject();
  }
  return body as Record<string, unknown>;
}

/** A query parameter given at most once; `required` ones must be present and not empty. */
export function queryText(req: Request, name: string, options: { required: true }): string;
export function queryText(req: Request, name: string, options?: { required?: false }): string | undefined;
export function queryText(req: Request, name: string, options: { required?: boolean } = {}): string | undefined {
  const value: unknown = req.query[name];
  if (Array.isArray(value)) throw errors.invalidField(name, 'give it once');
  if (typeof value !== 'string' && value !== undefined) throw errors.invalidField(name);
  if (options.required && !value) throw errors.missingField(name);
  return value;
}

/**
 * docs/api/history.md#h11: `limit` is a whole number; negative or not a whole number gives 400. Larger than `max` is
 * cut to it.
 */
export function queryLimit(req: Request, defaultValue: number, max = Number.MAX_SAFE_INTEGER): number {
  const text = queryText(req, 'limit');
  if (text === undefined || text === '') return defaultValue;
  if (!/^\+?\d+$/.test(text.trim())) throw errors.invalidField('limit', 'a whole number, 0 or more');
  return Math.min(Number(text), max);
}

/** A required, non-empty string field of a JSON body. */
export function bodyText(body: Record<string, unknown>, name: string): string {
  const value = body[name];
  if (value === undefined || value === null || value === '') throw errors.missingField(name);
  if (typeof value !== 'string') throw errors.invalidField(name, 'must be a string');
  return value;
}

/** An optional string field of a JSON body. */
export function optionalBodyText(body: Record<string, unknown>, name: string): string | undefined {
  const value = body[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw errors.invalidField(name, 'must be a string');
  return value;
}

/** A required boolean field of a JSON body. */
export function bodyFlag(body: Record<string, unknown>, name: string): boolean {
  const value = body[name];
  if (value === undefined || value === null) throw errors.missingField(name);
  if (typeof value !== 'boolean') throw errors.invalidField(name, 'true or false');
  return value;
}
