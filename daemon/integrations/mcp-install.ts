// GET /v1/mcp and POST /v1/mcp/install (docs/api/mcp.md): which agent clients run Notifier's agent server
// (`notifier-mcp`), and adding it to their configuration. Every file edited keeps a `.bak` copy of what it held.
//
// Where the programs are: the daemon walks up from the program it runs as (process.argv[1], links resolved) to the
// first package.json that declares the `notifier-mcp` bin, and takes both bins from there. That is the package
// folder for the built daemon (dist/cli/main.js), for an npm install (its own folder) and for the tests' in-process
// daemon (jest runs from the project's node_modules) alike, and needs no `import.meta` in this module.

import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { chmod, copyFile, lstat, readFile, realpath, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { errors } from '../../protocol/errors.js';
import { expandHome } from '../paths.js';
import { writeFileDurably } from '../store/durable-file.js';
import type { AppRegistration } from '../../protocol/types.js';

export { MCP_CLIENTS } from '../../protocol/types.js';
import { MCP_CLIENTS } from '../../protocol/types.js';
export type McpClient = (typeof MCP_CLIENTS)[number];
type ConfigClient = 'claudeCode' | 'codex' | 'claudeDesktop';

const CONFIG_CLIENTS: ConfigClient[] = ['claudeCode', 'codex', 'claudeDesktop'];
const CLIENT_NAMES: Record<ConfigClient, string> = { claudeCode: 'Claude Code', codex: 'Codex', claudeDesktop: 'Claude Desktop' };
/** docs/api/mcp.md#m3: the agent app ids are `agent.claude-code`, `agent.codex`, `agent.claude-desktop`, `agent.<slug>`. */
const AGENT_SLUGS: Record<ConfigClient, string> = { claudeCode: 'claude-code', codex: 'codex', claudeDesktop: 'claude-desktop' };
/** The key of the server in every client's configuration. */
const SERVER_KEY = 'notifier';
/** docs/api/mcp.md#m3: an agent slug is at most 48 of `[a-z0-9-]`. */
const SLUG_MAX = 48;
/** New configuration files: they may hold other servers' secrets, so only their owner reads them. */
const NEW_CONFIG_MODE = 0o600;
const LAUNCHER_MODE = 0o755;

export interface InstallRequest {
  client: McpClient;
  reinstall: boolean;
  name?: string;
  icon?: string;
}

interface Programs {
  node: string;
  mcpMain: string;
  cliMain: string;
}

interface Launch {
  command: string;
  args: string[];
}

// ---------------------------------------------------------------------------------------------------------------
// Where things are

function readJSONFile(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/** The package folder above `start` whose package.json declares the `notifier-mcp` bin. */
function packageAbove(start: string): { root: string; bin: Record<string, string> } | null {
  let folder = start;
  for (;;) {
    const manifest = readJSONFile(path.join(folder, 'package.json')) as { bin?: Record<string, string> } | undefined;
    if (typeof manifest?.bin?.['notifier-mcp'] === 'string') return { root: folder, bin: manifest.bin };
    const parent = path.dirname(folder);
    if (parent === folder) return null;
    folder = parent;
  }
}

function findPrograms(): Programs | null {
  const running = process.argv[1] ? path.dirname(realpathOr(process.argv[1])) : undefined;
  const found = (running ? packageAbove(running) : null) ?? packageAbove(process.cwd());
  if (!found?.bin.notifier) return null;
  return {
    node: process.execPath,
    mcpMain: path.join(found.root, found.bin['notifier-mcp']!),
    cliMain: path.join(found.root, found.bin.notifier),
  };
}

function realpathOr(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return path.resolve(file);
  }
}

/** The files each client reads (Linux and macOS paths as the clients document them). */
function configFile(client: ConfigClient): string {
  const home = os.homedir();
  if (client === 'claudeCode') return path.join(home, '.claude.json');
  if (client === 'codex') return path.join(process.env.CODEX_HOME || path.join(home, '.codex'), 'config.toml');
  const folder =
    process.platform === 'darwin'
      ? path.join(home, 'Library', 'Application Support', 'Claude')
      : process.platform === 'win32'
        ? path.join(process.env.APPDATA ?? path.join(home, 'AppData', 'Roaming'), 'Claude')
        : path.join(process.env.XDG_CONFIG_HOME || path.join(home, '.config'), 'Claude');
  return path.join(folder, 'claude_desktop_config.json');
}

/** Whether the client seems to be on this computer: its configuration file or folder exists. */
function clientFound(client: ConfigClient): boolean {
  const file = configFile(client);
  if (client === 'claudeCode') return existsSync(file) || existsSync(path.join(os.homedir(), '.claude'));
  return existsSync(path.dirname(file));
}

const LAUNCHER_FOLDER = (): string => path.join(os.homedir(), '.local', 'bin');

function onPath(folder: string): boolean {
  return (process.env.PATH ?? '')
    .split(path.delimiter)
    .filter(Boolean)
    .some((entry) => path.resolve(expandHome(entry)) === folder);
}

// ---------------------------------------------------------------------------------------------------------------
// Reading and writing the configurations

const tomlString = (value: string): string => JSON.stringify(value); // JSON's escapes are TOML basic-string escapes

/** A table header of this server: `[mcp_servers.notifier]` or one of its sub-tables (`[mcp_servers.notifier.env]`). */
const OUR_TOML_HEADER = /^\s*\[\s*mcp_servers\s*\.\s*(?:notifier|"notifier"|'notifier')\s*(?:\.[^\]]*)?\]\s*(?:#.*)?$/;
const ANY_TOML_HEADER = /^\s*\[\[?[^\]]+\]\]?\s*(?:#.*)?$/;

function tomlWithoutServer(text: string): string {
  let skipping = false;
  const kept: string[] = [];
  for (const line of text.split('\n')) {
    if (OUR_TOML_HEADER.test(line)) skipping = true;
    else if (ANY_TOML_HEADER.test(line)) skipping = false;
    if (!skipping) kept.push(line);
  }
  return kept.join('\n');
}

function tomlEntry(launch: Launch): string {
  return `[mcp_servers.${SERVER_KEY}]\ncommand = ${tomlString(launch.command)}\nargs = [${launch.args.map(tomlString).join(', ')}]\n`;
}

/** A JSON configuration as an object; a file that is not one is the person's to fix, and nothing is written. */
function parseJSONConfig(text: string, file: string): Record<string, unknown> {
  if (text.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw errors.configNotJson(file, (error as Error).message);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw errors.configNotObject(file);
  }
  return parsed as Record<string, unknown>;
}

function jsonServers(config: Record<string, unknown>): Record<string, unknown> {
  const servers = config.mcpServers;
  return typeof servers === 'object' && servers !== null && !Array.isArray(servers) ? (servers as Record<string, unknown>) : {};
}

async function readText(file: string): Promise<string | null> {
  return readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  });
}

