// How the server reads a call's arguments and shows a tool's input schema to the agent.

import type { Args, Schema, Tool } from './common.js';

function typesOf(schema: unknown): string[] {
  const type = (schema as { type?: unknown } | undefined)?.type;
  return Array.isArray(type) ? (type as string[]) : typeof type === 'string' ? [type] : [];
}

/**
 * Agents often send numbers and booleans as strings, and objects as JSON text (docs/mcp.md#results-and-errors:
 * arguments are read leniently). A top-level string is read as the type its property wants when it plainly is
 * one; anything else is passed on as sent, for the route to judge.
 */
export function forgivingArguments(args: Args, schema: Schema): Args {
  const properties = (schema.properties ?? {}) as Record<string, unknown>;
  const read: Args = {};
  for (const [key, value] of Object.entries(args)) {
    const types = typesOf(properties[key]);
    read[key] = typeof value === 'string' && types.length > 0 && !types.includes('string') ? readAs(value, types) : value;
  }
  return read;
}

function readAs(value: string, types: string[]): unknown {
  const trimmed = value.trim();
  if ((types.includes('number') || types.includes('integer')) && /^-?\d+(\.\d+)?$/.test(trimmed)) return Number(trimmed);
  if (types.includes('boolean') && /^(true|false)$/i.test(trimmed)) return trimmed.toLowerCase() === 'true';
  if (types.includes('object') || types.includes('array')) {
    try {
      const parsed: unknown = JSON.parse(trimmed);
      if (types.includes(Array.isArray(parsed) ? 'array' : typeof parsed)) return parsed;
    } catch {
      // not JSON: passed on as sent
    }
  }
  return value;
}

/** The input schema an agent sees: with `--agent`, `app` is no longer required where it defaults to the agent. */
export function schemaFor(tool: Tool, agentApp: string | undefined): Schema {
  const required = tool.inputSchema.required as readonly string[] | undefined;
  if (!agentApp || !tool.agentApp || !required?.includes('app')) return tool.inputSchema;
  const rest = required.filter((key) => key !== 'app');
  const { required: _required, ...schema } = tool.inputSchema;
  return rest.length > 0 ? { ...schema, required: rest } : schema;
}
