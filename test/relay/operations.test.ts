// Running the relay (docs/relay.md, "Operations"): `notifier-relay backup` copies the embedded database while a
// relay serves steady load, and the copy serves what was acknowledged before it; `notifier-relay check` says
// whether the configuration, the database and its schema would make /ready answer 200.

import { describe, expect, test } from '@jest/globals';
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { copyFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { createDatabase, startPostgres } from '../../bench/rigs/postgres.js';
import { waitFor } from '../../bench/rigs/wait.js';
import { ROOT, tempFolder } from '../helpers/daemon.js';
import { DeviceSocket } from '../helpers/device-socket.js';
import { pairWithKey, RELAY_MAIN, startRelay } from '../helpers/relay.js';

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `notifier-relay <args>` run to its end with `env` (the test's own relay variables left out). */
function relayCommand(args: string[], env: Record<string, string>): Promise<Run> {
  const base = { ...(process.env as Record<string, string>) };
  for (const name of Object.keys(base)) if (name.startsWith('RELAY_') || name === 'DATABASE_URL') delete base[name];
  const child = spawn(process.execPath, [RELAY_MAIN, ...args], { env: { ...base, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stdout, stderr })));
}

/** Limits out of the way of a steady load from one key. */
const ROOMY_LOAD = { RATE_LIMIT_PER_KEY: '1000000', DEVICE_NOTIFICATIONS_PER_DAY: '1000000', DEVICE_QUEUE_MAX: '1000000' };
/** Agents sending at once, each one request after the other. */
const SENDERS = 4;
/** Notifications acknowledged before the backup starts. */
const BEFORE_BACKUP = 100;
const secret = (): string => randomBytes(32).toString('hex');

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

/** A newer relay's migration, written into a stopped relay's database by a child process. */
async function addFutureMigration(dataDir: string): Promise<void> {
  const script =
    "const db = new (require('better-sqlite3'))(process.argv[1], { fileMustExist: true });" +
    "db.prepare('insert into relay_migrations (name, timestamp) values (?, ?)').run('999_from_the_future', new Date().toISOString());";
  await promisify(execFile)(process.execPath, ['-e', script, path.join(dataDir, 'relay.sqlite')], { cwd: ROOT });
}

describe('notifier-relay backup', () => {
  test('a copy made under steady load opens, passes integrity_check, and a relay on it serves what was acknowledged', async () => {
    const relaySecret = secret();
    const relay = await startRelay({ backend: 'sqlite', secret: relaySecret, env: ROOMY_LOAD });
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
      backedUp = await relayCommand(['backup', copy], { RELAY_DATA_DIR: relay.dataDir, RELAY_SECRET: relaySecret });
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
    const relaySecret = secret();
    const relay = await startRelay({ backend: 'sqlite', secret: relaySecret });
    const env = { RELAY_DATA_DIR: relay.dataDir, RELAY_SECRET: relaySecret };
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
      expect((await inspectCopy(target)).integrity).toBe('ok');

      const itself = await relayCommand(['backup', '--force', path.join(relay.dataDir, 'relay.sqlite')], env);
      expect(itself.code).toBe(1);
      expect(itself.stderr).toContain("is the relay's own database");
    } finally {
      await relay.stop();
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
    const relaySecret = secret();
    const relay = await startRelay({ backend: 'sqlite', secret: relaySecret });
    try {
      const run = await relayCommand(['check'], { RELAY_DATA_DIR: relay.dataDir, RELAY_SECRET: relaySecret });
      expect([run.code, run.stderr]).toEqual([0, '']);
      expect(run.stdout).toContain('configuration: valid');
      expect(run.stdout).toMatch(/^schema: current \(\d+ migrations\)$/m);
      expect(run.stdout).toContain('ready: yes (/ready would answer 200)');
      const json = await relayCommand(['check', '--json'], { RELAY_DATA_DIR: relay.dataDir, RELAY_SECRET: relaySecret });
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
    const relaySecret = secret();
    const relay = await startRelay({ backend: 'sqlite', secret: relaySecret });
    expect(await relay.stop()).toBe(0);
    await addFutureMigration(relay.dataDir);
    const run = await relayCommand(['check'], { RELAY_DATA_DIR: relay.dataDir, RELAY_SECRET: relaySecret });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('schema: newer than this relay knows (it has migration 999_from_the_future)');
    expect(run.stdout).toContain("ready: no (/ready would answer 503: the database's schema is not the one this relay node knows)");
  });
});
