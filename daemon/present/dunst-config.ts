import { accessSync, constants, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

// dunst's settings that decide what the person can do and see, read the way dunst finds them: its menu program
// (dunst draws no buttons: the person presses them in the menu dunst opens with the program its `dmenu` setting
// names; docs/desktop.md#dunst-and-its-menu-program) and the largest picture it shows (`max_icon_size`).

/** dunst's own default for `dmenu` (its shipped dunstrc says the same). */
export const DUNST_DEFAULT_MENU = '/usr/bin/dmenu -p dunst:';
/** The Debian package that provides dmenu. */
export const DMENU_PACKAGE = 'suckless-tools';
/** dunst 1.9's built-in `max_icon_size` without a setting (its shipped dunstrc sets 128): pictures shrink to 32 pixels. */
export const DUNST_DEFAULT_MAX_ICON_SIZE = 32;

/** What dunst's process sees: its command line and the environment it was started with. */
export interface DunstProcess {
  argv: string[];
  env: NodeJS.ProcessEnv;
}

/** The menu program dunst is set to use, and where that setting comes from. */
export interface DunstMenu {
  /** The whole setting, e.g. `/usr/bin/dmenu -p dunst:`. */
  command: string;
  /** Its program (the first word). */
  program: string;
  /** The file that set it; null when dunst's default applies. */
  source: string | null;
  /** Whether the program can be run: an executable file at its path, or on dunst's PATH. */
  installed: boolean;
}

/** dunst's command line and environment, from /proc (Linux), or null when they cannot be read. */
export function dunstProcess(pid: number): DunstProcess | null {
  try {
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    const env = Object.fromEntries(
      readFileSync(`/proc/${pid}/environ`, 'utf8')
        .split('\0')
        .filter((entry) => entry.includes('='))
        .map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)]),
    );
    return { argv, env };
  } catch {
    return null;
  }
}

/**
 * The files dunst reads its settings from, in order (later ones win): the file given with `-conf`/`-config`
 * alone; else the first `dunst/dunstrc` in $XDG_CONFIG_HOME (default ~/.config), then each of $XDG_CONFIG_DIRS
 * (default /etc/xdg), followed by the drop-ins `dunstrc.d/*.conf` beside it, in name order.
 */
export function dunstConfigFiles({ argv, env }: DunstProcess): string[] {
  const flag = argv.findIndex((arg) => arg === '-conf' || arg === '-config' || arg === '--config');
  if (flag >= 0) {
    const file = argv[flag + 1];
    return file && file !== '-' ? [file] : [];
  }
  const home = env.XDG_CONFIG_HOME || (env.HOME ? path.join(env.HOME, '.config') : null);
  const dirs = [home, ...(env.XDG_CONFIG_DIRS || '/etc/xdg').split(':')].filter((dir): dir is string => Boolean(dir));
  for (const dir of dirs) {
    const main = path.join(dir, 'dunst', 'dunstrc');
    if (!readable(main)) continue;
    const dropIns = path.join(dir, 'dunst', 'dunstrc.d');
    let extra: string[] = [];
    try {
      extra = readdirSync(dropIns)
        .filter((name) => name.endsWith('.conf'))
        .sort()
        .map((name) => path.join(dropIns, name));
    } catch {
      // no drop-ins
    }
    return [main, ...extra];
  }
  return [];
}

/** The value of `key` in the [global] section of an ini text as dunst reads it (quotes removed); undefined if unset. */
export function globalSetting(text: string, key: string): string | undefined {
  let section = '';
  let value: string | undefined;
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[(.+)\]$/.exec(line);
    if (header) {
      section = header[1]!.trim();
      continue;
    }
    const equals = line.indexOf('=');
    if (section !== 'global' || equals < 0 || line.slice(0, equals).trim() !== key) continue;
    value = line.slice(equals + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1);
  }
  return value;
}

/** A [global] setting as dunst reads it (the last file that sets it wins), and that file; null when none sets it. */
export function dunstSetting(dunst: DunstProcess, key: string): { value: string; source: string } | null {
  let found: { value: string; source: string } | null = null;
  for (const file of dunstConfigFiles(dunst)) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    const value = globalSetting(text, key);
    if (value !== undefined) found = { value, source: file };
  }
  return found;
}

/** The menu program dunst will run, found as dunst finds it. */
export function dunstMenu(dunst: DunstProcess): DunstMenu {
  const set = dunstSetting(dunst, 'dmenu');
  const command = set?.value ?? DUNST_DEFAULT_MENU;
  const program = firstWord(command);
  return { command, program, source: set?.source ?? null, installed: program !== '' && canRun(program, dunst.env.PATH ?? '') };
}

/** The largest picture dunst shows, in pixels (`max_icon_size`); 0: no limit, pictures at their own size. */
export function dunstMaxIconSize(dunst: DunstProcess): number {
  const size = Number.parseInt(dunstSetting(dunst, 'max_icon_size')?.value ?? '', 10);
  return Number.isFinite(size) && size >= 0 ? size : DUNST_DEFAULT_MAX_ICON_SIZE;
}

/** The program of a command line as dunst splits it (shell words): the first word, its quotes removed. */
function firstWord(command: string): string {
  const match = /^\s*(?:"([^"]*)"|'([^']*)'|(\S+))/.exec(command);
  return match?.[1] ?? match?.[2] ?? match?.[3] ?? '';
}

/** dunst runs the program from its path, or looks it up on its PATH. */
function canRun(program: string, PATH: string): boolean {
  if (program.includes('/')) return executable(program);
  return PATH.split(':')
    .filter(Boolean)
    .some((folder) => executable(path.join(folder, program)));
}

/** Whether this process may read (or run) a file. */
function allowed(file: string, mode: number): boolean {
  try {
    accessSync(file, mode);
    return true;
  } catch {
    return false;
  }
}

const executable = (file: string): boolean => allowed(file, constants.X_OK);
const readable = (file: string): boolean => allowed(file, constants.R_OK);

/** What the person reads when the menu program is missing: what breaks, and how to mend it. */
export function missingMenuAdvice(menu: DunstMenu): { title: string; body: string; log: string } {
  const isDmenu = path.basename(menu.program) === 'dmenu';
  const install = isDmenu ? `install dmenu (sudo apt-get install ${DMENU_PACKAGE})` : `install ${menu.program}`;
  const where = menu.source ? `the dmenu setting in ${menu.source}` : 'the dmenu setting of your dunstrc';
  return {
    title: 'Buttons on banners cannot be pressed',
    body: `dunst shows buttons in a menu it opens with ${menu.program}, which is not installed. To press them, ${install}, or name another menu program in ${where}.`,
    log: `dunst's menu program ${menu.program} is not installed (${menu.source ? `dmenu = ${menu.command} in ${menu.source}` : `dunst's default: ${menu.command}`}): buttons, snooze and replies on banners cannot be pressed until you ${install}`,
  };
}
