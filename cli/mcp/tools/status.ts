// The tools that say whether Notifier is there and how this agent server is installed (daemon/http/routes/health.ts
// and mcp.ts).

import { VERSION } from '../../../daemon/version.js';
import { ToolFailure } from '../call.js';
import { type Tool, annotate, call, flag, inputs, jsonResult, route, text } from './common.js';

export const notifierStatus: Tool = {
  name: 'herald_status',
  title: 'Notifier status',
  description:
    'Whether Notifier runs and this server can use it (GET /v1/health, then GET /v1/apps with the token): support folder, ' +
    'port, token file, version, pid, registered apps, and a hint when something is wrong. Never fails.',
  routes: ['GET /v1/health', 'GET /v1/apps'],
  inputSchema: inputs({}),
  annotations: annotate('Notifier status', 'read'),
  run: async (_args, context) => {
    const where = await context.notifier.whereabouts();
    const status: Record<string, unknown> = {
      server: 'notifier-mcp',
      serverVersion: VERSION,
      supportDirectory: where.supportDir,
      port: where.port,
      portFile: where.portKnown,
      tokenFile: where.tokenFile,
      tokenFound: where.token !== undefined,
      ...(context.agentApp ? { agentApp: context.agentApp } : {}),
      running: false,
    };
    try {
      const health = (await call(context, { method: 'GET', path: '/v1/health', withoutToken: true, timeoutMs: 5_000 })).json as Record<
        string,
        unknown
      >;
      Object.assign(status, { running: true, version: health.version, pid: health.pid });
      const { apps } = (await call(context, { method: 'GET', path: '/v1/apps' })).json as { apps: Array<{ app: string }> };
      Object.assign(status, { authorized: true, apps: apps.map((entry) => entry.app) });
    } catch (error) {
      if (!(error instanceof ToolFailure)) throw error;
      if (status.running) status.authorized = false;
      status.hint = error.message;
    }
    return jsonResult(status);
  },
};

export const installMcp = route('install_mcp', 'Install this agent server', 'POST /v1/mcp/install', {
  description:
    "Add this agent server to an agent client's configuration (a .bak copy of the file is kept), put the notifier command on " +
    'the PATH (cli), or get the configuration for another client (generic, needs name) (POST /v1/mcp/install).',
  inputSchema: inputs(
    {
      client: { type: 'string', enum: ['claudeCode', 'codex', 'claudeDesktop', 'cli', 'generic'], description: 'Where to install.' },
      reinstall: flag('Replace an existing entry. Default false (409 when one exists).'),
      name: text("generic: the agent's name (required)."),
      icon: text("generic: a picture file for the agent's banners."),
    },
    ['client'],
  ),
  kind: 'set',
});
