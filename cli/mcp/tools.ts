// The agent tools of `notifier-mcp` (spec 2, "Agent tools"; reference §1.21). Each tool wraps one HTTP route (a
// few pick between two routes of the same thing, such as snooze and unsnooze); its input schema is the route's,
// its result the route's JSON. No tool presses a button, types a reply or grants an approval: only the person
// at the computer can, and the daemon has no route for it either.

import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { registerSchema } from '../../daemon/http/schemas/register.js';
import { notificationSchema } from '../../daemon/http/schemas/notification.js';
import { VERSION } from '../../daemon/version.js';
import type { Query } from '../local-service.js';
import { type Answer, type Call, type Notifier, ToolFailure } from './call.js';

export type Args = Record<string, unknown>;
type Schema = Record<string, unknown>;

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
  /** The routes the tool calls, as `METHOD /path` (for docs/mcp.md and the tests). */
  routes: string[];
  inputSchema: Schema;
  annotations: Annotations;
  /** `app` defaults to the agent's app id when the server runs with `--agent`. */
  agentApp?: boolean;
  run(args: Args, context: ToolContext): Promise<ToolResult>;
}

// ---------------------------------------------------------------------------------------------------------------
// Schemas and annotations

const text = (description: string): Schema => ({ type: 'string', description });
const flag = (description: string): Schema => ({ type: 'boolean', description });
const number = (description: string): Schema => ({ type: 'number', description });
const whole = (description: string): Schema => ({ type: 'integer', description });
const object = (description: string): Schema => ({ type: 'object', description });

function inputs(properties: Record<string, Schema>, required: string[] = [], open = false): Schema {
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}), ...(open ? { additionalProperties: true } : {}) };
}

const APP = text('The app id (as sent with notifications).');
const ID = text('The notification id.');

type Kind = 'read' | 'add' | 'set' | 'replace';
/**
 * `read`: looks only. `add`: creates or sends something new. `set`: changes a value, the same call again changes
 * nothing more. `replace`: overwrites or deletes something that cannot be brought back by the API.
 */
