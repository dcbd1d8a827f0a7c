import net from 'node:net';
import { describe, expect, test } from '@jest/globals';
import { useDaemon } from '../helpers/daemon.js';

/** What the daemon answers to these raw bytes, once it closes the connection (or, with `keepOpen`, after its first answer). */
function rawExchange(port: number, bytes: string): Promise<{ text: string; closed: boolean }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(bytes));
    let received = '';
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ text: received, closed: false });
    }, 5000);
    socket.on('data', (chunk) => (received += chunk.toString()));
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ text: received, closed: true });
    });
    socket.on('error', reject);
  });
}

/** The status and the JSON body of a raw answer. */
function parseRaw(text: string): { status: number; headers: string; json: any } {
  const [head = '', body = ''] = text.split('\r\n\r\n');
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0), headers: head, json: body ? JSON.parse(body) : undefined };
}

// The guard in front of every route: Host, Origin, token, body size, JSON, unknown paths and methods.
describe('the guard in front of every route', () => {
  const daemon = useDaemon();
  const auth = () => `Authorization: Bearer ${daemon().token}\r\n`;

  test.each([
    'http://evil.example/v1/apps',
    'http://evil.example:80/v1/apps',
    'https://127.0.0.1.evil.example/v1/apps',
    'http://127.0.0.1:9/v1/apps',
  ])('a request line in absolute form naming another host or port (%s) is refused with 403, whatever Host says', async (target) => {
    const { text, closed } = await rawExchange(
      daemon().port,
      `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth()}Connection: close\r\n\r\n`,
    );
    expect(closed).toBe(true);
    const answer = parseRaw(text);
    expect(answer.status).toBe(403);
    expect(answer.json.error).toMatch(/request line/);
  });

  test('a request line in absolute form naming this daemon (a loopback name and its port) is served', async () => {
    for (const name of ['127.0.0.1', 'localhost', '[::1]']) {
      const target = `http://${name}:${daemon().port}/v1/apps`;
      const { text } = await rawExchange(daemon().port, `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth()}Connection: close\r\n\r\n`);
      expect(parseRaw(text).status).toBe(200);
    }
  });

  test('two Host headers are 400, even when both are loopback names', async () => {
    for (const second of ['evil.example', '127.0.0.1']) {
      const { text, closed } = await rawExchange(
        daemon().port,
        `GET /v1/apps HTTP/1.1\r\nHost: 127.0.0.1\r\nHost: ${second}\r\n${auth()}Connection: close\r\n\r\n`,
      );
      expect(closed).toBe(true);
      const answer = parseRaw(text);
      expect(answer.status).toBe(400);
      expect(answer.json.error).toMatch(/Host/);
    }
  });

  test('two Authorization headers are 400, whichever of them holds the token, and nothing is done', async () => {
    const wrong = 'Authorization: Bearer ' + '0'.repeat(64) + '\r\n';
    for (const [first, second] of [
      [auth(), auth()],
      [auth(), wrong],
      [wrong, auth()],
    ]) {
      const body = JSON.stringify({ app: 'twice', title: 'never shown' });
      const { text, closed } = await rawExchange(
        daemon().port,
        `POST /v1/notify HTTP/1.1\r\nHost: 127.0.0.1\r\n${first}${second}Content-Type: application/json\r\n` +
          `Content-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`,
      );
      expect(closed).toBe(true);
      const answer = parseRaw(text);
      expect([answer.status, answer.json]).toEqual([
        400,
        { error: 'bad request: the Authorization header was sent more than once (send one token)', code: 'duplicate_authorization' },
      ]);
    }
    // Health needs no token, but two are still two.
    const health = await rawExchange(
      daemon().port,
      `GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth()}${auth()}Connection: close\r\n\r\n`,
    );
    expect(parseRaw(health.text).status).toBe(400);
    const items = (await daemon().api('GET', '/v1/history')).json.items as { app: string }[];
    expect(items.filter((item) => item.app === 'twice')).toEqual([]);
  });

  test('CONNECT is answered 405 with Allow, and the connection is closed', async () => {
    const { text, closed } = await rawExchange(daemon().port, `CONNECT evil.example:443 HTTP/1.1\r\nHost: evil.example:443\r\n\r\n`);
    expect(closed).toBe(true);
    const answer = parseRaw(text);
    expect(answer.status).toBe(405);
    expect(answer.headers).toMatch(/\r\nAllow: GET, POST, PUT, DELETE/i);
    expect(answer.headers).toMatch(/\r\nConnection: close/i);
    expect(answer.json.error).toMatch(/CONNECT/);
    expect((await daemon().api('GET', '/v1/health')).status).toBe(200);
  });

  test('health answers without a token', async () => {
    const reply = await daemon().api('GET', '/v1/health', { token: null });
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual({ ok: true, version: expect.any(String), pid: daemon().child.pid });
  });

  test('a missing token is 401 with an error body, on every route but health', async () => {
    for (const [method, path] of [
      ['POST', '/v1/notify'],
      ['GET', '/v1/history'],
      ['GET', '/v1/apps'],
      ['POST', '/v1/health'],
      ['GET', '/v1/no-such-route'],
    ]) {
      const reply = await daemon().api(method!, path!, { token: null, body: method === 'POST' ? { app: 'a', title: 't' } : undefined });
      expect(reply.status).toBe(401);
      expect(reply.json).toEqual({ error: expect.stringContaining('unauthorized'), code: 'unauthorized' });
    }
  });

  test('a wrong token is 401, and the scheme is read in any case', async () => {
    expect((await daemon().api('GET', '/v1/apps', { token: 'f'.repeat(64) })).status).toBe(401);
    expect((await daemon().api('GET', '/v1/apps', { headers: { Authorization: daemon().token } })).status).toBe(401);
    expect((await daemon().api('GET', '/v1/apps', { headers: { Authorization: `bearer ${daemon().token}` } })).status).toBe(200);
  });

  test('the token is checked before the body is read: a huge announced body gets 401 at once', async () => {
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(daemon().port, '127.0.0.1', () => {
        socket.write(
          'POST /v1/notify HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 900000\r\n\r\n{"app":',
        );
      });
      let received = '';
      const timer = setTimeout(() => reject(new Error(`no answer; got ${received}`)), 5000);
      socket.on('data', (chunk) => (received += chunk.toString()));
      socket.on('close', () => {
        clearTimeout(timer);
        resolve(received);
      });
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 401/);
    expect(answer).toMatch(/connection: close/i);
  });

  test.each(['evil.example', 'evil.example:80', '127.0.0.1.evil.example', 'localhost.evil.example', '192.168.1.2'])(
    'Host %s is refused with 403 (DNS rebinding)',
    async (host) => {
      const reply = await daemon().api('GET', '/v1/health', { headers: { Host: host } });
      expect(reply.status).toBe(403);
      expect(reply.json.error).toMatch(/Host/);
    },
  );

  test.each(['127.0.0.1', 'localhost', 'LOCALHOST', '[::1]', 'localhost:48617', '[::1]:1234', '127.0.0.1:9'])(
    'Host %s is a loopback name and is served',
    async (host) => {
      expect((await daemon().api('GET', '/v1/apps', { headers: { Host: host } })).status).toBe(200);
    },
  );

  test('any Origin header is refused with 403, even with the right token and on health', async () => {
    for (const origin of ['https://evil.example', 'http://127.0.0.1', 'null']) {
      const reply = await daemon().api('GET', '/v1/health', { headers: { Origin: origin } });
      expect(reply.status).toBe(403);
      expect(reply.json.error).toMatch(/Origin/);
    }
  });

  test('a body over 1 MiB is 413 and names the limit', async () => {
    const reply = await daemon().api('POST', '/v1/notify', { body: JSON.stringify({ app: 'a', title: 'x'.repeat(1024 * 1024) }) });
    expect(reply.status).toBe(413);
    expect(reply.json).toEqual({ error: 'body is too large (at most 1048576 bytes)', code: 'body_too_large' });
  });

  test('broken JSON is 400 invalid JSON, whatever the content type', async () => {
    for (const type of ['application/json', 'application/x-www-form-urlencoded', 'text/plain']) {
      const reply = await daemon().api('POST', '/v1/notify', { body: '{"app": "a", "title": ', headers: { 'Content-Type': type } });
      expect(reply.status).toBe(400);
      expect(reply.json).toEqual({ error: 'invalid JSON', code: 'invalid_json' });
    }
  });

  test('JSON sent as a form (curl -d without -H) is read as JSON', async () => {
    const reply = await daemon().api('POST', '/v1/notify', {
      body: '{"app":"guard","title":"from curl"}',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    expect(reply.status).toBe(200);
  });

  test('a body that is JSON but not an object is 400', async () => {
    const reply = await daemon().api('POST', '/v1/notify', { body: '[1,2]' });
    expect(reply.status).toBe(400);
    expect(reply.json.error).toMatch(/object/);
  });

  test('an unknown path is 404 and a known path with the wrong method is 405 with Allow', async () => {
    const missing = await daemon().api('GET', '/v1/nothing-here');
    expect(missing.status).toBe(404);
    expect(missing.json.error).toMatch(/not found/);
    const wrong = await daemon().api('DELETE', '/v1/notify');
    expect(wrong.status).toBe(405);
    expect(wrong.headers.allow).toBe('POST');
    expect(wrong.json.error).toMatch(/method not allowed/);
    const healthPost = await daemon().api('POST', '/v1/health', { body: {} });
    expect(healthPost.status).toBe(405);
  });

  test('oversized headers get a JSON error, not a crash', async () => {
    const reply = await daemon().api('GET', '/v1/apps', { headers: { 'X-Filler': 'x'.repeat(70 * 1024) } });
    expect(reply.status).toBe(431);
    expect(reply.json.error).toMatch(/headers are too large/);
    expect((await daemon().api('GET', '/v1/health')).status).toBe(200);
  });
});
