import { readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, test } from '@jest/globals';
import { ROOT, tempFolder, useDaemon } from '../helpers/daemon.js';
import { type Running, startInProcess } from '../helpers/in-process.js';
import { freePort } from '../helpers/http.js';
import { runProgram } from '../helpers/process.js';

// The Node client is plain JavaScript outside the build; its types come from clients/node/notifier.d.ts (TypeScript
// finds the declarations under the `.js` name), so `tsc` checks this file against them.
type Client = typeof import('../../clients/node/notifier.js');

const PYTHON_DIR = path.join(ROOT, 'clients', 'python');
const NODE_CJS = path.join(ROOT, 'clients', 'node', 'notifier.cjs');
const NODE_MJS = path.join(ROOT, 'clients', 'node', 'notifier.mjs');
// jest runs this file as CommonJS: `require` loads the CommonJS entry as a user's `require('notifier-client')` would.
const { Notifier, NotifierError, NotifierUnavailable, defaultSupportDir, DEFAULT_PORT } = require(NODE_CJS) as Client;

const run = runProgram;

/** Runs `use` against a local server, then closes it (and any connection it still holds). */
async function withServer<T>(server: net.Server, use: (port: number) => Promise<T>): Promise<T> {
  const sockets = new Set<net.Socket>();
  server.on('connection', (socket: net.Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    return await use((server.address() as net.AddressInfo).port);
  } finally {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
  }
}

const answering = (status: number, body: string, type = 'text/plain') =>
  http.createServer((_req, res) => res.writeHead(status, { 'Content-Type': type }).end(body));

async function rejection(promise: Promise<unknown>): Promise<any> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the promise to be rejected');
}

/**
 * Plays the person at an in-process daemon: when a request starts waiting for the reply to a banner whose reply
 * field reads `type: <text>`, the person types `<text>` into it (once per banner), so the reply comes while the
 * request waits. Banners without such a field get no reply. Only the person can reply: the test presenter is how a
 * test acts as them.
 */
function answerWaitedReplies(n: Running): void {
  const queue = n.daemon.core.replies;
  const wait = queue.wait.bind(queue);
  const answered = new Set<string>();
  queue.wait = (id, app, deliver) => {
    const stop = wait(id, app, deliver);
    const banner = [...n.person.onScreen.values()].find((shown) => shown.key.id === id && (app === undefined || shown.key.app === app));
    const field = banner?.actions.find((action) => action.kind === 'reply' && action.placeholder?.startsWith('type: '));
    if (banner && field && !answered.has(`${banner.key.app}/${id}`)) {
      answered.add(`${banner.key.app}/${id}`);
      setImmediate(() => n.person.reply(banner.key.app, id, field.actionId, field.placeholder!.slice('type: '.length)));
    }
    return stop;
  };
}

