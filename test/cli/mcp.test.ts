import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { notificationSchema } from '../../protocol/schemas/notification.js';
import { registerSchema } from '../../protocol/schemas/register.js';
import { ROOT } from '../helpers/daemon.js';
import { type Running, eventually, startInProcess } from '../helpers/in-process.js';
import { NO_DAEMON_HERE } from '../helpers/process.js';

// The agent server as an agent client sees it: the MCP SDK's own Client spawns the built `notifier-mcp` over
// stdio, against a real daemon running in this process (so the person's reply can be typed through the test
// presenter).

const MCP_MAIN = path.join(ROOT, 'dist', 'cli', 'mcp', 'main.js');

/** Tools that docs/mcp.md#tools lists, each of which must be offered. */
const SPEC_TOOLS = [
  'send_notification',
  'send_test',
  'speak',
  'dismiss',
  'snooze',
  'list_stacks',
  'expand_stack',
  'get_replies',
  'wait_for_reply',
  'render_preview',
  'designer_snapshot',
  'rive_check',
  'herald_status',
  'list_manifests',
  'get_manifest',
  'put_manifest',
  'delete_manifest',
  'list_assets',
  'upload_asset',
  'delete_asset',
  'list_history',
  'history_search',
  'delete_history',
  'export_history',
  'list_apps',
  'delete_app',
  'list_approvals',
  'revoke_approval',
  'list_shortcuts',
  'reshow_notification',
  'update_app_settings',
];

const clients: Client[] = [];
afterAll(async () => {
  for (const client of clients.splice(0)) await client.close();
});