function annotate(title: string, kind: Kind, openWorld = false): Annotations {
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

/** Width and height from a PNG's header (IHDR comes first in every PNG). */
function pngSize(bytes: Buffer): { width: number; height: number } | undefined {
  if (bytes.length < 24 || bytes.readUInt32BE(0) !== 0x89504e47) return undefined;
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

function pictureResult(answer: Answer, what: Record<string, unknown>): ToolResult {
  const size = pngSize(answer.bytes);
  return {
    content: [
      { type: 'image', data: answer.bytes.toString('base64'), mimeType: 'image/png' },
      { type: 'text', text: JSON.stringify({ ok: true, ...what, mimeType: 'image/png', bytes: answer.bytes.length, ...size }) },
    ],
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Building the request

function need(args: Args, key: string): string {
  const value = args[key];
  if (value === undefined || value === null || value === '') throw new ToolFailure(`missing field: ${key}`);
  if (typeof value !== 'string') throw new ToolFailure(`invalid field: ${key} (must be a string)`);
  return value;
}

/** The scalar arguments as a query string's values (objects have no query form; the route would refuse them). */
function asQuery(args: Args): Query {
  const query: Query = {};
  for (const [key, value] of Object.entries(args)) {
    if (value === undefined || value === null) continue;
    query[key] = typeof value === 'object' ? JSON.stringify(value) : (value as string | number | boolean);
  }
  return query;
}

const call = (context: ToolContext, request: Call): Promise<Answer> => context.notifier.call({ ...request, signal: context.signal });

interface RouteTool {
  name: string;
  title: string;
  description: string;
  method: Call['method'];
  path: string;
  inputSchema: Schema;
  kind: Kind;
  openWorld?: boolean;
  agentApp?: boolean;
  /** Where the arguments go: the query string (GET, DELETE) or the JSON body (the rest). */
  send?: 'query' | 'body';
}

/** A tool that is one route: the arguments are its query or body, the route's JSON its result. */
function route(spec: RouteTool): Tool {
  const send = spec.send ?? (spec.method === 'GET' || spec.method === 'DELETE' ? 'query' : 'body');
  return {
    name: spec.name,
    title: spec.title,
    description: spec.description,
    routes: [`${spec.method} ${spec.path}`],
    inputSchema: spec.inputSchema,
    annotations: annotate(spec.title, spec.kind, spec.openWorld),
    ...(spec.agentApp ? { agentApp: true } : {}),
    run: async (args, context) => {
      const request: Call = { method: spec.method, path: spec.path, ...(send === 'query' ? { query: asQuery(args) } : { body: args }) };
      return jsonResult((await call(context, request)).json);
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Tools whose work is more than passing the arguments on

/** Button and follow-up kinds that run code on the computer. */
const RUNS_CODE = new Set(['command', 'script', 'shortcut']);

/** Labels of the buttons (and the follow-up) that would run a shell command. */
function commandButtons(args: Args): string[] {
  const found: string[] = [];
  for (const list of [args.buttons, args.actions]) {
    if (!Array.isArray(list)) continue;
    for (const button of list as Array<Record<string, unknown>>) {
      if (button && (button.command !== undefined || button.kind === 'command')) found.push(String(button.label ?? button.id ?? 'a button'));
    }
  }
  const action = (args.followUp as { action?: Record<string, unknown> } | undefined)?.action;
  if (action && (action.command !== undefined || action.kind === 'command')) found.push('the follow-up');
  return found;
}

const sendNotification: Tool = {
  name: 'send_notification',
  title: 'Send a notification',
  description:
    'Show a banner (and keep it in History): POST /v1/notify. Takes the notification object of the HTTP API; keys that are ' +
    'not notification fields are template fields. Replies {ok, id}; wait for a typed reply with wait_for_reply. Buttons that ' +
    'run a shell command are refused unless allowCommandButtons is true (they still run only if the person allowed the app).',
  routes: ['POST /v1/notify'],
  inputSchema: {
    ...notificationSchema,
    properties: {
      ...notificationSchema.properties,
      allowCommandButtons: flag('Not sent: true lets buttons or a follow-up carry a shell command. Default false.'),
    },
  },
  annotations: annotate('Send a notification', 'add'),
  agentApp: true,
  run: async (args, context) => {
    const { allowCommandButtons, ...body } = args;
    const commands = commandButtons(body);
    if (commands.length > 0 && allowCommandButtons !== true) {
      throw new ToolFailure(
        `refused: ${commands.join(', ')} would run a shell command; send allowCommandButtons: true if that is really meant ` +
          '(the person must still have allowed this app to run commands)',
      );
    }
    return jsonResult((await call(context, { method: 'POST', path: '/v1/notify', body })).json);
  },
};

interface ManifestSummary {
  defaultTemplate?: string;
  fields?: Array<{ key: string; sample?: unknown }>;
  actions?: Array<{ id: string; kind: string }>;
}

const sendTest: Tool = {
  name: 'send_test',
  title: 'Send a test notification',
  description:
    "Show a banner filled with the manifest's sample values (GET /v1/manifest, then POST /v1/notify), id mcp-test-<template>. " +
    "The manifest's actions become the buttons, except those that run code (command, script, shortcut).",
  routes: ['GET /v1/manifest', 'POST /v1/notify'],
  inputSchema: inputs({
    app: APP,
    template: text("Template name. Default: the manifest's default template."),
    includeIssuerActions: flag("Offer the manifest's actions as buttons. Default true."),
  }, ['app']),
  annotations: annotate('Send a test notification', 'add'),
  agentApp: true,
  run: async (args, context) => {
    const app = need(args, 'app');
    const manifest = (await call(context, { method: 'GET', path: '/v1/manifest', query: { app } })).json as ManifestSummary;
    const template = (typeof args.template === 'string' && args.template) || manifest.defaultTemplate;
    const samples = Object.fromEntries((manifest.fields ?? []).filter((field) => field.sample !== undefined).map((field) => [field.key, field.sample]));
    const actions = args.includeIssuerActions === false ? [] : manifest.actions ?? [];
    const offered = actions.filter((action) => !RUNS_CODE.has(action.kind)).map((action) => action.id);
    const leftOut = actions.filter((action) => RUNS_CODE.has(action.kind)).map((action) => action.id);
    const id = `mcp-test-${template ?? 'default'}`;
    const body = {
      title: `Test of ${template ?? app}`,
      ...samples,
      app,
      id,
      ...(template ? { template } : {}),
      ...(offered.length > 0 ? { actionIds: offered } : {}),
    };
    const sent = (await call(context, { method: 'POST', path: '/v1/notify', body })).json as Record<string, unknown>;
    return jsonResult({ ...sent, app, template: template ?? null, fields: Object.keys(samples), issuerActions: offered, leftOutCommandActions: leftOut });
  },
};

const dismiss: Tool = {
  name: 'dismiss',
  title: 'Dismiss banners',
  description:
    'Close banners; History keeps them. id: one notification (POST /v1/dismiss); group: one stack of the app; all: true: every ' +
    'banner of the app, or of every app when no app is given (POST /v1/dismissAll). id wins over group, group over all.',
  routes: ['POST /v1/dismiss', 'POST /v1/dismissAll'],
  inputSchema: inputs({ app: APP, id: ID, group: text('A stack (group) of the app.'), all: flag('true: every banner.') }),
  annotations: annotate('Dismiss banners', 'set'),
  agentApp: true,
  run: async (args, context) => {
    const app = typeof args.app === 'string' && args.app ? args.app : undefined;
    if (args.id !== undefined && args.id !== null && args.id !== '') {
      return jsonResult((await call(context, { method: 'POST', path: '/v1/dismiss', body: { app: need(args, 'app'), id: args.id } })).json);
    }
    if (args.group !== undefined && args.group !== null && args.group !== '') {
      return jsonResult((await call(context, { method: 'POST', path: '/v1/dismissAll', body: { app: need(args, 'app'), group: args.group } })).json);
    }
    if (args.all === true) return jsonResult((await call(context, { method: 'POST', path: '/v1/dismissAll', body: app ? { app } : {} })).json);
    throw new ToolFailure('give id, group, or all: true');
  },
};

const snooze: Tool = {
  name: 'snooze',
  title: 'Snooze or unsnooze',
  description:
    'Hide a banner and bring it back after some minutes (POST /v1/snooze, replies {ok, until}); cancel: true brings a snoozed ' +
    'notification back now (POST /v1/unsnooze).',
  routes: ['POST /v1/snooze', 'POST /v1/unsnooze'],
  inputSchema: inputs(
    { app: APP, id: ID, minutes: number('More than 0, at most 43200; fractions allowed.'), cancel: flag('true: unsnooze instead.') },
    ['app', 'id'],
  ),
  annotations: annotate('Snooze or unsnooze', 'set'),
  run: async (args, context) => {
    const target = { app: args.app, id: args.id };
    const request: Call =
      args.cancel === true
        ? { method: 'POST', path: '/v1/unsnooze', body: target }
        : { method: 'POST', path: '/v1/snooze', body: { ...target, minutes: args.minutes } };
    return jsonResult((await call(context, request)).json);
  },
};

/** How long the HTTP call may take beyond the wait itself (reference §1.21: the timeout plus 15 s). */
const WAIT_MARGIN_SECONDS = 15;
const DEFAULT_WAIT_SECONDS = 60;

const waitForReply: Tool = {
  name: 'wait_for_reply',
  title: 'Wait for a reply',
  description:
    'Wait until the person types a reply into the banner of one notification (GET /v1/replies/wait). Replies ' +
    '{replied: true, reply} or, after the timeout, {replied: false, timedOut: true}. The notification needs a reply button ' +
    '(for example buttons: [{label: "Reply", reply: {}}]).',
  routes: ['GET /v1/replies/wait'],
  inputSchema: inputs({
    notificationId: text('The notification id (id also works).'),
    id: text('Same as notificationId.'),
    app: text('The app id; with it a reply already read from the queue is still found in History.'),
    timeoutSeconds: number('1 to 300. Default 60.'),
    consume: flag('Take the reply out of the queue. Default true.'),
  }),
  annotations: annotate('Wait for a reply', 'set'),
  agentApp: true,
  run: async (args, context) => {
    const timeout = args.timeoutSeconds ?? args.timeout;
    const seconds = typeof timeout === 'number' && timeout > 0 ? timeout : DEFAULT_WAIT_SECONDS;
    const query = { id: (args.notificationId ?? args.id) as string | undefined, app: args.app as string | undefined, timeout: timeout as number | undefined, consume: args.consume as boolean | undefined };
    const answer = await call(context, { method: 'GET', path: '/v1/replies/wait', query, timeoutMs: (Math.min(seconds, 300) + WAIT_MARGIN_SECONDS) * 1000 });
    return jsonResult(answer.json);
  },
};

/** How long a picture may take to draw. */
const PREVIEW_TIMEOUT_MS = 60_000;

const PREVIEW_OPTIONS = {
  appearance: { type: 'string', enum: ['light', 'dark'], description: 'Default light.' },
  scale: number('1 to 3. Default 2.'),
  stackCount: whole('1 to 99; above 1 draws the top card of a stack. Default 1.'),
  stackExpanded: flag('With stackCount above 1: draw the stack open.'),
};

const renderPreview: Tool = {
  name: 'render_preview',
  title: 'Render a preview',
  description:
    'Draw a banner to a PNG without showing it (POST /v1/preview): a saved template by name or a whole template object, with ' +
    "the manifest's samples, the app's last notification, or data written inline. The result carries the picture.",
  routes: ['POST /v1/preview'],
  inputSchema: inputs(
    {
      app: text('The app id (optional when template is an object naming its app).'),
      template: { type: ['string', 'object'], description: "A template name or a whole template. Default: the app's default, else builtin.imageLeft." },
      data: { type: ['string', 'object'], description: '"sample" (default), "last", or an object read like a notification.' },
      ...PREVIEW_OPTIONS,
      confirmation: { type: ['string', 'object'], description: 'Draw an inline question: a kind such as command, or {kind, name, ...}.' },
      replying: flag('Draw the reply field instead of the buttons.'),
      replySample: text('Text in the reply field when replying.'),
    },
  ),
  annotations: annotate('Render a preview', 'read'),
  run: async (args, context) => {
    const answer = await call(context, { method: 'POST', path: '/v1/preview', body: args, timeoutMs: PREVIEW_TIMEOUT_MS });
    return pictureResult(answer, { app: args.app ?? (args.template as { app?: unknown } | undefined)?.app ?? null });
  },
};

const designerSnapshot: Tool = {
  name: 'designer_snapshot',
  title: 'Snapshot a saved template',
  description:
    "Draw a saved (or built-in) template with the manifest's sample values to a PNG (GET /v1/preview), as the designer shows " +
    'it. The result carries the picture.',
  routes: ['GET /v1/preview'],
  inputSchema: inputs({ app: APP, template: text("Saved or builtin.* template. Default: the app's default."), ...PREVIEW_OPTIONS }, ['app']),
  annotations: annotate('Snapshot a saved template', 'read'),
  run: async (args, context) => {
    const answer = await call(context, { method: 'GET', path: '/v1/preview', query: asQuery(args), timeoutMs: PREVIEW_TIMEOUT_MS });
    return pictureResult(answer, { app: args.app, template: args.template ?? null });
  },
};

const notifierStatus: Tool = {
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
      const health = (await call(context, { method: 'GET', path: '/v1/health', withoutToken: true, timeoutMs: 5_000 })).json as Record<string, unknown>;
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

const deleteHistory: Tool = {
  name: 'delete_history',
  title: 'Delete History',
  description:
    "Delete one notification from History (id; DELETE /v1/history/item; its banner closes too), or clear the app's whole " +
    'History (all: true; DELETE /v1/history).',
  routes: ['DELETE /v1/history/item', 'DELETE /v1/history'],
  inputSchema: inputs({ app: APP, id: ID, all: flag("true: clear the app's whole History.") }, ['app']),
  annotations: annotate('Delete History', 'replace'),
  run: async (args, context) => {
    const app = need(args, 'app');
    if (args.id !== undefined && args.id !== null && args.id !== '') {
      return jsonResult((await call(context, { method: 'DELETE', path: '/v1/history/item', query: { app, id: need(args, 'id') } })).json);
    }
    if (args.all === true) return jsonResult((await call(context, { method: 'DELETE', path: '/v1/history', query: { app } })).json);
    throw new ToolFailure("give id (one notification) or all: true (the app's whole History)");
  },
};

const deleteApp: Tool = {
  name: 'delete_app',
  title: 'Delete an app',
  description: "Remove an app with its registration, History, templates, manifest and assets; its banners close (DELETE /v1/apps/{id}).",
  routes: ['DELETE /v1/apps/{id}'],
  inputSchema: inputs({ app: APP }, ['app']),
  annotations: annotate('Delete an app', 'replace'),
  run: async (args, context) => {
    const app = need(args, 'app');
    return jsonResult((await call(context, { method: 'DELETE', path: `/v1/apps/${encodeURIComponent(app)}` })).json);
  },
};

// ---------------------------------------------------------------------------------------------------------------
// The table

const TEMPLATE_NAME = text('Template name.');
const HISTORY_LIMIT = 10;

const withDefault = (name: string, defaults: Args, tool: Tool): Tool => ({
  ...tool,
  name,
  run: (args, context) => tool.run({ ...defaults, ...args }, context),
});

export const TOOLS: Tool[] = [
  notifierStatus,
  sendNotification,
  sendTest,
  route({
    name: 'speak',
    title: 'Speak',
    description: 'Say a text aloud without a banner; it is kept in History (POST /v1/speak). Replies {ok, id}.',
    method: 'POST',
    path: '/v1/speak',
    inputSchema: inputs(
      {
        app: APP,
        text: text('What to say.'),
        id: text('Notification id. Default: generated.'),
        voice: text('A voice id.'),
        speed: number('0.5 to 2.0.'),
        lang: text('A language code such as en-us.'),
      },
      ['app', 'text'],
    ),
    kind: 'add',
    agentApp: true,
  }),
  dismiss,
  snooze,
  route({
    name: 'list_stacks',
    title: 'List stacks',
    description: 'Stacks on screen now (GET /v1/stacks): groups of two or more banners with their members.',
    method: 'GET',
    path: '/v1/stacks',
    inputSchema: inputs({ app: text('Only this app. Default: every app.') }),
    kind: 'read',
    agentApp: true,
  }),
  route({
    name: 'expand_stack',
    title: 'Open or close a stack',
    description: "Opens (or with expanded: false closes) one app's stack of banners (POST /v1/stacks/expand); GET /v1/stacks then reports it expanded.",
    method: 'POST',
    path: '/v1/stacks/expand',
    inputSchema: inputs(
      {
        app: APP,
        group: text("The stack's group (the notifications' group). Default: the app id, the stack of notifications without a group."),
        expanded: flag('true opens the stack, false closes it. Default: true.'),
      },
      ['app'],
    ),
    kind: 'set',
    agentApp: true,
  }),
  route({
    name: 'get_replies',
    title: 'Read replies',
    description: 'Replies the person typed, oldest first (GET /v1/replies). consume: true takes them out of the queue.',
    method: 'GET',
    path: '/v1/replies',
    inputSchema: inputs({
      app: text('Only this app.'),
      since: text('Only replies after this: an ISO 8601 date or epoch seconds.'),
      consume: flag('Take the returned replies out of the queue. Default false.'),
    }),
    kind: 'set',
    agentApp: true,
  }),
  waitForReply,
  renderPreview,
  designerSnapshot,
  route({
    name: 'rive_check',
    title: 'Check a Rive component',
    description: 'Check a rive component: its file, header and what its input bindings would write (POST /v1/rive/check).',
    method: 'POST',
    path: '/v1/rive/check',
    inputSchema: inputs(
      {
        app: APP,
        component: object('A rive component: {type: "rive", asset or path, inputBindings, ...}.'),
        fields: object('Field values the bindings are filled with.'),
        simulate: { type: 'array', items: { enum: ['hoverIn', 'hoverOut', 'pressDown', 'pressUp'] }, description: 'Pointer steps to simulate.' },
      },
      ['app', 'component'],
    ),
    kind: 'read',
  }),
  route({
    name: 'list_manifests',
    title: 'List manifests',
    description: 'Every app manifest (GET /v1/manifests).',
    method: 'GET',
    path: '/v1/manifests',
    inputSchema: inputs({}),
    kind: 'read',
  }),
  route({
    name: 'get_manifest',
    title: 'Read a manifest',
    description: "One app's manifest: its fields, actions, Rive files, default template (GET /v1/manifest).",
    method: 'GET',
    path: '/v1/manifest',
    inputSchema: inputs({ app: APP }, ['app']),
    kind: 'read',
  }),
  route({
    name: 'put_manifest',
    title: 'Save a manifest',
    description: "Create or replace an app's manifest (PUT /v1/manifest); the arguments are the manifest object.",
    method: 'PUT',
    path: '/v1/manifest',
    inputSchema: inputs(
      {
        app: APP,
        appName: text('Display name.'),
        fields: { type: 'array', items: { type: 'object' }, description: 'Items: key, type (text, url, ...), required, sample.' },
        actions: { type: 'array', items: { type: 'object' }, description: 'Items: id, label, kind (url, callback, shortcut, script, command), ...' },
        followUp: object('after (seconds) and actionRef or action.'),
        assets: { type: 'array', items: { type: 'object' }, description: 'Rive files to install: id, type, path.' },
        defaultTemplate: text('Template used when a notification names none.'),
      },
      ['app'],
      true,
    ),
    kind: 'replace',
  }),
  route({
    name: 'delete_manifest',
    title: 'Delete a manifest',
    description: "Delete an app's manifest and its copied Rive files; the app, templates and History stay (DELETE /v1/manifest).",
    method: 'DELETE',
    path: '/v1/manifest',
    inputSchema: inputs({ app: APP }, ['app']),
    kind: 'replace',
  }),
  route({
    name: 'component_schema',
    title: 'Component schema',
    description: 'The template format: components, properties, bindings, actions, examples and the design workflow (GET /v1/components).',
    method: 'GET',
    path: '/v1/components',
    inputSchema: inputs({}),
    kind: 'read',
  }),
  route({
    name: 'list_templates',
    title: 'List templates',
    description: 'Saved templates, whole (GET /v1/templates). Built-in layouts and scratch (_name) templates are not listed.',
    method: 'GET',
    path: '/v1/templates',
    inputSchema: inputs({ app: text('Only this app.') }),
    kind: 'read',
  }),
  route({
    name: 'put_template',
    title: 'Save a template',
    description: 'Save a template, replacing one of the same name for the app (PUT /v1/templates); the arguments are the template object. See component_schema.',
    method: 'PUT',
    path: '/v1/templates',
    inputSchema: inputs(
      {
        app: APP,
        name: TEMPLATE_NAME,
        layoutVersion: whole('2.'),
        collapseEmpty: flag('Cells with missing fields collapse.'),
        grid: object('rows, cols, rowSizes, colSizes, gap, padding, width.'),
        cells: { type: 'array', items: { type: 'object' }, description: 'Each: id, row, col, rowSpan?, component.' },
      },
      ['app', 'name'],
      true,
    ),
    kind: 'replace',
  }),
  route({
    name: 'delete_template',
    title: 'Delete a template',
    description: 'Delete a saved template (DELETE /v1/templates).',
    method: 'DELETE',
    path: '/v1/templates',
    inputSchema: inputs({ app: APP, name: TEMPLATE_NAME }, ['app', 'name']),
    kind: 'replace',
  }),
  route({
    name: 'duplicate_template',
    title: 'Duplicate a template',
    description: 'Copy a saved or built-in template, to the same or another app (POST /v1/templates/duplicate).',
    method: 'POST',
    path: '/v1/templates/duplicate',
    inputSchema: inputs(
      { app: APP, name: text('Saved or builtin.* template.'), newName: text('Default: "<name> copy".'), toApp: text('Default: the same app.') },
      ['app', 'name'],
    ),
    kind: 'add',
  }),
  route({
    name: 'rename_template',
    title: 'Rename a template',
    description: "Rename a saved template (POST /v1/templates/rename). Command approvals belong to the old name: the person is asked again.",
    method: 'POST',
    path: '/v1/templates/rename',
    inputSchema: inputs({ app: APP, name: TEMPLATE_NAME, newName: text('The new name.') }, ['app', 'name', 'newName']),
    kind: 'replace',
  }),
  route({
    name: 'set_default_template',
    title: 'Set the default template',
    description: "Set (name) or clear (no name) the app's default template; the app needs a manifest (PUT /v1/templates/default).",
    method: 'PUT',
    path: '/v1/templates/default',
    inputSchema: inputs({ app: APP, name: text('Saved or built-in template; leave out to clear.') }, ['app']),
    kind: 'set',
  }),
  route({
    name: 'set_follow_up',
    title: 'Set a follow-up',
    description:
      'Set or switch off (enabled: false) the action a template runs when a banner stays unattended (PUT /v1/templates/follow-up). ' +
      'Nothing is approved here: the person approves the code when a banner asks.',
    method: 'PUT',
    path: '/v1/templates/follow-up',
    inputSchema: inputs(
      {
        app: APP,
        template: text("Template to edit. Default: the app's default."),
        after: { type: ['number', 'string'], description: '5 to 604800 seconds, or 90s, 10m, 2h.' },
        shortcut: text('A shortcut name (give exactly one of shortcut, script, command, actionRef).'),
        script: text('A plain script file name in the scripts folder.'),
        command: text('A shell command.'),
        actionRef: text("The id of one of the manifest's actions."),
        input: text('Text for a shortcut or script; {tokens} are filled.'),
        label: text('Name in the banner line about the follow-up.'),
        enabled: flag('false switches it off (send it alone with app and template).'),
      },
      ['app'],
    ),
    kind: 'set',
  }),
  route({
    name: 'export_template_bundle',
    title: 'Export a template bundle',
    description: 'Pack a template and its Rive files into a .notifiertemplate bundle (GET /v1/templates/export): written to path, or returned as base64.',
    method: 'GET',
    path: '/v1/templates/export',
    inputSchema: inputs({ app: APP, name: TEMPLATE_NAME, path: text('A file ending in .notifiertemplate; its folder must exist.') }, ['app', 'name']),
    kind: 'replace',
  }),
  route({
    name: 'import_template_bundle',
    title: 'Import a template bundle',
    description: 'Install a .notifiertemplate bundle from path or base64 (POST /v1/templates/import).',
    method: 'POST',
    path: '/v1/templates/import',
    inputSchema: inputs({
      path: text('A bundle file on this computer (give path or base64).'),
      base64: text('The bundle bytes (request bodies are limited to 1 MB).'),
      app: text('Default: the app named in the bundle.'),
      onConflict: { type: 'string', enum: ['keepBoth', 'replace', 'fail'], description: 'Default keepBoth.' },
    }),
    kind: 'replace',
  }),
  route({
    name: 'list_symbols',
    title: 'Search symbols',
    description: 'Symbol names for symbol components (GET /v1/symbols).',
    method: 'GET',
    path: '/v1/symbols',
    inputSchema: inputs({
      q: text('Words; each must match the name, a search term or a synonym.'),
      category: text("A key from the reply's categories."),
      limit: whole('Up to 1000. Default 100.'),
      offset: whole('Default 0.'),
    }),
    kind: 'read',
  }),
  route({
    name: 'list_shortcuts',
    title: 'List shortcuts',
    description: 'Installed automation shortcuts (GET /v1/shortcuts); 502 where the computer has no shortcuts tool.',
    method: 'GET',
    path: '/v1/shortcuts',
    inputSchema: inputs({}),
    kind: 'read',
  }),
  route({
    name: 'list_assets',
    title: 'List assets',
    description: "An app's Rive files and images, the limits, and which templates use each (GET /v1/assets).",
    method: 'GET',
    path: '/v1/assets',
    inputSchema: inputs({ app: APP }, ['app']),
    kind: 'read',
  }),
  route({
    name: 'upload_asset',
    title: 'Add an asset',
    description: 'Add a Rive file (.riv) or an image to an app, from a path on this computer or base64 with a name (POST /v1/assets). A file of the same name is replaced.',
    method: 'POST',
    path: '/v1/assets',
    inputSchema: inputs(
      {
        app: APP,
        path: text('A file on this computer (give path or base64).'),
        base64: text('The file bytes; needs name.'),
        name: text('The plain file name to store under.'),
        kind: { type: 'string', enum: ['rive', 'image'], description: 'Only needed when the name has no known extension.' },
      },
      ['app'],
    ),
    kind: 'replace',
  }),
  route({
    name: 'delete_asset',
    title: 'Delete an asset',
    description: 'Remove a stored Rive file or image; the reply lists templates that still use it (DELETE /v1/assets).',
    method: 'DELETE',
    path: '/v1/assets',
    inputSchema: inputs({ app: APP, file: text('The stored file name.') }, ['app', 'file']),
    kind: 'replace',
  }),
  route({
    name: 'register_app',
    title: 'Register an app',
    description: 'Register an app or update its registration; omitted fields keep their values (POST /v1/register). allowCommands only asks: the person decides.',
    method: 'POST',
    path: '/v1/register',
    inputSchema: registerSchema,
    kind: 'set',
  }),
  route({
    name: 'list_apps',
    title: 'List apps',
    description: 'Registered apps (GET /v1/apps).',
    method: 'GET',
    path: '/v1/apps',
    inputSchema: inputs({}),
    kind: 'read',
  }),
  deleteApp,
  route({
    name: 'get_app_settings',
    title: 'Read app settings',
    description: 'Per-app settings, voice, approvals and a schema of every key (GET /v1/apps/settings).',
    method: 'GET',
    path: '/v1/apps/settings',
    inputSchema: inputs({ app: text('Only this app.') }),
    kind: 'read',
  }),
  route({
    name: 'update_app_settings',
    title: 'Change app settings',
    description:
      'Change per-app settings, all or none (PUT /v1/apps/settings): keys such as muteBanners, corner, sound, timeout, stacking, speak. ' +
      'revokeCommands / revokeCallbackHost: true withdraw a permission; nothing here can grant one. See get_app_settings for every key.',
    method: 'PUT',
    path: '/v1/apps/settings',
    inputSchema: inputs(
      {
        app: APP,
        muteBanners: flag('History only: no banner, no sound.'),
        corner: { type: ['string', 'null'], description: 'topRight, topLeft, bottomRight, bottomLeft; null follows the global setting.' },
        sound: text('A sound name, or none.'),
        timeout: whole('Seconds a banner stays; 0: until dismissed.'),
        persistent: flag('Banners stay until closed.'),
        stacking: { type: ['string', 'null'], description: 'A stacking level; null follows the global setting.' },
        speak: flag('Speech allowed for this app.'),
        revokeCommands: { type: 'boolean', const: true, description: "true withdraws the app's permission to run commands." },
        revokeCallbackHost: { type: 'boolean', const: true, description: "true withdraws the approval of the app's callback host." },
      },
      ['app'],
      true,
    ),
    kind: 'set',
  }),
  route({
    name: 'get_settings',
    title: 'Read settings',
    description: 'Settings values, a schema with type and limits per key, and the options of keys with a fixed list (GET /v1/settings).',
    method: 'GET',
    path: '/v1/settings',
    inputSchema: inputs({}),
    kind: 'read',
  }),
  route({
    name: 'set_settings',
    title: 'Change settings',
    description:
      'Change settings, all or none (PUT /v1/settings): the arguments are the keys to change, such as muteAllSounds, stacking, ' +
      'voiceSpeed, historyCapPerApp. See get_settings for every key and its limits.',
    method: 'PUT',
    path: '/v1/settings',
    inputSchema: inputs(
      {
        muteAllSounds: flag('No sounds at all.'),
        stacking: text('Stacking level.'),
        historyCapPerApp: whole('Records kept per app.'),
        voiceEngine: text('The speech engine.'),
        voiceSpeed: number('0.5 to 2.0.'),
      },
      [],
      true,
    ),
    kind: 'set',
  }),
  route({
    name: 'get_quiet_hours',
    title: 'Read quiet hours',
    description: 'Whether quiet hours are on now (status) and the quiet windows (GET /v1/settings/quiet-hours).',
    method: 'GET',
    path: '/v1/settings/quiet-hours',
    inputSchema: inputs({}),
    kind: 'read',
  }),
  route({
    name: 'set_quiet_hours',
    title: 'Set quiet hours',
    description:
      'Start a one-off quiet period (adHoc: {minutes} or {until: "HH:MM"}, banners: true silences banners too), end it ' +
      '(resume: true), or replace the windows (PUT /v1/settings/quiet-hours). Replies the quiet-hours state.',
    method: 'PUT',
    path: '/v1/settings/quiet-hours',
    inputSchema: inputs(
      {
        adHoc: object('{minutes} or {until: "HH:MM"}, with optional speech, sounds, banners flags.'),
        resume: flag('true ends the current quiet period.'),
        windows: { type: 'array', items: { type: 'object' }, description: 'Replaces every window: id, start, end (HH:MM), days, banners, sounds, speech.' },
      },
      [],
      true,
    ),
    kind: 'set',
  }),
  route({
    name: 'voice_status',
    title: 'Voice status',
    description: 'State of the speech engine, its voices and any install in progress (GET /v1/voice).',
    method: 'GET',
    path: '/v1/voice',
    inputSchema: inputs({}),
    kind: 'read',
  }),
  route({
    name: 'install_voice',
    title: 'Install the voice engine',
    description: 'Start or cancel installing the local voice engine, or use an existing installation (POST /v1/voice/install); poll voice_status for progress.',
    method: 'POST',
    path: '/v1/voice/install',
    inputSchema: inputs({ action: { type: 'string', enum: ['install', 'cancel', 'useExisting'], description: 'What to do.' } }, ['action']),
    kind: 'add',
    openWorld: true,
  }),
  route({
    name: 'install_mcp',
    title: 'Install this agent server',
    description:
      "Add this agent server to an agent client's configuration (a .bak copy of the file is kept), put the notifier command on " +
      'the PATH (cli), or get the configuration for another client (generic, needs name) (POST /v1/mcp/install).',
    method: 'POST',
    path: '/v1/mcp/install',
    inputSchema: inputs(
      {
        client: { type: 'string', enum: ['claudeCode', 'codex', 'claudeDesktop', 'cli', 'generic'], description: 'Where to install.' },
        reinstall: flag('Replace an existing entry. Default false (409 when one exists).'),
        name: text('generic: the agent\'s name (required).'),
        icon: text('generic: a picture file for the agent\'s banners.'),
      },
      ['client'],
    ),
    kind: 'set',
  }),
  route({
    name: 'list_approvals',
    title: 'List approvals',
    description: 'Approvals the person gave (GET /v1/actions/approvals). Only the person can grant them; here they can be listed and revoked.',
    method: 'GET',
    path: '/v1/actions/approvals',
    inputSchema: inputs({}),
    kind: 'read',
  }),
  route({
    name: 'revoke_approval',
    title: 'Revoke an approval',
    description: "Withdraw one template's command approval (template), a callback host's (host), or the app's command permission (commands: true) (DELETE /v1/actions/approvals).",
    method: 'DELETE',
    path: '/v1/actions/approvals',
    inputSchema: inputs(
      { app: APP, template: text('The template whose code approval goes.'), host: text('A callback host.'), commands: { type: 'boolean', const: true, description: 'true: the app\'s command permission.' } },
      ['app'],
    ),
    kind: 'replace',
  }),
  withDefault(
    'list_history',
    { limit: HISTORY_LIMIT },
    route({
      name: 'list_history',
      title: 'List History',
      description: `Recent notifications, newest first, with what happened to them (GET /v1/history). Default limit ${HISTORY_LIMIT}.`,
      method: 'GET',
      path: '/v1/history',
      inputSchema: inputs({ app: text('Only this app.'), limit: whole(`How many. Default ${HISTORY_LIMIT}.`) }),
      kind: 'read',
      agentApp: true,
    }),
  ),
  route({
    name: 'history_search',
    title: 'Search History',
    description: 'Notifications whose title, subtitle, body or app contain every word (GET /v1/history/search).',
    method: 'GET',
    path: '/v1/history/search',
    inputSchema: inputs({ q: text('Words to find.'), app: text('Only this app.'), limit: whole('At most 1000. Default 50.') }, ['q']),
    kind: 'read',
  }),
  route({
    name: 'reshow_notification',
    title: 'Show a notification again',
    description: 'Show a notification from History again (POST /v1/history/reshow).',
    method: 'POST',
    path: '/v1/history/reshow',
    inputSchema: inputs({ app: APP, id: ID }, ['app', 'id']),
    kind: 'add',
  }),
  deleteHistory,
  route({
    name: 'export_history',
    title: 'Export History',
    description: 'History as JSON (GET /v1/history/export): written to path (a .json file whose folder exists), or returned.',
    method: 'GET',
    path: '/v1/history/export',
    inputSchema: inputs({ app: text('Only this app.'), path: text('A .json file to write.') }),
    kind: 'replace',
  }),
];

export const TOOLS_BY_NAME = new Map(TOOLS.map((tool) => [tool.name, tool]));

// ---------------------------------------------------------------------------------------------------------------
// Arguments

function typesOf(schema: unknown): string[] {
  const type = (schema as { type?: unknown } | undefined)?.type;
  return Array.isArray(type) ? (type as string[]) : typeof type === 'string' ? [type] : [];
}

/**
 * Agents often send numbers and booleans as strings, and objects as JSON text (reference §1.21: arguments are
 * forgiving). A top-level string is read as the type its property wants when it plainly is one; anything else is
 * passed on as sent, for the route to judge.
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
