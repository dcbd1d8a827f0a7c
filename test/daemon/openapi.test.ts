import { describe, expect, test } from '@jest/globals';
import { validate } from '@readme/openapi-parser';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { JsonSchema } from '../../protocol/schemas/json-schema.js';
import { SHARED_SCHEMAS } from '../../protocol/schemas/components.js';
import { V1_ROUTES as API_ROUTES } from '../../daemon/http/api.js';
import { type Contract as ApiRoute, type Example, isFileReply } from '../../daemon/http/route.js';
import { openApiDocument, openApiText } from '../../daemon/http/openapi.js';
import { validator } from '../../daemon/http/validate.js';
import { ROOT, tempFolderSync, useDaemon } from '../helpers/daemon.js';

// The OpenAPI document (docs/api/openapi.json, GET /v1/openapi.json) against the real validator, the route list the
// app serves, and a real daemon: every example request a route documents is sent, and must get the documented reply.

const DOCUMENT_FILE = path.join(ROOT, 'docs', 'api', 'openapi.json');

/** The examples that are documented but not sent (each says why in its contract): kept few, and each one named. */
const NOT_SENT = [
  'POST /v1/compose: Open it',
  // The id of a key made in the same run: test/daemon/keys.test.ts revokes one.
  'DELETE /v1/keys/{id}: One key',
  // A notification scheduled in the same run: test/daemon/scheduled.test.ts cancels one.
  'DELETE /v1/scheduled: One',
  'POST /v1/voice/install: Install espeak-ng',
  // The relay's routes: test/daemon/relay-desktop.test.ts sends each to a paired computer and checks its reply's schema.
  'POST /v1/relay/pair: A relay with a pairing secret',
  'POST /v1/relay/unpair: Unpair',
  'GET /v1/relay/keys: Every key',
  'POST /v1/relay/keys: A key for Claude Code',
  'DELETE /v1/relay/keys/{id}: One key',
  'GET /v1/relay/connectors: Connectors',
  'GET /v1/relay/usage: Today',
  'GET /v1/relay/events: Subscriptions',
  'DELETE /v1/relay/events/subscriptions/{id}: One subscription',
  'GET /v1/relay/instructions: Claude Code',
];

const home = tempFolderSync('notifier-openapi-home-');
const supportDir = tempFolderSync('notifier-openapi-');

// Only the person grants approvals (through the private channel), so the daemon starts with one granted earlier:
// the one the DELETE /v1/actions/approvals example revokes.
writeFileSync(
  path.join(supportDir, 'approvals.json'),
  JSON.stringify({
    commands: {},
    callbackHosts: { 'com.example.build': { 'hooks.example.com:443': { approvedAt: '2025-01-06T09:00:00.000Z' } } },
    templates: {},
  }),
);
// Apple's shortcuts tool exists on macOS only: a stand-in lists two shortcuts. HOME is a fresh folder, so the
// examples that write to the home folder (the history export, Claude Code's configuration) write there.
const bin = path.join(home, 'bin');
mkdirSync(bin);
writeFileSync(path.join(bin, 'shortcuts'), "#!/bin/sh\nprintf 'Morning routine\\nLog water\\n'\n");
chmodSync(path.join(bin, 'shortcuts'), 0o755);

