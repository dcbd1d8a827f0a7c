// The login service: `notifier daemon` run in the background under the platform's own service manager, a systemd
// user unit on Linux, a launchd agent on macOS (Windows has no support yet). Used by `notifier service install |
// uninstall | status` (cli/service.ts) and by the `launchAtLogin` setting.
//
// Everything the commands touch comes from a context (platform, environment, home folder, uid), and the service
// managers are run with execFile and found on the context's PATH, so tests can point HOME and XDG_CONFIG_HOME at
// temporary folders and put a fake `systemctl` or `launchctl` first on PATH.

import { execFile } from 'node:child_process';
import { lstat, mkdir, readFile, rename, rm, stat, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { APP_PAGE_TITLES, APP_PAGES, type AppPage } from '../../protocol/app-api.js';

export const SYSTEMD_UNIT_NAME = 'notifier.service';
export const LAUNCHD_LABEL = 'org.notifier.daemon';
export const DESKTOP_ENTRY_NAME = 'notifier.desktop';
const DESCRIPTION = 'Notifier: local desktop notification service';

export type ServiceAction = 'install' | 'uninstall' | 'status';

/** Options of `service install`, passed on to `notifier daemon`. */
export interface ServiceOptions {
  supportDir?: string;
  port?: number;
  presenter?: string;
}

export interface ServiceContext {
  platform: NodeJS.Platform;
  env: NodeJS.ProcessEnv;
  home: string;
  uid: number;
  /** The Node executable the service runs (process.execPath). */
  execPath: string;
  /** The built CLI, dist/cli/main.js. */
  mainScript: string;
  out: (text: string) => void;
  err: (text: string) => void;
}

export interface ServiceStatus {
  installed: boolean;
  unitFile: string;
  active: 'active' | 'inactive' | 'unknown';
  enabled: string;
}

// ---------------------------------------------------------------------------------------------------------------
// The files. Pure functions, tested directly.

/** The arguments after `main.js`: `daemon` and the options given to `service install`. */
export function daemonArguments(options: ServiceOptions): string[] {
  const args = ['daemon'];
  if (options.supportDir !== undefined) args.push('--support-dir', options.supportDir);
  if (options.port !== undefined) args.push('--port', String(options.port));
  if (options.presenter !== undefined) args.push('--presenter', options.presenter);
  return args;
}

/**
 * One word of a systemd command line (systemd.service(5) "Command lines", systemd.unit(5) "Specifiers"): `%` is a
 * specifier and `$` a variable in ExecStart, so they are doubled; a word with anything else than plain path
 * characters is double-quoted with C-style escapes.
 */
export function systemdQuote(word: string, { dollar = true } = {}): string {
  let text = word.replace(/%/g, '%%');
  if (dollar) text = text.replace(/\$/g, '$$$$');
  if (word === ';') return '\\;'; // a lone `;` separates commands
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(text)) return text;
  const escaped = text.replace(/[\\"\n\t\r]/g, (c) => ({ '\\': '\\\\', '"': '\\"', '\n': '\\n', '\t': '\\t', '\r': '\\r' })[c]!);
  return `"${escaped}"`;
}

export interface SystemdUnitInput {
  execPath: string;
  mainScript: string;
  options: ServiceOptions;
  /** Environment= lines; none unless the daemon needs them. */
  environment?: Record<string, string>;
}

export function systemdUnit({ execPath, mainScript, options, environment = {} }: SystemdUnitInput): string {
  const command = [execPath, mainScript, ...daemonArguments(options)].map((word) => systemdQuote(word)).join(' ');
  const envLines = Object.entries(environment).map(
    ([name, value]) => `Environment=${systemdQuote(`${name}=${value}`, { dollar: false })}\n`,
  );
  return (
    '# Written by `notifier service install`; `notifier service uninstall` removes it.\n' +
    '[Unit]\n' +
    `Description=${DESCRIPTION}\n` +
    '\n' +
    '[Service]\n' +
    'Type=simple\n' +
    envLines.join('') +
    `ExecStart=${command}\n` +
    'Restart=on-failure\n' +
    '\n' +
    '[Install]\n' +
    'WantedBy=default.target\n'
  );
}

function xmlText(text: string): string {
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]/.test(text)) {
    throw new Error(`cannot be written in a property list (control character): ${JSON.stringify(text)}`);
  }
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export interface LaunchdPlistInput {
  execPath: string;
  mainScript: string;
  options: ServiceOptions;
  /** Where launchd writes the daemon's stderr: `<support dir>/logs/daemon.log`. */
  logFile: string;
}

/** The launchd agent (launchd.plist(5)): started at login, and again whenever it exits with a failure. */
export function launchdPlist({ execPath, mainScript, options, logFile }: LaunchdPlistInput): string {
  const programArguments = [execPath, mainScript, ...daemonArguments(options)]
    .map((word) => `\t\t<string>${xmlText(word)}</string>\n`)
    .join('');
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n' +
    '<plist version="1.0">\n' +
    '<dict>\n' +
    '\t<key>Label</key>\n' +
    `\t<string>${LAUNCHD_LABEL}</string>\n` +
    '\t<key>ProgramArguments</key>\n' +
    '\t<array>\n' +
    programArguments +
    '\t</array>\n' +
    '\t<key>RunAtLoad</key>\n' +
    '\t<true/>\n' +
    '\t<key>KeepAlive</key>\n' +
    '\t<dict>\n' +
    '\t\t<key>SuccessfulExit</key>\n' +
    '\t\t<false/>\n' +
    '\t</dict>\n' +
    '\t<key>StandardErrorPath</key>\n' +
    `\t<string>${xmlText(logFile)}</string>\n` +
    '</dict>\n' +
    '</plist>\n'
  );
}

