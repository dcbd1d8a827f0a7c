// The relay as a process: configuration from the environment, the secret it keeps when none is given, the
// public routes, and a clean stop — on the embedded database and on PostgreSQL.

import { describe, expect, test } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { tempFolder } from '../helpers/daemon.js';
import { BACKENDS, parseLogLines, RELAY_MAIN, startRelay, useRelay, type RelayProcess } from '../helpers/relay.js';
import { PACKAGE_VERSION } from '../helpers/support.js';

describe.each(BACKENDS)('public routes (%s)', (backend) => {
  const relay = useRelay({ backend });

  test('GET /health and /healthz answer 200 with the service name, for any method', async () => {
    for (const [method, route] of [
      ['GET', '/health'],
      ['GET', '/healthz'],
      ['POST', '/health'],
    ] as const) {
      const reply = await relay().call(method, route);
      expect(reply.status).toBe(200);
      expect(reply.json).toEqual({ service: 'notifier-relay', ok: true, version: PACKAGE_VERSION });
      expect(reply.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(reply.headers['cache-control']).toBe('no-store');
    }
  });

  test('GET / is JSON, unless the request prefers text/html', async () => {
    const json = await relay().call('GET', '/');
    expect(json.json).toEqual({ service: 'notifier-relay', ok: true, version: PACKAGE_VERSION });
    const page = await relay().call('GET', '/', { headers: { Accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.text).toContain('<h1>Notifier relay</h1>');
  });

  test('an unknown path is 404 not_found in the error shape', async () => {
    const reply = await relay().call('GET', '/v2/nothing');
    expect(reply.status).toBe(404);
    expect(reply.json).toEqual({ error: 'not_found', message: 'no such endpoint' });
    const device = await relay().call('GET', '/v1/device/nothing');
    expect(device.status).toBe(401); // device paths authenticate first
  });
});

describe('configuration', () => {
  test('a limit that is not a positive number is refused at start, naming every bad variable', () => {
    const result = spawnSync(process.execPath, [RELAY_MAIN], {
      env: {
        ...process.env,
        RELAY_PORT: '0',
        RELAY_DATA_DIR: '/nonexistent',
        MAX_DEVICES: 'five',
        QUEUE_TTL_HOURS: '-1',
        RATE_LIMIT_PER_KEY: '2.5',
        DATABASE_URL: 'mysql://x',
      },
      encoding: 'utf8',
    });
    expect(result.status).toBe(1);
    expect(result.stderr).toContain('MAX_DEVICES must be a positive number (got "five")');
    expect(result.stderr).toContain('QUEUE_TTL_HOURS must be a positive number (got "-1")');
    expect(result.stderr).toContain('RATE_LIMIT_PER_KEY must be a positive whole number (got "2.5")');
    expect(result.stderr).toContain('DATABASE_URL must be a postgres://');
    expect(result.stdout).toBe('');
  });

  test('without RELAY_SECRET the relay makes one, keeps it (mode 0600) and says so; a restart reuses it', async () => {
    const dataDir = await tempFolder('notifier-relay-secret-');
    const first = await startRelay({ backend: 'sqlite', secret: null, dataDir });
    const file = path.join(dataDir, 'relay-secret');
    const messages = (relay: RelayProcess) => parseLogLines(relay.log()).map((line) => `${line.level}: ${line.msg}`);
    expect(messages(first)).toContain(`info: RELAY_SECRET is not set: made a new secret and keeps it in ${file} (mode 0600)`);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    const secret = await readFile(file, 'utf8');
    expect(secret.trim()).toMatch(/^[0-9a-f]{64}$/);
    expect(first.log()).not.toContain(secret.trim()); // where it is, never what it is
    expect(await first.stop()).toBe(0);

    const second = await startRelay({ backend: 'sqlite', secret: null, dataDir });
    expect(messages(second)).toContain(`info: RELAY_SECRET is not set: using the secret kept in ${file} (mode 0600)`);
    expect(await readFile(file, 'utf8')).toBe(secret);
    expect(await second.stop()).toBe(0);
  });
});
