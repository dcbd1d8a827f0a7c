// The building blocks of the request and reply schemas. A schema is plain JSON Schema data: the daemon compiles
// some with its strict ajv to check requests, and the OpenAPI document carries all of them.

export type JsonSchema = { readonly [keyword: string]: unknown };

const described = (schema: JsonSchema, description: string | undefined): JsonSchema =>
  description === undefined ? schema : { ...schema, description };

export const text = (description?: string): JsonSchema => described({ type: 'string' }, description);
/** A string that may not be empty. */
export const filledText = (description: string): JsonSchema => ({ type: 'string', minLength: 1, description });
export const flag = (description?: string): JsonSchema => described({ type: 'boolean' }, description);
export const number = (description?: string): JsonSchema => described({ type: 'number' }, description);
export const integer = (description?: string): JsonSchema => described({ type: 'integer' }, description);
export const list = (items: JsonSchema, description?: string): JsonSchema => described({ type: 'array', items }, description);
export const oneOfText = (values: readonly string[], description?: string): JsonSchema =>
  described({ type: 'string', enum: [...values] }, description);

/** An object with these properties (other keys are allowed). */
export function object(properties: Record<string, JsonSchema>, required: readonly string[] = [], description?: string): JsonSchema {
  return described({ type: 'object', ...(required.length > 0 ? { required: [...required] } : {}), properties }, description);
}

/** A request body with these properties and no others: a key the daemon does not know is refused, not ignored. */
export const closedObject = (properties: Record<string, JsonSchema>, required: readonly string[] = []): JsonSchema => ({
  ...object(properties, required),
  additionalProperties: false,
});

/** An object whose keys are free and whose values all have one schema. */
export const map = (values: JsonSchema, description?: string): JsonSchema =>
  described({ type: 'object', additionalProperties: values }, description);

/** An ISO 8601 date and time in UTC, as the service writes them. */
export const timestamp = (description?: string): JsonSchema => text(description ?? 'an ISO 8601 date and time (UTC)');
