import { errors } from '../../protocol/errors.js';

// Reading the fields of a request's JSON body (the router reads the body, and the query by the route's contract).
// Every problem is the caller's and names the field.

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
