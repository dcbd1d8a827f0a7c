// The `notifier` command against a real daemon: the built CLI runs as a child process with NOTIFIER_SUPPORT_DIR
// pointing at the daemon's support folder, as a person runs it. What each command sends is pinned in
// routes.test.ts; here: what comes back, the files it writes, and the exit codes.

import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { CLI, type DaemonProcess, ROOT, startDaemon, tempFolder } from '../helpers/daemon.js';
import { type Running, eventually, startInProcess, whenWaiting } from '../helpers/in-process.js';
import { type Run, runProgram } from '../helpers/process.js';

let daemon: DaemonProcess;
let workDir: string;

function notifier(args: string[], options: { stdin?: string; supportDir?: string } = {}): Promise<Run> {
  return runProgram(process.execPath, [CLI, ...args], {
    cwd: workDir,
    env: { NOTIFIER_SUPPORT_DIR: options.supportDir ?? daemon.supportDir },
    ...(options.stdin !== undefined ? { stdin: options.stdin } : {}),
  });
}

/** A command that must succeed: its reply. */
async function ok(args: string[], options: { stdin?: string } = {}): Promise<any> {
  const result = await notifier(args, options);
  expect([args, result.code, result.stderr]).toEqual([args, 0, '']);
  return JSON.parse(result.stdout);
}

beforeAll(async () => {
  daemon = await startDaemon();
  workDir = await tempFolder('notifier-cli-work-');
});

afterAll(async () => {
  await daemon?.stop();
  await rm(daemon.supportDir, { recursive: true, force: true });
  await rm(workDir, { recursive: true, force: true });
});