describe('client libraries against a running Notifier', () => {
  const daemon = useDaemon();
  const client = () => new Notifier({ supportDir: daemon().supportDir });
  const record = async (app: string, id: string) => {
    const matches = (await client().history(app)).filter((item) => item.id === id);
    expect(matches).toHaveLength(1);
    return matches[0]!;
  };

  test('the Python module passes its unittest suite against a daemon whose person answers reply fields', async () => {
    const n = await startInProcess();
    answerWaitedReplies(n);
    const result = await run('python3', ['-m', 'unittest', '-v', 'test_notifier'], {
      cwd: PYTHON_DIR,
      env: { NOTIFIER_SUPPORT_DIR: n.daemon.supportDir, PYTHONDONTWRITEBYTECODE: '1' },
    });
    // On failure the diff shows unittest's whole report.
    expect({ code: result.code, report: result.stderr }).toEqual({ code: 0, report: expect.stringMatching(/\nOK\n?$/) });
  }, 120_000);

  describe('Node (CommonJS entry)', () => {
    test('the port comes from the support folder, by option or NOTIFIER_SUPPORT_DIR', () => {
      expect(client().port).toBe(daemon().port);
      expect(client().baseURL).toBe(`http://127.0.0.1:${daemon().port}`);
      expect(client().timeoutMs).toBe(10_000);
      const before = process.env.NOTIFIER_SUPPORT_DIR;
      process.env.NOTIFIER_SUPPORT_DIR = daemon().supportDir;
      try {
        expect(new Notifier().port).toBe(daemon().port);
      } finally {
        if (before === undefined) delete process.env.NOTIFIER_SUPPORT_DIR;
        else process.env.NOTIFIER_SUPPORT_DIR = before;
      }
    });

    test('the default support folder follows the daemon: NOTIFIER_SUPPORT_DIR, else the platform place', () => {
      expect(defaultSupportDir({ NOTIFIER_SUPPORT_DIR: 'relative/folder' })).toBe(path.resolve('relative/folder'));
      const expected =
        process.platform === 'darwin'
          ? path.join(os.homedir(), 'Library', 'Application Support', 'Notifier')
          : process.platform === 'win32'
            ? path.join('C:\\Users\\a\\AppData\\Roaming', 'Notifier')
            : path.join('/xdg/data', 'notifier');
      expect(defaultSupportDir({ XDG_DATA_HOME: '/xdg/data', APPDATA: 'C:\\Users\\a\\AppData\\Roaming' })).toBe(expected);
    });

    test('isAvailable is true and health reports the service', async () => {
      await expect(client().isAvailable()).resolves.toBe(true);
      const health = await client().health();
      expect(health).toEqual({ ok: true, version: expect.any(String), pid: daemon().child.pid });
    });

    test('notify returns the id and History holds it with the extra fields', async () => {
      const id = await client().notify('node-notify', 'Deploy done', { body: 'v2 is live', subtitle: undefined, project: 'beta' });
      expect(id).toEqual(expect.any(String));
      const item = await record('node-notify', id);
      expect(item.notification).toMatchObject({ title: 'Deploy done', body: 'v2 is live', metadata: { project: 'beta' } });
      expect(item.notification).not.toHaveProperty('subtitle');
      expect(item.fields).toMatchObject({ project: 'beta' });
      await expect(client().notify('node-own-id', 'Mine', { id: 'node-id-1' })).resolves.toBe('node-id-1');
    });

    test('history is newest first and honours the limit', async () => {
      const ids: string[] = [];
      for (const n of [0, 1, 2]) ids.push(await client().notify('node-limit', `Number ${n}`));
      expect((await client().history('node-limit', 2)).map((item) => item.id)).toEqual([ids[2], ids[1]]);
      expect(await client().history('node-limit')).toHaveLength(3);
    });

    test('register then apps lists the app', async () => {
      await expect(client().register('node-register', { appName: 'Node Register', callbackURL: undefined })).resolves.toBeUndefined();
      expect((await client().apps()).find((entry) => entry.app === 'node-register')).toEqual({
        app: 'node-register',
        appName: 'Node Register',
      });
    });

    test('dismiss closes one banner and keeps its record', async () => {
      const kept = await client().notify('node-dismiss', 'Stays', { persistent: true });
      const closed = await client().notify('node-dismiss', 'Goes', { persistent: true });
      expect(await record('node-dismiss', closed)).not.toHaveProperty('dismissedAt');
      await client().dismiss('node-dismiss', closed);
      expect(await record('node-dismiss', closed)).toHaveProperty('dismissedAt');
      expect(await record('node-dismiss', kept)).not.toHaveProperty('dismissedAt');
    });

    test("dismissAll closes one app's banners, or with no app every banner", async () => {
      const first = await client().notify('node-all-1', 'One', { persistent: true });
      const second = await client().notify('node-all-2', 'Two', { persistent: true });
      await client().dismissAll('node-all-1');
      expect(await record('node-all-1', first)).toHaveProperty('dismissedAt');
      expect(await record('node-all-2', second)).not.toHaveProperty('dismissedAt');
      await client().dismissAll();
      expect(await record('node-all-2', second)).toHaveProperty('dismissedAt');
    });

    test("clearHistory removes only that app's records and refuses an empty app", async () => {
      await client().notify('node-clear', 'Gone soon');
      const other = await client().notify('node-clear-other', 'Stays');
      await client().clearHistory('node-clear');
      expect(await client().history('node-clear')).toEqual([]);
      expect(await rejection(client().clearHistory(''))).toBeInstanceOf(TypeError);
      expect((await client().history('node-clear-other')).map((item) => item.id)).toEqual([other]);
    });

    test('a refused request rejects with NotifierError carrying status and message', async () => {
      const missingTitle = await rejection(client().notify('node-bad', undefined));
      expect(missingTitle).toBeInstanceOf(NotifierError);
      expect(missingTitle).not.toBeInstanceOf(NotifierUnavailable);
      expect({ status: missingTitle.status, message: missingTitle.message }).toEqual({ status: 400, message: 'missing field: title' });
      const badLimit = await rejection(client().history('node-bad', -1));
      expect({ status: badLimit.status, message: badLimit.message }).toEqual({ status: 400, message: expect.stringContaining('limit') });
    });

    test('a wrong token rejects with NotifierError 401; health needs no token', async () => {
      const wrong = new Notifier({ port: daemon().port, token: '0'.repeat(64) });
      const error = await rejection(wrong.apps());
      expect(error).toBeInstanceOf(NotifierError);
      expect(error.status).toBe(401);
      expect(error.message).not.toBe('');
      await expect(wrong.isAvailable()).resolves.toBe(true);
    });

    test('the token file is read again on every call unless a token is given', async () => {
      const folder = await tempFolder('notifier-node-client-');
      try {
        await writeFile(path.join(folder, 'port'), `${daemon().port}\n`);
        await writeFile(path.join(folder, 'token'), 'f'.repeat(64));
        const notifier = new Notifier({ supportDir: folder });
        expect((await rejection(notifier.apps())).status).toBe(401);
        await expect(new Notifier({ supportDir: folder, token: daemon().token }).apps()).resolves.toEqual(expect.any(Array));
        await writeFile(path.join(folder, 'token'), await readFile(path.join(daemon().supportDir, 'token')));
        await expect(notifier.apps()).resolves.toEqual(expect.any(Array));
      } finally {
        await rm(folder, { recursive: true, force: true });
      }
    });

    test('the port is read once it is there', async () => {
      const folder = await tempFolder('notifier-node-client-');
      await writeFile(path.join(folder, 'port'), '40001');
      const notifier = new Notifier({ supportDir: folder });
      await writeFile(path.join(folder, 'port'), '40002');
      expect(notifier.port).toBe(40001);
    });

    test('a folder of its own without a port file (a stopped instance): not running, and nothing is called', async () => {
      const folder = await tempFolder('notifier-node-client-');
      await writeFile(path.join(folder, 'token'), daemon().token);
      for (const portFile of ['48x17', undefined]) {
        if (portFile === undefined) await rm(path.join(folder, 'port'));
        else await writeFile(path.join(folder, 'port'), portFile);
        const notifier = new Notifier({ supportDir: folder });
        expect([notifier.port, notifier.baseURL]).toEqual([null, null]);
        const error = await rejection(notifier.apps());
        expect(error).toBeInstanceOf(NotifierUnavailable);
        expect(error.message).toBe(`Notifier is not running: there is no port file in ${folder}.`);
      }
      // The instance starts: the same object finds it on its next call.
      const waiting = new Notifier({ supportDir: folder });
      await writeFile(path.join(folder, 'port'), String(daemon().port));
      await expect(waiting.apps()).resolves.toEqual(expect.any(Array));
      expect(waiting.port).toBe(daemon().port);
    });

    test("the platform's own folder without a port file means 48617 (HOME and XDG_DATA_HOME in a temporary folder)", async () => {
      const home = await tempFolder('notifier-node-home-');
      const script = `
        const { Notifier, defaultSupportDir } = require(${JSON.stringify(NODE_CJS)});
        console.log(JSON.stringify({ folder: defaultSupportDir(), port: new Notifier().port,
          named: new Notifier({ supportDir: defaultSupportDir() }).port }));`;
      const env = { NOTIFIER_SUPPORT_DIR: '', HOME: home, XDG_DATA_HOME: path.join(home, 'data'), APPDATA: path.join(home, 'data') };
      const result = await run(process.execPath, ['-e', script], { env });
      expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
      const { folder, port, named } = JSON.parse(result.stdout);
      expect(folder.startsWith(home)).toBe(true);
      expect([port, named]).toEqual([DEFAULT_PORT, DEFAULT_PORT]);
      expect(DEFAULT_PORT).toBe(48617);
    });
  });

  describe('Node: replies and snooze', () => {
    let n: Running;
    let notifier: InstanceType<typeof Notifier>;
    beforeAll(async () => {
      n = await startInProcess();
      answerWaitedReplies(n);
      notifier = new Notifier({ supportDir: n.daemon.supportDir });
    });
    /** A notification with a reply field; `answer` is what the person types once a request waits (see answerWaitedReplies). */
    const ask = (app: string, answer?: string) =>
      notifier.notify(app, 'A question', { buttons: [{ label: 'Reply', reply: { placeholder: answer ? `type: ${answer}` : 'Why?' } }] });

    test('waitForReply resolves to the reply typed while it waits, and consumes it', async () => {
      const id = await ask('node-wait', 'Yes, ship it');
      expect(await notifier.replies({ app: 'node-wait' })).toEqual([]);
      const reply = await notifier.waitForReply(id, { app: 'node-wait', timeout: 20 });
      expect(reply).toEqual({
        notificationId: id,
        app: 'node-wait',
        title: 'A question',
        text: 'Yes, ship it',
        repliedAt: expect.any(String),
      });
      expect(await notifier.replies({ app: 'node-wait' })).toEqual([]);
      expect((await notifier.history('node-wait'))[0]!.reply).toBe('Yes, ship it');
    });

    test('no reply in time: null, even when the wait is longer than timeoutMs', async () => {
      const id = await ask('node-silent');
      await expect(notifier.waitForReply(id, { app: 'node-silent', timeout: 1 })).resolves.toBeNull();
      const impatient = new Notifier({ supportDir: n.daemon.supportDir, timeoutMs: 300 });
      await expect(impatient.waitForReply(id, { app: 'node-silent', timeout: 1.5 })).resolves.toBeNull();
    });

    test('consume: false leaves the reply queued; replies filters by since and consumes on request', async () => {
      const id = await ask('node-keep', 'Later today');
      const reply = await notifier.waitForReply(id, { app: 'node-keep', timeout: 20, consume: false });
      expect(reply).toMatchObject({ notificationId: id, text: 'Later today' });
      expect(await notifier.replies({ app: 'node-keep' })).toEqual([reply]);
      expect(await notifier.replies({ app: 'node-keep', since: new Date(Date.now() - 3_600_000) })).toEqual([reply]);
      expect(await notifier.replies({ app: 'node-keep', since: Date.now() / 1000 + 3600 })).toEqual([]);
      expect(await notifier.replies({ app: 'node-keep', consume: true })).toEqual([reply]);
      expect(await notifier.replies({ app: 'node-keep' })).toEqual([]);
    });

    test('snooze resolves to when the banner comes back; unsnooze brings it back now', async () => {
      const id = await notifier.notify('node-snooze', 'Later', { persistent: true });
      const until = await notifier.snooze('node-snooze', id, 5);
      expect(Date.parse(until) - Date.now()).toBeGreaterThan(4 * 60_000);
      expect(Date.parse(until) - Date.now()).toBeLessThanOrEqual(5 * 60_000);
      expect((await notifier.history('node-snooze'))[0]!.snoozedUntil).toBe(until);
      expect(n.person.banner('node-snooze', id)).toBeUndefined();
      await notifier.unsnooze('node-snooze', id);
      expect(n.person.banner('node-snooze', id)).toBeDefined();
      expect((await rejection(notifier.snooze('node-snooze', id, 0))).status).toBe(400);
    });
  });

  describe('Node when nothing answers or the answer is an error', () => {
    test('a closed port: isAvailable and every call reject with NotifierUnavailable (status 0)', async () => {
      const notifier = new Notifier({ port: await freePort(), token: 'x' });
      const error = await rejection(notifier.isAvailable());
      expect(error).toBeInstanceOf(NotifierUnavailable);
      expect(error).toBeInstanceOf(NotifierError);
      expect(error.status).toBe(0);
      expect(error.message).toContain('not running');
      expect(await rejection(notifier.notify('node-closed', 'Nobody listens'))).toBeInstanceOf(NotifierUnavailable);
    });

    test('an error answer: isAvailable is false and the raw text is the message', async () => {
      await withServer(answering(500, 'something broke'), async (port) => {
        const notifier = new Notifier({ port, token: 'x' });
        await expect(notifier.isAvailable()).resolves.toBe(false);
        const error = await rejection(notifier.health());
        expect(error).not.toBeInstanceOf(NotifierUnavailable);
        expect({ status: error.status, message: error.message }).toEqual({ status: 500, message: 'something broke' });
      });
    });

    test("the message comes from a JSON answer's error key", async () => {
      await withServer(answering(503, '{"error":"busy"}', 'application/json'), async (port) => {
        const error = await rejection(new Notifier({ port, token: 'x' }).health());
        expect({ status: error.status, message: error.message }).toEqual({ status: 503, message: 'busy' });
      });
    });

    test('timeoutMs gives up on a server that never answers', async () => {
      await withServer(net.createServer(), async (port) => {
        const error = await rejection(new Notifier({ port, token: 'x', timeoutMs: 300 }).health());
        expect(error).toBeInstanceOf(NotifierUnavailable);
        expect(error.message).toContain('300 ms');
      });
    });
  });

  describe('Node ESM entry and demo', () => {
    test('`import` of notifier.mjs gives the same classes as the CommonJS entry and can notify', async () => {
      const script = `
        import { createRequire } from 'node:module';
        import client, { Notifier, NotifierError, NotifierUnavailable } from ${JSON.stringify(pathToFileURL(NODE_MJS).href)};
        const cjs = createRequire(import.meta.url)(${JSON.stringify(NODE_CJS)});
        const same = Notifier === cjs.Notifier && NotifierError === cjs.NotifierError &&
          NotifierUnavailable === cjs.NotifierUnavailable && client === cjs;
        const id = await new Notifier().notify('node-esm', 'From ESM', { body: 'imported' });
        console.log(JSON.stringify({ same, id }));`;
      const result = await run(process.execPath, ['--input-type=module', '-e', script], {
        env: { NOTIFIER_SUPPORT_DIR: daemon().supportDir },
      });
      expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: '' });
      const { same, id } = JSON.parse(result.stdout);
      expect(same).toBe(true);
      expect((await record('node-esm', id)).notification).toMatchObject({ title: 'From ESM', body: 'imported' });
    });

    test('`node notifier.cjs Title Body` sends one notification; exit 2 when not running, 1 on other errors', async () => {
      const sent = await run(process.execPath, [NODE_CJS, 'Demo title', 'Demo body'], {
        env: { NOTIFIER_SUPPORT_DIR: daemon().supportDir },
      });
      expect({ code: sent.code, stderr: sent.stderr }).toEqual({ code: 0, stderr: '' });
      expect((await record('notifier-node', sent.stdout.trim())).notification).toMatchObject({ title: 'Demo title', body: 'Demo body' });

      const folder = await tempFolder('notifier-node-demo-');
      try {
        await writeFile(path.join(folder, 'port'), String(await freePort()));
        const down = await run(process.execPath, [NODE_CJS, 'Nobody listens'], { env: { NOTIFIER_SUPPORT_DIR: folder } });
        expect({ code: down.code, stderr: down.stderr }).toEqual({ code: 2, stderr: expect.stringContaining('not running') });

        await writeFile(path.join(folder, 'port'), String(daemon().port));
        await writeFile(path.join(folder, 'token'), 'f'.repeat(64));
        const refused = await run(process.execPath, [NODE_CJS, 'Wrong token'], { env: { NOTIFIER_SUPPORT_DIR: folder } });
        expect({ code: refused.code, stderr: refused.stderr }).toEqual({ code: 1, stderr: expect.stringContaining('401') });
      } finally {
        await rm(folder, { recursive: true, force: true });
      }
    });
  });
});
