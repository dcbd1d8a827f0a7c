// Opening the person's app (docs/app.md#how-it-opens): the private channel's `open` mints a one-time code, writes
// a 0600 forwarding file and hands the browser the file's path; the sign-in link trades the code for a session
// once, within 60 s. The callers: the channel itself (the tray), `notifier open`, and POST /v1/compose.

import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { CLI, waitFor } from '../helpers/daemon.js';
import { cookieOf, csrfOf, startAppDaemon, type AppDaemon } from '../helpers/app.js';
import { runProgram } from '../helpers/process.js';

const pathOf = (link: string): string => new URL(link).pathname + new URL(link).search;
const forwardingFiles = async (daemon: AppDaemon) => (await readdir(daemon.supportDir)).filter((name) => name.startsWith('signin-'));

describe('signing in through the private channel', () => {
  let daemon: AppDaemon;
  beforeAll(async () => {
    daemon = await startAppDaemon();
  });
  afterAll(async () => {
    await daemon.stop();
  });

  test('open hands the browser a 0600 file in the support folder, never the code; the file forwards to a one-time link', async () => {
    const { link, file } = await daemon.signInLink('history');
    expect(path.dirname(file)).toBe(daemon.supportDir);
    expect(path.basename(file)).toMatch(/^signin-[A-Za-z0-9_-]+\.html$/);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const code = new URL(link).searchParams.get('code')!;
    expect(link).toBe(`http://127.0.0.1:${daemon.port}/app/signin?code=${code}`);
    // At least 128 random bits, base64url.
    expect(code).toMatch(/^[A-Za-z0-9_-]{22,}$/);
    expect(Buffer.from(code, 'base64url').length).toBeGreaterThanOrEqual(16);
    const [args] = (await daemon.opened()).slice(-1);
    expect(args).toEqual([`--app=file://${file}`]);
    expect(JSON.stringify(await daemon.opened())).not.toContain(code);
  });

  test('the link signs in once: a Strict, HttpOnly cookie for /app, a page that forwards to the page asked for, and the file goes', async () => {
    const { link, file } = await daemon.signInLink('approvals');
    const signedIn = await daemon.raw('GET', pathOf(link));
    expect(signedIn.status).toBe(200);
    expect(signedIn.headers['cache-control']).toBe('no-store');
    expect(signedIn.headers['set-cookie']).toEqual([
      expect.stringMatching(/^notifier_session=[A-Za-z0-9_-]{43}; HttpOnly; SameSite=Strict; Path=\/app; Max-Age=2592000$/),
    ]);
    // The session's CSRF value goes on in the address's fragment, which is never sent to a server.
    const csrf = csrfOf(signedIn);
    expect(csrf).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(signedIn.text).toContain(`<meta http-equiv="refresh" content="0;url=/app/approvals#csrf=${csrf}">`);
    expect(signedIn.text).toContain(`<a href="/app/approvals#csrf=${csrf}">Continue</a>`);
    expect(signedIn.text).not.toContain('<script');
    // Nothing to fetch before the refresh may go on (it waits for its page to load).
    expect(signedIn.text).not.toContain('<link');
    await waitFor(async () => ((await forwardingFiles(daemon)).includes(path.basename(file)) ? undefined : true), 'the file to go');

    const page = await daemon.raw('GET', '/app/approvals', { headers: { Cookie: cookieOf(signedIn) } });
    expect(page.status).toBe(200);
    expect(page.text).toContain('stand-in app');

    const again = await daemon.raw('GET', pathOf(link));
    expect(again.status).toBe(401);
    expect(again.headers['set-cookie']).toBeUndefined();
    expect(again.text).toContain(
      'This sign-in link was already used or has expired. To open Notifier, click its icon in the system tray and choose Open Notifier, start “Notifier” from your list of apps, or run “notifier open” in a terminal.',
    );
  });

  test('a new link does not end an older one; a made-up or missing code is refused', async () => {
    const first = await daemon.signInLink();
    const second = await daemon.signInLink();
    expect((await daemon.raw('GET', pathOf(second.link))).status).toBe(200);
    expect((await daemon.raw('GET', pathOf(first.link))).status).toBe(200);
    expect((await daemon.raw('GET', '/app/signin?code=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA')).status).toBe(401);
    expect((await daemon.raw('GET', '/app/signin')).status).toBe(401);
  });

  test('the code is never logged, and an unknown page is refused', async () => {
    const { link } = await daemon.signInLink();
    await daemon.raw('GET', pathOf(link));
    expect(daemon.log()).not.toContain(new URL(link).searchParams.get('code'));
    expect(await daemon.open('nowhere')).toEqual({ ok: false, error: expect.stringContaining('unknown page: nowhere') });
  });

  test('Sign out ends the session and clears the cookie', async () => {
    const session = await daemon.signIn();
    const out = await session.call('DELETE', '/app/api/session');
    expect(out.status).toBe(200);
    expect(out.json).toEqual({ ok: true });
    expect(out.headers['set-cookie']).toEqual(['notifier_session=; HttpOnly; SameSite=Strict; Path=/app; Max-Age=0']);
    const after = await session.call('GET', '/app/api/session');
    expect(after.status).toBe(401);
    expect(after.json.code).toBe('app_session_required');
    expect((await daemon.raw('GET', '/app/history', { headers: { Cookie: session.cookie } })).status).toBe(401);
  });

  test('notifier open [page] goes through the private channel; POST /v1/compose opens Compose and answers ok', async () => {
    const env = { NOTIFIER_SUPPORT_DIR: daemon.supportDir };
    const before = (await daemon.opened()).length;
    const run = await runProgram(process.execPath, [CLI, 'open', 'compose'], { env });
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toBe('Notifier opens compose in a window.\n');
    // The window is a process of its own: its line may come a moment after the command's answer.
    await waitFor(async () => ((await daemon.opened()).length === before + 1 ? true : undefined), 'the window to open');

    const compose = await daemon.api('POST', '/v1/compose', { body: {} });
    expect(compose.json).toEqual({ ok: true });
    expect(compose.text).not.toContain('code');
    const args = await waitFor(async () => (await daemon.opened())[before + 1], 'Compose to open');
    const file = new URL(args[0]!.slice('--app='.length)).pathname;
    const { readFile } = await import('node:fs/promises');
    const link = /url=([^"]+)"/.exec(await readFile(file, 'utf8'))![1]!;
    expect((await daemon.raw('GET', pathOf(link))).text).toContain('url=/app/compose');

    const wrong = await runProgram(process.execPath, [CLI, 'open', 'elsewhere'], { env });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/'elsewhere' is invalid/);
  });

  test('notifier open takes --support-dir and --port as every command does', async () => {
    const { tempFolder } = await import('../helpers/daemon.js');
    const elsewhere = { NOTIFIER_SUPPORT_DIR: await tempFolder() };
    const before = (await daemon.opened()).length;
    for (const args of [
      ['open', '--support-dir', daemon.supportDir],
      ['--support-dir', daemon.supportDir, 'open', 'settings'],
      ['open', 'relay', '--support-dir', daemon.supportDir, '--port', String(daemon.port)],
    ]) {
      const run = await runProgram(process.execPath, [CLI, ...args], { env: elsewhere });
      expect([args, run.code, run.stderr]).toEqual([args, 0, '']);
    }
    await waitFor(async () => ((await daemon.opened()).length === before + 3 ? true : undefined), 'three windows to open');
    // A port that is not the folder's service's: said plainly, and no window of another instance opens.
    const other = String(daemon.port === 65535 ? 1 : daemon.port + 1);
    const mismatch = await runProgram(process.execPath, [CLI, 'open', '--support-dir', daemon.supportDir, '--port', other], {
      env: elsewhere,
    });
    expect(mismatch.code).toBe(2);
    expect(mismatch.stderr).toBe(
      `notifier open: the Notifier of ${daemon.supportDir} listens on port ${daemon.port}, not ${other}. Give the --support-dir of the instance on port ${other}.\n`,
    );
    expect((await daemon.opened()).length).toBe(before + 3);
  });

  test('a session outlives a restart of the daemon (test/daemon/window-sessions.test.ts has the rest); its forwarding files do not', async () => {
    const session = await daemon.signIn();
    expect((await session.call('GET', '/app/api/session')).status).toBe(200);
    await daemon.stop();
    daemon = await startAppDaemon({ supportDir: daemon.supportDir });
    const after = await daemon.raw('GET', '/app/history', { headers: { Cookie: session.cookie } });
    expect(after.status).toBe(200);
    expect(await forwardingFiles(daemon)).toEqual([]);
  }, 30_000);
});

describe('without a desktop session', () => {
  let daemon: AppDaemon;
  beforeAll(async () => {
    daemon = await startAppDaemon({ noDesktop: true });
  });
  afterAll(async () => {
    await daemon.stop();
  });

  test('open says why; notifier open exits 1 with the reason; POST /v1/compose still answers ok; nothing is opened or written', async () => {
    const reason = 'no desktop session (DISPLAY or WAYLAND_DISPLAY)';
    expect(await daemon.open('history')).toEqual({ ok: false, error: reason });
    const run = await runProgram(process.execPath, [CLI, 'open'], { env: { NOTIFIER_SUPPORT_DIR: daemon.supportDir } });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(`notifier open: ${reason}\n`);
    expect((await daemon.api('POST', '/v1/compose', { body: {} })).json).toEqual({ ok: true });
    expect(await daemon.opened()).toEqual([]);
    expect(await forwardingFiles(daemon)).toEqual([]);
  });

  test('notifier open with no daemon running exits 2', async () => {
    const { tempFolder } = await import('../helpers/daemon.js');
    const run = await runProgram(process.execPath, [CLI, 'open'], { env: { NOTIFIER_SUPPORT_DIR: await tempFolder() } });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^Notifier is not running/);
  });
});
