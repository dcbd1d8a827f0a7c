// `notifier health`, `symbols`, `voice` and `mcp`.

import { type Command, Argument } from 'commander';
import { UsageError, defined, localPathArgument, wholeNumber } from '../args.js';
import { act, routeCommand, send, showingGroup } from './common.js';

/** The agent clients `mcp install` knows (docs/api/mcp.md#m1). */
const MCP_CLIENTS = ['claudeCode', 'codex', 'claudeDesktop', 'cli', 'generic'];

export function registerMiscCommands(program: Command): void {
  act(program.command('health').description('check that the service is running (GET /v1/health, no token)'), (context) =>
    send(context, { method: 'GET', path: '/v1/health', auth: false }),
  );

  act(
    program
      .command('symbols')
      .description('search the symbol catalogue (GET /v1/symbols)')
      .argument('[words...]', 'search words (or --q)')
      .option('--q <text>', 'search text')
      .option('--category <name>', 'only this category')
      .option('--limit <n>', 'at most this many (up to 1000, default 100)', wholeNumber)
      .option('--offset <n>', 'skip this many', wholeNumber),
    async (context) => {
      const words = context.args[0] as string[];
      if (context.opts.q !== undefined && words.length > 0) throw new UsageError('give the search once: --q or words, not both');
      const q = context.opts.q ?? (words.length > 0 ? words.join(' ') : undefined);
      const { category, limit, offset } = context.opts;
      await send(context, { method: 'GET', path: '/v1/symbols', query: { q, category, limit, offset } });
    },
  );

  const voice = showingGroup(program, 'voice', '/v1/voice', {
    group: 'the speech engine and its voices',
    shown: ['status', 'the speech engine, its voices and install progress'],
  });
  for (const [word, action, what] of [
    ['install', 'install', 'download and set up the local neural voice'],
    ['cancel', 'cancel', 'stop an install in progress'],
    ['use-existing', 'useExisting', 'use a voice installation already on this computer'],
  ] as const) {
    routeCommand(voice, word, what, 'POST', '/v1/voice/install', { action });
  }

  const mcp = showingGroup(program, 'mcp', '/v1/mcp', {
    group: 'the agent server in agent clients',
    shown: ['status', 'which clients have the agent server installed'],
  });
  act(
    mcp
      .command('install')
      .description('install the agent server into a client (POST /v1/mcp/install)')
      .addArgument(new Argument('<client>', 'the agent client').choices(MCP_CLIENTS))
      .option('--name <name>', 'name of the agent (required for generic)')
      .option('--icon <file>', 'icon file of the agent')
      .option('--reinstall', 'replace an existing entry'),
    (context) => {
      const { name, icon, reinstall } = context.opts;
      return send(context, {
        method: 'POST',
        path: '/v1/mcp/install',
        body: defined({
          client: context.args[0] as string,
          name,
          icon: icon === undefined ? undefined : localPathArgument(icon),
          reinstall: reinstall ? true : undefined,
        }),
      });
    },
  );
}
