// Migration 001: pairing, computers, agent keys, notifications and receipts, usage, voice-reply audio and the
// background tasks. Later migrations in this folder add 002 (OAuth), 003 (reply events), ...

import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../backend.js';

export function initial(dialect: Dialect): Migration {
  // Unix milliseconds need 64 bits; SQLite's INTEGER is 64-bit whatever it is called.
  const time = 'bigint' as const;
  const blob = dialect === 'postgres' ? sql`bytea` : sql`blob`;
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('devices')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('token_hash', 'text', (c) => c.notNull())
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('last_seen_at', time, (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull().defaultTo('{}'))
        .addColumn('stream_gen', time, (c) => c.notNull().defaultTo(0))
        .addColumn('stream_open', time)
        .execute();
      await db.schema.createIndex('devices_by_name').on('devices').column('name').execute();

      await db.schema
        .createTable('pair_codes')
        .addColumn('code_hash', 'text', (c) => c.primaryKey())
        .addColumn('device_name', 'text')
        .addColumn('addr_hash', 'text', (c) => c.notNull())
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('expires_at', time, (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('pair_events')
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('addr_hash', 'text', (c) => c.notNull())
        .addColumn('at', time, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('pair_events_by_time').on('pair_events').columns(['kind', 'at']).execute();

      await db.schema
        .createTable('agent_keys')
        .addColumn('device_id', 'text', (c) => c.notNull())
        .addColumn('id', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('client', 'text', (c) => c.notNull())
        .addColumn('scope', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('secret_hash', 'text')
        .addColumn('display_name', 'text')
        .addColumn('oauth_client', 'text')
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('revoked_at', time)
        .addColumn('last_used_at', time)
        .addPrimaryKeyConstraint('agent_keys_pk', ['device_id', 'id'])
        .execute();

      await db.schema
        .createTable('key_hits')
        .addColumn('device_id', 'text', (c) => c.notNull())
        .addColumn('key_id', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('seq', time, (c) => c.notNull())
        .addColumn('at', time, (c) => c.notNull())
        .addPrimaryKeyConstraint('key_hits_pk', ['device_id', 'key_id', 'kind', 'seq'])
        .execute();
      // No index on `at`: the hourly clean-up reads the whole (small) table rather than every hit updating one.

      await db.schema
        .createTable('notes')
        .addColumn('device_id', 'text', (c) => c.notNull())
        .addColumn('rid', 'text', (c) => c.notNull())
        .addColumn('key_id', 'text', (c) => c.notNull())
        .addColumn('nid', 'text', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('expect_reply', 'integer', (c) => c.notNull())
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('acked_at', time)
        .addColumn('displayed_at', time)
        .addColumn('spoken_at', time)
        .addColumn('replied_at', time)
        .addColumn('reply_text', 'text')
        .addColumn('transcript', 'text')
        .addColumn('duration_seconds', 'double precision')
        .addColumn('audio_size', 'integer')
        .addColumn('suppressed_at', time)
        .addColumn('suppressed_reason', 'text')
        .addColumn('suppressed_scope', 'text')
        .addPrimaryKeyConstraint('notes_pk', ['device_id', 'rid'])
        .execute();
      // One row per (key, notificationId): a repeat within 24 h is a duplicate, an older row is replaced (RA44).
      await db.schema.createIndex('notes_by_sender_id').on('notes').columns(['device_id', 'key_id', 'nid']).unique().execute();
      // The waiting queue (neither acknowledged nor suppressed) stays small however many notes are kept, so the
      // queue-full count and the expiry sweep read only it (RA45).
      await db.schema
        .createIndex('notes_waiting')
        .on('notes')
        .columns(['device_id', 'created_at'])
        .where(sql.ref('acked_at'), 'is', null)
        .where(sql.ref('suppressed_at'), 'is', null)
        .execute();

      await db.schema
        .createTable('usage_days')
        .addColumn('device_id', 'text', (c) => c.notNull())
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('requests', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('ws_messages', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('notifications', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('poll_seconds', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('audio_uploads', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('audio_bytes', time, (c) => c.notNull().defaultTo(0))
        .addPrimaryKeyConstraint('usage_days_pk', ['device_id', 'day'])
        .execute();

      await db.schema
        .createTable('reply_audio')
        .addColumn('device_id', 'text', (c) => c.notNull())
        .addColumn('rid', 'text', (c) => c.notNull())
        .addColumn('content_type', 'text', (c) => c.notNull())
        .addColumn('size', 'integer', (c) => c.notNull())
        .addColumn('bytes', blob, (c) => c.notNull())
        .addColumn('created_at', time, (c) => c.notNull())
        .addPrimaryKeyConstraint('reply_audio_pk', ['device_id', 'rid'])
        .execute();

      await db.schema
        .createTable('tasks')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('due_at', time, (c) => c.notNull())
        .execute();
    },
  };
}
