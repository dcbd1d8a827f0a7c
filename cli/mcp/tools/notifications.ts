// Sending and speaking, and the banners on screen: dismiss, snooze, stacks (daemon/http/routes/notifications.ts and
// banners.ts).

import { notificationSchema } from '../../../protocol/schemas/notification.js';
import { type Call, ToolFailure } from '../call.js';
import { APP, type Args, ID, type Tool, annotate, call, flag, inputs, jsonResult, need, number, route, text } from './common.js';

/** Button and follow-up kinds that run code on the computer. */
const RUNS_CODE = new Set(['command', 'script', 'shortcut']);

/** Labels of the buttons (and the follow-up) that would run a shell command. */
function commandButtons(args: Args): string[] {
  const found: string[] = [];
  for (const list of [args.buttons, args.actions]) {
    if (!Array.isArray(list)) continue;
    for (const button of list as Array<Record<string, unknown>>) {
      if (button && (button.command !== undefined || button.kind === 'command'))
        found.push(String(button.label ?? button.id ?? 'a button'));
    }
  }
  const action = (args.followUp as { action?: Record<string, unknown> } | undefined)?.action;
  if (action && (action.command !== undefined || action.kind === 'command')) found.push('the follow-up');
  return found;
}

export const sendNotification: Tool = {
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

export const sendTest: Tool = {
  name: 'send_test',
  title: 'Send a test notification',
  description:
    "Show a banner filled with the manifest's sample values (GET /v1/manifest, then POST /v1/notify), id mcp-test-<template>. " +
    "The manifest's actions become the buttons, except those that run code (command, script, shortcut).",
  routes: ['GET /v1/manifest', 'POST /v1/notify'],
  inputSchema: inputs(
    {
      app: APP,
      template: text("Template name. Default: the manifest's default template."),
      includeIssuerActions: flag("Offer the manifest's actions as buttons. Default true."),
    },
    ['app'],
  ),
  annotations: annotate('Send a test notification', 'add'),
  agentApp: true,
  run: async (args, context) => {
    const app = need(args, 'app');
    const manifest = (await call(context, { method: 'GET', path: '/v1/manifest', query: { app } })).json as ManifestSummary;
    const template = (typeof args.template === 'string' && args.template) || manifest.defaultTemplate;
    const samples = Object.fromEntries(
      (manifest.fields ?? []).filter((field) => field.sample !== undefined).map((field) => [field.key, field.sample]),
    );
    const actions = args.includeIssuerActions === false ? [] : (manifest.actions ?? []);
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
    return jsonResult({
      ...sent,
      app,
      template: template ?? null,
      fields: Object.keys(samples),
      issuerActions: offered,
      leftOutCommandActions: leftOut,
    });
  },
};

export const speak = route('speak', 'Speak', 'POST /v1/speak', {
  description: 'Say a text aloud without a banner; it is kept in History (POST /v1/speak). Replies {ok, id}.',
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
});

export const dismiss: Tool = {
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
      return jsonResult(
        (await call(context, { method: 'POST', path: '/v1/dismissAll', body: { app: need(args, 'app'), group: args.group } })).json,
      );
    }
    if (args.all === true)
      return jsonResult((await call(context, { method: 'POST', path: '/v1/dismissAll', body: app ? { app } : {} })).json);
    throw new ToolFailure('give id, group, or all: true');
  },
};

export const snooze: Tool = {
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

export const listStacks = route('list_stacks', 'List stacks', 'GET /v1/stacks', {
  description: 'Stacks on screen now (GET /v1/stacks): groups of two or more banners with their members.',
  inputSchema: inputs({ app: text('Only this app. Default: every app.') }),
  kind: 'read',
  agentApp: true,
});

export const expandStack = route('expand_stack', 'Open or close a stack', 'POST /v1/stacks/expand', {
  description:
    "Opens (or with expanded: false closes) one app's stack of banners (POST /v1/stacks/expand); GET /v1/stacks then reports it expanded.",
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
});