/**
 * One word of a desktop entry's `Exec` (Desktop Entry Specification, "The Exec key"): a word with anything but plain
 * path characters is double-quoted with `"`, `` ` ``, `$` and `\` escaped; `%` is doubled (field codes); and, the key
 * being a string, every backslash is written twice.
 */
export function desktopExecQuote(word: string): string {
  const text = word.replace(/%/g, '%%');
  const quoted = /^[A-Za-z0-9_@%+=:,./-]+$/.test(text) ? text : `"${text.replace(/(["`$\\])/g, '\\$1')}"`;
  return quoted.replace(/\\/g, '\\\\');
}

export interface DesktopEntryInput {
  execPath: string;
  mainScript: string;
  options: ServiceOptions;
}

/**
 * The app menu's "Notifier" (docs/app.md#how-it-opens): it runs `notifier open`, which opens the person's app
 * through the private channel; its actions (Desktop Entry Specification, "Additional application actions") open
 * each page, `notifier open <page>`. A service installed with its own support folder is reached there.
 */
export function desktopEntry({ execPath, mainScript, options }: DesktopEntryInput): string {
  const env = options.supportDir === undefined ? [] : ['env', `NOTIFIER_SUPPORT_DIR=${options.supportDir}`];
  const open = (...page: AppPage[]): string => [...env, execPath, mainScript, 'open', ...page].map(desktopExecQuote).join(' ');
  const actions = APP_PAGES.map((page) => `\n[Desktop Action ${page}]\nName=${APP_PAGE_TITLES[page]}\nExec=${open(page)}\n`);
  return (
    '# Written by `notifier service install`; `notifier service uninstall` removes it.\n' +
    '[Desktop Entry]\n' +
    'Type=Application\n' +
    'Name=Notifier\n' +
    'Comment=Your notifications: History, Approvals, Compose, Settings, Designer, Relay\n' +
    `Exec=${open()}\n` +
    'Icon=preferences-system-notifications\n' +
    'Terminal=false\n' +
    'Categories=Utility;\n' +
    'Keywords=notifications;history;approvals;\n' +
    `Actions=${APP_PAGES.join(';')};\n` +
    actions.join('')
  );
}

// ---------------------------------------------------------------------------------------------------------------
// Paths.

/** `$XDG_DATA_HOME/applications/notifier.desktop`, `~/.local/share/...` when it is unset (or not absolute). */
export function desktopEntryPath(env: NodeJS.ProcessEnv, home: string): string {
  const dataHome = env.XDG_DATA_HOME && path.isAbsolute(env.XDG_DATA_HOME) ? env.XDG_DATA_HOME : path.join(home, '.local', 'share');
  return path.join(dataHome, 'applications', DESKTOP_ENTRY_NAME);
}

