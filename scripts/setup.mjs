#!/usr/bin/env node
// Set-up before `npm start` and `npm test` on a fresh clone, and a quick no-op when nothing changed:
//   1. system programs the service, its desktop parts or its tests need (installed with apt when we may, else we
//      say how),
//   2. `npm ci` when package-lock.json changed since the last install,
//   3. the TypeScript build into dist/ when a source file changed since the last build,
//   4. the person's app (app/, Vite) into dist/app/ when one of its files changed since its last build.
// Only Node's own modules are used here (and, once built, daemon/present/dunst-config.ts, which uses only those):
// this runs before any dependency is installed.

import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync, chmodSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/**
 * `--for-tests`: `npm test`; else `npm start` (and the benchmarks). `--list-missing` only lists what is missing.
 * `--build-only`: the build steps alone (`npm pack`'s prepack). `--explain-missing [--as <name>]`: the installed
 * package's first start, when a native part did not load: says which of the service's own system packages are
 * missing, in these same words, and installs nothing (common/native-parts.ts).
 */
const purpose = process.argv.includes('--for-tests') ? 'test' : 'start';
const speaker = process.argv.includes('--as') ? process.argv[process.argv.indexOf('--as') + 1] : 'setup';

/**
 * Programs from the system's package manager. `for` says who needs it:
 *   - `start`: the service's build (node-canvas) and every run of it;
 *   - `desktop`: what the running service uses on a desktop (reply window, speech, tray, sounds). `npm start` installs
 *     these only when there is a desktop session; without one the service does without them (headless);
 *   - `test`: only the test suite, which installs all three kinds.
 * An entry is present when its `command` (or one of its `commands`), `pkgconfig` module or `file` is there.
 */
const SYSTEM_PACKAGES = [
  // npm builds node-canvas and better-sqlite3 (the relay's embedded database) with these where it finds no
  // ready-made build for this system and Node (node-gyp: a C++ compiler, make and Python).
  { command: 'g++', apt: 'g++', for: 'start', why: 'compiles the native parts where npm has no ready-made build' },
  { command: 'make', apt: 'make', for: 'start', why: 'runs that compilation (node-gyp)' },
  { command: 'python3', apt: 'python3', for: 'start', why: 'runs node-gyp, which builds the native parts' },
  // node-canvas (previews, template drawing) compiles against these when npm installs it, and runs with them.
  { pkgconfig: 'cairo', apt: 'libcairo2-dev', for: 'start', why: 'draws previews (node-canvas is built against it)' },
  { pkgconfig: 'pangocairo', apt: 'libpango1.0-dev', for: 'start', why: 'lays out text in previews (node-canvas)' },
  { pkgconfig: 'librsvg-2.0', apt: 'librsvg2-dev', for: 'start', why: 'draws symbols (SVG) in previews (node-canvas)' },
  { pkgconfig: 'libjpeg', apt: 'libjpeg-dev', for: 'start', why: 'reads JPEG pictures in previews (node-canvas)' },
  { file: '/usr/include/gif_lib.h', apt: 'libgif-dev', for: 'start', why: 'reads GIF pictures in previews (node-canvas)' },
  { command: 'pkg-config', apt: 'pkg-config', for: 'start', why: 'finds those libraries when node-canvas is built' },
  {
    file: '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf',
    apt: 'fonts-dejavu-core',
    for: 'start',
    why: 'is the font previews are drawn with',
  },
  { command: 'openssl', apt: 'openssl', for: 'test', why: 'makes the self-signed certificate of the https picture test' },
  { command: 'dbus-daemon', apt: 'dbus', for: 'test', why: 'runs the private session bus of the D-Bus and desktop tests' },
  { command: 'espeak-ng', apt: 'espeak-ng', for: 'desktop', why: 'speaks (the daemon falls back to a banner without it)' },
  { command: 'Xvfb', apt: 'xvfb', for: 'test', why: 'is the screen of the desktop tests' },
  { command: 'dunst', apt: 'dunst', for: 'test', why: 'is the real notification server of the desktop tests' },
  { command: 'xdotool', apt: 'xdotool', for: 'test', why: 'types a reply into the reply window in the desktop tests' },
  { command: 'apprise', apt: 'apprise', for: 'test', why: "is the real client of ntfy's and Gotify's dialects in the senders' tests" },
  {
    command: 'gnome-keyring-daemon',
    apt: 'gnome-keyring',
    for: 'test',
    why: "is the real Secret Service that keeps the relay's device token in its test",
  },
  { command: 'secret-tool', apt: 'libsecret-tools', for: 'test', why: 'reads that keyring in the test, as a second client' },
  {
    command: 'chromium',
    apt: 'chromium',
    for: 'test',
    why: "is the browser of the relay's consent page tests (driven by playwright-core)",
  },
  { command: 'notify-send', apt: 'libnotify-bin', for: 'test', why: "sends other programs' notifications in the desktop History tests" },
  { command: 'zenity', apt: 'zenity', for: 'desktop', why: 'is the reply window (a notification server without inline replies)' },
  // dunst draws no buttons: they are pressed in the menu it opens with the program of its `dmenu` setting
  // (docs/desktop.md#dunst-and-its-menu-program). Wanted where dunst is the notification server, and for the tests.
  {
    check: dunstMenuInstalled,
    when: () => purpose === 'test' || dunstIsTheServer(),
    name: "dunst's menu program (dmenu)",
    apt: 'suckless-tools',
    for: 'desktop',
    why: "is the menu dunst opens to press a banner's buttons",
  },
  // The tray on Linux is its own StatusNotifierItem over D-Bus (tray/sni.ts): it needs no tray library.
  // daemon/present/sound.ts plays files with the first of these; paplay talks to PulseAudio and to PipeWire's
  // PulseAudio service, which is what desktops run.
  {
    commands: ['paplay', 'pw-play', 'aplay'],
    apt: 'pulseaudio-utils',
    for: 'desktop',
    why: 'plays sounds and speech (paplay, pw-play or aplay)',
  },
  { command: 'nginx', apt: 'nginx', for: 'test', why: "runs the relay's nginx configuration (relay/deploy) in its operations test" },
  { command: 'caddy', apt: 'caddy', for: 'test', why: "runs the relay's Caddyfile (relay/deploy) in its operations test" },
  {
    command: 'systemd-analyze',
    apt: 'systemd',
    for: 'test',
    why: "verifies the relay's systemd unit (relay/deploy) in its operations test",
  },
  {
    command: 'strace',
    apt: 'strace',
    for: 'test',
    why: "lists the relay's system calls against its unit's SystemCallFilter in its operations test",
  },
  {
    check: hasPostgresServer,
    name: 'postgres',
    apt: 'postgresql',
    for: 'test',
    why: "is the relay's shared database in its tests (a private server per run)",
  },
];

