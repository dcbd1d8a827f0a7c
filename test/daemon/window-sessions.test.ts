// The person's sessions across restarts (docs/app.md#signing-in), on the real daemon: a window signed in before a
// restart (SIGTERM, and kill -9) is still signed in after it, with the same cookie and CSRF value; sessions.json is
// 0600 and holds neither; Settings' list of signed-in windows names this one; one window signed out by its handle,
// then every window ("Sign out everywhere"); the API token never opens these routes.

import { stat, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, expect, test } from '@jest/globals';
import { startAppDaemon, type AppDaemon } from '../helpers/app.js';
import { tempFolder } from '../helpers/daemon.js';

const running: AppDaemon[] = [];
afterEach(async () => {
  for (const daemon of running.splice(0)) await daemon.stop().catch(() => undefined);
});

async function start(supportDir: string, port = 0): Promise<AppDaemon> {
  const daemon = await startAppDaemon({
    supportDir,
    args: ['--support-dir', supportDir, '--port', String(port), '--presenter', 'headless'],
  });
  running.push(daemon);
  return daemon;
}

test('a window stays signed in across a restart and a kill -9; the file holds digests only, 0600', async () => {
  const supportDir = await tempFolder();
  const first = await start(supportDir);
  const port = first.port;
  const window = await first.signIn();
  const other = await first.signIn();
  expect((await window.call('GET', '/app/api/history')).status).toBe(200);

  const file = path.join(supportDir, 'sessions.json');
  expect((await stat(file)).mode & 0o777).toBe(0o600);
  const written = await readFile(file, 'utf8');
  for (const secret of [window.cookie.split('=')[1]!, window.csrf, other.csrf]) expect(written).not.toContain(secret);

  await first.stop();
  const second = await start(supportDir, port);
  expect((await window.call('GET', '/app/api/history')).status).toBe(200);
  expect((await window.call('POST', '/app/api/history/read-all', {})).status).toBe(200); // the CSRF value still opens changes
  await second.kill9();
  running.splice(running.indexOf(second), 1);
  await start(supportDir, port);
  expect((await other.call('GET', '/app/api/history')).status).toBe(200);
});

test('Settings lists the signed-in windows; one signs out by its handle, then everywhere; the token opens none of it', async () => {
  const daemon = await start(await tempFolder());
  const window = await daemon.signIn();
  const other = await daemon.signIn();
  const { sessions } = (await window.call('GET', '/app/api/sessions')).json;
  expect(sessions).toHaveLength(2);
  expect(sessions.filter((listed: { thisWindow: boolean }) => listed.thisWindow)).toHaveLength(1);
  expect(sessions[0]).toEqual({
    handle: expect.stringMatching(/^[A-Za-z0-9_-]{12}$/),
    browser: expect.any(String),
    signedInAt: expect.any(String),
    lastUsedAt: expect.any(String),
    thisWindow: expect.any(Boolean),
  });
  expect((await daemon.api('GET', '/app/api/sessions')).status).toBe(401);
  expect((await daemon.api('DELETE', '/app/api/sessions')).status).toBe(401);

  const otherHandle = sessions.find((listed: { thisWindow: boolean }) => !listed.thisWindow).handle;
  expect((await window.call('DELETE', `/app/api/sessions/${otherHandle}`)).status).toBe(200);
  expect((await other.call('GET', '/app/api/history')).status).toBe(401);
  expect((await window.call('DELETE', `/app/api/sessions/${otherHandle}`)).json.code).toBe('no_such_session');

  const everywhere = await window.call('DELETE', '/app/api/sessions');
  expect(everywhere.status).toBe(200);
  expect(String(everywhere.headers['set-cookie'])).toContain('Max-Age=0');
  expect((await window.call('GET', '/app/api/history')).status).toBe(401);
});

test('the sign-in cookie is kept by the browser for the 30 days a session lasts, and renewed by each page opened', async () => {
  const daemon = await start(await tempFolder());
  const { link } = await daemon.signInLink();
  const signedIn = await daemon.raw('GET', new URL(link).pathname + new URL(link).search);
  expect(String(signedIn.headers['set-cookie'])).toMatch(/Max-Age=2592000/);
  const cookie = String(signedIn.headers['set-cookie']).split(';')[0]!;
  const page = await daemon.raw('GET', '/app/history', { headers: { Cookie: cookie } });
  expect(page.status).toBe(200);
  expect(String(page.headers['set-cookie'])).toBe(`${cookie}; HttpOnly; SameSite=Strict; Path=/app; Max-Age=2592000`);
});
