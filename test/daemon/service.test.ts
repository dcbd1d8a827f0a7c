// `notifier service install | uninstall | status`. The built CLI runs with HOME and XDG_CONFIG_HOME in temporary
// folders and a fake `systemctl` first on PATH that records its arguments; the launchd agent and the other
// platforms are tested through the exported functions, with a fake `launchctl`.

import { spawnSync } from 'node:child_process';
import { chmod, mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from '@jest/globals';
import {
  desktopExecQuote,
  launchdPlist,
  runService,
  systemdQuote,
  systemdUnit,
  type ServiceContext,
} from '../../daemon/integrations/login-service.js';
import { CLI, tempFolder } from '../helpers/daemon.js';
import { exists } from '../helpers/support.js';

let root: string;
let home: string;
let configHome: string;
let fakeBin: string;
let callsFile: string;

beforeEach(async () => {
  root = await tempFolder('notifier-service-');
  home = path.join(root, 'home');
  configHome = path.join(root, 'config');
  fakeBin = path.join(root, 'bin');
  callsFile = path.join(root, 'calls');
  await Promise.all([mkdir(home), mkdir(fakeBin)]);
});

afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

const unitFile = () => path.join(configHome, 'systemd', 'user', 'notifier.service');

/**
 * A fake program on PATH: records each call's arguments as one line in `calls`, answers is-active/is-enabled
 * (or `print` for launchctl) with `answers`, and exits `exitCode` otherwise. Only shell built-ins: PATH may hold
 * nothing but the fake's folder.
 */
async function fake(name: string, { exitCode = 0, answers = {} as Record<string, { out: string; code: number }> } = {}): Promise<void> {
  const cases = Object.entries(answers)
    .map(([verb, { out, code }]) => `  ${verb}) echo '${out}'; exit ${code} ;;\n`)
    .join('');
  const script =
    '#!/bin/sh\n' +
    `printf '%s\\n' "$*" >> '${callsFile}'\n` +
    `for word in "$@"; do case "$word" in\n${cases}esac; done\n` +
    (exitCode === 0 ? '' : `echo 'Failed to connect to bus: No medium found' >&2\n`) +
    `exit ${exitCode}\n`;
  const file = path.join(fakeBin, name);
  await writeFile(file, script);
  await chmod(file, 0o755);
}

const calls = async (): Promise<string[]> => (await readFile(callsFile, 'utf8').catch(() => '')).split('\n').filter((line) => line !== '');

/** Runs the built CLI under the absolute node path, so PATH may hold nothing but the fake's folder. */
function notifier(
  args: string[],
  { env = {}, pathPrefix = true }: { env?: Record<string, string | undefined>; pathPrefix?: boolean } = {},
) {
  const base: Record<string, string | undefined> = { ...process.env };
  for (const name of ['XDG_DATA_HOME', 'NOTIFIER_SUPPORT_DIR', 'NOTIFIER_PORT', 'NOTIFIER_PRESENTER']) delete base[name];
  const result = spawnSync(process.execPath, [CLI, 'service', ...args], {
    encoding: 'utf8',
    env: {
      ...base,
      HOME: home,
      XDG_CONFIG_HOME: configHome,
      PATH: pathPrefix ? `${fakeBin}${path.delimiter}${process.env.PATH}` : fakeBin,
      ...env,
    },
  });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const q = (word: string) => systemdQuote(word); // the node and CLI paths of this checkout

describe('notifier service on Linux (systemd user unit)', () => {
  test('install writes the unit with the options and runs daemon-reload, then enable --now', async () => {
    await fake('systemctl');
    const supportDir = path.join(root, 'my 100% $support');
    const result = notifier(['install', '--support-dir', supportDir, '--port', '0', '--presenter', 'headless']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`Wrote ${unitFile()}`);

    const unit = await readFile(unitFile(), 'utf8');
    const lines = unit.split('\n');
    expect(lines).toContain(
      `ExecStart=${q(process.execPath)} ${q(CLI)} daemon --support-dir "${root}/my 100%% $$support" --port 0 --presenter headless`,
    );
    expect(lines).toContain('Restart=on-failure');
    expect(lines).toContain('WantedBy=default.target');
    expect(lines.some((line) => line.startsWith('Description='))).toBe(true);
    expect(lines.some((line) => line.startsWith('Environment='))).toBe(false);
    expect(unit).toMatch(/\[Unit\][^[]*\[Service\][^[]*\[Install\]/);
    expect((await stat(unitFile())).mode & 0o777).toBe(0o644);
    expect(await calls()).toEqual(['--user daemon-reload', '--user enable --now notifier.service']);
  });

  test('without options ExecStart is just `daemon`; HOME/.config is used when XDG_CONFIG_HOME is unset', async () => {
    await fake('systemctl');
    const result = notifier(['install'], { env: { XDG_CONFIG_HOME: undefined } });
    expect(result.code).toBe(0);
    const file = path.join(home, '.config', 'systemd', 'user', 'notifier.service');
    const unit = await readFile(file, 'utf8');
    expect(unit.split('\n')).toContain(`ExecStart=${q(process.execPath)} ${q(CLI)} daemon`);
    expect(await exists(unitFile())).toBe(false);
  });

  test('a relative --support-dir is made absolute; XDG_DATA_HOME of this shell is carried into the unit', async () => {
    await fake('systemctl');
    const relative = notifier(['install', '--support-dir', 'relative/dir']);
    expect(relative.code).toBe(0);
    expect(await readFile(unitFile(), 'utf8')).toContain(`--support-dir ${path.resolve('relative/dir')}\n`);

    const dataHome = path.join(root, 'data home');
    expect(notifier(['install'], { env: { XDG_DATA_HOME: dataHome } }).code).toBe(0);
    const unit = await readFile(unitFile(), 'utf8');
    expect(unit.split('\n')).toContain(`Environment="XDG_DATA_HOME=${dataHome}"`);
    // The unit changed under a service that may be running: it is restarted.
    expect((await calls()).slice(2)).toEqual([
      '--user daemon-reload',
      '--user enable --now notifier.service',
      '--user restart notifier.service',
    ]);
  });

  test('NOTIFIER_SUPPORT_DIR, NOTIFIER_PORT and NOTIFIER_PRESENTER become options of the service', async () => {
    await fake('systemctl');
    const dir = path.join(root, 'support');
    const result = notifier(['install'], { env: { NOTIFIER_SUPPORT_DIR: dir, NOTIFIER_PORT: '4000', NOTIFIER_PRESENTER: 'headless' } });
    expect(result.code).toBe(0);
    expect(await readFile(unitFile(), 'utf8')).toContain(` daemon --support-dir ${q(dir)} --port 4000 --presenter headless\n`);
  });

  test('when systemctl fails (no user session) the unit is still written, the commands are printed, exit 1', async () => {
    await fake('systemctl', { exitCode: 1 });
    const result = notifier(['install', '--port', '0']);
    expect(result.code).toBe(1);
    expect(await exists(unitFile())).toBe(true);
    expect(result.stdout).toContain(`Wrote ${unitFile()}`);
    expect(result.stderr).toContain('Failed to connect to bus');
    expect(result.stderr).toContain('  systemctl --user daemon-reload\n  systemctl --user enable --now notifier.service\n');
    expect(await calls()).toEqual(['--user daemon-reload']);
  });

  test('when there is no systemctl at all the unit is still written, the commands are printed, exit 1', async () => {
    const result = notifier(['install'], { pathPrefix: false });
    expect(result.code).toBe(1);
    expect(await exists(unitFile())).toBe(true);
    expect(result.stderr).toMatch(/systemctl was not found on PATH/);
    expect(result.stderr).toContain('  systemctl --user daemon-reload\n  systemctl --user enable --now notifier.service\n');
  });

  test('install puts Notifier in the app menu: a desktop entry that runs `notifier open`; uninstall removes it', async () => {
    await fake('systemctl');
    const entryFile = path.join(home, '.local', 'share', 'applications', 'notifier.desktop');
    const result = notifier(['install']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`Wrote ${entryFile}`);
    const lines = (await readFile(entryFile, 'utf8')).split('\n');
    expect(lines).toContain('[Desktop Entry]');
    expect(lines).toContain('Type=Application');
    expect(lines).toContain('Name=Notifier');
    expect(lines).toContain(`Exec=${desktopExecQuote(process.execPath)} ${desktopExecQuote(CLI)} open`);
    // The Exec line, run as the desktop runs it, reaches `notifier open` (which needs a running daemon: exit 2).
    const words = lines
      .find((line) => line.startsWith('Exec='))!
      .slice('Exec='.length)
      .split(' ');
    const ran = spawnSync(words[0]!, words.slice(1), { encoding: 'utf8', env: { ...process.env, NOTIFIER_SUPPORT_DIR: root } });
    expect([ran.status, ran.stderr]).toEqual([2, expect.stringMatching(/^Notifier is not running/)]);

    const uninstalled = notifier(['uninstall']);
    expect(uninstalled.stdout).toContain(`Removed ${entryFile}`);
    expect(await exists(entryFile)).toBe(false);
  });

  test('the desktop entry goes to XDG_DATA_HOME, and reaches a service installed with its own support folder', async () => {
    await fake('systemctl');
    const dataHome = path.join(root, 'data');
    const supportDir = path.join(root, 'my $support 100%');
    expect(notifier(['install', '--support-dir', supportDir], { env: { XDG_DATA_HOME: dataHome } }).code).toBe(0);
    const entry = await readFile(path.join(dataHome, 'applications', 'notifier.desktop'), 'utf8');
    expect(entry).toContain(`Exec=env "NOTIFIER_SUPPORT_DIR=${root}/my \\\\$support 100%%" `);
  });

  test('desktop entry quoting: spaces, quotes, dollars, backslashes and percent signs', () => {
    expect(desktopExecQuote('/usr/bin/node')).toBe('/usr/bin/node');
    expect(desktopExecQuote('/a b/c')).toBe('"/a b/c"');
    expect(desktopExecQuote('a"b$c`d\\e')).toBe('"a\\\\"b\\\\$c\\\\`d\\\\\\\\e"');
    expect(desktopExecQuote('100%')).toBe('100%%');
  });

  test('uninstall runs disable --now, removes the unit and reloads; a second uninstall says so and exits 0', async () => {
    await fake('systemctl');
    expect(notifier(['install']).code).toBe(0);
    const first = notifier(['uninstall']);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(`Removed ${unitFile()}`);
    expect(await exists(unitFile())).toBe(false);
    expect((await calls()).slice(2)).toEqual(['--user disable --now notifier.service', '--user daemon-reload']);

    const second = notifier(['uninstall']);
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(/not installed/);
    expect(await calls()).toHaveLength(4);
  });

  test('uninstall without a user session still removes the unit, exit 0', async () => {
    await fake('systemctl');
    expect(notifier(['install']).code).toBe(0);
    await fake('systemctl', { exitCode: 1 });
    const result = notifier(['uninstall']);
    expect(result.code).toBe(0);
    expect(await exists(unitFile())).toBe(false);
    expect(result.stderr).toContain('systemctl --user daemon-reload');
  });

  test('status reports installed, active and enabled as systemctl answers them', async () => {
    await fake('systemctl', { answers: { 'is-active': { out: 'inactive', code: 3 }, 'is-enabled': { out: 'not-found', code: 4 } } });
    const before = notifier(['status']);
    expect(before.code).toBe(0);
    expect(JSON.parse(before.stdout)).toEqual({ installed: false, unitFile: unitFile(), active: 'inactive', enabled: 'not-found' });

    expect(notifier(['install']).code).toBe(0);
    await fake('systemctl', { answers: { 'is-active': { out: 'active', code: 0 }, 'is-enabled': { out: 'enabled', code: 0 } } });
    const after = notifier(['status']);
    expect(after.code).toBe(0);
    expect(JSON.parse(after.stdout)).toEqual({ installed: true, unitFile: unitFile(), active: 'active', enabled: 'enabled' });
    expect(await calls()).toEqual(expect.arrayContaining(['--user is-active notifier.service', '--user is-enabled notifier.service']));
  });

  test('status says unknown when systemctl cannot answer, and exits 0', async () => {
    await fake('systemctl', { exitCode: 1 });
    const failing = notifier(['status']);
    expect(failing.code).toBe(0);
    expect(JSON.parse(failing.stdout)).toMatchObject({ installed: false, active: 'unknown', enabled: 'unknown' });

    const missing = notifier(['status'], { pathPrefix: false });
    expect(missing.code).toBe(0);
    expect(JSON.parse(missing.stdout)).toMatchObject({ installed: false, active: 'unknown', enabled: 'unknown' });
  });

  test('usage errors come from commander', () => {
    const badPort = notifier(['install', '--port', 'eighty']);
    expect(badPort.code).not.toBe(0);
    expect(badPort.stderr).toMatch(/port/);
    const badPresenter = notifier(['install', '--presenter', 'hologram']);
    expect(badPresenter.code).not.toBe(0);
    expect(badPresenter.stderr).toMatch(/Allowed choices are auto, .*headless/);
    const unknown = notifier(['restart']);
    expect(unknown.code).not.toBe(0);
    expect(unknown.stderr).toMatch(/unknown command/);
  });
});

describe('systemd quoting', () => {
  test.each([
    ['/usr/bin/node', '/usr/bin/node'],
    ['/opt/My App/node', '"/opt/My App/node"'],
    ['50%', '50%%'],
    ['$HOME', '"$$HOME"'],
    ['say "hi"\\', '"say \\"hi\\"\\\\"'],
    ['a\nb', '"a\\nb"'],
    ['', '""'],
    [';', '\\;'],
  ])('%j is written %s', (word, written) => {
    expect(systemdQuote(word)).toBe(written);
  });

  test('the unit text', () => {
    expect(systemdUnit({ execPath: '/usr/bin/node', mainScript: '/srv/notifier/dist/cli/main.js', options: { port: 48617 } })).toBe(
      '# Written by `notifier service install`; `notifier service uninstall` removes it.\n' +
        '[Unit]\n' +
        'Description=Notifier: local desktop notification service\n' +
        '\n' +
        '[Service]\n' +
        'Type=simple\n' +
        'ExecStart=/usr/bin/node /srv/notifier/dist/cli/main.js daemon --port 48617\n' +
        'Restart=on-failure\n' +
        '\n' +
        '[Install]\n' +
        'WantedBy=default.target\n',
    );
  });
});

describe('macOS launchd agent', () => {
  test('the plist: ProgramArguments, RunAtLoad, KeepAlive on failure, the log file, XML escaping', async () => {
    const plist = launchdPlist({
      execPath: '/opt/homebrew/bin/node',
      mainScript: '/Users/ada/src/R&D <notifier>/dist/cli/main.js',
      options: { supportDir: '/Users/ada/notifier', port: 0, presenter: 'headless' },
      logFile: '/Users/ada/notifier/logs/daemon.log',
    });
    // The whole agent file as launchd reads it, written out once beside this test (tabs and all).
    expect(plist).toBe(await readFile(path.join(__dirname, 'fixtures', 'launchd-agent.plist'), 'utf8'));
  });

  test('a control character cannot go into a plist', () => {
    expect(() => launchdPlist({ execPath: '/n', mainScript: '/m', options: { supportDir: '/a\u0001b' }, logFile: '/l' })).toThrow(
      /control character/,
    );
  });

  function macContext(): ServiceContext & { output: () => string; errors: () => string } {
    let out = '';
    let err = '';
    return {
      platform: 'darwin',
      env: { ...process.env, PATH: fakeBin },
      home,
      uid: 501,
      execPath: '/usr/local/bin/node',
      mainScript: '/src/notifier/dist/cli/main.js',
      out: (text) => (out += text),
      err: (text) => (err += text),
      output: () => out,
      errors: () => err,
    };
  }
  const plistFile = () => path.join(home, 'Library', 'LaunchAgents', 'org.notifier.daemon.plist');

  test('install writes the agent, makes the log folder and bootstraps it; status and uninstall', async () => {
    await fake('launchctl', { answers: { print: { out: '\tstate = running', code: 0 } } });
    const ctx = macContext();
    expect(await runService('install', {}, ctx)).toBe(0);
    const supportDir = path.join(home, 'Library', 'Application Support', 'Notifier');
    expect(await exists(path.join(supportDir, 'logs'))).toBe(true);
    expect((await stat(supportDir)).mode & 0o777).toBe(0o700);
    const plist = await readFile(plistFile(), 'utf8');
    expect(plist).toContain(`<string>${supportDir}/logs/daemon.log</string>`);
    expect(await calls()).toEqual([
      'bootout gui/501/org.notifier.daemon',
      'enable gui/501/org.notifier.daemon',
      `bootstrap gui/501 ${plistFile()}`,
    ]);

    expect(await runService('status', {}, ctx)).toBe(0);
    expect(JSON.parse(ctx.output().slice(ctx.output().indexOf('{')))).toEqual({
      installed: true,
      unitFile: plistFile(),
      active: 'active',
      enabled: 'enabled',
    });

    expect(await runService('uninstall', {}, ctx)).toBe(0);
    expect(await exists(plistFile())).toBe(false);
    expect((await calls()).at(-1)).toBe('bootout gui/501/org.notifier.daemon');
    expect(await runService('uninstall', {}, ctx)).toBe(0);
    expect(ctx.output()).toMatch(/not installed/);
  });

  test('install without launchctl writes the agent, prints the commands and returns 1', async () => {
    const ctx = macContext();
    expect(await runService('install', { supportDir: path.join(root, 'support') }, ctx)).toBe(1);
    expect(await exists(plistFile())).toBe(true);
    expect(ctx.errors()).toContain('launchctl was not found on PATH');
    expect(ctx.errors()).toContain(`  launchctl enable gui/501/org.notifier.daemon\n  launchctl bootstrap gui/501 ${plistFile()}\n`);
  });
});

test('Windows has no service support yet: exit 1', async () => {
  let err = '';
  const ctx: ServiceContext = {
    platform: 'win32',
    env: {},
    home,
    uid: 0,
    execPath: 'C:\\node.exe',
    mainScript: 'C:\\notifier\\dist\\cli\\main.js',
    out: () => undefined,
    err: (text) => (err += text),
  };
  expect(await runService('install', {}, ctx)).toBe(1);
  expect(err).toMatch(/no service support on Windows yet/);
});
