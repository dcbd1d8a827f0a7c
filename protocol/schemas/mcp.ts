// Installing the agent server (notifier-mcp) into agent clients.

import { MCP_CLIENTS } from '../types.js';
import { appId } from './common.js';
import { flag, list, object, oneOfText, text } from './json-schema.js';

const launch = object({ command: text(), args: list(text()) }, ['command', 'args']);

export const mcpStatusSchema = object(
  {
    server: object({ found: flag(), path: text(), command: text(), args: list(text()) }, ['found'], 'where notifier-mcp is'),
    clients: list(
      object({ client: text(), name: text(), status: oneOfText(['Installed', 'Not installed', 'Client not found']), configPath: text() }, [
        'client',
        'name',
        'status',
        'configPath',
      ]),
    ),
    genericCommandLine: { type: ['string', 'null'] },
    genericConfig: { type: ['object', 'null'], properties: { mcpServers: object({ notifier: launch }) } },
    cli: object({ destination: text(), installed: flag(), onPath: flag() }, ['destination', 'installed', 'onPath']),
  },
  ['server', 'clients', 'genericCommandLine', 'genericConfig', 'cli'],
);

export const mcpInstallSchema = object(
  {
    client: oneOfText(MCP_CLIENTS),
    reinstall: flag('replace an existing entry (else 409)'),
    name: text("the agent's name (generic: required)"),
    icon: text('a picture file for the agent app (generic)'),
  },
  ['client'],
);

export const mcpInstallReplySchema = object(
  {
    ok: { const: true },
    client: oneOfText(MCP_CLIENTS),
    name: text(),
    app: appId,
    configPath: text('the file written'),
    path: text('the launcher written (cli)'),
    backup: { type: ['string', 'null'], description: 'the copy of what the file held before' },
    replaced: flag(),
    onPath: flag(),
    config: { type: ['object', 'string'], description: 'what was (or is to be) written: JSON, or the TOML table for codex' },
    commandLine: text(),
    note: text(),
  },
  ['ok', 'client'],
);
