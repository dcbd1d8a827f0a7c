// Health, readiness and draining (docs/relay.md): /ready asks the database; SIGTERM turns it 503 at once and then
// closes the computers' sockets with 1012; a taken port or a newer schema stops the start with a message; a lost
// PostgreSQL connection never crashes the relay.

import { describe, expect, test } from '@jest/globals';
import { spawn } from 'node:child_process';
import pg from 'pg';
import { waitFor } from '../../rigs/wait.js';
import { DeviceSocket } from '../helpers/device-socket.js';
import { createDatabase } from '../helpers/postgres.js';
import {
  addFutureMigration,
  BACKENDS,
  FUTURE_MIGRATION,
  pairDevice,
  pairWithKey,
  RELAY_MAIN,
  startRelay,
  type RelayProcess,
} from '../helpers/relay.js';

/** Runs the relay with `env` until it exits by itself: its exit code and stderr. */
function runToExit(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [RELAY_MAIN], {
    env: { ...(process.env as Record<string, string>), DATABASE_URL: '', RELAY_SECRET: 'x'.repeat(64), ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.once('exit', (code) => resolve({ code, stderr })));
}

describe.each(BACKENDS)('readiness (%s)', (backend) => {
  test('/ready is 200 while the database answers; /health is unchanged', async () => {
    const relay = await startRelay({ backend });
    try {
      const ready = await relay.call('GET', '/ready');
      expect([ready.status, ready.json]).toEqual([200, { status: 'ready' }]);
      expect((await relay.call('GET', '/health')).status).toBe(200);
    } finally {
      await relay.stop();
    }
  });

  test('SIGTERM: /ready says 503 at once, the computer is told to reconnect (1012), the process exits 0', async () => {
    const relay = await startRelay({ backend, env: { RELAY_DRAIN_S: '2' } });
    const device = await pairDevice(relay);
    const socket = await DeviceSocket.online(relay.port, device.token);
    const exited = relay.stop();
    const refused = await waitFor(async () => {
      const ready = await relay.call('GET', '/ready');
      return ready.status === 200 ? undefined : ready;
    }, '/ready to turn 503');
    expect([refused.status, refused.json.error, refused.headers['retry-after']]).toEqual([503, 'unavailable', '5']);
    expect((await relay.call('GET', '/health')).status).toBe(200); // still up while draining
    expect((await socket.closed).code).toBe(1012);
    expect(await exited).toBe(0);
  });
});

test('a relay whose port is taken exits non-zero, naming the port', async () => {
  const first = await startRelay({ backend: 'sqlite' });
  try {
    const second = await runToExit({ RELAY_PORT: String(first.port), RELAY_DATA_DIR: first.dataDir });
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(`port ${first.port}`);
    expect(second.stderr).toContain('already in use');
  } finally {
    await first.stop();
  }
});

test('RELAY_DRAIN_S is checked at start', async () => {
  const started = await runToExit({ RELAY_PORT: '0', RELAY_DRAIN_S: '26' });
  expect(started.code).toBe(1);
  expect(started.stderr).toContain('RELAY_DRAIN_S must be a whole number of seconds from 0 to 25 (got "26")');
});

test('a relay refuses a database whose schema is newer than it knows', async () => {
  const relay = await startRelay({ backend: 'sqlite' });
  expect(await relay.stop()).toBe(0);
  await addFutureMigration(relay.dataDir);
  const again = await runToExit({ RELAY_PORT: '0', RELAY_DATA_DIR: relay.dataDir });
  expect(again.code).not.toBe(0);
  expect(again.stderr).toContain("the database's schema is newer than this relay knows");
  expect(again.stderr).toContain(FUTURE_MIGRATION);
});

describe('PostgreSQL', () => {
  test('two nodes starting at once on a fresh database: one migrates, both serve', async () => {
    const databaseUrl = await createDatabase();
    const secret = 'a'.repeat(64);
    const nodes = await Promise.all([0, 1].map(() => startRelay({ backend: 'postgres', databaseUrl, secret })));
    try {
      for (const node of nodes) expect((await node.call('GET', '/ready')).status).toBe(200);
    } finally {
      await Promise.all(nodes.map((node) => node.stop()));
    }
  });

  test('its connections terminated under load: the relay stays up, answers 503 meanwhile, and serves again', async () => {
    const relay = await startRelay({ backend: 'postgres' });
    try {
      const device = await pairWithKey(relay);
      const statuses = new Set<number>();
      let loading = true;
      const load = (async () => {
        for (let i = 0; loading; i++) {
          const sent = await relay.call('POST', '/v1/notify', { token: device.key, body: { title: `load ${i}` } });
          statuses.add(sent.status);
          if (sent.status === 503) expect(sent.headers['retry-after']).toBe('5');
        }
      })();
      await terminateBackends(relay);
      await terminateBackends(relay);
      loading = false;
      await load;
      expect([...statuses].filter((status) => !ACCEPTED.includes(status) && status !== 503)).toEqual([]);
      await waitFor(async () => ((await relay.call('GET', '/ready')).status === 200 ? true : undefined), '/ready 200 again');
      const sent = await relay.call('POST', '/v1/notify', { token: device.key, body: { title: 'after' } });
      expect(ACCEPTED).toContain(sent.status);
      expect(relay.log()).not.toMatch(/could not start|uncaught/i);
    } finally {
      expect(await relay.stop()).toBe(0); // still running, and stops cleanly
    }
  });
});

/** A notify's answers: 200 delivered, 202 queued (no computer connected). */
const ACCEPTED = [200, 202];

/** What an administrator's restart does to the relay's connections: every one of its backends ends. */
async function terminateBackends(relay: RelayProcess): Promise<void> {
  const client = new pg.Client({ connectionString: relay.databaseUrl });
  await client.connect();
  try {
    await client.query(
      'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
    );
  } finally {
    await client.end();
  }
}