const daemon = useDaemon({ supportDir, env: { HOME: home, PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}` } });

const name = (route: ApiRoute): string => `${route.method} ${route.path}`;

/** Throws the service's own message (`invalid field: ...`) when the value does not match. */
function check(schema: JsonSchema, value: unknown, what: string): void {
  try {
    validator(schema)(value);
  } catch (error) {
    throw new Error(`${what}: ${(error as Error).message}\n${JSON.stringify(value).slice(0, 2000)}`);
  }
}

/** The query parameters of a route as one object schema: an example names only parameters the route has. */
function querySchema(route: ApiRoute): JsonSchema {
  const parameters = route.query ?? [];
  return {
    type: 'object',
    required: parameters.filter((parameter) => parameter.required).map((parameter) => parameter.name),
    properties: Object.fromEntries(parameters.map((parameter) => [parameter.name, parameter.schema])),
    additionalProperties: false,
  };
}

function requestPath(route: ApiRoute, example: Example): string {
  const target = route.path.replace(/\{(\w+)\}/g, (_match, name: string) => encodeURIComponent(example.params?.[name] ?? ''));
  const query = new URLSearchParams(
    Object.entries(example.query ?? {}).map(([key, value]): [string, string] => [key, String(value)]),
  ).toString();
  return query ? `${target}?${query}` : target;
}

describe('the OpenAPI document', () => {
  const document = openApiDocument(API_ROUTES);

  test('is a valid OpenAPI 3.1 document', async () => {
    const result = await validate(structuredClone(document) as never);
    expect(result.valid ? [] : result.errors).toEqual([]);
    expect(document.openapi).toBe('3.1.0');
  });

  test('the validator refuses a broken one', async () => {
    const brokenReference = structuredClone(document);
    brokenReference.paths['/v1/history']!.get!.responses['200'].content!['application/json']!.schema = {
      $ref: '#/components/schemas/NoSuchSchema',
    };
    expect((await validate(brokenReference as never)).valid).toBe(false);
    const untitled: { info: Partial<typeof document.info> } = structuredClone(document);
    delete untitled.info.title;
    expect((await validate(untitled as never)).valid).toBe(false);
  });

  test('describes every route the app serves, and nothing else', () => {
    const documented = Object.entries(document.paths).flatMap(([route, methods]) =>
      Object.keys(methods).map((method) => `${method.toUpperCase()} ${route}`),
    );
    expect(documented.sort()).toEqual(API_ROUTES.map(name).sort());
    expect(new Set(API_ROUTES.map(name)).size).toBe(API_ROUTES.length);
    expect(API_ROUTES.length).toBe(72);
  });

  test('asks for the token on every route but the health check', () => {
    expect(document.security).toEqual([{ bearer: [] }]);
    const open = Object.entries(document.paths).flatMap(([route, methods]) =>
      Object.entries(methods).flatMap(([method, operation]) => ('security' in operation ? [`${method} ${route}`] : [])),
    );
    expect(open).toEqual(['get /v1/health']);
  });

  test('every schema compiles in the strict ajv of the daemon', () => {
    for (const schema of Object.values(SHARED_SCHEMAS)) validator(schema);
    for (const route of API_ROUTES) {
      if (route.body) validator(route.body);
      if (!isFileReply(route.reply)) validator(route.reply);
      validator(querySchema(route));
    }
  });

  test('every example request matches the schemas of its route', () => {
    for (const route of API_ROUTES) {
      expect(route.examples.length).toBeGreaterThan(0);
      for (const example of route.examples) {
        const what = `${name(route)}: ${example.summary}`;
        expect([what, example.body !== undefined]).toEqual([what, route.body !== undefined]);
        expect([what, Object.keys(example.params ?? {}).sort()]).toEqual([what, Object.keys(route.params ?? {}).sort()]);
        if (route.body) check(route.body, example.body, `${what}: body`);
        check(querySchema(route), example.query ?? {}, `${what}: query`);
      }
    }
  });

  test('docs/api/openapi.json is the document the routes make, as committed', () => {
    const fresh = openApiText(API_ROUTES);
    expect(readFileSync(DOCUMENT_FILE, 'utf8')).toBe(fresh);
    // The build rewrites the file, so on a fresh clone the file on disk would always match: what git holds must
    // match too (the staged version, so a change can be tested before it is committed).
    let held: string;
    try {
      held = execFileSync('git', ['show', ':docs/api/openapi.json'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (error) {
      const message = String((error as { stderr?: string }).stderr ?? error);
      if (/not a git repository|ENOENT/.test(message)) return; // a copy without git: the file on disk is all there is
      throw new Error(`docs/api/openapi.json is not in git: add it (${message.trim()})`);
    }
    if (held !== fresh)
      throw new Error('docs/api/openapi.json in git is not the document the routes make: the build has rewritten it, commit it');
  });
});

describe('GET /v1/openapi.json', () => {
  test('needs the token', async () => {
    expect((await daemon().api('GET', '/v1/openapi.json', { token: null })).status).toBe(401);
  });

  test('answers the document', async () => {
    const reply = await daemon().api('GET', '/v1/openapi.json');
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toMatch(/^application\/json/);
    expect(reply.json).toEqual(JSON.parse(openApiText(API_ROUTES)));
  });
});

describe('every example request', () => {
  test('gets the documented reply from a daemon', async () => {
    const notSent: string[] = [];
    for (const route of API_ROUTES) {
      for (const example of route.examples) {
        const what = `${name(route)}: ${example.summary}`;
        if (example.notSent !== undefined) {
          expect(example.notSent.length).toBeGreaterThan(20);
          notSent.push(what);
          continue;
        }
        const reply = await daemon().api(
          route.method,
          requestPath(route, example),
          example.body === undefined ? {} : { body: example.body },
        );
        const success = route.created ? 201 : 200;
        expect([what, reply.status, reply.status === success ? '' : reply.text]).toEqual([what, success, '']);
        if (isFileReply(route.reply)) {
          expect([what, reply.headers['content-type']]).toEqual([what, 'image/png']);
          expect(reply.raw.subarray(1, 4).toString()).toBe('PNG');
        } else {
          expect([what, reply.headers['content-type']]).toEqual([what, 'application/json; charset=utf-8']);
          check(route.reply, reply.json, `${what}: reply`);
        }
      }
    }
    expect(notSent).toEqual(NOT_SENT);
  }, 120_000);
});
