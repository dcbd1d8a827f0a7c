// What the relay's database keeps of the OAuth server's codes and tokens (docs/relay.md, "What the database keeps
// of codes"): after a browser flow (approved, not yet exchanged, then exchanged and refreshed) and a device flow,
// neither the authorization code, the device code, the tokens nor the 6-digit approval codes are anywhere in it —
// read as the bytes of the embedded database's files (the main file, its WAL and shared memory), or as every row of
// every table on PostgreSQL. And the embedded database's files are 0600 whatever the folder's mode and the umask.

import { describe, expect, test } from '@jest/globals';
import { chmod, readFile, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import pg from 'pg';
import { tempFolder } from '../helpers/daemon.js';
import {
  authorizeQuery,
  consentFrame,
  decide,
  DEVICE_GRANT,
  exchange,
  openComputer,
  pageRid,
  pkce,
  postForm,
  refreshTokens,
  register,
  userCodeFrame,
} from '../helpers/oauth.js';
import { BACKENDS, startRelay, type RelayProcess } from '../helpers/relay.js';

const SQLITE_FILES = ['relay.sqlite', 'relay.sqlite-wal', 'relay.sqlite-shm'];

/** Everything the database holds, as text: the embedded files' bytes (latin1: one character a byte), or every row. */
async function databaseText(relay: RelayProcess): Promise<string> {
  if (!relay.databaseUrl) {
    const files = await Promise.all(SQLITE_FILES.map((file) => readFile(path.join(relay.dataDir, file)).catch(() => Buffer.alloc(0))));
    expect(files[1]!.length).toBeGreaterThan(0); // the WAL, where the latest writes are
    return Buffer.concat(files).toString('latin1');
  }
  const client = new pg.Client({ connectionString: relay.databaseUrl });
  await client.connect();
  try {
    const tables = await client.query<{ name: string }>("select tablename as name from pg_tables where schemaname = 'public'");
    const rows: string[] = [];
    for (const { name } of tables.rows) {
      const dump = await client.query<{ row: string }>(`select row_to_json(t)::text as row from "${name}" t`);
      rows.push(...dump.rows.map((row) => row.row));
    }
    expect(rows.join('\n')).toContain('"scope":"notify"'); // the rows are there (a connector key's)
    return rows.join('\n');
  } finally {
    await client.end();
  }
}

/**
 * Where a 6-digit code is in the database as a value of its own. In the embedded files: anywhere but inside a long
 * run of hex digits (the ids and hashes the files are full of, where any 6 digits turn up by chance; numbers are
 * stored as binary). In PostgreSQL's rows as JSON: as a string (numbers, such as times, are not quoted).
 */
function storedCode(relay: RelayProcess, text: string, digits: string): number[] {
  if (relay.databaseUrl) return text.includes(`"${digits}"`) ? [text.indexOf(`"${digits}"`)] : [];
  const found: number[] = [];
  for (let at = text.indexOf(digits); at !== -1; at = text.indexOf(digits, at + 1)) {
    let start = at;
    let end = at + digits.length;
    while (start > 0 && /[0-9a-f]/.test(text[start - 1]!)) start--;
    while (end < text.length && /[0-9a-f]/.test(text[end]!)) end++;
    if (end - start < 32) found.push(at);
  }
  return found;
}

describe.each(BACKENDS)('codes at rest (%s)', (backend) => {
  test('no code or token in the database: approved and not yet exchanged, exchanged, refreshed, and the device flow', async () => {
    const relay = await startRelay({ backend, env: { REGISTER_PER_HOUR: '100' } });
    try {
      const computer = await openComputer(relay);
      const client = (await register(relay)).client_id;
      const { verifier, challenge } = pkce();
      const rid = pageRid((await relay.call('GET', `/authorize?${authorizeQuery(client, challenge, { device: computer.index })}`)).text);
      const approvalCodes = [(await consentFrame(computer.socket, rid)).code as string];
      const deviceClient = (await register(relay, { grant_types: [DEVICE_GRANT] })).client_id;
      const started = (await postForm(relay, '/device_authorization', { client_id: deviceClient, device: computer.index })).json;
      const deviceFrame = await userCodeFrame(computer.socket, started.user_code);
      approvalCodes.push(deviceFrame.code);

      // Approved; the code waits for its exchange (it used to sit in clear in the database meanwhile).
      const code = new URL((await decide(relay, computer.token, rid, 'approve')).json.redirect).searchParams.get('code')!;
      const secrets = [code, code.slice(-64), started.device_code, started.device_code.slice(-64)];
      let text = await databaseText(relay);
      for (const secret of secrets) expect([secret, text.includes(secret)]).toEqual([secret, false]);
      for (const digits of approvalCodes) expect([digits, storedCode(relay, text, digits)]).toEqual([digits, []]);

      const tokens = (await exchange(relay, client, code, verifier)).json;
      const refreshed = (await refreshTokens(relay, client, tokens.refresh_token)).json;
      await decide(relay, computer.token, deviceFrame.id, 'approve');
      const deviceTokens = (
        await postForm(relay, '/token', { grant_type: DEVICE_GRANT, client_id: deviceClient, device_code: started.device_code })
      ).json;
      expect(deviceTokens.access_token).toMatch(/^hra_/);
      for (const token of [tokens, refreshed, deviceTokens].flatMap((answer) => [answer.access_token, answer.refresh_token]))
        secrets.push(token.slice(-64));
      text = await databaseText(relay);
      for (const secret of secrets) expect([secret, text.includes(secret)]).toEqual([secret, false]);
      for (const digits of approvalCodes) expect([digits, storedCode(relay, text, digits)]).toEqual([digits, []]);
    } finally {
      await relay.stop();
    }
  });
});

describe('the embedded database files', () => {
  test('are 0600 whatever the umask and the folder mode, also when they were not before', async () => {
    const folder = await tempFolder('notifier-relay-modes-');
    await chmod(folder, 0o755);
    const umask = process.umask(0o000); // the relay inherits it: files made without asking for a mode would be 0644
    let relay: RelayProcess;
    try {
      relay = await startRelay({ backend: 'sqlite', dataDir: folder });
    } finally {
      process.umask(umask);
    }
    const modes = async () =>
      Object.fromEntries(
        await Promise.all(
          (await readdir(folder))
            .filter((name) => name.startsWith('relay.sqlite'))
            .map(async (name) => [name, (await stat(path.join(folder, name))).mode & 0o777]),
        ),
      );
    await openComputer(relay); // a write or two: the WAL and the shared memory exist
    expect(await modes()).toEqual(Object.fromEntries(SQLITE_FILES.map((name) => [name, 0o600])));
    await relay.stop();

    // Files left readable by an earlier relay are made 0600 again at start.
    for (const name of SQLITE_FILES) await chmod(path.join(folder, name), 0o644).catch(() => undefined);
    const again = await startRelay({ backend: 'sqlite', dataDir: folder });
    try {
      await openComputer(again);
      const now = await modes();
      for (const name of Object.keys(now)) expect([name, now[name]]).toEqual([name, 0o600]);
      expect(Object.keys(now)).toEqual(expect.arrayContaining(['relay.sqlite', 'relay.sqlite-wal']));
    } finally {
      await again.stop();
    }
  });
});