/** `$XDG_CONFIG_HOME/systemd/user/notifier.service`, `~/.config/...` when it is unset (or not absolute). */
export function systemdUnitPath(env: NodeJS.ProcessEnv, home: string): string {
  const configHome = env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : path.join(home, '.config');
  return path.join(configHome, 'systemd', 'user', SYSTEMD_UNIT_NAME);
}

export function launchdPlistPath(home: string): string {
  return path.join(home, 'Library', 'LaunchAgents', `${LAUNCHD_LABEL}.plist`);
}

/** The daemon's support folder on macOS when none is given (the same rule as daemon/support-dir.ts). */
function macSupportDir(home: string): string {
  return path.join(home, 'Library', 'Application Support', 'Notifier');
}

// ---------------------------------------------------------------------------------------------------------------
// Running the service managers.

interface RunResult {
  ok: boolean;
  /** The program is not on PATH. */
  missing: boolean;
  stdout: string;
  stderr: string;
  /** One line saying why it failed. */
  problem: string;
}

function run(ctx: ServiceContext, program: string, args: string[], timeoutMs = 60_000): Promise<RunResult> {
  return new Promise((resolve) => {
    execFile(program, args, { env: ctx.env, timeout: timeoutMs, encoding: 'utf8' }, (error, stdout, stderr) => {
      if (!error) return resolve({ ok: true, missing: false, stdout, stderr, problem: '' });
      const code = (error as NodeJS.ErrnoException).code;
      const missing = code === 'ENOENT';
      const firstLine = (stderr.trim() || stdout.trim()).split('\n')[0]?.trim();
      const problem = missing
        ? `${program} was not found on PATH`
        : `\`${[program, ...args].join(' ')}\` failed${firstLine ? `: ${firstLine}` : typeof code === 'number' ? ` (exit ${code})` : ` (${error.message})`}`;
      resolve({ ok: false, missing, stdout, stderr, problem });
    });
  });
}

const exists = (file: string): Promise<boolean> =>
  stat(file).then(
    () => true,
    () => false,
  );
const readText = (file: string): Promise<string | null> =>
  readFile(file, 'utf8').then(
    (text) => text,
    () => null,
  );

/** Writes through a temporary file and a rename, so a half-written unit is never seen. */
async function writeFileAtomically(file: string, text: string): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, text, { mode: 0o644 });
  await rename(temporary, file);
}

function withOptions(options: ServiceOptions): ServiceOptions {
  // The service starts in another folder: a relative --support-dir would mean something else there.
  return options.supportDir === undefined ? options : { ...options, supportDir: path.resolve(options.supportDir) };
}

// ---------------------------------------------------------------------------------------------------------------
// Linux: systemd user unit.

const SYSTEMCTL = 'systemctl';

async function systemdInstall(ctx: ServiceContext, rawOptions: ServiceOptions): Promise<number> {
  const options = withOptions(rawOptions);
  const unitFile = systemdUnitPath(ctx.env, ctx.home);
  // The service manager does not see this shell's XDG_DATA_HOME: carry it over so the service uses the same
  // support folder as a `notifier` run here. Nothing else is needed.
  const environment: Record<string, string> = {};
  if (options.supportDir === undefined && ctx.env.XDG_DATA_HOME) environment.XDG_DATA_HOME = ctx.env.XDG_DATA_HOME;
  const text = systemdUnit({ execPath: ctx.execPath, mainScript: ctx.mainScript, options, environment });
  const previous = await readText(unitFile);
  await writeFileAtomically(unitFile, text);
  ctx.out(`Wrote ${unitFile}\n`);
  const entryFile = desktopEntryPath(ctx.env, ctx.home);
  await writeFileAtomically(entryFile, desktopEntry({ execPath: ctx.execPath, mainScript: ctx.mainScript, options }));
  ctx.out(`Wrote ${entryFile} (Notifier in the app menu)\n`);

  const steps: string[][] = [
    ['--user', 'daemon-reload'],
    ['--user', 'enable', '--now', SYSTEMD_UNIT_NAME],
  ];
  // A running service keeps its old command line through `enable --now`: restart it when the unit changed.
  if (previous !== null && previous !== text) steps.push(['--user', 'restart', SYSTEMD_UNIT_NAME]);
  for (const [index, args] of steps.entries()) {
    const result = await run(ctx, SYSTEMCTL, args);
    if (!result.ok) {
      ctx.err(
        `notifier service install: the unit is written but the service is not running: ${result.problem}\n` +
          `Run these in your desktop session (a systemd user session is needed):\n` +
          steps
            .slice(index)
            .map((step) => `  ${SYSTEMCTL} ${step.join(' ')}\n`)
            .join(''),
      );
      return 1;
    }
  }
  ctx.out(`Notifier runs as the systemd user service ${SYSTEMD_UNIT_NAME} and starts when you log in.\n`);
  return 0;
}