/** A PostgreSQL server program: Debian's versioned folder, or one on PATH. */
function hasPostgresServer() {
  const root = '/usr/lib/postgresql';
  const versioned = existsSync(root) && readdirSync(root).some((version) => existsSync(path.join(root, version, 'bin', 'postgres')));
  return versioned || hasCommand('postgres');
}

/** The session bus's answer to a method call (dbus-send, literal), or null when there is none (no bus, no server). */
function askSessionBus(destination, objectPath, method, ...args) {
  const asked = spawnSync('dbus-send', ['--session', '--print-reply=literal', `--dest=${destination}`, objectPath, method, ...args], {
    encoding: 'utf8',
    timeout: 3000,
  });
  return asked.status === 0 ? asked.stdout : null;
}

/** Whether the notification server on the session bus is dunst (`GetServerInformation`). */
function dunstIsTheServer() {
  if (!hasDesktopSession()) return false;
  const notifications = ['org.freedesktop.Notifications', '/org/freedesktop/Notifications'];
  const info = askSessionBus(...notifications, 'org.freedesktop.Notifications.GetServerInformation');
  return info !== null && info.trim().split(/\s+/)[0] === 'dunst';
}

/**
 * Whether the menu program dunst is set to use is installed, found as the daemon finds it (the built
 * daemon/present/dunst-config.ts: the running dunst's settings and PATH, else this user's dunstrc). Before the first
 * build, whether dmenu is.
 */
function dunstMenuInstalled() {
  if (!dunstMenuModule) return hasCommand('dmenu');
  const pid = askSessionBus(
    'org.freedesktop.DBus',
    '/org/freedesktop/DBus',
    'org.freedesktop.DBus.GetConnectionUnixProcessID',
    'string:org.freedesktop.Notifications',
  );
  const running = pid && dunstIsTheServer() ? dunstMenuModule.dunstProcess(Number(pid.trim().split(/\s+/).pop())) : null;
  return dunstMenuModule.dunstMenu(running ?? { argv: [], env: process.env }).installed;
}

