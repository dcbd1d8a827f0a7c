import { Ajv, type ErrorObject, type SchemaObject } from 'ajv';
import { errors } from '../../protocol/errors.js';

// One ajv instance for every schema in ./schemas. `verbose` hands each error its schema node, whose
// `description` becomes the hint in the message ("invalid field: accentColor (a hex colour such as #RRGGBB)").
const ajv = new Ajv({ allErrors: false, verbose: true, strict: true, allowUnionTypes: true });

/** `/buttons/0/label` -> `buttons[0].label`, the way a person writes a field of a JSON body. */
export function fieldPath(instancePath: string, child?: string): string {
  const parts = instancePath.split('/').slice(1);
  if (child !== undefined) parts.push(child);
  return parts
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((out, part) => (/^\d+$/.test(part) ? `${out}[${part}]` : out ? `${out}.${part}` : part), '');
}

function hint(error: ErrorObject): string {
  const described = (error.parentSchema as { description?: string } | undefined)?.description;
  if (described) return described;
  switch (error.keyword) {
    case 'type':
      return `must be ${describeType(String(error.params.type))}`;
    case 'enum':
      return `one of ${(error.params.allowedValues as unknown[]).join(', ')}`;
    default:
      return error.message ?? 'not allowed here';
  }
}

function describeType(type: string): string {
  const names: Record<string, string> = {
    string: 'a string',
    number: 'a number',
    integer: 'a whole number',
    boolean: 'true or false',
    object: 'an object',
    array: 'an array',
  };
  return type
    .split(',')
    .map((name) => names[name] ?? name)
    .join(' or ');
}

/** The first problem ajv found, as the service's error: `missing field: x` or `invalid field: x (why)`. */
export function toApiError(error: ErrorObject) {
  if (error.keyword === 'required') {
    return errors.missingField(fieldPath(error.instancePath, String(error.params.missingProperty)));
  }
  return errors.invalidField(fieldPath(error.instancePath) || 'body', hint(error));
}

/** Compiles a schema once; the returned function throws the service's 400 for the first problem. */
export function validator<T>(schema: SchemaObject): (value: unknown) => T {
  const validate = ajv.compile(schema);
  return (value: unknown): T => {
    if (!validate(value)) throw toApiError(validate.errors![0]!);
    return value as T;
  };
}
