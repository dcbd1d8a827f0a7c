import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, test } from '@jest/globals';
import { ROOT, tempFolderSync } from '../helpers/daemon.js';
import { startDesktop } from '../helpers/desktop.js';
import { runProgram } from '../helpers/process.js';

// scripts/setup.mjs chooses the system packages a run needs (README.md, "Quick start"): `npm start` installs the
// desktop parts only in a desktop session; `npm test` installs everything. Run with `--list-missing` (nothing is
// installed) and a PATH that holds only `sh` and `pkg-config`, so every program looked up by name is missing.

const SETUP = path.join(ROOT, 'scripts', 'setup.mjs');
const DESKTOP = ['espeak-ng', 'zenity', 'pulseaudio-utils'];
const TESTS = ['openssl', 'dbus', 'xvfb', 'dunst', 'xdotool'];

const bin = tempFolderSync('notifier-setup-bin-');
for (const program of ['sh', 'pkg-config', 'dbus-send']) symlinkSync(`/usr/bin/${program}`, path.join(bin, program));
// This user's dunstrc names dmenu by name (dunst's own default names /usr/bin/dmenu, which this machine may have).
const config = tempFolderSync('notifier-setup-config-');
mkdirSync(path.join(config, 'dunst'));
writeFileSync(path.join(config, 'dunst', 'dunstrc'), '[global]\n    dmenu = dmenu -p dunst:\n');
afterAll(() => [bin, config].forEach((folder) => rmSync(folder, { recursive: true, force: true })));

async function listMissing(args: string[], session: Record<string, string>): Promise<string[]> {
  const env: Record<string, string> = { PATH: bin, HOME: process.env.HOME ?? '/', XDG_CONFIG_HOME: config, ...session };
  // A clean environment: this test's own DISPLAY or bus must not count.
  const run = await runProgram('/usr/bin/env', [
    '-i',
    ...Object.entries(env).map(([k, v]) => `${k}=${v}`),
    process.execPath,
    SETUP,
    '--list-missing',
    ...args,
  ]);
  expect(run).toMatchObject({ code: 0, stderr: '' });
  return run.stdout.split('\n').filter(Boolean);
}

const expectAbsent = (listed: string[], names: string[]) => expect(listed.filter((name) => names.includes(name))).toEqual([]);

describe('scripts/setup.mjs: which system packages a run needs', () => {
  test('npm start without a desktop session: none of the desktop or test packages', async () => {
    const listed = await listMissing([], {});
    expectAbsent(listed, [...DESKTOP, ...TESTS]);
    expect(await listMissing([], { DISPLAY: ':5' })).toEqual(listed); // a display without a session bus is no session
  });

  test('npm start in a desktop session (a display and a session bus): the desktop packages, not the test ones', async () => {
    const sessions: Array<Record<string, string>> = [
      { DISPLAY: ':5', DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nowhere' },
      { WAYLAND_DISPLAY: 'wayland-0', DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nowhere' },
    ];
    for (const session of sessions) {
      const listed = await listMissing([], session);
      expect(listed).toEqual(expect.arrayContaining(['espeak-ng', 'zenity', 'pulseaudio-utils']));
      expectAbsent(listed, TESTS);
    }
  });

  test('npm test: the desktop and the test packages, with or without a session', async () => {
    const listed = await listMissing(['--for-tests'], {});
    expect(listed).toEqual(expect.arrayContaining(['espeak-ng', 'zenity', 'pulseaudio-utils', 'suckless-tools', ...TESTS]));
  });

  test("npm start where dunst is the notification server: dunst's menu program, when the one it names is missing", async () => {
    // The rig's dunst names a menu program of its own, which is there.
    const desktop = await startDesktop();
    try {
      const session = { ...desktop.env };
      expect(await listMissing([], session)).not.toContain('suckless-tools');
      // dunst restarted with dmenu by name, on a PATH without it: the running dunst's own settings and PATH count.
      await desktop.restartDunst({ settings: { dmenu: 'dmenu -p dunst:' }, env: { PATH: bin } });
      expect(await listMissing([], session)).toContain('suckless-tools');
    } finally {
      await desktop.stop();
    }
    // No notification server on the bus (or none at all): nothing of dunst's.
    expect(await listMissing([], { DISPLAY: ':5', DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nowhere' })).not.toContain('suckless-tools');
  }, 30_000);
});