/** Whether the client's configuration names this server now. */
async function hasEntry(client: ConfigClient): Promise<boolean> {
  const file = configFile(client);
  const text = await readText(file).catch(() => null);
  if (text === null) return false;
  if (client === 'codex') return text.split('\n').some((line) => OUR_TOML_HEADER.test(line));
  try {
    return SERVER_KEY in jsonServers(parseJSONConfig(text, file));
  } catch {
    return false;
  }
}

/**
 * Writes a whole file atomically, keeping a `.bak` copy of what it held, and keeps its mode. A linked
 * configuration (dotfiles kept elsewhere) is written where the link points; a linked launcher is replaced itself,
 * never the program it points to. Returns the backup's path (null for a new file).
 */
async function writeWithBackup(file: string, content: string, newMode: number, followLink = true): Promise<string | null> {
  const target = followLink ? await realpath(file).catch(() => file) : file;
  const before = await stat(target).catch(() => null);
  const backup = before ? `${target}.bak` : null;
  if (backup) await copyFile(target, backup);
  await writeFileDurably(target, content);
  await chmod(target, before && followLink ? before.mode & 0o777 : newMode);
  return backup;
}

const SHELL_SAFE = /^[\w@%+=:,./-]+$/;
const shellQuote = (word: string): string => (SHELL_SAFE.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);