describe('the tool finds the running service', () => {
  test('health answers with the version and pid, as sorted JSON', async () => {
    const result = await notifier(['health']);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      `{\n  "ok": true,\n  "pid": ${daemon.child.pid},\n  "version": ${JSON.stringify(JSON.parse(result.stdout).version)}\n}\n`,
    );
  });

  test('global options work after the command: --port and --token with no support folder files', async () => {
    const empty = await tempFolder('notifier-cli-elsewhere-');
    try {
      const health = await notifier(['health', '--port', String(daemon.port)], { supportDir: empty });
      expect([health.code, JSON.parse(health.stdout).pid]).toEqual([0, daemon.child.pid]);
      const apps = await notifier(['apps', `--port=${daemon.port}`, '--token', daemon.token], { supportDir: empty });
      expect([apps.code, Array.isArray(JSON.parse(apps.stdout).apps)]).toEqual([0, true]);
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });

  test('--support-dir, as `notifier daemon` takes it, before or after the command, beats NOTIFIER_SUPPORT_DIR', async () => {
    const empty = await tempFolder('notifier-cli-elsewhere-');
    try {
      for (const args of [
        ['--support-dir', daemon.supportDir, 'health'],
        ['health', '--support-dir', daemon.supportDir],
        ['history', 'search', 'nothing', `--support-dir=${daemon.supportDir}`],
        ['settings', 'get', '--support-dir', daemon.supportDir],
      ]) {
        const run = await notifier(args, { supportDir: empty });
        expect([args, run.code, run.stderr]).toEqual([args, 0, '']);
      }
      // Pointed at a folder of its own without a port file: that instance is not running (exit 2), whatever the env says.
      const stopped = await notifier(['health', '--support-dir', empty]);
      expect([stopped.code, stopped.stderr]).toEqual([
        2,
        `Notifier is not running: there is no port file in ${empty}. Start it with 'npm start' or 'notifier daemon'.\n`,
      ]);
      expect((await notifier(['--help'])).stdout).toContain('--support-dir <folder>');
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });
});

describe('notify', () => {
  test('buttons, a reminder and a follow-up reach History as sent', async () => {
    const reply = await ok([
      'notify',
      '--app',
      'cli.demo',
      '--id',
      'deploy-1',
      '--title',
      'Deploy finished',
      '--body',
      'All green',
      '--timeout',
      '0',
      '--button',
      'Open=https://example.com/run/1',
      '--button',
      'Ack=cb:{"ticket":42}',
      '--button',
      'Later=cb:',
      '--reminder',
      'Check deploy|2030-01-02T03:04:05Z',
      '--follow-up-after',
      '2h',
      '--follow-up-ref',
      'ack',
    ]);
    expect(reply).toEqual({ ok: true, id: 'deploy-1' });
    const [record] = (await daemon.api('GET', '/v1/history?app=cli.demo')).json.items;
    expect(record.notification).toMatchObject({
      title: 'Deploy finished',
      body: 'All green',
      buttons: [
        { label: 'Open', url: 'https://example.com/run/1' },
        { label: 'Ack', callback: { payload: { ticket: 42 } } },
        { label: 'Later', callback: {} },
      ],
      reminder: { title: 'Check deploy', due: '2030-01-02T03:04:05Z' },
      followUp: { after: 7200, actionRef: 'ack' },
    });
  });

  test('an inline follow-up action and --json - from standard input, flags on top', async () => {
    const reply = await ok(
      ['notify', '--json', '-', '--title', 'From a flag', '--follow-up-after', '90s', '--follow-up-shortcut', 'Escalate'],
      {
        stdin: JSON.stringify({ app: 'cli.json', id: 'piped', title: 'From stdin', body: 'Body from stdin' }),
      },
    );
    expect(reply).toEqual({ ok: true, id: 'piped' });
    const [record] = (await daemon.api('GET', '/v1/history?app=cli.json')).json.items;
    expect(record.notification).toMatchObject({
      title: 'From a flag',
      body: 'Body from stdin',
      followUp: { after: 90, action: { label: 'Escalate', kind: 'shortcut', shortcut: 'Escalate' } },
    });
  });

  test('--button Later closes the banner; --button "Answer=reply:Type here" takes the reply the person types', async () => {
    // The in-process daemon, so the test can play the person; the CLI reaches it with --port and --token.
    const n = await startInProcess();
    const via = ['--port', String(n.daemon.port), '--token', n.daemon.token];
    const sent = ['notify', '--app', 'cli.ask', '--title', 'Ship it?', '--button', 'Answer=reply:Type here', '--button', 'Later'];
    const first = await ok([...sent, '--id', 'first', ...via]);
    await ok([...sent, '--id', 'second', ...via]);
    expect(first).toEqual({ ok: true, id: 'first' });
    expect(n.person.banner('cli.ask', 'first')!.actions).toEqual([
      { actionId: 'answer', label: 'Answer', kind: 'reply', placeholder: 'Type here' },
      { actionId: 'later', label: 'Later', kind: 'dismiss' },
    ]);
    n.person.reply('cli.ask', 'first', 'answer', 'Yes, today');
    n.person.press('cli.ask', 'second', 'later');
    const replies = await eventually(async () => {
      const { json } = await n.api('GET', '/v1/replies?app=cli.ask');
      return json.count > 0 && json;
    }, 'the reply');
    expect(replies).toMatchObject({ count: 1, replies: [{ notificationId: 'first', text: 'Yes, today' }] });
    await eventually(async () => (await n.record('cli.ask', 'second')).dismissedAt, 'Later to close the banner');
    expect(n.person.banner('cli.ask', 'second')).toBeUndefined();
    expect((await n.record('cli.ask', 'second')).actionUsed).toBe('Later');
  });

  test('a field the service refuses: its reply on standard output, exit 1', async () => {
    const result = await notifier(['notify', '--app', 'cli.demo', '--title', 'T', '--button', 'Bad=ftp://example.com']);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout).error).toMatch(/buttons\[0\]\.url/);
    expect(result.stderr).toBe('');
  });
});

