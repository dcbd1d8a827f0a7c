// common/json-answer.ts: a JSON answer as both servers write it — its status, UTF-8 JSON with its length in bytes,
// never cached — over a real HTTP server.

import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, test } from '@jest/globals';
import { answerJson } from '../../common/json-answer.js';

let server: http.Server | undefined;
afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

/** A server whose every answer is `answer(res)`; the one request's status, headers and body. */
async function answered(answer: (res: http.ServerResponse) => void) {
  server = http.createServer((_req, res) => answer(res));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const response = await fetch(`http://127.0.0.1:${port}/`);
  return { status: response.status, headers: response.headers, body: Buffer.from(await response.arrayBuffer()) };
}

test('the status, the JSON body with its length in bytes, UTF-8, and no caching', async () => {
  const body = { title: 'Café ☕', count: 3, nested: { list: [1, 'two'] } };
  const reply = await answered((res) => answerJson(res, 202, body));
  expect(reply.status).toBe(202);
  expect(reply.headers.get('content-type')).toBe('application/json; charset=utf-8');
  expect(reply.headers.get('cache-control')).toBe('no-store');
  expect(Number(reply.headers.get('content-length'))).toBe(Buffer.byteLength(JSON.stringify(body)));
  expect(reply.body.length).toBe(Buffer.byteLength(JSON.stringify(body)));
  expect(JSON.parse(reply.body.toString('utf8'))).toEqual(body);
});

test('headers set before stay; headers given replace the defaults', async () => {
  const reply = await answered((res) => {
    res.setHeader('X-Request-Id', 'abc');
    answerJson(res, 200, { ok: true }, { 'Cache-Control': 'public, max-age=300', Pragma: 'no-cache' });
  });
  expect(reply.headers.get('x-request-id')).toBe('abc');
  expect(reply.headers.get('cache-control')).toBe('public, max-age=300');
  expect(reply.headers.get('pragma')).toBe('no-cache');
  expect(reply.headers.get('content-type')).toBe('application/json; charset=utf-8');
});

test('a refusal status carries its body like any other', async () => {
  const reply = await answered((res) => answerJson(res, 429, { error: 'rate_limited', message: 'slow down' }));
  expect(reply.status).toBe(429);
  expect(JSON.parse(reply.body.toString('utf8'))).toEqual({ error: 'rate_limited', message: 'slow down' });
});