async function agentClient(args: string[]): Promise<Client> {
  // NO_DAEMON_HERE: a server the test forgot to point at its daemon finds none, never the person's own.
  const env = { ...getDefaultEnvironment(), NOTIFIER_SUPPORT_DIR: NO_DAEMON_HERE };
  const transport = new StdioClientTransport({ command: process.execPath, args: [MCP_MAIN, ...args], env, stderr: 'pipe' });
  const client = new Client({ name: 'notifier-test', version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  return client;
}

interface Result {
  isError?: boolean;
  content: Array<{ type: string; text?: string; data?: string; mimeType?: string }>;
}

async function use(client: Client, name: string, args: Record<string, unknown> = {}): Promise<Result> {
  return (await client.callTool({ name, arguments: args })) as Result;
}

const textOf = (result: Result): string => result.content.find((block) => block.type === 'text')!.text!;
const jsonOf = (result: Result): any => {
  expect(result.isError).toBeFalsy();
  return JSON.parse(textOf(result));
};

describe('notifier-mcp against a running daemon', () => {
  let n: Running;
  let agent: Client;
  beforeAll(async () => {
    n = await startInProcess();
    agent = await agentClient(['--support-dir', n.daemon.supportDir]);
  });

  /** The agent's send_notification, which must succeed: the route's answer. */
  const send = async (args: Record<string, unknown>) => jsonOf(await use(agent, 'send_notification', args));

  test('lists the documented tools, each with a title, annotations and an object input schema', async () => {
    const { tools } = await agent.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(SPEC_TOOLS));
    expect(new Set(names).size).toBe(names.length);
    for (const tool of tools) {
      expect(tool.inputSchema.type).toBe('object');
      expect(typeof tool.title).toBe('string');
      expect(typeof tool.annotations?.readOnlyHint).toBe('boolean');
      expect(typeof tool.annotations?.destructiveHint).toBe('boolean');
    }
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    expect(byName.get('list_history')!.annotations).toMatchObject({ readOnlyHint: true, destructiveHint: false });
    expect(byName.get('delete_manifest')!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
    expect(byName.get('send_notification')!.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false });
  });

  test("send_notification's and register_app's input schemas are the routes' own schemas", async () => {
    const { tools } = await agent.listTools();
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    const plain = (value: unknown) => JSON.parse(JSON.stringify(value));
    const send = byName.get('send_notification')!.inputSchema;
    expect(send.required).toEqual(['app']);
    expect(send.properties).toEqual({
      ...plain(notificationSchema.properties),
      allowCommandButtons: expect.objectContaining({ type: 'boolean' }),
    });
    expect(byName.get('register_app')!.inputSchema).toEqual(plain(registerSchema));
  });

  test('no tool presses a button, types a reply or grants an approval', async () => {
    const { tools } = await agent.listTools();
    for (const tool of tools) {
      expect(tool.name).not.toMatch(/press|click|grant|approve|allow|answer|confirm|send_reply|type_reply|reply_to/);
    }
    // The only reply tools read what the person typed.
    expect(
      tools
        .map((tool) => tool.name)
        .filter((name) => /repl/.test(name))
        .sort(),
    ).toEqual(['get_replies', 'wait_for_reply']);
    // Revoking is all the approval tools do: the app-settings keys that touch permissions only accept true.
    const settings = tools.find((tool) => tool.name === 'update_app_settings')!.inputSchema.properties as Record<string, any>;
    expect(settings.revokeCommands).toMatchObject({ const: true });
  });

  test('send_notification shows a banner and answers the route reply; its id is in History', async () => {
    const sent = await send({ app: 'mcp', title: 'Build finished', body: 'All green' });
    expect(sent).toEqual({ ok: true, id: expect.any(String) });
    expect(await n.record('mcp', sent.id)).toMatchObject({
      id: sent.id,
      notification: expect.objectContaining({ title: 'Build finished' }),
    });
    expect(n.person.banner('mcp', sent.id)).toBeDefined();
    const history = jsonOf(await use(agent, 'list_history', { app: 'mcp' }));
    expect(history.items.map((item: { id: string }) => item.id)).toContain(sent.id);
  });

  test('wait_for_reply hands back what the person typed into the banner', async () => {
    await send({ app: 'mcp', id: 'ask', title: 'Deploy now?', buttons: [{ label: 'Reply', reply: {} }] });
    const waiting = use(agent, 'wait_for_reply', { notificationId: 'ask', app: 'mcp', timeoutSeconds: 20 });
    await eventually(() => n.person.banner('mcp', 'ask'), 'the banner');
    n.person.reply('mcp', 'ask', 'reply', 'ship it');
    expect(jsonOf(await waiting)).toEqual({
      replied: true,
      reply: expect.objectContaining({ notificationId: 'ask', app: 'mcp', text: 'ship it' }),
    });
  });

  test('wait_for_reply with ended: true hands back the button the person pressed', async () => {
    await send({ app: 'mcp', id: 'choose', title: 'Deploy now?', buttons: [{ label: 'Yes' }, { label: 'No' }] });
    const waiting = use(agent, 'wait_for_reply', { notificationId: 'choose', app: 'mcp', timeoutSeconds: 20, ended: true });
    await eventually(() => n.person.banner('mcp', 'choose'), 'the banner');
    // Pressed once the request waits (or before: with app, History answers it at once).
    await new Promise((resolve) => setTimeout(resolve, 200));
    n.person.press('mcp', 'choose', 'no');
    expect(jsonOf(await waiting)).toEqual({ replied: false, ended: true, endedAt: expect.any(String), actionUsed: 'No', button: 'No' });
  });

  test("a failing route is an isError result carrying the route's message", async () => {
    const direct = await n.api('POST', '/v1/notify', { body: { app: 'mcp' } });
    expect(direct.status).toBe(400);
    const result = await use(agent, 'send_notification', { app: 'mcp' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(`Notifier returned 400: ${direct.json.error}`);

    const missing = await use(agent, 'get_manifest', { app: 'no-such-app' });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toMatch(/^Notifier returned 404: /);
  });

  test('a button that runs a command is refused unless allowCommandButtons is sent', async () => {
    const button = { label: 'Restart', command: 'systemctl restart web' };
    const refused = await use(agent, 'send_notification', { app: 'mcp', id: 'cmd', title: 'Restart?', buttons: [button] });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toMatch(/Restart would run a shell command.*allowCommandButtons/);
    expect(await n.record('mcp', 'cmd')).toBeUndefined();
    const sent = await send({ app: 'mcp', id: 'cmd', title: 'Restart?', buttons: [button], allowCommandButtons: true });
    expect(sent).toEqual({ ok: true, id: 'cmd' });
  });

  test('numbers, booleans and objects sent as text are read as the schema says', async () => {
    await send({ app: 'loose', title: 'one', persistent: 'true', buttons: '[{"label":"Open","url":"https://example.com"}]' });
    await send({ app: 'loose', title: 'two' });
    const history = jsonOf(await use(agent, 'list_history', { app: 'loose', limit: '1' }));
    expect(history.items).toHaveLength(1);
    const first = await n.record('loose', (await n.api('GET', '/v1/history?app=loose&limit=2')).json.items[1].id);
    expect(first.notification).toMatchObject({ persistent: true, buttons: [expect.objectContaining({ label: 'Open' })] });
  });

  test('snooze and its cancel call the snooze routes', async () => {
    await send({ app: 'mcp', id: 'later', title: 'Later' });
    const snoozed = jsonOf(await use(agent, 'snooze', { app: 'mcp', id: 'later', minutes: 30 }));
    expect(snoozed).toEqual({ ok: true, until: expect.any(String) });
    expect((await n.record('mcp', 'later')).snoozedUntil).toBe(snoozed.until);
    expect(jsonOf(await use(agent, 'snooze', { app: 'mcp', id: 'later', cancel: true }))).toEqual({ ok: true });
    expect((await n.record('mcp', 'later')).snoozedUntil).toBeUndefined();
  });

  test('render_preview returns the PNG as an image block', async () => {
    const result = await use(agent, 'render_preview', { app: 'mcp', data: { title: 'Preview me' }, scale: 1 });
    expect(result.isError).toBeFalsy();
    const image = result.content.find((block) => block.type === 'image')!;
    expect(image.mimeType).toBe('image/png');
    expect(Buffer.from(image.data!, 'base64').subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(JSON.parse(textOf(result))).toMatchObject({
      ok: true,
      mimeType: 'image/png',
      width: expect.any(Number),
      height: expect.any(Number),
    });
  });

  test('herald_status reports the running daemon and that the token works', async () => {
    const status = jsonOf(await use(agent, 'herald_status'));
    expect(status).toMatchObject({
      running: true,
      authorized: true,
      pid: process.pid,
      port: n.daemon.port,
      supportDirectory: n.daemon.supportDir,
      apps: expect.arrayContaining(['mcp']),
    });
  });

  test('a wrong token is an isError result saying the token was rejected', async () => {
    const stranger = await agentClient(['--support-dir', n.daemon.supportDir, '--token', 'f'.repeat(64)]);
    const result = await use(stranger, 'list_apps');
    expect(result.isError).toBe(true);
    expect(textOf(result)).toMatch(/^Notifier rejected the token/);
    expect(jsonOf(await use(stranger, 'herald_status'))).toMatchObject({
      running: true,
      authorized: false,
      hint: expect.stringMatching(/rejected the token/),
    });
  });

  test('with --agent, app may be left out and is the agent app', async () => {
    const claude = await agentClient(['--support-dir', n.daemon.supportDir, '--agent', 'tester']);
    const send = (await claude.listTools()).tools.find((tool) => tool.name === 'send_notification')!;
    expect(send.inputSchema.required).toBeUndefined();
    const sent = jsonOf(await use(claude, 'send_notification', { title: 'From the agent' }));
    expect(await n.record('agent.tester', sent.id)).toMatchObject({ app: 'agent.tester' });
  });

  test('update_app_settings changes settings but cannot grant; delete_app removes the app', async () => {
    await send({ app: 'gone', title: 'Soon removed' });
    const changed = jsonOf(await use(agent, 'update_app_settings', { app: 'gone', muteBanners: true }));
    expect(changed).toMatchObject({ ok: true, applied: ['muteBanners'] });
    const grant = await use(agent, 'update_app_settings', { app: 'gone', revokeCommands: false });
    expect(grant.isError).toBe(true);
    expect(textOf(grant)).toMatch(/^Notifier returned 403: /);
    expect(jsonOf(await use(agent, 'delete_app', { app: 'gone' }))).toEqual({ ok: true, deleted: 'gone' });
    expect(jsonOf(await use(agent, 'list_apps')).apps.map((entry: { app: string }) => entry.app)).not.toContain('gone');
  });

  test('GET /v1/mcp finds the agent server next to the daemon, also when the daemon runs inside the tests', async () => {
    const reply = await n.api('GET', '/v1/mcp');
    expect(reply.json.server).toMatchObject({ found: true, path: MCP_MAIN, command: process.execPath });
  });

  test('an unknown tool is a protocol error, not a result', async () => {
    await expect(use(agent, 'press_button', { app: 'mcp', id: 'ask' })).rejects.toThrow(/unknown tool: press_button/);
  });
});

describe('notifier-mcp when Notifier is not running', () => {
  test('a call is an isError result saying Notifier is not running; herald_status still answers', async () => {
    const n = await startInProcess();
    const agent = await agentClient(['--support-dir', n.daemon.supportDir]);
    jsonOf(await use(agent, 'list_apps'));
    const supportDir = n.daemon.supportDir;
    await n.stop();
    // Its folder has no port file any more: nothing is called (not even the default port, where another Notifier may be).
    const result = await use(agent, 'send_notification', { app: 'mcp', title: 'Anyone there?' });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain(`Notifier is not running: there is no port file in ${supportDir}. Start it`);
    const status = jsonOf(await use(agent, 'herald_status'));
    expect(status).toMatchObject({
      running: false,
      supportDirectory: supportDir,
      portFile: false,
      hint: expect.stringMatching(/not running/),
    });
    expect(status).not.toHaveProperty('port');
  });
});
