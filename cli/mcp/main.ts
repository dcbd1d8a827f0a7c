#!/usr/bin/env node
// `notifier-mcp`: Notifier's agent server. An MCP client (Claude Code, Codex, Claude Desktop, ...) starts it and
// speaks JSON-RPC over stdin/stdout; every tool call becomes one request to the running daemon's HTTP API.
// stdout belongs to the protocol: everything this program says for people goes to stderr.

import { Command, InvalidArgumentError, Option } from 'commander';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { VERSION } from '../../daemon/version.js';
import { Notifier, ToolFailure } from './call.js';
import { forgivingArguments, schemaFor } from './tools/arguments.js';
import { type Args, type ToolResult, errorResult } from './tools/common.js';
import { TOOLS, TOOLS_BY_NAME } from './tools/index.js';

/** docs/api/mcp.md#m3, docs/mcp.md: an agent is a slug, or `agent.<slug>`; its app id is always `agent.<slug>`. */
const AGENT_SLUG = /^[a-z0-9-]{1,48}$/;

function agentApp(given: string): string {
  const slug = given.startsWith('agent.') ? given.slice('agent.'.length) : given;
  if (!AGENT_SLUG.test(slug)) throw new InvalidArgumentError('1 to 48 lowercase letters, digits or -, optionally after "agent."');
  return `agent.${slug}`;
}

function port(text: string): number {
  if (!/^\d{1,5}$/.test(text) || Number(text) < 1 || Number(text) > 65535) throw new InvalidArgumentError('a port number from 1 to 65535');
  return Number(text);
}

const say = (message: string): boolean => process.stderr.write(`notifier-mcp: ${message}\n`);

const INSTRUCTIONS =
  'Notifier shows desktop notifications for you and hands back what the person answers. send_notification shows a ' +
  'banner; give it a reply button (buttons: [{label: "Reply", reply: {}}]) and call wait_for_reply to get a typed answer. ' +
  'herald_status tells whether Notifier runs. No tool can press a button, reply, or grant an approval: the person does that.';

interface Options {
  supportDir?: string;
  port?: number;
  token?: string;
  agent?: string;
  debug?: boolean;
}

async function serve(options: Options): Promise<void> {
  const notifier = new Notifier({
    ...(options.supportDir ? { supportDir: options.supportDir } : {}),
    ...(options.port !== undefined ? { port: options.port } : {}),
    ...(options.token ? { token: options.token } : {}),
  });
  const agent = options.agent;
  const server = new Server(
    { name: 'notifier', title: 'Notifier', version: VERSION },
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS },
  );

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: TOOLS.map((tool) => ({
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: schemaFor(tool, agent) as { type: 'object'; [key: string]: unknown },
      annotations: tool.annotations,
    })),
  }));

  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const tool = TOOLS_BY_NAME.get(request.params.name);
    // Only a tool that does not exist is a protocol error; everything that goes wrong in a call is its result.
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `unknown tool: ${request.params.name}`);
    let args: Args = forgivingArguments(request.params.arguments ?? {}, tool.inputSchema);
    if (agent && tool.agentApp && (args.app === undefined || args.app === null || args.app === '')) args = { ...args, app: agent };
    if (options.debug) say(`call ${tool.name} ${JSON.stringify(args).slice(0, 500)}`);
    let result: ToolResult;
    try {
      result = await tool.run(args, { notifier, ...(agent ? { agentApp: agent } : {}), signal: extra.signal });
    } catch (error) {
      if (!(error instanceof ToolFailure)) say(`${tool.name} failed: ${(error as Error)?.stack ?? String(error)}`);
      result = errorResult(
        error instanceof ToolFailure ? error.message : `notifier-mcp failed: ${(error as Error)?.message ?? String(error)}`,
      );
    }
    if (options.debug && result.isError) say(`${tool.name}: ${result.content[0]?.type === 'text' ? result.content[0].text : 'error'}`);
    return result;
  });

  await server.connect(new StdioServerTransport());
  say(`ready (support folder ${notifier.supportDir}${agent ? `, agent ${agent}` : ''})`);
}

const program = new Command()
  .name('notifier-mcp')
  .description("Notifier's agent server (MCP over stdio). Agent clients start it; it calls the running Notifier.")
  .version(VERSION, '--version')
  .addOption(new Option('--support-dir <folder>', "Notifier's support folder (its port and token files)").env('NOTIFIER_SUPPORT_DIR'))
  .addOption(new Option('--port <port>', 'port to call (default: the port file, else 48617)').argParser(port))
  .addOption(new Option('--token <token>', 'bearer token (default: the token file)').env('NOTIFIER_TOKEN'))
  .addOption(
    new Option('--agent <name>', 'the agent this server runs for: app defaults to agent.<name>').env('NOTIFIER_AGENT').argParser(agentApp),
  )
  .addOption(new Option('--debug', 'log every call on stderr').env('NOTIFIER_MCP_DEBUG'))
  .action((options: Options) =>
    serve(options).catch((error: Error) => {
      say(`could not start: ${error.message}`);
      process.exit(1);
    }),
  );

await program.parseAsync(process.argv);