const BUILD_INPUTS = [
  'common',
  'protocol',
  'daemon',
  'cli',
  'tray',
  'templates-renderer',
  'relay',
  'bench',
  'rigs',
  'tsconfig.base.json',
  'tsconfig.build.json',
  'package.json',
];
const BUILD_STAMP = path.join(root, 'dist', '.build-stamp');
/** The person's app (app/, built by Vite into dist/app/): its sources, the protocol types it imports, its packages. */
const APP_INPUTS = ['app', 'protocol', 'package.json'];
/** Inside dist/app: the TypeScript build's fresh dist/ (and Vite's emptied dist/app/) take it away, so the app is built again. */
const APP_STAMP = path.join(root, 'dist', 'app', '.build-stamp');
const INSTALL_STAMP = path.join(root, 'node_modules', '.notifier-install-stamp');

function say(message) {
  process.stderr.write(`${speaker}: ${message}\n`);
}

function run(command, args) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    say(`\`${command} ${args.join(' ')}\` failed (exit ${result.status ?? result.signal})`);
    process.exit(1);
  }
}

function hasCommand(command) {
  return spawnSync('sh', ['-c', `command -v "${command}"`], { stdio: 'ignore' }).status === 0;
}

/** The built dunst-config module, when there is a build (it imports only Node's own modules). */
const dunstMenuModule = await import(pathToFileURL(path.join(root, 'dist', 'daemon', 'present', 'dunst-config.js')).href).catch(() => null);

function present(p) {
  if (p.commands) return p.commands.some(hasCommand);
  if (p.check) return p.check();
  if (p.command) return hasCommand(p.command);
  if (p.pkgconfig) return spawnSync('pkg-config', ['--exists', p.pkgconfig], { stdio: 'ignore' }).status === 0;
  return p.file.includes('x86_64') && process.arch !== 'x64' ? true : existsSync(p.file);
}

/**
 * A desktop session: a display (X11 or Wayland) and a session bus (its address, or the bus socket systemd puts in
 * the runtime folder). Only then does the service show banners, a tray and a reply window, so only then does
 * `npm start` need the `desktop` packages.
 */
function hasDesktopSession(env = process.env) {
  const display = Boolean(env.DISPLAY || env.WAYLAND_DISPLAY);
  const bus = Boolean(env.DBUS_SESSION_BUS_ADDRESS) || (Boolean(env.XDG_RUNTIME_DIR) && existsSync(path.join(env.XDG_RUNTIME_DIR, 'bus')));
  return display && bus;
}

/** The kinds of SYSTEM_PACKAGES this run needs. */
function wantedKinds() {
  if (purpose === 'test') return ['start', 'desktop', 'test'];
  return hasDesktopSession() ? ['start', 'desktop'] : ['start'];
}

function missingPackages() {
  if (process.platform !== 'linux') return []; // the packages below are Debian's; other systems bring their own
  const kinds = wantedKinds();
  return SYSTEM_PACKAGES.filter((p) => kinds.includes(p.for) && (p.when?.() ?? true) && !present(p));
}

/** One line per missing package: what it is and why it is needed. */
function sayMissing(missing) {
  for (const p of missing) say(`missing ${p.command ?? p.commands?.join(' or ') ?? p.name ?? p.apt}: it ${p.why}`);
}

/** The line that says how to install them where this script may not. */
function sayPleaseInstall(names) {
  say(`please install: ${hasCommand('apt-get') ? 'sudo apt-get install -y' : "your package manager's"} ${names.join(' ')}`);
}

function installSystemPackages() {
  const missing = missingPackages();
  if (missing.length === 0) return;
  const names = missing.map((p) => p.apt);
  sayMissing(missing);
  const isRoot = process.getuid?.() === 0;
  const sudo = !isRoot && hasCommand('sudo') && spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' }).status === 0;
  if (!hasCommand('apt-get') || (!isRoot && !sudo)) {
    sayPleaseInstall(names);
    // The service runs without its desktop parts (no reply window, speech, tray or sounds); nothing else is optional.
    if (purpose === 'test' || missing.some((p) => p.for !== 'desktop')) process.exit(1);
    say('the service starts without them');
    return;
  }
  const apt = (args) => (isRoot ? run('apt-get', args) : run('sudo', ['-n', 'apt-get', ...args]));
  say(`installing ${names.join(' ')} with apt-get`);
  apt(['update', '-qq']);
  apt(['install', '-y', '-qq', '--no-install-recommends', ...names]);
}

