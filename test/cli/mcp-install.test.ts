import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { execFile } from 'node:child_process';
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { type DaemonProcess, ROOT, startDaemon, tempFolder } from '../helpers/daemon.js';

// GET /v1/mcp and POST /v1/mcp/install against the built daemon, whose home folder is a temporary one: the
// agent clients' configuration files are real files there, and the configuration written is started for real.

const MCP_MAIN = path.join(ROOT, 'dist', 'cli', 'mcp', 'main.js');
const CLI_MAIN = path.join(ROOT, 'dist', 'cli', 'main.js');
const run = promisify(execFile);

describe('installing the agent server', () => {
  let home: string;
  let daemon: DaemonProcess;
  const file = (...parts: string[]) => path.join(home, ...parts);
  const install = (body: Record<string, unknown>) => daemon.api('POST', '/v1/mcp/install', { body });

  beforeAll(async () => {
    home = await tempFolder('notifier-home-');
    daemon = await startDaemon({
      env: {
        HOME: home,
        XDG_CONFIG_HOME: file('.config'),
        CODEX_HOME: '',
        PATH: `${file('.local', 'bin')}${path.delimiter}${process.env.PATH}`,
      },
    });
  });
  afterAll(async () => {
    await daemon?.stop();
    await rm(home, { recursive: true, force: true });
    if (daemon) await rm(daemon.supportDir, { recursive: true, force: true });
  });

  const launch = (agent: string) => ({
    command: process.execPath,
    args: [MCP_MAIN, '--support-dir', daemon.supportDir, '--agent', agent],
  });

  test('GET /v1/mcp reports the server, each client and the command-line tool', async () => {
    await mkdir(file('.codex'));
    const reply = await daemon.api('GET', '/v1/mcp');
    expect(reply.status).toBe(200);
    expect(reply.json.server).toEqual({
      found: true,
      path: MCP_MAIN,
      command: process.execPath,
      args: [MCP_MAIN, '--support-dir', daemon.supportDir],
    });
    expect(reply.json.clients).toEqual([
      { client: 'claudeCode', name: 'Claude Code', status: 'Client not found', configPath: file('.claude.json') },
      { client: 'codex', name: 'Codex', status: 'Not installed', configPath: file('.codex', 'config.toml') },
      {
        client: 'claudeDesktop',
        name: 'Claude Desktop',
        status: 'Client not found',
        configPath: file('.config', 'Claude', 'claude_desktop_config.json'),
      },
    ]);
    expect(reply.json.genericConfig).toEqual({
      mcpServers: { notifier: { command: process.execPath, args: [MCP_MAIN, '--support-dir', daemon.supportDir] } },
    });
    expect(reply.json.genericCommandLine).toContain(MCP_MAIN);
    expect(reply.json.cli).toEqual({ destination: file('.local', 'bin', 'notifier'), installed: false, onPath: true });
  });

  test('claudeCode: adds the server to ~/.claude.json, keeps the rest and a backup; the entry starts a working server', async () => {
    const before = `${JSON.stringify({ numStartups: 7, mcpServers: { other: { command: 'other-server' } } }, null, 2)}\n`;
    await writeFile(file('.claude.json'), before);
    const reply = await install({ client: 'claudeCode' });
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({
      ok: true,
      client: 'claudeCode',
      app: 'agent.claude-code',
      configPath: file('.claude.json'),
      backup: file('.claude.json.bak'),
      replaced: false,
    });
    const written = JSON.parse(await readFile(file('.claude.json'), 'utf8'));
    expect(written).toEqual({
      numStartups: 7,
      mcpServers: { other: { command: 'other-server' }, notifier: { type: 'stdio', ...launch('claude-code'), env: {} } },
    });
    expect(await readFile(file('.claude.json.bak'), 'utf8')).toBe(before);
    expect((await daemon.api('GET', '/v1/mcp')).json.clients[0]).toMatchObject({ client: 'claudeCode', status: 'Installed' });
    expect((await daemon.api('GET', '/v1/apps')).json.apps).toContainEqual(
      expect.objectContaining({ app: 'agent.claude-code', appName: 'Claude Code' }),
    );

    // What the client would start: the configured command, over stdio, reaching this daemon.
    const entry = written.mcpServers.notifier;
    const client = new Client({ name: 'claude-code-stand-in', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: entry.command, args: entry.args, stderr: 'pipe' }));
    try {
      const result = (await client.callTool({ name: 'herald_status', arguments: {} })) as { content: Array<{ text: string }> };
      expect(JSON.parse(result.content[0]!.text)).toMatchObject({
        running: true,
        authorized: true,
        agentApp: 'agent.claude-code',
        pid: daemon.child.pid,
      });
    } finally {
      await client.close();
    }
  });

  test('an existing entry is 409 without reinstall; reinstall replaces it and keeps a new backup', async () => {
    const conflict = await install({ client: 'claudeCode' });
    expect(conflict.status).toBe(409);
    expect(conflict.json.error).toMatch(/reinstall/);
    const current = await readFile(file('.claude.json'), 'utf8');
    const again = await install({ client: 'claudeCode', reinstall: true });
    expect(again.status).toBe(200);
    expect(again.json).toMatchObject({ replaced: true, backup: file('.claude.json.bak') });
    expect(await readFile(file('.claude.json.bak'), 'utf8')).toBe(current);
  });

  test('codex: adds [mcp_servers.notifier] to config.toml, keeping the other tables; reinstall leaves one entry', async () => {
    const before = 'model = "o3"\n\n[mcp_servers.other]\ncommand = "other-server"\n';
    await writeFile(file('.codex', 'config.toml'), before);
    const reply = await install({ client: 'codex' });
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({
      app: 'agent.codex',
      configPath: file('.codex', 'config.toml'),
      backup: file('.codex', 'config.toml.bak'),
    });
    const { command, args } = launch('codex');
    const entry = `[mcp_servers.notifier]\ncommand = ${JSON.stringify(command)}\nargs = [${args.map((arg) => JSON.stringify(arg)).join(', ')}]\n`;
    expect(await readFile(file('.codex', 'config.toml'), 'utf8')).toBe(`${before}\n${entry}`);
    expect(await readFile(file('.codex', 'config.toml.bak'), 'utf8')).toBe(before);

    expect((await install({ client: 'codex' })).status).toBe(409);
    expect((await install({ client: 'codex', reinstall: true })).status).toBe(200);
    const text = await readFile(file('.codex', 'config.toml'), 'utf8');
    expect(text.match(/\[mcp_servers\.notifier\]/g)).toHaveLength(1);
    expect(text).toContain('[mcp_servers.other]\ncommand = "other-server"');
  });

  test('claudeDesktop: creates its configuration file when there is none (no backup)', async () => {
    const reply = await install({ client: 'claudeDesktop' });
    expect(reply.status).toBe(200);
    const target = file('.config', 'Claude', 'claude_desktop_config.json');
    expect(reply.json).toMatchObject({ configPath: target, backup: null, replaced: false, app: 'agent.claude-desktop' });
    expect(JSON.parse(await readFile(target, 'utf8'))).toEqual({ mcpServers: { notifier: launch('claude-desktop') } });
    expect((await stat(target)).mode & 0o777).toBe(0o600);
  });

  test('a configuration that is not valid JSON is left alone (409)', async () => {
    const target = file('.config', 'Claude', 'claude_desktop_config.json');
    await writeFile(target, '{ broken');
    const reply = await install({ client: 'claudeDesktop', reinstall: true });
    expect(reply.status).toBe(409);
    expect(reply.json.error).toMatch(/not valid JSON/);
    expect(await readFile(target, 'utf8')).toBe('{ broken');
  });

  test('cli: puts a notifier launcher in ~/.local/bin that runs the command-line tool', async () => {
    const reply = await install({ client: 'cli' });
    expect(reply.status).toBe(200);
    const launcher = file('.local', 'bin', 'notifier');
    expect(reply.json).toEqual({ ok: true, client: 'cli', path: launcher, backup: null, replaced: false, onPath: true });
    expect((await stat(launcher)).mode & 0o111).not.toBe(0);
    expect(await readFile(launcher, 'utf8')).toContain(CLI_MAIN);
    const { stdout } = await run(launcher, ['--version']);
    expect(stdout.trim()).toBe((await daemon.api('GET', '/v1/health')).json.version);
    expect((await daemon.api('GET', '/v1/mcp')).json.cli).toMatchObject({ installed: true });
    expect((await install({ client: 'cli' })).status).toBe(409);
    const again = await install({ client: 'cli', reinstall: true });
    expect(again.json).toMatchObject({ replaced: true, backup: `${launcher}.bak` });
  });

  test('generic: needs a name; returns the configuration and command line and registers the agent with its icon', async () => {
    const nameless = await install({ client: 'generic' });
    expect(nameless.status).toBe(400);
    expect(nameless.json.error).toMatch(/^missing field: name/);
    const noIcon = await install({ client: 'generic', name: 'My Agent', icon: file('missing.png') });
    expect(noIcon.status).toBe(400);
    expect(noIcon.json.error).toBe(`icon file not found: ${file('missing.png')}`);

    const icon = path.join(ROOT, 'fixtures', 'images', 'sample.png');
    const reply = await install({ client: 'generic', name: 'My Agent', icon });
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({
      ok: true,
      client: 'generic',
      name: 'My Agent',
      app: 'agent.my-agent',
      config: { mcpServers: { notifier: launch('my-agent') } },
    });
    expect(reply.json.commandLine).toContain(`${MCP_MAIN} --support-dir`);
    expect(reply.json.commandLine).toContain('--agent my-agent');
    expect((await daemon.api('GET', '/v1/apps')).json.apps).toContainEqual(
      expect.objectContaining({ app: 'agent.my-agent', appName: 'My Agent', icon }),
    );
  });

  test('an unknown or missing client is 400 and lists the known ones', async () => {
    const unknown = await install({ client: 'vim' });
    expect(unknown.status).toBe(400);
    expect(unknown.json.error).toBe('unknown client: vim (known: claudeCode, codex, claudeDesktop, cli, generic)');
    const missing = await install({});
    expect(missing.status).toBe(400);
    expect(missing.json.error).toBe('missing field: client');
    expect((await install({ client: 'codex', reinstall: 'yes' })).status).toBe(400);
  });
});
