import { chmod, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { beforeAll, describe, expect, test } from '@jest/globals';
import { type Running, answerQuestion, channel, eventually, startInProcess } from '../helpers/in-process.js';
import { tempFolder } from '../helpers/daemon.js';
import { exists } from '../helpers/support.js';
import { missingField } from '../helpers/http.js';

// Buttons that run code or open things. Code runs only for an app that asked (`allowCommands`) and that the
// person allowed, by answering the banner's question through the private channel.

describe('command, script and shortcut buttons', () => {
  let n: Running;
  let out: string;
  beforeAll(async () => {
    n = await startInProcess();
    out = await tempFolder('notifier-actions-');
    const scripts = path.join(n.daemon.supportDir, 'scripts');
    await mkdir(scripts, { recursive: true });
    // The script records what it was given: its stdin and its NOTIFIER_* environment.
    await writeFile(
      path.join(scripts, 'record.sh'),
      `#!/bin/sh\ncat > "${out}/stdin.json"\nenv | grep '^NOTIFIER_' | sort > "${out}/env.txt"\necho "script ran"\n`,
    );
    await writeFile(path.join(scripts, 'fails.sh'), '#!/bin/sh\necho "disk full" >&2\nexit 3\n');
    await writeFile(path.join(scripts, 'plain'), '#!/bin/sh\necho hi\n');
  });

  const send = (app: string, id: string, button: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    n.notify({ app, id, title: 'Deploy', buttons: [{ label: 'Run', ...button }], ...extra });
  const openQuestions = async () => (await channel(n.daemon.channelPath, { op: 'questions' })).questions;
  /**
   * The question a pressed button asks. An app that registered `allowCommands: true` has its standing request
   * waiting already (kind `allowCommands`, no banner); the press makes it the button's (`commands`).
   */
  const buttonsQuestion = () =>
    eventually(async () => (await openQuestions()).find((q: { kind: string }) => q.kind === 'commands'), "the button's question");

  test('an app that did not ask for command permission cannot run anything; the record says so', async () => {
    await send('noask', 'x', { command: `touch ${out}/never` });
    n.person.press('noask', 'x', 'run');
    await eventually(async () => (await n.record('noask', 'x')).actionNote);
    expect((await n.record('noask', 'x')).actionNote).toBe('Run: noask is not allowed to run commands, scripts and shortcuts');
    expect(await exists(`${out}/never`)).toBe(false);
    expect(await openQuestions()).toEqual([]);
  });

  test('a script does not run before the person allows it, then runs with the notification on stdin and NOTIFIER_* variables', async () => {
    await n.api('POST', '/v1/register', { body: { app: 'deployer', appName: 'Deployer', allowCommands: true } });
    await send('deployer', 'd1', { script: 'record.sh' }, { project: 'apollo', body: 'ship it' });
    const [request] = await openQuestions();
    expect(request).toMatchObject({ app: 'deployer', kind: 'allowCommands' });
    n.person.press('deployer', 'd1', 'run');
    const question = await buttonsQuestion();
    expect(question.id).toBe(request.id);
    expect(await openQuestions()).toHaveLength(1);
    expect(question).toMatchObject({ app: 'deployer', kind: 'commands', text: 'Let Deployer run commands, scripts and shortcuts?' });
    expect(question.detail).toMatch(/^script record\.sh \(SHA-256 [0-9a-f]{64}\)$/);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await exists(`${out}/stdin.json`)).toBe(false); // nothing ran yet
    await answerQuestion(n, 'deployer', true);
    await eventually(async () => (await n.record('deployer', 'd1')).dismissedAt, 'the script to run');
    expect(await n.record('deployer', 'd1')).toMatchObject({ actionUsed: 'Run' });
    const stdin = JSON.parse(await readFile(`${out}/stdin.json`, 'utf8'));
    expect(stdin).toMatchObject({
      app: 'deployer',
      id: 'd1',
      action: { id: 'run', label: 'Run', kind: 'script' },
      fields: { project: 'apollo' },
    });
    const env = await readFile(`${out}/env.txt`, 'utf8');
    expect(env).toContain('NOTIFIER_APP=deployer\n');
    expect(env).toContain('NOTIFIER_NOTIFICATION_ID=d1\n');
    expect(env).toContain('NOTIFIER_ACTION=Run\n');
    expect(env).toContain('NOTIFIER_ACTION_KIND=script\n');
    expect(env).toContain('NOTIFIER_FIELD_PROJECT=apollo\n');
    const log = await readFile(path.join(n.daemon.supportDir, 'logs', 'actions.log'), 'utf8');
    expect(log).toMatch(/\[deployer\] d1 script "Run": ran\nscript ran\n/);
    expect((await stat(path.join(n.daemon.supportDir, 'logs', 'actions.log'))).mode & 0o777).toBe(0o600);
  });

  test('once allowed, commands run at once; fields are never put into the command text', async () => {
    // The command is the app's own text; a field that looks like shell code stays data.
    await send(
      'deployer',
      'd2',
      { command: `printf '%s' "$NOTIFIER_FIELD_TARGET" > ${out}/target.txt` },
      { target: '$(touch /tmp/notifier-pwned)' },
    );
    n.person.press('deployer', 'd2', 'run');
    await eventually(async () => (await n.record('deployer', 'd2')).dismissedAt);
    expect(await readFile(`${out}/target.txt`, 'utf8')).toBe('$(touch /tmp/notifier-pwned)');
    expect(await exists('/tmp/notifier-pwned')).toBe(false);
  });

  test('a failing script leaves the banner up with the first line of its output', async () => {
    await send('deployer', 'd3', { script: 'fails.sh' });
    n.person.press('deployer', 'd3', 'run');
    await eventually(async () => (await n.record('deployer', 'd3')).actionNote);
    expect((await n.record('deployer', 'd3')).actionNote).toBe('Run: exit 3: disk full');
    expect((await n.record('deployer', 'd3')).dismissedAt).toBeUndefined();
  });

  test('a missing script, and one that is neither executable nor of a known kind, are noted', async () => {
    await send('deployer', 'd4', { script: 'absent.sh' });
    await send('deployer', 'd5', { script: 'plain' });
    n.person.press('deployer', 'd4', 'run');
    n.person.press('deployer', 'd5', 'run');
    await eventually(async () => (await n.record('deployer', 'd5')).actionNote);
    await eventually(async () => (await n.record('deployer', 'd4')).actionNote);
    expect((await n.record('deployer', 'd4')).actionNote).toBe('Run: script not found: absent.sh');
    expect((await n.record('deployer', 'd5')).actionNote).toMatch(/^Run: script is not executable/);
    await chmod(path.join(n.daemon.supportDir, 'scripts', 'plain'), 0o755);
    await send('deployer', 'd6', { script: 'plain' });
    n.person.press('deployer', 'd6', 'run');
    await eventually(async () => (await n.record('deployer', 'd6')).dismissedAt);
  });

  test('a shortcut needs a shortcuts tool; where there is none the record says so', async () => {
    await send('deployer', 'd7', { shortcut: 'Log deploy', input: '{title}' });
    n.person.press('deployer', 'd7', 'run');
    await eventually(async () => (await n.record('deployer', 'd7')).actionNote);
    expect((await n.record('deployer', 'd7')).actionNote).toMatch(/^Run: there is no shortcuts tool on this computer/);
  });

  test('withdrawing the request (allowCommands: false) withdraws the permission; a refusal runs nothing', async () => {
    await n.api('POST', '/v1/register', { body: { app: 'deployer', allowCommands: false } });
    expect((await n.api('GET', '/v1/actions/approvals')).json.apps.find((a: { app: string }) => a.app === 'deployer')).toBeUndefined();
    await n.api('POST', '/v1/register', { body: { app: 'deployer', allowCommands: true } });
    await send('deployer', 'd8', { command: `touch ${out}/refused` });
    n.person.press('deployer', 'd8', 'run');
    await buttonsQuestion();
    await answerQuestion(n, 'deployer', false);
    await eventually(async () => (await n.record('deployer', 'd8')).actionNote);
    expect((await n.record('deployer', 'd8')).actionNote).toBe('Run: the person did not allow Deployer to run commands');
    expect(await exists(`${out}/refused`)).toBe(false);
  });
});

describe('link, app and plain buttons', () => {
  test('a link button opens the link and closes the banner', async () => {
    const n = await startInProcess();
    await n.notify({ app: 'links', id: 'l', title: 't', buttons: [{ label: 'Docs', url: 'https://example.com/docs' }] });
    n.person.press('links', 'l', 'docs');
    await eventually(async () => (await n.record('links', 'l')).dismissedAt);
    expect(n.person.opened).toEqual([{ url: 'https://example.com/docs' }]);
    expect((await n.record('links', 'l')).actionUsed).toBe('Docs');
  });

  test('openApp brings the named app forward, or the sender when empty; without one the record says so', async () => {
    const n = await startInProcess();
    await n.api('POST', '/v1/register', { body: { app: 'editor', bundleId: 'org.example.Editor' } });
    await n.notify({ app: 'editor', id: 'e', title: 't', buttons: [{ label: 'Show', openApp: {} }] });
    await n.notify({ app: 'editor', id: 'f', title: 't', buttons: [{ label: 'Files', openApp: { path: '/usr/share/applications' } }] });
    await n.notify({ app: 'anon', id: 'g', title: 't', buttons: [{ label: 'Show', openApp: {} }] });
    for (const [app, id, action] of [
      ['editor', 'e', 'show'],
      ['editor', 'f', 'files'],
      ['anon', 'g', 'show'],
    ] as const)
      n.person.press(app, id, action);
    await eventually(async () => (await n.record('anon', 'g')).actionNote);
    await eventually(async () => (await n.record('editor', 'f')).dismissedAt);
    expect(n.person.opened).toEqual(
      expect.arrayContaining([{ app: { bundleId: 'org.example.Editor' } }, { app: { path: '/usr/share/applications' } }]),
    );
    expect((await n.record('anon', 'g')).actionNote).toBe('Show: no installed application found');
  });

  test('a label-only button closes the banner; a reply button waits for the text', async () => {
    const n = await startInProcess();
    await n.notify({ app: 'plain', id: 'p', title: 't', buttons: [{ label: 'Got it' }, { label: 'Answer', reply: {} }] });
    n.person.press('plain', 'p', 'answer');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await n.record('plain', 'p')).dismissedAt).toBeUndefined();
    n.person.press('plain', 'p', 'got-it');
    await eventually(async () => (await n.record('plain', 'p')).dismissedAt);
    expect((await n.record('plain', 'p')).actionUsed).toBe('Got it');
  });

  test('on a headless daemon nothing can be opened: the presenter says why, and that reason is what gets noted', async () => {
    const { HeadlessPresenter } = await import('../../daemon/present/headless.js');
    await expect(new HeadlessPresenter().open({ url: 'https://example.com' })).rejects.toThrow(
      'there is no desktop session to open it on (headless)',
    );
    const n = await startInProcess();
    n.person.openFails = 'there is no desktop session to open it on (headless)';
    await n.notify({ app: 'h', id: 'x', title: 't', buttons: [{ label: 'Docs', url: 'https://example.com' }] });
    n.person.press('h', 'x', 'docs');
    await eventually(async () => (await n.record('h', 'x')).actionNote);
    expect((await n.record('h', 'x')).actionNote).toBe('Docs: there is no desktop session to open it on (headless)');
  });
});