// ---------------------------------------------------------------------------------------------------------------
// The installer

/** docs/api/mcp.md#m3: the agent's slug from its name (`My Agent` -> `my-agent`). */
function slugOf(name: string): string {
  return name
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, SLUG_MAX)
    .replace(/-+$/, '');
}

/** The body of POST /v1/mcp/install with its types checked. */
export function readInstallRequest(body: Record<string, unknown>): InstallRequest {
  const client = body.client;
  if (client === undefined || client === null || client === '') throw errors.missingField('client');
  if (typeof client !== 'string' || !(MCP_CLIENTS as readonly string[]).includes(client)) {
    throw errors.unknownClient(String(client), MCP_CLIENTS);
  }
  if (body.reinstall !== undefined && body.reinstall !== null && typeof body.reinstall !== 'boolean')
    throw errors.invalidField('reinstall', 'true or false');
  const request: InstallRequest = { client: client as McpClient, reinstall: body.reinstall === true };
  for (const key of ['name', 'icon'] as const) {
    const value = body[key];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'string') throw errors.invalidField(key, 'must be a string');
    if (value !== '') request[key] = value;
  }
  return request;
}

export class McpInstaller {
  constructor(
    private readonly supportDir: string,
    /** Registers the agent as an app, so its banners and History carry its name (and icon). */
    private readonly register: (registration: AppRegistration) => Promise<void>,
  ) {}

  private programs(): Programs {
    const programs = findPrograms();
    if (!programs) throw errors.agentServerMissing();
    return programs;
  }

  private launch(programs: Programs, slug?: string): Launch {
    return { command: programs.node, args: [programs.mcpMain, '--support-dir', this.supportDir, ...(slug ? ['--agent', slug] : [])] };
  }

  /** GET /v1/mcp */
  async status() {
    const programs = findPrograms();
    const launch = programs ? this.launch(programs) : null;
    const clients = await Promise.all(
      CONFIG_CLIENTS.map(async (client) => ({
        client,
        name: CLIENT_NAMES[client],
        status: (await hasEntry(client)) ? 'Installed' : clientFound(client) ? 'Not installed' : 'Client not found',
        configPath: configFile(client),
      })),
    );
    const launcher = path.join(LAUNCHER_FOLDER(), 'notifier');
    return {
      server: {
        found: programs !== null && existsSync(programs.mcpMain),
        ...(programs ? { path: programs.mcpMain } : {}),
        ...(launch ? launch : {}),
      },
      clients,
      genericCommandLine: launch ? [launch.command, ...launch.args].map(shellQuote).join(' ') : null,
      genericConfig: launch ? { mcpServers: { [SERVER_KEY]: launch } } : null,
      cli: { destination: launcher, installed: existsSync(launcher), onPath: onPath(LAUNCHER_FOLDER()) },
    };
  }

  /** POST /v1/mcp/install */
  async install(request: InstallRequest) {
    if (request.client === 'cli') return this.installLauncher(request.reinstall);
    if (request.client === 'generic') return this.generic(request);
    return this.installInClient(request.client, request.reinstall);
  }

