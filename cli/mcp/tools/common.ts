// What every agent tool is made of: the Tool shape, the input-schema helpers, the annotations, the results, and
// `route()` for a tool that is one route. The tools are in the files of their areas; index.ts lists them.

import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { Query } from '../../local-service.js';
import { type Answer, type Call, type Notifier, ToolFailure } from '../call.js';

export type Args = Record<string, unknown>;
export type Schema = Record<string, unknown>;

export interface Annotations {
  title: string;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** The SDK's shape of a tool result: content blocks, and `isError` for a failed call. */
export type ToolResult = CallToolResult;

export interface ToolContext {
  notifier: Notifier;
  /** The agent's app id (`--agent`): `app` may then be left out where the tool says so. */
  agentApp?: string;
  /** Aborted when the agent cancels the call. */
  signal?: AbortSignal;
}

export interface Tool {
  name: string;
  title: string;
  description: string;
  /** The routes the tool calls, as `METHOD /path` (for docs/mcp.md; test/cli/mcp-routes.test.ts checks the daemon has each). */
  routes: string[];
  inputSchema: Schema;
  annotations: Annotations;
  /** `app` defaults to the agent's app id when the server runs with `--agent`. */
  agentApp?: boolean;
  run(args: Args, context: ToolContext): Promise<ToolResult>;
}

// ---------------------------------------------------------------------------------------------------------------
// Schemas and annotations

export const text = (description: string): Schema => ({ type: 'string', description });
export const flag = (description: string): Schema => ({ type: 'boolean', description });
export const number = (description: string): Schema => ({ type: 'number', description });
export const whole = (description: string): Schema => ({ type: 'integer', description });
export const object = (description: string): Schema => ({ type: 'object', description });

export function inputs(properties: Record<string, Schema>, required: string[] = []): Schema {
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}) };
}

/** The arguments are the object the route stores (a manifest, a template, settings): keys beyond those listed pass on. */
export const objectInputs = (properties: Record<string, Schema>, required: string[] = []): Schema => ({
  ...inputs(properties, required),
  additionalProperties: true,
});

export const APP = text('The app id (as sent with notifications).');
export const ID = text('The notification id.');
/** `app` where it only narrows a list: left out, every app's. */
export const APP_FILTER = text('Only this app.');

type Kind = 'read' | 'add' | 'set' | 'replace';
/**
 * `read`: looks only. `add`: creates or sends something new. `set`: changes a value, the same call again changes
 * nothing more. `replace`: overwrites or deletes something that cannot be brought back by the API.
 */
export function annotate(title: string, kind: Kind, openWorld = false): Annotations {
  return {
    title,
    readOnlyHint: kind === 'read',
    destructiveHint: kind === 'replace',
    idempotentHint: kind !== 'add',
    openWorldHint: openWorld,
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Results

export const jsonResult = (value: unknown): ToolResult => ({ content: [{ type: 'text', text: JSON.stringify(value) }] });
export const errorResult = (message: string): ToolResult => ({ isError: true, content: [{ type: 'text', text: message }] });

// ---------------------------------------------------------------------------------------------------------------
// Building the request

export function need(args: Args, key: string): string {
  const value = args[key];
  if (value === undefined || value === null || value === '') throw new ToolFailure(`missing field: ${key}`);
  if (typeof value !== 'string') throw new ToolFailure(`invalid field: ${key} (must be a string)`);
  return value;
}

/** The scalar arguments as a query string's values (objects have no query form; the route would refuse them). */
export function asQuery(args: Args): Query {
  const query: Query = {};
  for (const [key, value] of Object.entries(args)) {
    if (value === undefined || value === null) continue;
    query[key] = typeof value === 'object' ? JSON.stringify(value) : (value as string | number | boolean);
  }
  return query;
}

export const call = (context: ToolContext, request: Call): Promise<Answer> => context.notifier.call({ ...request, signal: context.signal });

/** A route as `Tool.routes` and docs/mcp.md spell it: `METHOD /path`, `{id}` standing for a path parameter. */
export type Route = `${Call['method']} /${string}`;

interface RouteTool {
  description: string;
  /** Default: the tool takes no arguments. */
  inputSchema?: Schema;
  kind: Kind;
  openWorld?: boolean;
  agentApp?: boolean;
  /** The argument that fills the path's `{id}`: default `id`. A tool whose route has one sends it alone. */
  pathId?: string;
}

/**
 * A tool that is one route, written `route(name, title, 'METHOD /path', {...})`: the arguments are the route's
 * query (GET, DELETE) or body (the rest), the route's JSON the result.
 */
export function route(name: string, title: string, routeText: Route, spec: RouteTool): Tool {
  const [method, path] = routeText.split(' ') as [Call['method'], string];
  const send = method === 'GET' || method === 'DELETE' ? 'query' : 'body';
  return {
    name,
    title,
    description: spec.description,
    routes: [routeText],
    inputSchema: spec.inputSchema ?? inputs({}),
    annotations: annotate(title, spec.kind, spec.openWorld),
    ...(spec.agentApp ? { agentApp: true } : {}),
    run: async (args, context) => {
      const request: Call = path.includes('{id}')
        ? { method, path: path.replace('{id}', encodeURIComponent(need(args, spec.pathId ?? 'id'))) }
        : { method, path, ...(send === 'query' ? { query: asQuery(args) } : { body: args }) };
      return jsonResult((await call(context, request)).json);
    },
  };
}
