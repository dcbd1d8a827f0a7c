// The three doors (docs/app.md#the-three-doors): `/app/api` opens with the person's session only — never the API
// token — from the app's own pages, and a change also needs the app's own Origin and the session's CSRF value;
// `/v1` never takes the session. Every `/app` answer keeps the loopback Host check and the strict headers.

import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import net from 'node:net';
import { startAppDaemon, type AppDaemon, type AppSession } from '../helpers/app.js';

const CSP =
  "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self'; font-src 'self'; " +
  "object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/** A request line and headers written by hand (node:http cannot send an absolute-form target). */
function rawRequest(port: number, text: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(text));
    let received = '';
    socket.on('data', (chunk) => (received += chunk.toString()));
    socket.on('end', () => resolve(received));
    socket.on('error', reject);
    setTimeout(() => socket.end(), 1000);
  });
}

let daemon: AppDaemon;
let session: AppSession;

beforeAll(async () => {
  daemon = await startAppDaemon();
  session = await daemon.signIn();
  await daemon.api('POST', '/v1/notify', { body: { app: 'door', id: 'd1', title: 'Door test' } });
});

afterAll(async () => {
  await daemon.stop();
});

describe('/app/api takes the session only', () => {
  test('the API token alone is 401 app_session_required, on reads and on changes', async () => {
    for (const [method, route] of [
      ['GET', '/app/api/session'],
      ['GET', '/app/api/history'],
      ['POST', '/app/api/history/read-all'],
    ] as const) {
      const reply = await daemon.api(method, route, { body: method === 'POST' ? {} : undefined });
      expect(reply.status).toBe(401);
      expect(reply.json).toEqual({
        error: 'your session ended (or there is none): open Notifier again from its tray menu or app menu',
        code: 'app_session_required',
      });
    }
  });

  test('no cookie, or a made-up one, is 401', async () => {
    expect((await daemon.raw('GET', '/app/api/session')).status).toBe(401);
    const madeUp = await daemon.raw('GET', '/app/api/session', { headers: { Cookie: 'notifier_session=forged' } });
    expect(madeUp.status).toBe(401);
  });

  test('with the session: the computer name, never the CSRF value (the page has it from the sign-in alone)', async () => {
    const reply = await session.call('GET', '/app/api/session');
    expect(reply.status).toBe(200);
    expect(reply.json).toEqual({ computerName: expect.any(String) });
  });

  test('a read without the CSRF value is 403 too: the cookie alone opens nothing; a GET may carry it in its query', async () => {
    for (const route of ['/app/api/session', '/app/api/approvals', '/app/api/history', '/app/api/events']) {
      const reply = await session.call('GET', route, undefined, { 'X-Notifier-CSRF': '' });
      expect(reply.status).toBe(403);
      expect(reply.json.code).toBe('app_csrf_mismatch');
    }
    const inQuery = await daemon.raw('GET', `/app/api/history?csrf=${session.csrf}`, {
      headers: { Cookie: session.cookie, 'Sec-Fetch-Site': 'same-origin' },
    });
    expect(inQuery.status).toBe(200);
    // A change carries it in its header only.
    const change = await daemon.raw('POST', `/app/api/history/read-all?csrf=${session.csrf}`, {
      body: {},
      headers: { Cookie: session.cookie, 'Sec-Fetch-Site': 'same-origin', Origin: `http://127.0.0.1:${daemon.port}` },
    });
    expect(change.status).toBe(403);
  });

  test('a foreign Host is 403 even with the session; so is a request line naming another host', async () => {
    const reply = await session.call('GET', '/app/api/session', undefined, { Host: `evil.example:${daemon.port}` });
    expect(reply.status).toBe(403);
    expect(reply.json.code).toBe('forbidden_host');
    expect((await daemon.raw('GET', '/app/history', { headers: { Host: 'evil.example', Cookie: session.cookie } })).status).toBe(403);
    const absolute = await rawRequest(
      daemon.port,
      `GET http://evil.example/app/api/session HTTP/1.1\r\nHost: 127.0.0.1:${daemon.port}\r\nCookie: ${session.cookie}\r\nConnection: close\r\n\r\n`,
    );
    expect(absolute).toMatch(/^HTTP\/1\.1 403 /);
  });

  test('two Host headers are 400, as on /v1: a loopback name first does not hide the other', async () => {
    for (const route of ['/app/api/session', '/app/history']) {
      const twice = await rawRequest(
        daemon.port,
        `GET ${route} HTTP/1.1\r\nHost: 127.0.0.1:${daemon.port}\r\nHost: evil.example\r\nCookie: ${session.cookie}\r\n` +
          `X-Notifier-CSRF: ${session.csrf}\r\nConnection: close\r\n\r\n`,
      );
      expect(twice).toMatch(/^HTTP\/1\.1 400 /);
      expect(twice).toContain('"code":"duplicate_host"');
    }
  });

  test("a request from another site's page (Sec-Fetch-Site) is 403, even a read", async () => {
    for (const site of ['same-site', 'cross-site', 'none']) {
      const reply = await session.call('GET', '/app/api/history', undefined, { 'Sec-Fetch-Site': site });
      expect(reply.status).toBe(403);
      expect(reply.json.code).toBe('app_cross_site');
    }
  });

  test('a change without the CSRF value, or with a wrong one, is 403 and changes nothing', async () => {
    const route = '/app/api/history/door/d1/read';
    const missing = await session.call('POST', route, { read: true }, { 'X-Notifier-CSRF': '' });
    expect(missing.status).toBe(403);
    expect(missing.json.code).toBe('app_csrf_mismatch');
    const last = session.csrf.slice(-1);
    const wrong = await session.call(
      'POST',
      route,
      { read: true },
      { 'X-Notifier-CSRF': `${session.csrf.slice(0, -1)}${last === 'A' ? 'B' : 'A'}` },
    );
    expect(wrong.status).toBe(403);
    expect((await session.call('GET', '/app/api/history?app=door')).json.items[0].read).toBe(false);
  });

  test('a change from another origin is 403 even with the right CSRF value; so is one with no Origin', async () => {
    const route = '/app/api/history/door/d1/read';
    for (const origin of [`http://127.0.0.1:${daemon.port + 1}`, `http://localhost:${daemon.port}`, 'null']) {
      const reply = await session.call('POST', route, { read: true }, { Origin: origin });
      expect(reply.status).toBe(403);
      expect(reply.json.code).toBe('app_foreign_origin');
    }
    const { request } = await import('../helpers/http.js');
    const noOrigin = await request(daemon.port, 'POST', route, {
      token: null,
      body: { read: true },
      headers: { Cookie: session.cookie, 'X-Notifier-CSRF': session.csrf },
    });
    expect(noOrigin.status).toBe(403);
    expect((await session.call('GET', '/app/api/history?app=door')).json.items[0].read).toBe(false);
    const done = await session.call('POST', route, { read: true });
    expect(done.json).toEqual({ ok: true, unread: 0, seq: expect.any(Number) });
  });

  test('a change sends its body as application/json: text/plain, a form or no type is 415 and changes nothing', async () => {
    const route = '/app/api/history/door/d1/read';
    expect((await session.call('POST', route, { read: false })).status).toBe(200);
    const body = JSON.stringify({ read: true });
    for (const type of ['text/plain', 'text/plain;charset=UTF-8', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const reply = await session.call('POST', route, body, { 'Content-Type': type });
      expect([type, reply.status, reply.json]).toEqual([
        type,
        415,
        {
          error: "unsupported media type: a change to the app's API sends its body as Content-Type: application/json",
          code: 'app_json_only',
        },
      ]);
    }
    const untyped = await rawRequest(
      daemon.port,
      `POST ${route} HTTP/1.1\r\nHost: 127.0.0.1:${daemon.port}\r\nCookie: ${session.cookie}\r\nSec-Fetch-Site: same-origin\r\n` +
        `X-Notifier-CSRF: ${session.csrf}\r\nOrigin: http://127.0.0.1:${daemon.port}\r\nContent-Length: ${body.length}\r\n` +
        `Connection: close\r\n\r\n${body}`,
    );
    expect(untyped).toMatch(/^HTTP\/1\.1 415 /);
    expect((await session.call('GET', '/app/api/history?app=door')).json.items[0].read).toBe(false);
    // JSON with a charset is JSON; a change without a body needs no type.
    const read = await session.call('POST', route, body, { 'Content-Type': 'application/json; charset=utf-8' });
    expect([read.status, read.json]).toEqual([200, { ok: true, unread: 0, seq: expect.any(Number) }]);
    const unread = await session.call('POST', route, JSON.stringify({ read: false }), { 'Content-Type': 'Application/JSON' });
    expect(unread.status).toBe(200);
    expect((await session.call('POST', '/app/api/history/read-all')).status).toBe(200);
    await session.call('POST', route, { read: false });
  });

  test('an unknown route is 404 and a known one with another method 405, in the app API error shape', async () => {
    const missing = await session.call('GET', '/app/api/nothing');
    expect(missing.status).toBe(404);
    expect(missing.json).toEqual({ error: 'not found: GET /app/api/nothing', code: 'route_not_found' });
    const method = await session.call('PUT', '/app/api/session', {});
    expect(method.status).toBe(405);
    expect(method.headers.allow).toBe('GET, DELETE');
  });
});

describe('/v1 never takes the session', () => {
  test('the cookie alone is 401; with an Origin it is 403 as before', async () => {
    const cookieOnly = await daemon.raw('GET', '/v1/history', { headers: { Cookie: session.cookie } });
    expect(cookieOnly.status).toBe(401);
    expect(cookieOnly.json).toEqual({
      error: 'unauthorized: send Authorization: Bearer <the token in the support folder>',
      code: 'unauthorized',
    });
    const fromPage = await daemon.raw('POST', '/v1/notify', {
      body: { app: 'x', title: 'y' },
      headers: { Cookie: session.cookie, Origin: `http://127.0.0.1:${daemon.port}`, 'X-Notifier-CSRF': session.csrf },
    });
    expect(fromPage.status).toBe(403);
  });

  test('no /v1 record shows or changes read state', async () => {
    const record = (await daemon.api('GET', '/v1/history?app=door')).json.items[0];
    expect(Object.keys(record)).not.toContain('read');
    expect((await daemon.api('POST', '/v1/history/read', { body: { app: 'door', id: 'd1' } })).status).toBe(404);
  });
});

describe('the pages of /app', () => {
  test('without a session: a short page, 401, no code of the app; with one: the app', async () => {
    for (const route of ['/app', '/app/', '/app/history', '/app/settings', '/app/relay', '/app/history/door/d1']) {
      const without = await daemon.raw('GET', route);
      expect(without.status).toBe(401);
      expect(without.text).toContain(
        'To open Notifier, click its icon in the system tray and choose Open Notifier, start “Notifier” from your list of apps, or run “notifier open” in a terminal. There is no password.',
      );
      expect(without.text).not.toMatch(/<script|stand-in|style=/);
      expect(without.text).toContain('<link rel="stylesheet" href="/app/server-page.css">');
      const withSession = await daemon.raw('GET', route, { headers: { Cookie: session.cookie } });
      expect(withSession.status).toBe(200);
      expect(withSession.text).toContain('stand-in app');
      expect(withSession.headers['cache-control']).toBe('no-store');
    }
  });

  test('every answer carries the CSP, no framing, nosniff and no referrer', async () => {
    for (const reply of [
      await daemon.raw('GET', '/app/history'),
      await daemon.raw('GET', '/app/history', { headers: { Cookie: session.cookie } }),
      await daemon.raw('GET', '/app/signin?code=x'),
      await daemon.raw('GET', '/app/api/session'),
      await session.call('GET', '/app/api/session'),
      await daemon.raw('GET', '/app/assets/stand-in.js'),
      await daemon.raw('GET', '/app/nothing-here'),
      await daemon.raw('GET', '/app/server-page.css'),
    ]) {
      expect(reply.headers['content-security-policy']).toBe(CSP);
      expect(reply.headers['x-frame-options']).toBe('DENY');
      expect(reply.headers['x-content-type-options']).toBe('nosniff');
      expect(reply.headers['referrer-policy']).toBe('no-referrer');
    }
  });

  test('the built files: assets cached for good, nothing outside the build folder, never the token', async () => {
    const asset = await daemon.raw('GET', '/app/assets/stand-in.js');
    expect(asset.status).toBe(200);
    expect(asset.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    for (const route of [
      '/app/assets/..%2f..%2fsup%2ftoken',
      '/app/..%2ftoken',
      '/app/assets/%2e%2e/index.html',
      '/app/index.html',
      '/app/assets/missing.js',
      '/app/a/b/c.js',
    ]) {
      const reply = await daemon.raw('GET', route, { headers: { Cookie: session.cookie } });
      expect(reply.status).toBe(404);
      expect(reply.text).not.toContain(daemon.token);
    }
  });

  test('a page takes GET only', async () => {
    const reply = await daemon.raw('POST', '/app/history', { body: {}, headers: { Cookie: session.cookie } });
    expect(reply.status).toBe(405);
    expect(reply.headers.allow).toBe('GET, HEAD');
  });
});