  private async installInClient(client: ConfigClient, reinstall: boolean) {
    const programs = this.programs();
    const file = configFile(client);
    const text = (await readText(file)) ?? '';
    const slug = AGENT_SLUGS[client];
    const launch = this.launch(programs, slug);
    let content: string;
    let config: unknown;
    let exists: boolean;
    if (client === 'codex') {
      exists = text.split('\n').some((line) => OUR_TOML_HEADER.test(line));
      const rest = tomlWithoutServer(text).replace(/\s*$/, '');
      config = tomlEntry(launch);
      content = `${rest}${rest ? '\n\n' : ''}${config as string}`;
    } else {
      const parsed = parseJSONConfig(text, file);
      const servers = jsonServers(parsed);
      exists = SERVER_KEY in servers;
      // Claude Code's entries name their transport; Claude Desktop's are command and args alone.
      const entry = client === 'claudeCode' ? { type: 'stdio', ...launch, env: {} } : launch;
      config = { mcpServers: { [SERVER_KEY]: entry } };
      content = `${JSON.stringify({ ...parsed, mcpServers: { ...servers, [SERVER_KEY]: entry } }, null, 2)}\n`;
    }
    if (exists && !reinstall) {
      throw errors.serverInstalled(CLIENT_NAMES[client], SERVER_KEY, file);
    }
    const app = `agent.${slug}`;
    await this.register({ app, appName: CLIENT_NAMES[client] });
    const backup = await writeWithBackup(file, content, NEW_CONFIG_MODE);
    return {
      ok: true,
      client,
      name: CLIENT_NAMES[client],
      app,
      configPath: file,
      backup,
      replaced: exists,
      config,
      commandLine: [launch.command, ...launch.args].map(shellQuote).join(' '),
      note: `Restart ${CLIENT_NAMES[client]} to load the ${SERVER_KEY} server.`,
    };
  }

  /** `generic`: nothing is written; the reply is what to put in the client's configuration. */
  private async generic(request: InstallRequest) {
    if (!request.name) throw errors.missingField('name', "the generic client needs the agent's name");
    const slug = slugOf(request.name);
    if (!slug) throw errors.invalidField('name', 'needs at least one letter or digit');
    let icon: string | undefined;
    if (request.icon) {
      icon = path.resolve(expandHome(request.icon));
      const info = await stat(icon).catch(() => null);
      if (!info?.isFile()) throw errors.iconNotFound(request.icon);
    }
    const launch = this.launch(this.programs(), slug);
    const app = `agent.${slug}`;
    await this.register({ app, appName: request.name, ...(icon ? { icon } : {}) });
    return {
      ok: true,
      client: 'generic',
      name: request.name,
      app,
      config: { mcpServers: { [SERVER_KEY]: launch } },
      commandLine: [launch.command, ...launch.args].map(shellQuote).join(' '),
      note: 'Add this server to the agent client\'s configuration (most clients read an "mcpServers" object like this one).',
    };
  }

  /** `cli`: a `notifier` launcher in ~/.local/bin that runs this package's command-line tool. */
  private async installLauncher(reinstall: boolean) {
    const programs = this.programs();
    const folder = LAUNCHER_FOLDER();
    const destination = path.join(folder, 'notifier');
    const exists = await lstat(destination).then(
      () => true,
      () => false,
    ); // a dangling link counts too
    if (exists && !reinstall) throw errors.launcherExists(destination);
    // The launcher points the tool at this daemon's support folder unless the caller's environment names another.
    const script =
      '#!/bin/sh\n' +
      '# Written by Notifier (POST /v1/mcp/install, client cli): runs the notifier command-line tool.\n' +
      `: "\${NOTIFIER_SUPPORT_DIR:=${this.supportDir.replace(/(["\\$`])/g, '\\$1')}}"\n` +
      'export NOTIFIER_SUPPORT_DIR\n' +
      `exec ${shellQuote(programs.node)} ${shellQuote(programs.cliMain)} "$@"\n`;
    const backup = await writeWithBackup(destination, script, LAUNCHER_MODE, false);
    const visible = onPath(folder);
    return {
      ok: true,
      client: 'cli',
      path: destination,
      backup,
      replaced: exists,
      onPath: visible,
      ...(visible
        ? {}
        : {
            note: `${folder} is not on the PATH; add it (for example export PATH="${folder}:$PATH" in ~/.profile) to run notifier by name.`,
          }),
    };
  }
}
