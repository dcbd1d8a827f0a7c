import { spawnSync } from 'node:child_process';
import { readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from '@jest/globals';
import { CLI, startDaemon, tempFolder } from './helpers/daemon.js';
import { freePort, request } from './helpers/http.js';

const mode = async (file: string) => (await stat(file)).mode & 0o777;

describe('support folder, token and port', () => {
  test('the folder is 0700; the token is 64 hex characters, 0600, and the same after a restart', async () => {
    const supportDir = path.join(await tempFolder(), 'nested', 'support');
    const first = await startDaemon({ supportDir });
    expect(await mode(supportDir)).toBe(0o700);
    expect(first.token).toMatch(/^[0-9a-f]{64}$/);
    expect(await mode(path.join(supportDir, 'token'))).toBe(0o600);
    expect(await first.stop()).toBe(0);

    const second = await startDaemon({ supportDir });
    expect(second.token).toBe(first.token);
    expect((await second.api('GET', '/v1/apps')).status).toBe(200);
    await second.stop();
    await rm(path.dirname(path.dirname(supportDir)), { recursive: true, force: true });
  });

  test('the port file is written once the server listens and removed on a clean exit', async () => {
    const daemon = await startDaemon();
    const portFile = path.join(daemon.supportDir, 'port');
    expect(await readFile(portFile, 'utf8')).toBe(String(daemon.port));
    expect(await mode(portFile)).toBe(0o644);
    expect((await request(daemon.port, 'GET', '/v1/health')).json.ok).toBe(true);
    expect(await daemon.stop()).toBe(0);
    await expect(stat(portFile)).rejects.toThrow();
    await expect(request(daemon.port, 'GET', '/v1/health')).rejects.toThrow();
    await rm(daemon.supportDir, { recursive: true, force: true });
  });

  test('when the port is taken, a second instance listens on a free port and writes that one; it has its own token', async () => {
    const port = await freePort();
    const first = await startDaemon({ port });
    expect(first.port).toBe(port);
    const second = await startDaemon({ port });
    expect(second.port).not.toBe(port);
    expect(await readFile(path.join(second.supportDir, 'port'), 'utf8')).toBe(String(second.port));
    expect(second.token).not.toBe(first.token);
    expect(second.log()).toMatch(new RegExp(`port ${port} is taken`));
    // Each answers with its own token only.
    expect((await request(second.port, 'GET', '/v1/apps', { token: first.token })).status).toBe(401);
    expect((await request(second.port, 'GET', '/v1/apps', { token: second.token })).status).toBe(200);
    await Promise.all([first.stop(), second.stop()]);
    await Promise.all([first, second].map((d) => rm(d.supportDir, { recursive: true, force: true })));
  });

  test('a second daemon on the same support folder is refused and the first keeps running', async () => {
    const first = await startDaemon();
    const result = spawnSync(process.execPath, [CLI, 'daemon', '--support-dir', first.supportDir, '--port', '0'], { encoding: 'utf8' });
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/another Notifier \(pid \d+\) is using/);
    expect((await first.api('GET', '/v1/health')).status).toBe(200);
    expect(await readFile(path.join(first.supportDir, 'port'), 'utf8')).toBe(String(first.port));
    await first.stop();
    await rm(first.supportDir, { recursive: true, force: true });
  });

  test('a lock left by a killed daemon does not stop the next start', async () => {
    const first = await startDaemon();
    await first.kill9();
    const second = await startDaemon({ supportDir: first.supportDir });
    expect((await second.api('GET', '/v1/apps')).status).toBe(200);
    await second.stop();
    await rm(first.supportDir, { recursive: true, force: true });
  });

  test('NOTIFIER_SUPPORT_DIR, NOTIFIER_PORT and NOTIFIER_PRESENTER configure the daemon', async () => {
    const supportDir = await tempFolder();
    const port = await freePort();
    const daemon = await startDaemon({
      supportDir,
      args: [],
      env: { NOTIFIER_SUPPORT_DIR: supportDir, NOTIFIER_PORT: String(port), NOTIFIER_PRESENTER: 'headless' },
    });
    expect(daemon.port).toBe(port);
    expect(daemon.log()).toMatch(/presenter headless/);
    await daemon.stop();
    await rm(supportDir, { recursive: true, force: true });
  });

  test('bad options are refused with a clear message', () => {
    const badPort = spawnSync(process.execPath, [CLI, 'daemon', '--port', 'eighty'], { encoding: 'utf8' });
    expect(badPort.status).not.toBe(0);
    expect(badPort.stderr).toMatch(/port/);
    const badPresenter = spawnSync(process.execPath, [CLI, 'daemon', '--presenter', 'hologram'], { encoding: 'utf8' });
    expect(badPresenter.status).not.toBe(0);
    expect(badPresenter.stderr).toMatch(/auto, dbus/);
  });

  test('the version reported by health and --version is the package version', async () => {
    const pkg = JSON.parse(await readFile(path.join(__dirname, '..', 'package.json'), 'utf8'));
    const version = spawnSync(process.execPath, [CLI, '--version'], { encoding: 'utf8' });
    expect(version.stdout.trim()).toBe(pkg.version);
    const daemon = await startDaemon();
    expect((await daemon.api('GET', '/v1/health')).json.version).toBe(pkg.version);
    await daemon.stop();
    await rm(daemon.supportDir, { recursive: true, force: true });
  });
});
