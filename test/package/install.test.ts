// Notifier as a person installs it (docs/install.md): `npm pack` in this checkout, `npm install -g` of the tarball
// into a temporary prefix, then the installed commands used as a person uses them — the daemon with a
// notification, History and the window signed in through the private channel, `notifier service install`,
// `notifier-mcp`, `notifier-relay` on the embedded database and on PostgreSQL — so a file left out of the package
// fails here. And when a native part could not be built, the install stays quiet and the first start says what to
// install, in setup.mjs's words, never a stack. `npm run test:package` (CI runs it on Node 20 and 24).

import { beforeAll, describe, expect, test } from '@jest/globals';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { chmod, mkdir, readFile, realpath, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { APP_CSRF_HEADER } from '../../protocol/app-api.js';
import { cookieOf, csrfOf } from '../helpers/app.js';
import { ROOT, startDaemon, tempFolder, waitFor } from '../helpers/daemon.js';
import { request } from '../helpers/http.js';
import { runProgram, type Run } from '../helpers/process.js';
import { pairWithKey, startRelay } from '../helpers/relay.js';
import { PACKAGE_VERSION } from '../helpers/support.js';

const PACKAGE_NAME = 'notifier-desktop';
/** Packing and installing (with native builds where npm finds no ready-made one) take a few minutes here. */
const INSTALL_TIMEOUT_MS = 15 * 60_000;
/** A start that cannot go on ends at once; a program still running after this has started after all. */
const ENDS_AT_ONCE_MS = 20_000;

interface Installed {
  prefix: string;
  /** The installed package's folder (its real path). */
  root: string;
  bin: (name: 'notifier' | 'notifier-mcp' | 'notifier-relay') => string;
}

let work: string;
let tarball: string;
let installed: Installed;
/** `npm` as a person runs it: npm's own chatter off, builds on both cores. */
const npmEnv = { npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false', JOBS: '2' };

/** `npm install -g` of the tarball into `prefix`: the run, and what the install took. */
async function install(prefix: string, env: Record<string, string> = {}): Promise<{ run: Run; seconds: number }> {
  const began = performance.now();
  const run = await runProgram('npm', ['install', '-g', '--prefix', prefix, '--prefer-offline', tarball], {
    env: { ...npmEnv, ...env },
    timeoutMs: INSTALL_TIMEOUT_MS,
  });
  return { run, seconds: (performance.now() - began) / 1000 };
}

const installedIn = async (prefix: string): Promise<Installed> => ({
  prefix,
  root: await realpath(path.join(prefix, 'lib', 'node_modules', PACKAGE_NAME)),
  bin: (name) => path.join(prefix, 'bin', name),
});

/** A History record's title (`GET /v1/history`). */
const titleOf = (record: { notification: { title: string } }): string => record.notification.title;

/** A program on PATH that writes down its arguments and exits 0 (the stand-in browser), or fails. */
async function fakeProgram(folder: string, name: string, script: string): Promise<void> {
  await mkdir(folder, { recursive: true });
  await writeFile(path.join(folder, name), `#!/bin/sh\n${script}\n`);
  await chmod(path.join(folder, name), 0o755);
}

beforeAll(async () => {
  work = await tempFolder('notifier-package-');
  const packed = await runProgram('npm', ['pack', '--pack-destination', work, '--json'], {
    cwd: ROOT,
    env: npmEnv,
    timeoutMs: INSTALL_TIMEOUT_MS,
  });
  expect([packed.code, packed.stderr.includes('ERR!')]).toEqual([0, false]);
  const [made] = JSON.parse(packed.stdout) as Array<{ filename: string; size: number; unpackedSize: number; entryCount: number }>;
  tarball = path.join(work, made!.filename);
  const { run, seconds } = await install(path.join(work, 'prefix'));
  expect([run.code, run.stderr.match(/npm error.*/g) ?? []]).toEqual([0, []]);
  installed = await installedIn(path.join(work, 'prefix'));
  process.stdout.write(
    `package: ${made!.filename}, ${(made!.size / 1e6).toFixed(2)} MB packed, ${(made!.unpackedSize / 1e6).toFixed(2)} MB unpacked, ` +
      `${made!.entryCount} files; npm install -g took ${seconds.toFixed(0)} s on Node ${process.versions.node}\n`,
  );
}, INSTALL_TIMEOUT_MS);

describe('the tarball', () => {
  test('holds what runs, and none of the tests, the app sources or the benchmarks', async () => {
    const listed = await runProgram('tar', ['-tzf', tarball]);
    const files = listed.stdout
      .split('\n')
      .filter(Boolean)
      .map((file) => file.replace(/^package\//, ''));
    for (const needed of [
      'package.json',
      'README.md',
      'LICENSE',
      'dist/cli/main.js',
      'dist/cli/mcp/main.js',
      'dist/relay/main.js',
      'dist/tray/main.js',
      'dist/common/native-parts.js',
      'dist/app/index.html',
      'clients/README.md',
      'clients/python/notifier.py',
      'clients/node/notifier.mjs',
      'clients/node/notifier.d.ts',
      'docs/install.md',
      'docs/api/openapi.json',
      'relay/deploy/notifier-relay.service',
      'scripts/setup.mjs',
    ])
      expect([needed, files.includes(needed)]).toEqual([needed, true]);
    expect(files.some((file) => /^dist\/app\/assets\/.*\.js$/.test(file))).toBe(true);
    const unwanted = files.filter(
      (file) =>
        /^(test|bench|rigs|app|fixtures|protocol|daemon|cli|tray|templates-renderer|common|node_modules)\//.test(file) ||
        /^dist\/(bench|rigs|test)\//.test(file) ||
        /\.map$|\.build-stamp$|(^|\/)test_[^/]*\.py$/.test(file) ||
        (/\.tsx?$/.test(file) && !file.endsWith('.d.ts')),
    );
    expect(unwanted).toEqual([]);
  });
});

describe('the installed commands', () => {
  test('--version prints the package version', async () => {
    for (const name of ['notifier', 'notifier-relay'] as const) {
      const run = await runProgram(installed.bin(name), ['--version']);
      expect([name, run.code, run.stdout]).toEqual([name, 0, `${PACKAGE_VERSION}\n`]);
    }
  });

  test('notifier daemon: a notification from the installed CLI, History, and the window signed in through the private channel', async () => {
    const browserBin = path.join(work, 'browser-bin');
    const opened = path.join(work, 'opened.txt');
    await fakeProgram(browserBin, 'chromium', `printf '%s\\n' "$*" >> '${opened}'`);
    const daemon = await startDaemon({
      program: installed.bin('notifier'),
      env: { PATH: `${browserBin}${path.delimiter}${process.env.PATH}`, DISPLAY: ':notifier-test', NOTIFIER_NO_TRAY: '1' },
    });
    try {
      const notifier = (...args: string[]) => runProgram(installed.bin('notifier'), [...args, '--support-dir', daemon.supportDir]);
      const sent = await notifier('notify', '--app', 'package', '--title', 'From the installed package');
      expect([sent.code, sent.stderr]).toEqual([0, '']);
      const history = await notifier('history', '--app', 'package');
      expect(JSON.parse(history.stdout).items.map(titleOf)).toEqual(['From the installed package']);
      // ntfy's dialect with a sending key: its emoji table is a dependency the package must carry.
      const made = JSON.parse((await notifier('keys', 'create', '--app', 'packaged')).stdout) as { key: string };
      const published = await request(daemon.port, 'POST', '/packaged', {
        headers: { Authorization: `Bearer ${made.key}`, Tags: 'package', 'Content-Type': 'text/plain' },
        body: 'Published in the ntfy dialect',
      });
      expect(published.status).toBe(200);
      const packaged = await notifier('history', '--app', 'packaged');
      expect(JSON.parse(packaged.stdout).items.map(titleOf)).toEqual(['📦 Published in the ntfy dialect']);

      const open = await notifier('open', 'history');
      expect([open.code, open.stdout, open.stderr]).toEqual([0, 'Notifier opens history in a window.\n', '']);
      const window = await waitFor(async () => (await readFile(opened, 'utf8').catch(() => '')).split('\n')[0], 'the window');
      const forwarding = new URL(
        window
          .split(' ')
          .find((arg) => arg.startsWith('--app='))!
          .slice('--app='.length),
      ).pathname;
      const link = new URL(/url=([^"]+)"/.exec(await readFile(forwarding, 'utf8'))![1]!.replace(/&amp;/g, '&'));
      const signedIn = await request(daemon.port, 'GET', link.pathname + link.search);
      expect(signedIn.status).toBe(200);
      const headers = { Cookie: cookieOf(signedIn), 'Sec-Fetch-Site': 'same-origin', [APP_CSRF_HEADER]: csrfOf(signedIn) };
      // The built window, from the package: its page and every script it loads.
      const page = await request(daemon.port, 'GET', '/app/history', { headers });
      expect([page.status, page.headers['content-type']]).toEqual([200, 'text/html; charset=utf-8']);
      const scripts = [...page.text.matchAll(/src="(\/app\/assets\/[^"]+\.js)"/g)].map((match) => match[1]!);
      expect(scripts.length).toBeGreaterThan(0);
      for (const script of scripts)
        expect([script, (await request(daemon.port, 'GET', script, { headers })).status]).toEqual([script, 200]);
      const rows = await request(daemon.port, 'GET', '/app/api/history?app=package', { headers });
      expect(rows.json.items.map((item: { title: string }) => item.title)).toEqual(['From the installed package']);
    } finally {
      await daemon.stop();
    }
  });

  test('notifier service install: the unit and the app menu entry run the installed package', async () => {
    const home = path.join(work, 'service-home');
    const fakeBin = path.join(work, 'service-bin');
    await fakeProgram(fakeBin, 'systemctl', 'exit 0');
    const env = {
      HOME: home,
      XDG_CONFIG_HOME: path.join(home, '.config'),
      XDG_DATA_HOME: path.join(home, '.local', 'share'),
      PATH: `${fakeBin}${path.delimiter}${process.env.PATH}`,
    };
    const supportDir = path.join(home, 'support');
    const run = await runProgram(
      installed.bin('notifier'),
      ['service', 'install', '--support-dir', supportDir, '--presenter', 'headless'],
      { env },
    );
    expect([run.code, run.stderr]).toEqual([0, '']);
    const main = path.join(installed.root, 'dist', 'cli', 'main.js');
    const unit = await readFile(path.join(home, '.config', 'systemd', 'user', 'notifier.service'), 'utf8');
    expect(unit).toContain(`ExecStart=${process.execPath} ${main} daemon --support-dir ${supportDir} --presenter headless\n`);
    const entry = await readFile(path.join(home, '.local', 'share', 'applications', 'notifier.desktop'), 'utf8');
    expect(entry).toContain(`\nExec=env NOTIFIER_SUPPORT_DIR=${supportDir} ${process.execPath} ${main} open\n`);
    expect(`${unit}${entry}`).not.toContain(ROOT);
  });

  test('notifier-mcp: an agent lists the tools and sends a notification', async () => {
    const daemon = await startDaemon({ program: installed.bin('notifier'), env: { NOTIFIER_NO_TRAY: '1' } });
    const transport = new StdioClientTransport({
      command: installed.bin('notifier-mcp'),
      args: ['--support-dir', daemon.supportDir],
      env: getDefaultEnvironment(),
      stderr: 'pipe',
    });
    const client = new Client({ name: 'package-test', version: '1.0.0' });
    try {
      await client.connect(transport);
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain('send_notification');
      const sent = await client.callTool({ name: 'send_notification', arguments: { app: 'agent', title: 'From notifier-mcp' } });
      expect(sent.isError ?? false).toBe(false);
      const history = await daemon.api('GET', '/v1/history?app=agent');
      expect(history.json.items.map(titleOf)).toEqual(['From notifier-mcp']);
    } finally {
      await client.close();
      await daemon.stop();
    }
  });

  test.each(['sqlite', 'postgres'] as const)('notifier-relay on %s: health with the version, pairing, a notification', async (backend) => {
    const relay = await startRelay({ backend, program: installed.bin('notifier-relay') });
    try {
      expect((await relay.call('GET', '/health')).json).toEqual({ service: 'notifier-relay', ok: true, version: PACKAGE_VERSION });
      const device = await pairWithKey(relay);
      expect((await relay.call('POST', '/v1/notify', { token: device.key, body: { title: 'Through the installed relay' } })).status).toBe(
        202,
      );
      expect((await relay.call('GET', '/v1/device/info', { token: device.token })).json.pending).toBe(1);
    } finally {
      await relay.stop();
    }
  });
});

test('Node 20 and a session bus at an abstract address: the daemon says why it cannot reach it (npm cannot build usocket)', async () => {
  const nodeOpensAbstractNames = Number(process.versions.uv.split('.')[1]) >= 48; // libuv 1.48: Node 24
  const start = await runProgram(
    installed.bin('notifier'),
    ['daemon', '--support-dir', path.join(work, 'support-abstract'), '--port', '0', '--presenter', 'dbus'],
    {
      env: { DBUS_SESSION_BUS_ADDRESS: 'unix:abstract=/tmp/notifier-no-such-bus', NOTIFIER_NO_TRAY: '1' },
      timeoutMs: ENDS_AT_ONCE_MS,
    },
  );
  expect(start.code).toBe(1);
  const reason = 'the session bus is at an abstract address (unix:abstract=/tmp/notifier-no-such-bus), which Node';
  if (nodeOpensAbstractNames) expect(start.stderr).not.toContain(reason);
  else
    expect(start.stderr).toContain(
      `--presenter dbus: no session bus (${reason} ${process.versions.node} reaches only through the usocket addon`,
    );
});

describe('a native part that npm could not build', () => {
  /** Runs `body` with the installed package's `part` gone, as npm leaves an optional dependency whose build failed. */
  async function without<T>(part: string, body: () => Promise<T>): Promise<T> {
    const folder = path.join(installed.root, 'node_modules', part);
    await rename(folder, `${folder}.away`);
    try {
      return await body();
    } finally {
      await rename(`${folder}.away`, folder);
    }
  }

  /** A pkg-config that finds nothing: every library node-canvas is built against is missing. */
  async function noLibraries(): Promise<string> {
    const bin = path.join(work, 'no-libraries-bin');
    await fakeProgram(bin, 'pkg-config', 'exit 1');
    return `${bin}${path.delimiter}${process.env.PATH}`;
  }

  const stackLines = (text: string) => text.split('\n').filter((line) => /^\s+at |gyp ERR!/.test(line));

  test('the install finishes without a node-gyp stack when the compilation fails', async () => {
    const bin = path.join(work, 'no-make-bin');
    await fakeProgram(bin, 'make', 'echo "make: no compiler here" >&2; exit 2');
    await fakeProgram(bin, 'pkg-config', 'exit 1');
    const { run } = await install(path.join(work, 'prefix-no-compiler'), { PATH: `${bin}${path.delimiter}${process.env.PATH}` });
    expect(run.code).toBe(0);
    expect(stackLines(`${run.stdout}${run.stderr}`)).toEqual([]);
    const broken = await installedIn(path.join(work, 'prefix-no-compiler'));
    const start = await runProgram(
      broken.bin('notifier'),
      ['daemon', '--support-dir', path.join(work, 'support-no-compiler'), '--port', '0'],
      {
        timeoutMs: ENDS_AT_ONCE_MS,
      },
    );
    expect(start.code).toBe(1);
    expect(start.stderr).toMatch(/^notifier: node-canvas, which draws previews and cards, could not be loaded: /);
    expect(stackLines(start.stderr)).toEqual([]);
  });

  test('notifier daemon says which system packages to install, in the words of scripts/setup.mjs, and exits 1', async () => {
    const PATH = await noLibraries();
    const start = await without('canvas', () =>
      runProgram(installed.bin('notifier'), ['daemon', '--support-dir', path.join(work, 'support-no-canvas'), '--port', '0'], {
        env: { PATH },
        timeoutMs: ENDS_AT_ONCE_MS,
      }),
    );
    expect(start.code).toBe(1);
    const lines = start.stderr.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^notifier: node-canvas, which draws previews and cards, could not be loaded: Cannot find package 'canvas'/);
    expect(lines.slice(1)).toEqual([
      'notifier: missing libcairo2-dev: it draws previews (node-canvas is built against it)',
      'notifier: missing libpango1.0-dev: it lays out text in previews (node-canvas)',
      'notifier: missing librsvg2-dev: it draws symbols (SVG) in previews (node-canvas)',
      'notifier: missing libjpeg-dev: it reads JPEG pictures in previews (node-canvas)',
      'notifier: please install: sudo apt-get install -y libcairo2-dev libpango1.0-dev librsvg2-dev libjpeg-dev',
      `notifier: then install Notifier again, so that npm builds canvas: npm install -g ${PACKAGE_NAME} (from a clone: npm rebuild canvas)`,
    ]);
    // The same words as the set-up of a clone says them.
    const setup = await runProgram(process.execPath, [path.join(ROOT, 'scripts', 'setup.mjs'), '--explain-missing'], { env: { PATH } });
    expect(setup.stderr.trimEnd().split('\n')).toEqual(lines.slice(1, -1).map((line) => line.replace(/^notifier:/, 'setup:')));
  });

  test('notifier-relay needs better-sqlite3 for the embedded database only: it says so, and runs on PostgreSQL without it', async () => {
    await without('better-sqlite3', async () => {
      const embedded = await runProgram(installed.bin('notifier-relay'), [], {
        env: { RELAY_PORT: '0', RELAY_DATA_DIR: path.join(work, 'relay-no-sqlite'), DATABASE_URL: '' },
        timeoutMs: ENDS_AT_ONCE_MS,
      });
      expect(embedded.code).toBe(1);
      // After the line that says where its secret is kept.
      const lines = embedded.stderr
        .trimEnd()
        .split('\n')
        .filter((line) => !line.startsWith('{'));
      expect(lines[0]).toMatch(
        /^notifier-relay: better-sqlite3, the relay's embedded database, could not be loaded: Cannot find module 'better-sqlite3'/,
      );
      expect(lines.at(-1)).toBe(
        `notifier-relay: install Notifier again, so that npm builds better-sqlite3: npm install -g ${PACKAGE_NAME} (from a clone: npm rebuild better-sqlite3)`,
      );
      expect(stackLines(embedded.stderr)).toEqual([]);
      const relay = await startRelay({ backend: 'postgres', program: installed.bin('notifier-relay') });
      try {
        const device = await pairWithKey(relay);
        expect((await relay.call('POST', '/v1/notify', { token: device.key, body: { title: 'No SQLite needed' } })).status).toBe(202);
      } finally {
        await relay.stop();
      }
    });
  });
});