describe('waiting for the person: notify --wait and replies --wait', () => {
  let n: Running;
  let via: string[];
  beforeAll(async () => {
    // The in-process daemon, so the test can play the person; the CLI reaches it with --port and --token.
    n = await startInProcess();
    via = ['--port', String(n.daemon.port), '--token', n.daemon.token];
  });

  const waiting = (id: string) => whenWaiting(n, id);
  const ask = (id: string, ...more: string[]) =>
    notifier([
      'notify',
      '--app',
      'cli.wait',
      '--id',
      id,
      '--title',
      'Deploy now?',
      '--button',
      'Yes',
      '--button',
      'Why=reply:Why not?',
      ...more,
      ...via,
    ]);
  const done = (result: Run) => ({ code: result.code, stderr: result.stderr, out: result.stdout ? JSON.parse(result.stdout) : undefined });
  /** Runs `command` and, once it waits for `id`, lets the person `act`: the exit, stderr and JSON it then printed. */
  const actWhileWaiting = async (id: string, command: () => Promise<Run>, act: () => void) => {
    const open = waiting(id);
    const running = command();
    await open;
    act();
    return done(await running);
  };

  test('--wait: the button the person presses, as JSON, exit 0', async () => {
    const result = await actWhileWaiting(
      'w-button',
      () => ask('w-button', '--wait', '20'),
      () => n.person.press('cli.wait', 'w-button', 'yes'),
    );
    const endedAt = (await eventually(async () => (await n.record('cli.wait', 'w-button')).dismissedAt)) as string;
    expect(result).toEqual({
      code: 0,
      stderr: '',
      out: { id: 'w-button', app: 'cli.wait', answered: true, button: 'Yes', endedAt },
    });
  });

  test('--wait: the text the person types, as JSON, exit 0; the reply is taken from the queue', async () => {
    const result = await actWhileWaiting(
      'w-reply',
      () => ask('w-reply', '--wait'),
      () => n.person.reply('cli.wait', 'w-reply', 'why', 'tests are red'),
    );
    expect(result).toEqual({
      code: 0,
      stderr: '',
      out: { id: 'w-reply', app: 'cli.wait', answered: true, reply: 'tests are red', repliedAt: expect.any(String) },
    });
    expect((await n.api('GET', '/v1/replies?app=cli.wait')).json.count).toBe(0);
    expect((await n.record('cli.wait', 'w-reply')).reply).toBe('tests are red');
  });

  test('--wait: no answer in time prints the state and exits 3; a banner closed unanswered exits 4', async () => {
    expect(done(await ask('w-silent', '--wait', '1'))).toEqual({
      code: 3,
      stderr: '',
      out: { id: 'w-silent', app: 'cli.wait', answered: false, timedOut: true, waitedSeconds: 1 },
    });
    expect(n.person.banner('cli.wait', 'w-silent')).toBeDefined();

    const closed = await actWhileWaiting(
      'w-closed',
      () => ask('w-closed', '--wait=30s'),
      () => n.person.closeByPerson('cli.wait', 'w-closed'),
    );
    expect(closed).toEqual({
      code: 4,
      stderr: '',
      out: { id: 'w-closed', app: 'cli.wait', answered: false, ended: true, actionUsed: 'close', endedAt: expect.any(String) },
    });
  });

  test('--wait: a notification the service refuses is printed as always, exit 1, and nothing waits', async () => {
    const result = await notifier(['notify', '--app', 'cli.wait', '--title', 'T', '--button', 'Bad=ftp://x', '--wait', '5', ...via]);
    expect([result.code, JSON.parse(result.stdout).error]).toEqual([1, expect.stringMatching(/buttons\[0\]\.url/)]);
  });

  test('replies lists the queue; replies --wait ID gives the reply typed while it waits (exit 0), or exit 3', async () => {
    await ok(['notify', '--app', 'cli.replies', '--id', 'r1', '--title', 'Lunch?', '--button', 'Answer=reply:', ...via]);
    const answered = await actWhileWaiting(
      'r1',
      () => notifier(['replies', '--wait', 'r1', '--app', 'cli.replies', '--timeout', '20', ...via]),
      () => n.person.reply('cli.replies', 'r1', 'answer', 'noodles'),
    );
    expect(answered).toEqual({
      code: 0,
      stderr: '',
      out: {
        replied: true,
        reply: { notificationId: 'r1', app: 'cli.replies', title: 'Lunch?', text: 'noodles', repliedAt: expect.any(String) },
      },
    });
    await ok(['notify', '--app', 'cli.replies', '--id', 'r2', '--title', 'Dinner?', '--button', 'Answer=reply:', ...via]);
    n.person.reply('cli.replies', 'r2', 'answer', 'soup');
    await eventually(async () => (await n.api('GET', '/v1/replies?app=cli.replies')).json.count === 1);
    expect(await ok(['replies', '--app', 'cli.replies', ...via])).toMatchObject({
      count: 1,
      replies: [{ notificationId: 'r2', text: 'soup' }],
    });
    expect(done(await notifier(['replies', '--wait', 'r3', '--app', 'cli.replies', '--timeout', '1', ...via]))).toEqual({
      code: 3,
      stderr: '',
      out: { replied: false, timedOut: true, waitedSeconds: 1 },
    });
  });
});