async function systemdUninstall(ctx: ServiceContext): Promise<number> {
  const unitFile = systemdUnitPath(ctx.env, ctx.home);
  const entryFile = desktopEntryPath(ctx.env, ctx.home);
  if (await exists(entryFile)) {
    await rm(entryFile, { force: true });
    ctx.out(`Removed ${entryFile}\n`);
  }
  if (!(await exists(unitFile))) {
    ctx.out(`Notifier is not installed as a service (there is no ${unitFile}).\n`);
    return 0;
  }
  // Fails when the unit is not loaded (nothing to stop): fine.
  const disable = await run(ctx, SYSTEMCTL, ['--user', 'disable', '--now', SYSTEMD_UNIT_NAME]);
  await rm(unitFile, { force: true });
  ctx.out(`Removed ${unitFile}\n`);
  const reload = await run(ctx, SYSTEMCTL, ['--user', 'daemon-reload']);
  if (!reload.ok) {
    const why = disable.ok ? reload.problem : disable.problem;
    ctx.err(
      `notifier service uninstall: ${why}\n` +
        `If Notifier still runs under systemd, run these in your desktop session:\n` +
        (disable.ok ? '' : `  ${SYSTEMCTL} --user stop ${SYSTEMD_UNIT_NAME}\n`) +
        `  ${SYSTEMCTL} --user daemon-reload\n`,
    );
  }
  return 0;
}

/** The one-word answer of `systemctl is-active` / `is-enabled`, or null when it could not answer. */
function systemctlWord(result: RunResult): string | null {
  const word = result.stdout.trim().split('\n')[0]?.trim() ?? '';
  return /^[a-z-]+$/.test(word) ? word : null;
}

async function systemdStatus(ctx: ServiceContext): Promise<ServiceStatus> {
  const unitFile = systemdUnitPath(ctx.env, ctx.home);
  const installed = await exists(unitFile);
  const [activeResult, enabledResult] = await Promise.all([
    run(ctx, SYSTEMCTL, ['--user', 'is-active', SYSTEMD_UNIT_NAME], 10_000),
    run(ctx, SYSTEMCTL, ['--user', 'is-enabled', SYSTEMD_UNIT_NAME], 10_000),
  ]);
  const activeWord = systemctlWord(activeResult);
  const active = activeWord === null ? 'unknown' : activeWord === 'active' || activeWord === 'reloading' ? 'active' : 'inactive';
  // is-enabled reads the unit files itself, so it can answer "no such file" even without a user session.
  const enabledWord = systemctlWord(enabledResult);
  const enabled =
    enabledWord ??
    (!enabledResult.missing && /No such file|not found|does not exist/i.test(enabledResult.stderr) ? 'not-found' : 'unknown');
  return { installed, unitFile, active, enabled };
}

// ---------------------------------------------------------------------------------------------------------------
// macOS: launchd agent.

const LAUNCHCTL = 'launchctl';

