// Migration 003: reply events (docs/relay-api.md#ra200 to #ra212): each computer's numbered reply
// events, agents' webhook subscriptions, and the outbox of deliveries still to make.

import type { Kysely, Migration } from 'kysely';

export function events(): Migration {
  const time = 'bigint' as const;
  return {
    async up(db: Kysely<any>): Promise<void> {
      // RA208: the last reply-event number of each computer (its events' cursor); numbers are never reused.
      await db.schema
        .alterTable('devices')
        .addColumn('event_seq', time, (c) => c.notNull().defaultTo(0))
        .execute();

      await db.schema
        .createTable('reply_events')
        .addColumn('device_id', 'text', (c) => c.notNull())
        .addColumn('seq', time, (c) => c.notNull())
        .addColumn('key_id', 'text', (c) => c.notNull())
        .addColumn('rid', 'text', (c) => c.notNull())
        .addColumn('nid', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('at', time, (c) => c.notNull())
        .addPrimaryKeyConstraint('reply_events_pk', ['device_id', 'seq'])
        .execute();
      // A connector's events in order: replay from a cursor, and its newest number.
      await db.schema.createIndex('reply_events_by_key').on('reply_events').columns(['device_id', 'key_id', 'seq']).execute();

      await db.schema
        .createTable('event_subs')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('device_id', 'text', (c) => c.notNull())
        .addColumn('key_id', 'text', (c) => c.notNull())
        .addColumn('event', 'text', (c) => c.notNull())
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('secret', 'text', (c) => c.notNull())
        .addColumn('created_at', time, (c) => c.notNull())
        .execute();
      // RA205: one subscription per connector, event and URL.
      await db.schema.createIndex('event_subs_by_key').on('event_subs').columns(['device_id', 'key_id', 'event', 'url']).unique().execute();

      await db.schema
        .createTable('event_outbox')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('device_id', 'text', (c) => c.notNull())
        .addColumn('sub_id', 'text', (c) => c.notNull())
        .addColumn('seq', time, (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('next_at', time, (c) => c.notNull())
        .addColumn('claimed_until', time)
        .addColumn('created_at', time, (c) => c.notNull())
        .execute();
      // RA210: only a subscription's oldest waiting event is sent: finding it, and whether a row is it.
      await db.schema.createIndex('event_outbox_by_sub').on('event_outbox').columns(['sub_id', 'seq']).unique().execute();
      await db.schema.createIndex('event_outbox_due').on('event_outbox').column('next_at').execute();
    },
  };
}
