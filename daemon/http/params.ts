import { errors } from '../../protocol/errors.js';

// Reading the fields of a request's JSON body (the router reads the body, and the query by the route's contract).
// Every problem is the caller's and names the field. A window's route gives its body the protocol's request type
// (window-route.ts `SentBody`), so the name of a field it reads is checked when it compiles.

/** A required, non-empty string field of a JSON body. */
export function bodyText<Body extends object>(body: Body, name: keyof Body & string): string {
  const value: unknown = body[name];
  if (value === undefined || value === null || value === '') throw errors.missingField(name);
  if (typeof value !== 'string') throw errors.invalidField(name, 'must be a string');
  return value;
}

/** An optional string field of a JSON body. */
export function optionalBodyText<Body extends object>(body: Body, name: keyof Body & string): string | undefined {
  const value: unknown = body[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw errors.invalidField(name, 'must be a string');
  return value;
}

/** A required boolean field of a JSON body. */
export function bodyFlag<Body extends object>(body: Body, name: keyof Body & string): boolean {
  const value: unknown = body[name];
  if (value === undefined || value === null) throw errors.missingField(name);
  if (typeof value !== 'boolean') throw errors.invalidField(name, 'true or false');
  return value;
}