async function launchdInstall(ctx: ServiceContext, rawOptions: ServiceOptions): Promise<number> {
  const options = withOptions(rawOptions);
  const plistFile = launchdPlistPath(ctx.home);
  const supportDir = options.supportDir ?? macSupportDir(ctx.home);
  const logFile = path.join(supportDir, 'logs', 'daemon.log');
  const text = launchdPlist({ execPath: ctx.execPath, mainScript: ctx.mainScript, options, logFile });
  // launchd does not make the folder of StandardErrorPath; the support folder is private (0700).
  await mkdir(supportDir, { recursive: true, mode: 0o700 });
  await mkdir(path.dirname(logFile), { recursive: true, mode: 0o700 });
  await writeFileAtomically(plistFile, text);
  ctx.out(`Wrote ${plistFile}\nThe daemon's log: ${logFile}\n`);

  const domain = `gui/${ctx.uid}`;
  const target = `${domain}/${LAUNCHD_LABEL}`;
  // An agent already loaded (an earlier install) must be booted out before it can be bootstrapped again.
  await run(ctx, LAUNCHCTL, ['bootout', target]);
  const steps = [
    ['enable', target],
    ['bootstrap', domain, plistFile],
  ];
  for (const [index, args] of steps.entries()) {
    const result = await run(ctx, LAUNCHCTL, args);
    if (!result.ok) {
      ctx.err(
        `notifier service install: the agent is written but not loaded: ${result.problem}\n` +
          `Run these while logged in to the desktop:\n` +
          steps
            .slice(index)
            .map((step) => `  ${LAUNCHCTL} ${step.join(' ')}\n`)
            .join(''),
      );
      return 1;
    }
  }
  ctx.out(`Notifier runs as the launchd agent ${LAUNCHD_LABEL} and starts when you log in.\n`);
  return 0;
}

async function launchdUninstall(ctx: ServiceContext): Promise<number> {
  const plistFile = launchdPlistPath(ctx.home);
  if (!(await exists(plistFile))) {
    ctx.out(`Notifier is not installed as a service (there is no ${plistFile}).\n`);
    return 0;
  }
  const target = `gui/${ctx.uid}/${LAUNCHD_LABEL}`;
  const bootout = await run(ctx, LAUNCHCTL, ['bootout', target]);
  await rm(plistFile, { force: true });
  ctx.out(`Removed ${plistFile}\n`);
  // "No such process" / "Could not find service": it was not loaded, nothing to stop.
  if (!bootout.ok && (bootout.missing || !/No such process|Could not find|not find service/i.test(bootout.stderr + bootout.stdout))) {
    ctx.err(`notifier service uninstall: ${bootout.problem}\nIf Notifier still runs, run: ${LAUNCHCTL} bootout ${target}\n`);
  }
  return 0;
}

async function launchdStatus(ctx: ServiceContext): Promise<ServiceStatus> {
  const plistFile = launchdPlistPath(ctx.home);
  const installed = await exists(plistFile);
  const target = `gui/${ctx.uid}/${LAUNCHD_LABEL}`;
  const [printed, disabledList] = await Promise.all([
    run(ctx, LAUNCHCTL, ['print', target], 10_000),
    run(ctx, LAUNCHCTL, ['print-disabled', `gui/${ctx.uid}`], 10_000),
  ]);
  let active: ServiceStatus['active'] = 'unknown';
  if (printed.ok) active = /^\s*state = running\s*$/m.test(printed.stdout) ? 'active' : 'inactive';
  else if (!printed.missing && /Could not find service/i.test(printed.stderr + printed.stdout)) active = 'inactive';
  let enabled = 'unknown';
  if (disabledList.ok) {
    const escapedLabel = LAUNCHD_LABEL.replace(/\./g, '\\.');
    const disabled = new RegExp(`"${escapedLabel}"\\s*=>\\s*(disabled|true)`).test(disabledList.stdout);
    enabled = disabled ? 'disabled' : installed ? 'enabled' : 'not-found';
  }
  return { installed, unitFile: plistFile, active, enabled };
}

// ---------------------------------------------------------------------------------------------------------------
// Launch at login (the daemon's `launchAtLogin` setting). Asked by the running daemon itself, so nothing is started
// or stopped now: a second daemon would find the support folder locked, and stopping the service could stop the
// daemon that asks. The service is written and enabled for the next login; a change takes effect then.

/** systemd's own link for `WantedBy=default.target`, which `systemctl --user enable` makes. */
function systemdWantsLink(env: NodeJS.ProcessEnv, home: string): string {
  return path.join(path.dirname(systemdUnitPath(env, home)), 'default.target.wants', SYSTEMD_UNIT_NAME);
}