describe('history', () => {
  beforeAll(async () => {
    for (const [id, title] of [
      ['h1', 'Build failed on main'],
      ['h2', 'Coffee is ready'],
      ['h3', 'Build passed on main'],
    ]) {
      await ok(['notify', '--app', 'cli.history', '--id', id, '--title', title]);
    }
  });

  test('list, search, re-show, delete and clear', async () => {
    expect((await ok(['history', '--app', 'cli.history'])).items.map((item: { id: string }) => item.id)).toEqual(['h3', 'h2', 'h1']);
    expect((await ok(['history', '--app', 'cli.history', '--limit', '1'])).items).toHaveLength(1);

    const found = await ok(['history', 'search', 'build', 'main', '--app', 'cli.history']);
    expect([found.query, found.count, found.items.map((item: { id: string }) => item.id)]).toEqual(['build main', 2, ['h3', 'h1']]);

    expect(await ok(['history', 'reshow', '--app', 'cli.history', '--id', 'h2'])).toEqual({ ok: true, id: 'h2' });

    expect(await ok(['history', 'delete', '--app', 'cli.history', '--id', 'h1'])).toEqual({ ok: true });
    const missing = await notifier(['history', 'delete', '--app', 'cli.history', '--id', 'h1']);
    expect([missing.code, JSON.parse(missing.stdout).error]).toEqual([1, expect.any(String)]);

    const exported = await notifier(['history', 'export', '--app', 'cli.history', '--out', 'history.json']);
    const file = path.join(workDir, 'history.json');
    expect([exported.code, exported.stdout]).toEqual([0, `Wrote ${file} (2 records)\n`]);
    // h2 was shown again, so it is the newest
    expect(JSON.parse(await readFile(file, 'utf8')).map((item: { id: string }) => item.id)).toEqual(['h2', 'h3']);

    expect(await ok(['history', '--app', 'cli.history', '--clear'])).toEqual({ ok: true });
    expect((await ok(['history', '--app', 'cli.history'])).items).toEqual([]);
  });
});

describe('templates', () => {
  test('put from a file, export to a bundle file, import it into another app', async () => {
    const template = {
      app: 'cli.tpl',
      name: 'card',
      grid: { rows: 1, cols: 1 },
      cells: [{ id: 'title', row: 0, col: 0, component: { type: 'text', binding: '{title}', style: 'title' } }],
    };
    await writeFile(path.join(workDir, 'card.json'), JSON.stringify(template));
    expect(await ok(['template', 'put', 'card.json'])).toEqual({ ok: true });

    const exported = await notifier(['template', 'export', '--app', 'cli.tpl', '--name', 'card']);
    const bundle = path.join(workDir, 'card.notifiertemplate');
    expect([exported.code, exported.stdout, exported.stderr]).toEqual([0, `Wrote ${bundle} (0 animation files)\n`, '']);
    expect((await readFile(bundle)).subarray(0, 2).toString()).toBe('PK');

    const imported = await ok(['template', 'import', 'card.notifiertemplate', '--app', 'cli.tpl.copy']);
    expect(imported).toMatchObject({ ok: true, app: 'cli.tpl.copy', name: 'card', replaced: false });
    const again = await ok(['template', 'import', '--file', bundle, '--app', 'cli.tpl.copy']);
    expect(again).toMatchObject({ name: 'card 2', renamedFrom: 'card' });
    const refused = await notifier(['template', 'import', bundle, '--app', 'cli.tpl.copy', '--fail']);
    expect([refused.code, JSON.parse(refused.stdout)]).toEqual([
      1,
      { error: 'a template named card already exists for cli.tpl.copy', code: 'template_exists' },
    ]);

    const listed = await ok(['template', 'list', '--app', 'cli.tpl.copy']);
    expect(listed.items.map((item: { name: string }) => item.name)).toEqual(expect.arrayContaining(['card', 'card 2']));
  });
});

