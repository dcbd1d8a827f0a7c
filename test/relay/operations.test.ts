// Running the relay (docs/relay.md, "Operations"): `notifier-relay backup` copies the embedded database while a
// relay serves steady load, and the copy serves what was acknowledged before it; `notifier-relay check` says
// whether the configuration, the database and its schema would make /ready answer 200.

import { describe, expect, test } from '@jest/globals';
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type { lookup as dnsLookup } from 'node:dns';
import { copyFile, readFile, stat, writeFile } from 'node:fs/promises';
import https from 'node:https';
import path from 'node:path';
import { promisify } from 'node:util';
import WebSocket from 'ws';
import { createDatabase, postgresBinDir, startPostgres } from '../../rigs/postgres.js';
import { listeningPort, makeKey, pairDevice, type RelayCall } from '../../rigs/relay.js';
import { waitFor } from '../../rigs/wait.js';
import { makeCertificates, type Certificates } from '../../rigs/webhooks.js';
import { ROOT, tempFolder } from '../helpers/daemon.js';
import { DeviceSocket } from '../helpers/device-socket.js';
import { createDatabase as createTestDatabase } from '../helpers/postgres.js';
import { freePort, request, type Reply } from '../helpers/http.js';
import { addFutureMigration, parseLogLines, pairWithKey, RELAY_MAIN, startRelay, type CallOptions } from '../helpers/relay.js';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `notifier-relay <args>` run to its end with `env` (the test's own relay variables left out). */
function relayCommand(args: string[], env: Record<string, string>): Promise<Run> {
  const base = { ...(process.env as Record<string, string>) };
  for (const name of Object.keys(base)) if (name.startsWith('RELAY_') || name === 'DATABASE_URL') delete base[name];
  return runToEnd(process.execPath, [RELAY_MAIN, ...args], { ...base, ...env });
}

/** A program run to its end with exactly `env`. */
function runToEnd(command: string, args: string[], env: Record<string, string>): Promise<Run> {
  const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Limits out of the way of a steady load from one key. */
const ROOMY_LOAD = { RATE_LIMIT_PER_KEY: '1000000', DEVICE_NOTIFICATIONS_PER_DAY: '1000000', DEVICE_QUEUE_MAX: '1000000' };
/** Agents sending at once, each one request after the other. */
const SENDERS = 4;
/** Notifications acknowledged before the backup starts. */
const BEFORE_BACKUP = 100;
const secret = (): string => randomBytes(32).toString('hex');

/** A SQLite relay with a secret of its own, and the variables a `notifier-relay` command needs to open the same data. */
async function startSqliteRelay(env: Record<string, string> = {}) {
  const relaySecret = secret();
  const relay = await startRelay({ backend: 'sqlite', secret: relaySecret, env });
  return { relay, relaySecret, commandEnv: { RELAY_DATA_DIR: relay.dataDir, RELAY_SECRET: relaySecret } };
}

/**
 * What a SQLite file holds, read by a child process (no better-sqlite3 object in the test process):
 * integrity_check's verdict and the notificationIds of its notifications.
 */
async function inspectCopy(file: string): Promise<{ integrity: string; nids: string[] }> {
  const script =
    "const db = new (require('better-sqlite3'))(process.argv[1], { readonly: true, fileMustExist: true });" +
    "const integrity = db.prepare('PRAGMA integrity_check').pluck().get();" +
    "const nids = db.prepare('select nid from notes').pluck().all();" +
    'process.stdout.write(JSON.stringify({ integrity, nids }));';
  const { stdout } = await promisify(execFile)(process.execPath, ['-e', script, file], { cwd: ROOT, maxBuffer: 64 << 20 });
  return JSON.parse(stdout) as { integrity: string; nids: string[] };
}

describe('notifier-relay backup', () => {
  test('a copy made under steady load opens, passes integrity_check, and a relay on it serves what was acknowledged', async () => {
    const { relay, relaySecret, commandEnv } = await startSqliteRelay(ROOMY_LOAD);
    const device = await pairWithKey(relay);
    const acknowledged: string[] = [];
    const otherStatuses: number[] = [];
    let loading = true;
    let next = 0;
    const senders = Array.from({ length: SENDERS }, async () => {
      while (loading) {
        const notificationId = `load-${next++}`;
        const sent = await relay.call('POST', '/v1/notify', { token: device.key, body: { title: notificationId, notificationId } });
        if (sent.status === 202) acknowledged.push(notificationId);
        else otherStatuses.push(sent.status);
      }
    });
    let backedUp: Run;
    const folder = await tempFolder('notifier-relay-backup-');
    const copy = path.join(folder, 'relay-backup.sqlite');
    let before: string[];
    try {
      await waitFor(() => (acknowledged.length >= BEFORE_BACKUP ? true : undefined), `${BEFORE_BACKUP} notifications acknowledged`);
      before = [...acknowledged];
      backedUp = await relayCommand(['backup', copy], commandEnv);
      const afterBackup = acknowledged.length;
      await waitFor(() => (acknowledged.length > afterBackup ? true : undefined), 'the load to go on after the backup');
    } finally {
      loading = false;
      await Promise.all(senders);
      await relay.stop();
    }
    expect(otherStatuses).toEqual([]);
    expect([backedUp.code, backedUp.stderr]).toEqual([0, '']);
    expect(backedUp.stdout).toContain(`to ${copy}`);
    expect((await stat(copy)).mode & 0o777).toBe(0o600);

    const inside = await inspectCopy(copy);
    expect(inside.integrity).toBe('ok');
    const kept = new Set(inside.nids);
    expect(before.filter((id) => !kept.has(id))).toEqual([]);

    const restoredDir = await tempFolder('notifier-relay-restored-');
    await copyFile(copy, path.join(restoredDir, 'relay.sqlite'));
    const restored = await startRelay({ backend: 'sqlite', secret: relaySecret, dataDir: restoredDir });
    try {
      for (const id of before) {
        const receipt = await restored.call('GET', `/v1/receipts/${id}`, { token: device.key });
        expect([id, receipt.status]).toEqual([id, 200]);
      }
      const socket = await DeviceSocket.connect(restored.port, device.token);
      expect((await socket.notifyFrame(before[0]!)).notificationId).toBe(before[0]);
      await socket.close();
    } finally {
      await restored.stop();
    }
  });

  test('an existing file is refused without --force and replaced with it; the database itself never', async () => {
    const relay = await startRelay({ backend: 'sqlite', secret: null }); // it keeps its secret in the data folder
    const env = { RELAY_DATA_DIR: relay.dataDir };
    try {
      const folder = await tempFolder('notifier-relay-backup-');
      const target = path.join(folder, 'taken.sqlite');
      await writeFile(target, 'an earlier backup');
      const refused = await relayCommand(['backup', target], env);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(`${target} exists: choose another file, or add --force to replace it`);
      expect((await stat(target)).size).toBe('an earlier backup'.length);

      const forced = await relayCommand(['backup', '--force', target], env);
      expect([forced.code, forced.stderr]).toEqual([0, '']);
      expect(forced.stdout).toContain(`keep a copy of ${path.join(relay.dataDir, 'relay-secret')} with the backup`);
      expect((await inspectCopy(target)).integrity).toBe('ok');

      const itself = await relayCommand(['backup', '--force', path.join(relay.dataDir, 'relay.sqlite')], env);
      expect(itself.code).toBe(1);
      expect(itself.stderr).toContain("is the relay's own database");
    } finally {
      await relay.stop();
    }
  });

  test('on PostgreSQL, what the docs say: pg_dump --format=custom while it runs, pg_restore, the same RELAY_SECRET', async () => {
    const relaySecret = secret();
    const relay = await startRelay({ backend: 'postgres', secret: relaySecret });
    const folder = await tempFolder('notifier-relay-dump-');
    const dump = path.join(folder, 'relay.dump');
    const bin = (name: string): string => path.join(postgresBinDir(), name);
    let device: Awaited<ReturnType<typeof pairWithKey>>;
    const sent: string[] = [];
    try {
      device = await pairWithKey(relay);
      for (const notificationId of ['dumped-1', 'dumped-2', 'dumped-3']) {
        expect(
          (await relay.call('POST', '/v1/notify', { token: device.key, body: { title: notificationId, notificationId } })).status,
        ).toBe(202);
        sent.push(notificationId);
      }
      const dumped = await relayTool(bin('pg_dump'), ['--format=custom', `--file=${dump}`, relay.databaseUrl!]);
      expect([dumped.code, dumped.stderr]).toEqual([0, '']);
    } finally {
      await relay.stop();
    }
    const databaseUrl = await createTestDatabase();
    const restoredDump = await relayTool(bin('pg_restore'), ['--no-owner', `--dbname=${databaseUrl}`, dump]);
    expect([restoredDump.code, restoredDump.stderr]).toEqual([0, '']);

    const [restored, otherSecret] = await Promise.all([
      startRelay({ backend: 'postgres', databaseUrl, secret: relaySecret }),
      startRelay({ backend: 'postgres', databaseUrl, secret: secret() }),
    ]);
    try {
      for (const id of sent) expect((await restored.call('GET', `/v1/receipts/${id}`, { token: device.key })).status).toBe(200);
      // Without the secret it was made with, the same database refuses every credential in it.
      expect((await otherSecret.call('GET', `/v1/receipts/${sent[0]}`, { token: device.key })).status).toBe(401);
      expect((await otherSecret.call('GET', '/v1/device/info', { token: device.token })).status).toBe(401);
    } finally {
      await Promise.all([restored.stop(), otherSecret.stop()]);
    }
  });

  test('on PostgreSQL it points to pg_dump and exits non-zero', async () => {
    const run = await relayCommand(['backup', '/nonexistent/copy'], { DATABASE_URL: 'postgres://relay@127.0.0.1:1/relay' });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('pg_dump --format=custom');
  });
});

describe('notifier-relay check', () => {
  test('a good configuration with a running relay: exit 0, ready', async () => {
    const { relay, commandEnv } = await startSqliteRelay();
    try {
      const run = await relayCommand(['check'], commandEnv);
      expect([run.code, run.stderr]).toEqual([0, '']);
      expect(run.stdout).toContain('configuration: valid');
      expect(run.stdout).toMatch(/^schema: current \(\d+ migrations\)$/m);
      expect(run.stdout).toContain('ready: yes (/ready would answer 200)');
      const json = await relayCommand(['check', '--json'], commandEnv);
      expect(json.code).toBe(0);
      expect(JSON.parse(json.stdout)).toMatchObject({ ready: true, database: { answers: true }, schema: { state: 'current' } });
    } finally {
      await relay.stop();
    }
  });

  test('a bad configuration: non-zero, naming the variable', async () => {
    const run = await relayCommand(['check'], { RELAY_PORT: 'eighty', RELAY_DATA_DIR: await tempFolder() });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('configuration: not valid');
    expect(run.stdout).toContain('RELAY_PORT must be a port number');
    expect(run.stdout).toContain('ready: no');
  });

  test('on PostgreSQL: ready while the server runs, not ready (non-zero) once it is stopped', async () => {
    const server = await startPostgres();
    try {
      const databaseUrl = await createDatabase(server.baseUrl);
      const relay = await startRelay({ backend: 'postgres', databaseUrl });
      expect(await relay.stop()).toBe(0); // it migrated the database
      const env = { DATABASE_URL: databaseUrl, RELAY_SECRET: secret(), RELAY_DATA_DIR: await tempFolder() };

      const up = await relayCommand(['check'], env);
      expect([up.code, up.stderr]).toEqual([0, '']);
      expect(up.stdout).toContain('storage: PostgreSQL (DATABASE_URL)');
      expect(up.stdout).toContain('ready: yes');

      await server.stop();
      const down = await relayCommand(['check'], env);
      expect(down.code).toBe(1);
      expect(down.stdout).toContain('database: does not answer');
      expect(down.stdout).toContain('ready: no (/ready would answer 503: the database does not answer)');
    } finally {
      await server.stop();
    }
  });

  test('a schema newer than this relay knows: says so, not ready', async () => {
    const { relay, commandEnv } = await startSqliteRelay();
    expect(await relay.stop()).toBe(0);
    await addFutureMigration(relay.dataDir);
    const run = await relayCommand(['check'], commandEnv);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('schema: newer than this relay knows (it has migration 999_from_the_future)');
    expect(run.stdout).toContain("ready: no (/ready would answer 503: the database's schema is not the one this relay node knows)");
  });
});

/** The deployment files kept in the repository (relay/deploy/), as an operator copies them. */
const DEPLOY = path.join(ROOT, 'relay', 'deploy');
/** The name the proxies answer for in their files (and in the test's certificate). */
const PUBLIC_NAME = 'relay.example.org';

/** `text` with `from` replaced by `to`: the file must still say `from`, or the test would run something else. */
function replaceIn(text: string, from: string, to: string): string {
  if (!text.includes(from)) throw new Error(`the deployment file no longer says ${JSON.stringify(from)}`);
  return text.split(from).join(to);
}

test('docs/relay.md shows the deployment files as they are', async () => {
  const docs = await readFile(path.join(ROOT, 'docs', 'relay.md'), 'utf8');
  for (const file of ['notifier-relay.service', 'nginx.conf', 'Caddyfile'])
    expect([file, docs.includes((await readFile(path.join(DEPLOY, file), 'utf8')).trimEnd())]).toEqual([file, true]);
});

describe('the systemd unit', () => {
  test('systemd-analyze verify accepts it', async () => {
    const folder = await tempFolder('notifier-relay-unit-');
    const unit = await readFile(path.join(DEPLOY, 'notifier-relay.service'), 'utf8');
    // verify wants ExecStart's program to exist: this machine's Node and the built relay.
    const here = replaceIn(unit, 'ExecStart=/usr/bin/node /opt/notifier/dist/relay/main.js', `ExecStart=${process.execPath} ${RELAY_MAIN}`);
    const file = path.join(folder, 'notifier-relay.service');
    await writeFile(file, here);
    const verified = await relayTool('systemd-analyze', ['verify', file]);
    expect([verified.code, verified.stderr]).toEqual([0, '']);
    const security = await relayTool('systemd-analyze', ['security', '--offline=yes', file]);
    expect(security.stdout).toMatch(/Overall exposure level for notifier-relay\.service: \d+\.\d+ (OK|SAFE)/);
  });

  test("the relay's system calls, serving a computer and an agent, are all inside the unit's SystemCallFilter", async () => {
    const allowed = await filteredSyscalls(await readFile(path.join(DEPLOY, 'notifier-relay.service'), 'utf8'));
    const folder = await tempFolder('notifier-relay-strace-');
    const trace = path.join(folder, 'trace');
    const env = { RELAY_PORT: '0', RELAY_DATA_DIR: path.join(folder, 'data'), RELAY_SECRET: secret(), RELAY_DRAIN_S: '0' };
    const strace = spawn('strace', ['-f', '-qq', '-o', trace, process.execPath, RELAY_MAIN], {
      env: { ...(process.env as Record<string, string>), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise((resolve) => strace.once('exit', resolve));
    let relayPid: number | undefined;
    try {
      let output = '';
      strace.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const port = await listeningPort(strace, () => output);
      relayPid = Number((await readFile(`/proc/${strace.pid}/task/${strace.pid}/children`, 'utf8')).trim().split(' ')[0]);
      const call: RelayCall = (method, route, options) => request(port, method, route, { ...options, token: options.token ?? null });
      const device = await pairDevice(call);
      const key = await makeKey(call, device.token);
      const socket = await DeviceSocket.online(port, device.token);
      expect((await call('POST', '/v1/notify', { token: key, body: { title: 'traced', notificationId: 'traced-1' } })).status).toBe(202);
      await socket.notifyFrame('traced-1');
      expect((await call('GET', '/ready', {})).status).toBe(200);
      await socket.close();
      process.kill(relayPid, 'SIGTERM'); // strace ends with it
      await exited;
    } finally {
      if (relayPid !== undefined && strace.exitCode === null) process.kill(relayPid, 'SIGKILL');
      if (strace.exitCode === null) strace.kill('SIGKILL');
      await exited;
    }
    const used = new Set(
      (await readFile(trace, 'utf8'))
        .split('\n')
        .map((line) => /^\d+ +([a-z0-9_]+)\(/.exec(line)?.[1])
        .filter((name): name is string => name !== undefined),
    );
    expect(used.size).toBeGreaterThan(20); // the trace is real
    expect([...used].filter((name) => !allowed.has(name)).sort()).toEqual([]);
  });
});

/** The system calls a unit's SystemCallFilter= lines allow, their @groups expanded as systemd-analyze lists them. */
async function filteredSyscalls(unit: string): Promise<Set<string>> {
  const listed = await relayTool('systemd-analyze', ['syscall-filter', '--no-pager']);
  const groups = new Map<string, string[]>();
  let group: string[] = [];
  for (const line of listed.stdout.split('\n')) {
    if (line.startsWith('@')) groups.set(line.trim(), (group = []));
    else if (/^ +[@a-z0-9_-]+$/.test(line)) group.push(line.trim());
  }
  const allowed = new Set<string>();
  const add = (name: string): void => {
    if (!name.startsWith('@')) allowed.add(name);
    else for (const member of groups.get(name) ?? []) add(member);
  };
  for (const match of unit.matchAll(/^SystemCallFilter=([^~].*)$/gm)) for (const name of match[1]!.trim().split(/\s+/)) add(name);
  return allowed;
}

/** A program run to its end, with the test's environment and `env`. */
const relayTool = (command: string, args: string[], env: Record<string, string> = {}): Promise<Run> =>
  runToEnd(command, args, { ...(process.env as Record<string, string>), ...env });

interface RunningProxy {
  port: number;
  stop(): Promise<void>;
}

interface ProxyRig {
  name: string;
  /** The repository's file, made to run here: the relay's port, a free port for TLS, the test's certificate. */
  start(relayPort: number, folder: string, certificates: Certificates): Promise<RunningProxy>;
}

/** A process stopped by its PID (SIGTERM: both nginx and Caddy shut down quickly on it). */
function spawnProxy(command: string, args: string[], env: Record<string, string> = {}): { stop(): Promise<void>; log(): string } {
  const child = spawn(command, args, { env: { ...(process.env as Record<string, string>), ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stdout!.on('data', (chunk: Buffer) => (log += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    log: () => log,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

const NGINX: ProxyRig = {
  name: 'nginx',
  async start(relayPort, folder, certificates) {
    const [port, redirectPort] = [await freePort(), await freePort()];
    await writeFile(path.join(folder, 'server.pem'), certificates.cert);
    await writeFile(path.join(folder, 'server.key.pem'), certificates.key, { mode: 0o600 });
    let site = await readFile(path.join(DEPLOY, 'nginx.conf'), 'utf8');
    site = replaceIn(site, 'server 127.0.0.1:8787;', `server 127.0.0.1:${relayPort};`);
    site = replaceIn(site, 'listen 443 ssl http2;', `listen 127.0.0.1:${port} ssl http2;`);
    site = replaceIn(site, 'listen 80;', `listen 127.0.0.1:${redirectPort};`);
    site = replaceIn(replaceIn(site, 'listen [::]:443 ssl http2;', ''), 'listen [::]:80;', '');
    site = replaceIn(site, `/etc/letsencrypt/live/${PUBLIC_NAME}/fullchain.pem`, path.join(folder, 'server.pem'));
    site = replaceIn(site, `/etc/letsencrypt/live/${PUBLIC_NAME}/privkey.pem`, path.join(folder, 'server.key.pem'));
    await writeFile(path.join(folder, 'notifier-relay.conf'), site);
    // What Debian's /etc/nginx/nginx.conf gives the file: an http block, with every path in the test's folder.
    const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map((kind) => `${kind}_temp_path ${folder}/${kind};`).join(' ');
    await writeFile(
      path.join(folder, 'nginx.conf'),
      `${process.getuid?.() === 0 ? 'user root;' : ''}
worker_processes 1;
pid ${folder}/nginx.pid;
error_log ${folder}/error.log;
events { worker_connections 256; }
http { access_log off; ${temp} include ${folder}/notifier-relay.conf; }
`,
    );
    const nginx = spawnProxy('nginx', ['-e', `${folder}/error.log`, '-p', `${folder}/`, '-c', `${folder}/nginx.conf`, '-g', 'daemon off;']);
    await waitForProxy(port, certificates, () => nginx.log());
    return { port, stop: nginx.stop };
  },
};

const CADDY: ProxyRig = {
  name: 'caddy',
  async start(relayPort, folder, certificates) {
    const port = await freePort();
    await writeFile(path.join(folder, 'server.pem'), certificates.cert);
    await writeFile(path.join(folder, 'server.key.pem'), certificates.key, { mode: 0o600 });
    let site = await readFile(path.join(DEPLOY, 'Caddyfile'), 'utf8');
    site = replaceIn(site, 'reverse_proxy 127.0.0.1:8787', `reverse_proxy 127.0.0.1:${relayPort}`);
    // The test's certificate instead of one from Let's Encrypt; no admin endpoint, no port 80.
    site = replaceIn(site, `${PUBLIC_NAME} {`, `${PUBLIC_NAME}:${port} {\n\ttls ${folder}/server.pem ${folder}/server.key.pem`);
    const file = path.join(folder, 'Caddyfile');
    await writeFile(file, `{\n\tadmin off\n\tauto_https disable_redirects\n\tstorage file_system ${folder}/data\n}\n\n${site}`);
    const home = { HOME: folder, XDG_DATA_HOME: `${folder}/data`, XDG_CONFIG_HOME: `${folder}/config` };
    const validated = await relayTool('caddy', ['validate', '--config', file, '--adapter', 'caddyfile'], home);
    if (validated.code !== 0) throw new Error(`caddy validate: ${validated.stderr}`);
    const caddy = spawnProxy('caddy', ['run', '--config', file, '--adapter', 'caddyfile'], home);
    await waitForProxy(port, certificates, () => caddy.log());
    return { port, stop: caddy.stop };
  },
};

/** Requests to the proxy as a client elsewhere would make them: TLS for PUBLIC_NAME, from a loopback address of our choice. */
function proxyClient(port: number, certificates: Certificates, from = '127.0.0.1') {
  const lookup = ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) =>
    options.all ? callback(null, [{ address: '127.0.0.1', family: 4 }]) : callback(null, '127.0.0.1', 4)) as unknown as typeof dnsLookup;
  const tls = { ca: certificates.ca, lookup, localAddress: from, servername: PUBLIC_NAME };
  const call = (method: string, route: string, options: CallOptions = {}): Promise<Reply> =>
    new Promise((resolve, reject) => {
      const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
      const req = https.request(
        {
          ...tls,
          host: PUBLIC_NAME,
          port,
          method,
          path: route,
          agent: false,
          headers: {
            ...(payload !== undefined && { 'Content-Type': 'application/json' }),
            ...(options.token && { Authorization: `Bearer ${options.token}` }),
            ...options.headers,
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            const raw = Buffer.concat(chunks);
            const text = raw.toString();
            let json: unknown;
            try {
              json = JSON.parse(text);
            } catch {
              json = undefined;
            }
            resolve({ status: res.statusCode!, headers: res.headers, text, raw, json });
          });
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  const socket = (token: string): WebSocket =>
    new WebSocket(`wss://${PUBLIC_NAME}:${port}/v1/device/stream`, { ...tls, headers: { Authorization: `Bearer ${token}` } });
  return { call, socket };
}

/** Until the proxy answers /health over TLS (it and its certificate loaded). */
async function waitForProxy(port: number, certificates: Certificates, log: () => string): Promise<void> {
  const client = proxyClient(port, certificates);
  await waitFor(
    async () => ((await client.call('GET', '/health').catch(() => undefined))?.status === 200 ? true : undefined),
    `the proxy on port ${port} to pass /health to the relay`,
  ).catch((error: Error) => {
    throw new Error(`${error.message}\n${log()}`);
  });
}

describe.each([NGINX, CADDY])('behind $name (relay/deploy)', (rig) => {
  test('a notify and a device WebSocket go through; the relay sees the client address; X-Request-Id passes', async () => {
    const relay = await startRelay({ backend: 'sqlite', env: { RELAY_TRUST_PROXY: '1', PAIR_STARTS_PER_HOUR: '1' } });
    const folder = await tempFolder(`notifier-relay-${rig.name}-`);
    const certificates = await makeCertificates(folder, [PUBLIC_NAME]);
    const proxy = await rig.start(relay.port, folder, certificates);
    try {
      // Pairing is limited per client address: one start an hour here. The relay must see each client's own
      // address (not the proxy's), and not one a client claims in its own X-Forwarded-For.
      const first = proxyClient(proxy.port, certificates, '127.0.0.2');
      const call: RelayCall = (method, route, options) => first.call(method, route, options);
      const device = await pairDevice(call);
      const again = await first.call('POST', '/v1/pair/start', { body: {}, headers: { 'X-Forwarded-For': '198.51.100.7' } });
      expect(again.status).toBe(429);
      const other = await proxyClient(proxy.port, certificates, '127.0.0.3').call('POST', '/v1/pair/start', { body: {} });
      expect(other.status).toBe(201);

      const key = await makeKey(call, device.token);
      const socket = first.socket(device.token);
      const frames: Record<string, any>[] = [];
      socket.on('message', (data: Buffer) => frames.push(JSON.parse(data.toString()) as Record<string, any>));
      await new Promise((resolve, reject) => socket.once('open', resolve).once('error', reject));
      await waitFor(() => frames.find((frame) => frame.type === 'welcome'), 'the welcome frame through the proxy');

      const requestId = `ops-${rig.name}-${randomBytes(4).toString('hex')}`;
      const sent = await first.call('POST', '/v1/notify', {
        token: key,
        body: { title: 'through the proxy', notificationId: 'proxied-1' },
        headers: { 'X-Request-Id': requestId },
      });
      expect([sent.status, sent.headers['x-request-id']]).toEqual([202, requestId]);
      await waitFor(() => frames.find((frame) => frame.type === 'notify' && frame.notificationId === 'proxied-1'), 'the notify frame');
      socket.close();

      const logLine = (id: string) =>
        waitFor(() => parseLogLines(relay.log()).find((line) => line.requestId === id), `the log line of ${id}`);
      const logged = await logLine(requestId);
      expect(logged).toMatchObject({ route: '/v1/notify', status: 202 });
      // Without the client's id, the proxy's own (nginx: $request_id, 32 hex digits) reaches the relay's log.
      const unnamed = await first.call('GET', '/v1/status', { token: key });
      const id = String(unnamed.headers['x-request-id']);
      if (rig === NGINX) expect(id).toMatch(/^[0-9a-f]{32}$/);
      expect(await logLine(id)).toMatchObject({ route: '/v1/status', status: 200 });
    } finally {
      await proxy.stop();
      await relay.stop();
    }
  });
});