/** Is Notifier set to start at login (the unit or the agent is there)? */
export async function launchesAtLogin(ctx: ServiceContext): Promise<boolean> {
  if (ctx.platform === 'linux') return exists(systemdUnitPath(ctx.env, ctx.home));
  if (ctx.platform === 'darwin') return exists(launchdPlistPath(ctx.home));
  return false;
}

/**
 * Installs (or removes) the service so Notifier starts at the next login, without starting or stopping it now.
 * Linux: the unit and its `default.target.wants` link (what `enable` makes, so no user session is needed), then a
 * `daemon-reload` when one answers. macOS: the agent's property list, which launchd loads at login. Throws when
 * the files cannot be written or the platform has no service support.
 */
export async function setLaunchAtLogin(ctx: ServiceContext, enabled: boolean, rawOptions: ServiceOptions = {}): Promise<void> {
  const options = withOptions(rawOptions);
  if (ctx.platform === 'linux') {
    const unitFile = systemdUnitPath(ctx.env, ctx.home);
    const link = systemdWantsLink(ctx.env, ctx.home);
    if (enabled) {
      const environment: Record<string, string> = {};
      if (options.supportDir === undefined && ctx.env.XDG_DATA_HOME) environment.XDG_DATA_HOME = ctx.env.XDG_DATA_HOME;
      await writeFileAtomically(unitFile, systemdUnit({ execPath: ctx.execPath, mainScript: ctx.mainScript, options, environment }));
      await mkdir(path.dirname(link), { recursive: true });
      if (
        !(await lstat(link).then(
          () => true,
          () => false,
        ))
      )
        await symlink(unitFile, link);
    } else {
      await rm(link, { force: true });
      await rm(unitFile, { force: true });
    }
    // The manager reads the files again at login anyway; a running one learns of them now.
    await run(ctx, SYSTEMCTL, ['--user', 'daemon-reload'], 10_000);
    return;
  }
  if (ctx.platform === 'darwin') {
    const plistFile = launchdPlistPath(ctx.home);
    if (!enabled) {
      await rm(plistFile, { force: true });
      return;
    }
    const supportDir = options.supportDir ?? macSupportDir(ctx.home);
    const logFile = path.join(supportDir, 'logs', 'daemon.log');
    await mkdir(path.dirname(logFile), { recursive: true, mode: 0o700 });
    await writeFileAtomically(plistFile, launchdPlist({ execPath: ctx.execPath, mainScript: ctx.mainScript, options, logFile }));
    return;
  }
  throw new Error(`there is no service support on ${ctx.platform === 'win32' ? 'Windows' : ctx.platform} yet`);
}

// ---------------------------------------------------------------------------------------------------------------
// The command.

/** Runs one action; the exit code is the result. Throws nothing: errors are printed as one line. */
export async function runService(action: ServiceAction, options: ServiceOptions, ctx: ServiceContext): Promise<number> {
  try {
    if (ctx.platform === 'linux') {
      if (action === 'install') return await systemdInstall(ctx, options);
      if (action === 'uninstall') return await systemdUninstall(ctx);
      ctx.out(`${JSON.stringify(await systemdStatus(ctx), null, 2)}\n`);
      return 0;
    }
    if (ctx.platform === 'darwin') {
      if (action === 'install') return await launchdInstall(ctx, options);
      if (action === 'uninstall') return await launchdUninstall(ctx);
      ctx.out(`${JSON.stringify(await launchdStatus(ctx), null, 2)}\n`);
      return 0;
    }
    ctx.err(
      `notifier service ${action}: there is no service support on ${ctx.platform === 'win32' ? 'Windows' : ctx.platform} yet; ` +
        'run `notifier daemon` (for example from a login script) instead\n',
    );
    return 1;
  } catch (error) {
    ctx.err(`notifier service ${action}: ${(error as Error).message}\n`);
    return 1;
  }
}

export function defaultServiceContext(mainScript: string): ServiceContext {
  return {
    platform: process.platform,
    env: process.env,
    home: os.homedir(),
    uid: process.getuid?.() ?? 0,
    execPath: process.execPath,
    mainScript,
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
  };
}