describe('approvals through the API: read and revoke, never grant', () => {
  test('GET lists, DELETE revokes, and no method grants', async () => {
    const n = await startInProcess();
    const list = await n.api('GET', '/v1/actions/approvals');
    expect(list.json).toEqual({ items: [], apps: [], note: expect.stringContaining('only be listed and revoked') });
    for (const method of ['POST', 'PUT']) {
      const reply = await n.api(method, '/v1/actions/approvals', { body: { app: 'x', template: 'y' } });
      expect(reply.status).toBe(405);
    }
    expect((await n.api('DELETE', '/v1/actions/approvals?template=t')).json).toEqual(missingField('app'));
    expect((await n.api('DELETE', '/v1/actions/approvals?app=x')).json).toEqual(missingField('template'));
    expect(await n.api('DELETE', '/v1/actions/approvals?app=x&template=t')).toMatchObject({
      status: 404,
      json: { error: 'no approval for x / t' },
    });
    expect((await n.api('DELETE', '/v1/actions/approvals?app=x&commands=false')).status).toBe(403);

    await n.api('POST', '/v1/register', { body: { app: 'granted', allowCommands: true } });
    await n.notify({ app: 'granted', id: 'g', title: 't', buttons: [{ label: 'Run', command: 'true' }] });
    n.person.press('granted', 'g', 'run');
    await eventually(async () => (await channel(n.daemon.channelPath, { op: 'questions' })).questions.length > 0);
    await answerQuestion(n, 'granted', true);
    await eventually(async () => (await n.record('granted', 'g')).dismissedAt);
    expect((await n.api('GET', '/v1/actions/approvals')).json.apps).toEqual([
      { app: 'granted', commandsAllowed: true, commandsApprovedAt: expect.any(String), callbackHosts: [] },
    ]);
    expect((await n.api('DELETE', '/v1/actions/approvals?app=granted&commands=true')).json).toEqual({ ok: true });
    expect((await n.api('GET', '/v1/actions/approvals')).json.apps).toEqual([]);
  });

  test('the private channel: questions, watch, and answers only for questions that exist', async () => {
    const n = await startInProcess();
    expect((await stat(n.daemon.channelPath)).mode & 0o777).toBe(0o600);
    expect(await channel(n.daemon.channelPath, { op: 'answer', id: 'nope', allow: true })).toEqual({
      ok: false,
      error: 'no such question',
    });
    expect(await channel(n.daemon.channelPath, { op: 'grant' })).toMatchObject({ ok: false });
    expect(await channel(n.daemon.channelPath, { op: 'answer', id: 'x' })).toMatchObject({ ok: false });
    const { socket: watcher, received: events } = await channelConnection(n.daemon.channelPath, [{ op: 'watch' }]);
    await eventually(() => events.length > 0);
    await n.api('POST', '/v1/register', { body: { app: 'watched', allowCommands: true } });
    await n.notify({ app: 'watched', id: 'w', title: 't', buttons: [{ label: 'Run', command: 'true' }] });
    n.person.press('watched', 'w', 'run');
    await eventually(() => events.some((event) => event.event === 'questions' && event.questions.length === 1), 'the watch event');
    await answerQuestion(n, 'watched', true);
    await eventually(() => events.at(-1).questions.length === 0, 'the question to go');
    watcher.destroy();
  });

  test('the private channel: several requests under way on one connection, each answer carries its request’s seq', async () => {
    const n = await startInProcess();
    await n.notify({ app: 'shown', id: 's', title: 'Show me again' });
    // `show` waits for the banner, `questions` does not: the answers may come in either order.
    const requests = [
      { op: 'show', app: 'shown', id: 's', seq: 1 },
      { op: 'questions', seq: 'two' },
      { op: 'recent', limit: 1 },
    ];
    const { socket, received: answers } = await channelConnection(n.daemon.channelPath, requests);
    await eventually(() => answers.length === 3, 'three answers');
    socket.destroy();
    expect(answers.find((answer) => answer.seq === 1)).toEqual({ ok: true, seq: 1 });
    expect(answers.find((answer) => answer.seq === 'two')).toEqual({ ok: true, questions: [], seq: 'two' });
    expect(answers.find((answer) => answer.seq === undefined)).toMatchObject({ ok: true, notifications: [{ id: 's' }] });
  });
});

/** One connection to the private channel that stays open: the requests sent at once, every line received as it comes. */
async function channelConnection(path: string, requests: object[]): Promise<{ socket: import('node:net').Socket; received: any[] }> {
  const net = await import('node:net');
  const received: any[] = [];
  const socket = net.connect(path, () => socket.write(requests.map((request) => `${JSON.stringify(request)}\n`).join('')));
  let buffered = '';
  socket.on('data', (chunk) => {
    buffered += chunk.toString();
    for (let end = buffered.indexOf('\n'); end >= 0; end = buffered.indexOf('\n')) {
      received.push(JSON.parse(buffered.slice(0, end)));
      buffered = buffered.slice(end + 1);
    }
  });
  return { socket, received };
}
