// Migration 004 on a database made before it (docs/relay.md, "What the database keeps of codes"), on both
// backends: a request's 6-digit approval code column becomes its nonce, and the column of authorization codes in
// clear goes, with the code it held; the rest of the row stays.

import { afterAll, describe, expect, test } from '@jest/globals';
import { Kysely, Migrator, PostgresDialect, SqliteDialect } from 'kysely';
import path from 'node:path';
import pg from 'pg';
import type { Dialect } from '../../../relay/store/backend.js';
import { migrate } from '../../../relay/store/migrate.js';
import { migrations } from '../../../relay/store/migrations/index.js';
import { sqliteKeptForLife } from '../../../relay/store/sqlite.js';
import { tempFolder } from '../../helpers/daemon.js';
import { createDatabase } from '../../helpers/postgres.js';

const opened: Kysely<any>[] = [];
afterAll(async () => {
  for (const db of opened) await db.destroy();
});

async function openDatabase(dialect: Dialect): Promise<Kysely<any>> {
  const db =
    dialect === 'sqlite'
      ? new Kysely<any>({
          // Kept for the life of the process: a better-sqlite3 object the collector destroys aborts Node 24 (docs/relay.md).
          dialect: new SqliteDialect({
            database: sqliteKeptForLife(path.join(await tempFolder('notifier-migration-'), 'relay.sqlite')).statements,
          }),
        })
      : new Kysely<any>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: await createDatabase(), max: 2 }) }) });
  opened.push(db);
  return db;
}

describe.each(['sqlite', 'postgres'] as const)('migration 004 (%s)', (dialect) => {
  test('an approved request of before keeps its row, without its codes in clear', async () => {
    const db = await openDatabase(dialect);
    const before = new Migrator({
      db,
      provider: { getMigrations: async () => migrations(dialect) },
      migrationTableName: 'relay_migrations',
      migrationLockTableName: 'relay_migrations_lock',
    });
    expect((await before.migrateTo('003-events')).error).toBeUndefined();
    const code = `hrc_${'a'.repeat(48)}_${'b'.repeat(64)}`;
    await db
      .insertInto('oauth_requests')
      .values({
        device_id: 'a'.repeat(48),
        id: `${'a'.repeat(48)}${'c'.repeat(24)}`,
        flow: 'code',
        client_id: 'hc_client',
        client_name: 'Old client',
        origin: 'https://relay.example.org',
        redirect_uri: 'https://app.example/cb',
        code_challenge: 'x'.repeat(43),
        state: null,
        resource: null,
        approval_code: '123456',
        status: 'approved',
        attempts: 0,
        code,
        code_hash: 'f'.repeat(64),
        key_id: '0000abcd',
        created_at: 1,
        expires_at: 2,
        decided_at: 1,
        redeemed_at: null,
        device_code_hash: null,
        user_code: null,
        last_poll_at: null,
        interval_seconds: 5,
        announced_at: null,
      })
      .execute();

    await migrate(db, dialect);
    const rows = await db.selectFrom('oauth_requests').selectAll().execute();
    expect(rows).toHaveLength(1);
    const row = rows[0] as Record<string, unknown>;
    expect(row).toMatchObject({ code_nonce: '123456', code_hash: 'f'.repeat(64), client_name: 'Old client', status: 'approved' });
    expect(Object.keys(row)).not.toContain('code');
    expect(Object.keys(row)).not.toContain('approval_code');
    expect(JSON.stringify(row)).not.toContain(code);
  });
});