describe('settings, quiet hours, apps, voice and the agent server', () => {
  test('settings set keeps JSON types and prints only what it applied; a refused value is exit 1 with the reply', async () => {
    const result = await notifier(['settings', 'set', 'muteAllSounds=true', 'historyCapPerApp=500']);
    expect([result.code, result.stderr]).toEqual([0, '']);
    expect(result.stdout).toBe('{\n  "applied": {\n    "historyCapPerApp": 500,\n    "muteAllSounds": true\n  }\n}\n');
    const everything = await ok(['settings', 'get']);
    expect(everything.settings).toMatchObject({ muteAllSounds: true, historyCapPerApp: 500 });
    expect(Object.keys(everything)).toEqual(expect.arrayContaining(['options', 'schema', 'settings'])); // get prints it all
    const refused = await notifier(['settings', 'set', 'historyCapPerApp=lots']);
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout).error).toMatch(/^invalid value for historyCapPerApp/);
    await ok(['settings', 'set', 'muteAllSounds=false']);
  });

  test('quiet --for, quiet status, quiet off', async () => {
    const quiet = await ok(['quiet', '--for', '30', '--banners']);
    expect(quiet.status).toMatchObject({ active: true, banners: true, sounds: true, speech: true });
    expect((await ok(['quiet', 'status'])).status.active).toBe(true);
    expect((await ok(['quiet', 'off'])).status.active).toBe(false);
    const wrong = await notifier(['quiet', '--until', '7pm']);
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toMatch(/^notifier: /);
  });

  test('apps settings, apps set and apps delete', async () => {
    await ok(['notify', '--app', 'cli.apps', '--title', 'Hello']);
    expect((await ok(['apps', 'set', '--app', 'cli.apps', 'muteBanners=true', 'timeout=30'])).applied).toEqual(['muteBanners', 'timeout']);
    expect((await ok(['apps', 'settings', '--app', 'cli.apps'])).apps[0].settings).toMatchObject({ muteBanners: true, timeout: 30 });
    const grant = await notifier(['apps', 'set', '--app', 'cli.apps', 'revokeCommands=false']);
    expect(grant.code).toBe(1);
    expect(JSON.parse(grant.stdout).error).toMatch(/^revokeCommands: only true is accepted/);
    expect(await ok(['apps', 'delete', '--app', 'cli.apps'])).toEqual({ deleted: 'cli.apps', ok: true });
    expect((await notifier(['apps', 'delete', '--app', 'cli.apps'])).code).toBe(1);
  });

  test('voice status and mcp status', async () => {
    expect(await ok(['voice'])).toMatchObject({ engine: 'system', installed: true });
    expect((await notifier(['voice', 'install'])).code).toBe(1); // already installed: 409
    const mcp = await ok(['mcp', 'status']);
    expect(mcp.clients.map((client: { client: string }) => client.client)).toEqual(
      expect.arrayContaining(['claudeCode', 'codex', 'claudeDesktop']),
    );
  });
});

describe('exit codes and messages', () => {
  test('a wrong command line: exit 1, the message and a hint on standard error, nothing sent', async () => {
    const result = await notifier(['notify', '--app', 'cli.errors']);
    expect(result).toEqual({
      code: 1,
      stdout: '',
      stderr: "notifier: --title is required (or --template naming a template that gives one)\nRun 'notifier help notify' for usage.\n",
    });
    expect((await daemon.api('GET', '/v1/history?app=cli.errors')).json.items).toEqual([]);
  });

  test('a wrong token: the 401 reply on standard output, the unauthorized hint on standard error, exit 1', async () => {
    const result = await notifier(['apps', '--token', 'wrong']);
    expect(result.code).toBe(1);
    expect(JSON.parse(result.stdout)).toHaveProperty('error');
    expect(result.stderr).toBe('notifier: unauthorized (check the token file or --token)\n');
  });

  test('no service: exit 2 with a message on standard error', async () => {
    const gone = await tempFolder('notifier-cli-gone-');
    // A port nobody listens on: one that was free a moment ago.
    const free = http.createServer();
    await new Promise<void>((resolve) => free.listen(0, '127.0.0.1', resolve));
    const port = (free.address() as AddressInfo).port;
    await new Promise((resolve) => free.close(resolve));
    await writeFile(path.join(gone, 'port'), String(port));
    try {
      const result = await notifier(['health'], { supportDir: gone });
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toBe(
        `Notifier is not running: nothing answered on 127.0.0.1:${port} (connection refused). Start it with 'npm start' or 'notifier daemon'.\n`,
      );
    } finally {
      await rm(gone, { recursive: true, force: true });
    }
  });

  test("a stopped instance's own folder (no port file): exit 2 'not running', never another instance on the default port", async () => {
    const stopped = await startDaemon();
    await stopped.stop();
    const result = await notifier(['apps'], { supportDir: stopped.supportDir });
    expect({ code: result.code, stdout: result.stdout, stderr: result.stderr }).toEqual({
      code: 2,
      stdout: '',
      stderr: `Notifier is not running: there is no port file in ${stopped.supportDir}. Start it with 'npm start' or 'notifier daemon'.\n`,
    });
  });

  test("help: `notifier help <command>` and --help print that command's usage; --version the tool's version", async () => {
    const pkg = JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8'));
    const help = await notifier(['help', 'history', 'search']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: notifier history search \[options\] \[words\.\.\.\]/);
    expect(help.stdout).not.toMatch(/Commands:/);
    expect((await notifier(['notify', '--help'])).stdout).toMatch(/--follow-up-after <duration>/);
    expect((await notifier(['help', 'snooze'])).stdout).toMatch(/^Usage: notifier snooze/);
    const version = await notifier(['--version']);
    expect([version.code, version.stdout]).toEqual([0, `${pkg.version}\n`]);
  });
});