function fingerprint(file) {
  return createHash('sha256').update(readFileSync(file)).update(process.version).digest('hex');
}

function installDependencies() {
  const lock = path.join(root, 'package-lock.json');
  const wanted = fingerprint(lock);
  if (existsSync(INSTALL_STAMP) && readFileSync(INSTALL_STAMP, 'utf8') === wanted) return;
  say('installing npm dependencies (npm ci)');
  const ci = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: root, encoding: 'utf8' });
  if (ci.status !== 0) {
    // A registry mirror without other platforms' optional binaries (@swc/core-darwin-*, ...) cannot give npm
    // what it needs to call the lock complete, so `npm ci` refuses it. `npm install` installs the same locked
    // versions for this platform and leaves package-lock.json as it is.
    if (!/can only install packages when your package.json and package-lock.json/.test(ci.stderr)) {
      process.stderr.write(ci.stdout + ci.stderr);
      say('npm ci failed');
      process.exit(1);
    }
    say("npm ci refused the lock (this registry lacks some other platforms' optional packages); npm install with the lock instead");
    run('npm', ['install', '--no-audit', '--no-fund']);
  }
  writeFileSync(INSTALL_STAMP, wanted);
}

function newestChange(entry) {
  const full = path.join(root, entry);
  if (!existsSync(full)) return 0;
  const info = statSync(full);
  if (!info.isDirectory()) return info.mtimeMs;
  return readdirSync(full).reduce((newest, name) => Math.max(newest, newestChange(path.join(entry, name))), info.mtimeMs);
}

/** Runs `work` when one of `inputs` changed since `stamp` was written (or there is none), then writes `stamp`. */
function whenChanged(stamp, inputs, message, work) {
  const built = existsSync(stamp) ? statSync(stamp).mtimeMs : 0;
  if (built >= Math.max(...inputs.map(newestChange))) return;
  say(message);
  work();
  writeFileSync(stamp, new Date().toISOString());
}

function build() {
  whenChanged(BUILD_STAMP, BUILD_INPUTS, 'building (tsc)', () => {
    rmSync(path.join(root, 'dist'), { recursive: true, force: true }); // no stale output of deleted sources
    run(process.execPath, [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json']);
    chmodSync(path.join(root, 'dist', 'cli', 'main.js'), 0o755);
    chmodSync(path.join(root, 'dist', 'relay', 'main.js'), 0o755);
    // The OpenAPI document is made from the built route list; the file is committed, and a test keeps it current.
    run(process.execPath, [path.join(root, 'dist', 'daemon', 'http', 'write-openapi.js'), path.join(root, 'docs', 'api', 'openapi.json')]);
  });
}

/**
 * The person's app: Vite builds app/ into dist/app/ (index.html and hashed assets the daemon serves at /app/) and
 * prints the gzipped size of its JavaScript (app/vite.config.ts fails the build above the budget). `--configLoader
 * runner` reads the TypeScript config without writing a temporary copy of it into node_modules.
 */
function buildApp() {
  whenChanged(APP_STAMP, APP_INPUTS, 'building the app (vite)', () => {
    const vite = path.join(root, 'node_modules', 'vite', 'bin', 'vite.js');
    run(process.execPath, [vite, 'build', '--config', path.join('app', 'vite.config.ts'), '--configLoader', 'runner']);
  });
}

const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 20 || (major === 20 && minor < 19)) {
  say(`Node ${process.versions.node} is too old: Notifier needs Node 20.19 or newer`);
  process.exit(1);
}
if (process.argv.includes('--list-missing')) {
  // What this run would install, one apt package a line; nothing is installed or built (test/scripts/setup.test.ts).
  for (const p of missingPackages()) process.stdout.write(`${p.apt}\n`);
  process.exit(0);
}
if (process.argv.includes('--explain-missing')) {
  // Only the service's own packages (`start`): a native part that did not load was built against these, or not at all.
  const missing = process.platform === 'linux' ? SYSTEM_PACKAGES.filter((p) => p.for === 'start' && !present(p)) : [];
  sayMissing(missing);
  if (missing.length > 0) sayPleaseInstall(missing.map((p) => p.apt));
  process.exit(missing.length > 0 ? 3 : 0);
}
if (process.argv.includes('--build-only')) {
  build();
  buildApp();
  process.exit(0);
}
installSystemPackages();
installDependencies();
build();
buildApp();
