// daemon/http/router.ts, over a real HTTP server with routes of its own: a path without parameters is found by its
// look-up, before one with parameters, whatever the order of the list; 404, and 405 with every method of the path
// in `Allow`.

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import express from 'express';
import { router } from '../../../daemon/http/router.js';
import type { Method, Route } from '../../../daemon/http/route.js';

/** A route of the tests: it answers which route it is, with the path's parameters. */
const route = (method: Method, path: string, params?: Route<unknown>['params']): Route<unknown> => ({
  method,
  path,
  door: 'token',
  summary: `${method} ${path}`,
  tag: 'Health',
  ...(params ? { params } : {}),
  reply: { type: 'object' },
  errors: {},
  examples: [],
  handle: (call) => ({ route: `${method} ${path}`, params: call.params }),
});

const ID = { id: { description: 'the thing' } };
/** A dialect's route at the root, as ntfy's delete of a sequence id: `/<topic>/<id>`. */
const TOPIC_ID = { topic: { description: 'a topic' }, id: { description: 'an id' } };
const ROUTES = [
  route('GET', '/v1/things/{id}', ID),
  route('GET', '/v1/things/all-of-them'),
  route('DELETE', '/v1/things/{id}', ID),
  route('POST', '/v1/things/sort'),
  route('GET', '/v1/apps'),
  { ...route('DELETE', '/{topic}/{id}', TOPIC_ID), door: 'sender' as const, dialect: 'ntfy' as const },
];
const NO_DOORS = { program: () => undefined, session: () => undefined as never };

let server: http.Server;
let base: string;
beforeAll(async () => {
  const app = express();
  app.use(router(ROUTES, {}, NO_DOORS));
  server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

const call = async (method: string, path: string) => {
  const reply = await fetch(base + path, { method });
  return { status: reply.status, allow: reply.headers.get('allow'), json: (await reply.json()) as Record<string, unknown> };
};

describe('the router', () => {
  test('a path without parameters is its own route; the same path with another method is the parameter route', async () => {
    expect((await call('GET', '/v1/things/all-of-them')).json).toEqual({ route: 'GET /v1/things/all-of-them', params: {} });
    expect((await call('GET', '/v1/things/all-of-them/')).json).toEqual({ route: 'GET /v1/things/all-of-them', params: {} });
    expect((await call('DELETE', '/v1/things/all-of-them')).json).toEqual({
      route: 'DELETE /v1/things/{id}',
      params: { id: 'all-of-them' },
    });
    expect((await call('GET', '/v1/things/caf%C3%A9')).json).toEqual({ route: 'GET /v1/things/{id}', params: { id: 'café' } });
  });

  test('a known path with another method is 405 naming every method it takes; an unknown one is 404', async () => {
    const sort = await call('GET', '/v1/things/sort');
    // The parameter routes take the path too: GET is /v1/things/{id} with the id "sort".
    expect(sort.json).toEqual({ route: 'GET /v1/things/{id}', params: { id: 'sort' } });
    const put = await call('PUT', '/v1/things/sort');
    expect(put.status).toBe(405);
    expect(put.allow).toBe('POST, GET, DELETE');
    expect((await call('GET', '/v1/nothing-here')).status).toBe(404);
  });

  test("a dialect's route at the root never takes a path under /v1: the path's own methods answer 405", async () => {
    expect((await call('DELETE', '/backups/nightly')).json).toEqual({
      route: 'DELETE /{topic}/{id}',
      params: { topic: 'backups', id: 'nightly' },
    });
    const v1 = await call('DELETE', '/v1/apps');
    expect([v1.status, v1.allow]).toEqual([405, 'GET']);
  });

  test('a path written out wins over a parameter route declared before it, for the same method', async () => {
    expect((await call('GET', '/v1/things/all-of-them')).json).toMatchObject({ route: 'GET /v1/things/all-of-them' });
    const app = express();
    app.use(router([route('GET', '/v1/a/{id}', ID), route('GET', '/v1/a/b')], {}, NO_DOORS));
    const other = http.createServer(app);
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    const reply = await fetch(`http://127.0.0.1:${(other.address() as AddressInfo).port}/v1/a/b`);
    expect(await reply.json()).toEqual({ route: 'GET /v1/a/b', params: {} });
    await new Promise((resolve) => other.close(resolve));
  });
});
