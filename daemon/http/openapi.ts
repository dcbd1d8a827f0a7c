// The OpenAPI 3.1 document of the API, made from the routes' contracts alone (no core, no running daemon): the build
// writes it to docs/api/openapi.json and GET /v1/openapi.json serves it. It describes the `/v1` routes, the ones
// programs call; the person's window's `/app/api` is its own (docs/app.md#the-api).

import { DEFAULT_PORT, MAX_BODY_BYTES } from '../../protocol/limits.js';
import { SHARED_SCHEMAS } from '../../protocol/schemas/components.js';
import { errorSchema } from '../../protocol/schemas/common.js';
import type { JsonSchema } from '../../protocol/schemas/json-schema.js';
import { VERSION } from '../version.js';
import { type Contract, type Example, TAGS, isFileReply } from './route.js';

/** The guard's refusals, which every route can answer, and what reading a JSON body can refuse. */
const GUARD_ERRORS: Record<number, string> = {
  403: 'the Host header is not a loopback name, or the request has an Origin header (a web page)',
  500: 'a bug in the service (the details are in its log)',
};
const TOKEN_ERROR: Record<number, string> = { 401: 'the bearer token is missing or wrong' };
const BODY_ERRORS: Record<number, string> = {
  400: 'the body is not JSON',
  413: `the body is over ${MAX_BODY_BYTES} bytes`,
  415: 'the body is compressed (a Content-Encoding other than identity)',
};

const METHOD_ORDER = ['GET', 'PUT', 'POST', 'DELETE'];

type Refer = (schema: JsonSchema) => unknown;

/**
 * Writes a schema for the document: a shared schema it holds becomes a reference to components/schemas, where
 * `component` writes each one once (its own root staying whole).
 */
function referencing() {
  const names = new Map<unknown, string>(Object.entries(SHARED_SCHEMAS).map(([name, schema]) => [schema, name]));
  const walk = (value: unknown, root: unknown): unknown => {
    if (value !== root && names.has(value)) return { $ref: `#/components/schemas/${names.get(value)}` };
    if (Array.isArray(value)) return value.map((item) => walk(item, root));
    if (typeof value !== 'object' || value === null) return value;
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, walk(item, root)]));
  };
  return { refer: (schema: JsonSchema) => walk(schema, null), component: (schema: JsonSchema) => walk(schema, schema) };
}

/** `GET /v1/history/search` -> `getHistorySearch`. */
function operationId(route: Contract): string {
  const words = route.path
    .replace(/^\/v1\//, '')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
  return [route.method.toLowerCase(), ...words.map((word) => word[0]!.toUpperCase() + word.slice(1))].join('');
}

/** Example names: the summary made into a key, unique within the route. */
function exampleKeys(examples: readonly Example[]): string[] {
  const keys = examples.map((example) =>
    example.summary
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, ''),
  );
  return keys.map((key, index) => (keys.indexOf(key) === index ? key : `${key}-${index + 1}`));
}

/** The named examples that set one value of the request (a parameter, or the body). */
function examplesOf(examples: readonly Example[], value: (example: Example) => unknown) {
  const keys = exampleKeys(examples);
  const named = examples.flatMap((example, index) =>
    value(example) === undefined ? [] : [[keys[index]!, { summary: example.summary, value: value(example) }] as const],
  );
  return named.length > 0 ? { examples: Object.fromEntries(named) } : {};
}

function errorResponses(route: Contract, refer: Refer) {
  const open = route.door === 'open';
  const common: Record<number, string> = { ...GUARD_ERRORS, ...(open ? {} : TOKEN_ERROR), ...(route.body ? BODY_ERRORS : {}) };
  const statuses = [...new Set([...Object.keys(route.errors), ...Object.keys(common)].map(Number))].sort((a, b) => a - b);
  return statuses.map((status) => {
    const when = [route.errors[status], common[status]].filter(Boolean).join('; or ');
    return [String(status), { description: when, content: { 'application/json': { schema: refer(errorSchema) } } }] as const;
  });
}

function operation(route: Contract, refer: Refer) {
  const parameters = [
    ...Object.entries(route.params ?? {}).map(([name, parameter]) => ({
      name,
      in: 'path',
      required: true,
      description: parameter.description,
      schema: { type: 'string' },
      ...examplesOf(route.examples, (example) => example.params?.[name]),
    })),
    ...(route.query ?? []).map((parameter) => ({
      name: parameter.name,
      in: 'query',
      ...(parameter.required ? { required: true } : {}),
      description: parameter.description,
      schema: refer(parameter.schema),
      ...examplesOf(route.examples, (example) => example.query?.[parameter.name]),
    })),
  ];
  const success = isFileReply(route.reply)
    ? {
        description: route.reply.file,
        content: { [route.reply.contentType]: { schema: { type: 'string', contentMediaType: route.reply.contentType } } },
      }
    : { description: 'done', content: { 'application/json': { schema: refer(route.reply) } } };
  return {
    tags: [route.tag],
    summary: route.summary,
    ...(route.description ? { description: route.description } : {}),
    operationId: operationId(route),
    ...(route.door === 'open' ? { security: [] } : {}),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(route.body
      ? {
          requestBody: {
            required: true,
            content: { 'application/json': { schema: refer(route.body), ...examplesOf(route.examples, (example) => example.body) } },
          },
        }
      : {}),
    responses: Object.fromEntries([[route.created ? '201' : '200', success], ...errorResponses(route, refer)]),
  };
}

export function openApiDocument(contracts: readonly Contract[]) {
  const { refer, component } = referencing();
  const routes = contracts.filter((route) => route.door !== 'session');
  const paths = [...new Set(routes.map((route) => route.path))].sort();
  const byMethod = (a: Contract, b: Contract) => METHOD_ORDER.indexOf(a.method) - METHOD_ORDER.indexOf(b.method);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Notifier local API',
      version: VERSION,
      description:
        'A local desktop notification service. It listens on 127.0.0.1 only; every route but GET /v1/health needs the bearer token kept in the support folder. Errors are {"error": "<message>", "code": "<code>"}, the message naming the field (and field and reason giving it as data).',
    },
    servers: [
      {
        url: `http://127.0.0.1:${DEFAULT_PORT}`,
        description: 'the default port; the port file in the support folder says which one the service took',
      },
    ],
    security: [{ bearer: [] }],
    tags: Object.entries(TAGS)
      .filter(([name]) => routes.some((route) => route.tag === name))
      .map(([name, description]) => ({ name, description })),
    paths: Object.fromEntries(
      paths.map((path) => [
        path,
        Object.fromEntries(
          routes
            .filter((route) => route.path === path)
            .sort(byMethod)
            .map((route) => [route.method.toLowerCase(), operation(route, refer)]),
        ),
      ]),
    ),
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'the 64 hexadecimal characters of the token file in the support folder' },
      },
      schemas: Object.fromEntries(
        Object.keys(SHARED_SCHEMAS)
          .sort()
          .map((name) => [name, component(SHARED_SCHEMAS[name]!)]),
      ),
    },
  };
}

/** The document as docs/api/openapi.json holds it: two-space indents, a final newline. */
export const openApiText = (routes: readonly Contract[]): string => `${JSON.stringify(openApiDocument(routes), null, 2)}\n`;
