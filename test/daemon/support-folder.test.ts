import { spawn, spawnSync } from 'node:child_process';
import { readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, test } from '@jest/globals';
import { CLI, ROOT, startDaemon, tempFolder, waitFor } from '../helpers/daemon.js';
import { freePort, request } from '../helpers/http.js';

/** `/proc/<pid>/stat` split after the command name: [state, ppid, ...]. */
const procStat = async (pid: number) => {
  const text = await readFile(`/proc/${pid}/stat`, 'utf8');
  return text.slice(text.lastIndexOf(')') + 2).split(' ');
};
const processState = async (pid: number) => (await procStat(pid))[0];
/** Field 22, the start time. */
const startTimeOf = async (pid: number) => (await procStat(pid))[22 - 3];

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

  test("a restart at once after SIGKILL of the daemon's process group starts, while the killed daemon is still a zombie", async () => {
    const supportDir = await tempFolder();
    // The harness's way: the daemon leads its own process group (setsid), the group is killed with SIGKILL and a new
    // daemon starts at once, before anyone reaps the old one. Its parent here is `sleep` (sh execs it), which never
    // reaps, so the killed daemon stays a zombie, and a zombie still answers kill(pid, 0).
    const parent = spawn(
      'sh',
      [
        '-c',
        'setsid "$@" & echo $!; exec sleep 60',
        'sh',
        process.execPath,
        CLI,
        'daemon',
        '--support-dir',
        supportDir,
        '--port',
        '0',
        '--presenter',
        'headless',
      ],
      { stdio: ['ignore', 'pipe', 'ignore'] },
    );
    try {
      const pid = Number(await new Promise<string>((resolve) => parent.stdout!.once('data', (chunk: Buffer) => resolve(chunk.toString()))));
      await waitFor(async () => {
        const port = Number(await readFile(path.join(supportDir, 'port'), 'utf8').catch(() => ''));
        return port > 0 && (await request(port, 'GET', '/v1/health').catch(() => null))?.json?.pid === pid ? true : undefined;
      }, 'the first daemon to listen');
      process.kill(-pid, 'SIGKILL');
      await waitFor(async () => ((await processState(pid)) === 'Z' ? true : undefined), 'the killed daemon to be a zombie');

      const second = await startDaemon({ supportDir });
      expect((await second.api('GET', '/v1/apps')).status).toBe(200);
      expect(await processState(pid)).toBe('Z'); // still not reaped: the lock did not trust the zombie's pid
      expect(JSON.parse(await readFile(path.join(supportDir, 'daemon.lock'), 'utf8'))).toEqual({
        pid: second.child.pid,
        started: await startTimeOf(second.child.pid!),
      });
      await second.stop();
    } finally {
      parent.kill('SIGKILL'); // the zombie goes to init, which reaps it
    }
  });

  test('a lock naming a live process that is not its owner (a reused pid) is taken over; its true owner is not', async () => {
    const supportDir = await tempFolder();
    const lock = path.join(supportDir, 'daemon.lock');
    // This test's own process is alive, but it started at another time than the lock says: the pid was reused.
    await writeFile(lock, JSON.stringify({ pid: process.pid, started: '1' }));
    const daemon = await startDaemon({ supportDir });
    expect((await daemon.api('GET', '/v1/apps')).status).toBe(200);
    await daemon.stop();

    await writeFile(lock, JSON.stringify({ pid: process.pid, started: await startTimeOf(process.pid) }));
    const refused = spawnSync(process.execPath, [CLI, 'daemon', '--support-dir', supportDir, '--port', '0'], { encoding: 'utf8' });
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain(`another Notifier (pid ${process.pid}) is using`);
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
    const pkg = JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8'));
    const version = spawnSync(process.execPath, [CLI, '--version'], { encoding: 'utf8' });
    expect(version.stdout.trim()).toBe(pkg.version);
    const daemon = await startDaemon();
    expect((await daemon.api('GET', '/v1/health')).json.version).toBe(pkg.version);
    await daemon.stop();
    await rm(daemon.supportDir, { recursive: true, force: true });
  });
});
