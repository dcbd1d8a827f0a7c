// Migration 002: the relay's OAuth server (docs/relay-api.md#ra100 onwards): registered clients and
// the hits of the hourly registration limit, cached client metadata documents, approval requests of both flows
// (per computer) and the connectors' tokens (per computer).

import type { Kysely, Migration } from 'kysely';

export function oauth(): Migration {
  const time = 'bigint' as const;
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema
        .createTable('oauth_clients')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('redirect_uris', 'text', (c) => c.notNull())
        .addColumn('auth_method', 'text', (c) => c.notNull())
        .addColumn('secret_hash', 'text')
        .addColumn('created_at', time, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('oauth_clients_by_age').on('oauth_clients').column('created_at').execute();

      await db.schema
        .createTable('oauth_registrations')
        .addColumn('at', time, (c) => c.notNull())
        .execute();
      await db.schema.createIndex('oauth_registrations_by_time').on('oauth_registrations').column('at').execute();

      await db.schema
        .createTable('oauth_client_documents')
        .addColumn('url', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('redirect_uris', 'text', (c) => c.notNull())
        .addColumn('fetched_at', time, (c) => c.notNull())
        .addColumn('expires_at', time, (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('oauth_requests')
        .addColumn('device_id', 'text', (c) => c.notNull())
        .addColumn('id', 'text', (c) => c.notNull())
        .addColumn('flow', 'text', (c) => c.notNull())
        .addColumn('client_id', 'text', (c) => c.notNull())
        .addColumn('client_name', 'text', (c) => c.notNull())
        .addColumn('origin', 'text', (c) => c.notNull())
        .addColumn('redirect_uri', 'text')
        .addColumn('code_challenge', 'text')
        .addColumn('state', 'text')
        .addColumn('resource', 'text')
        .addColumn('approval_code', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull())
        .addColumn('code', 'text')
        .addColumn('code_hash', 'text')
        .addColumn('key_id', 'text')
        .addColumn('created_at', time, (c) => c.notNull())
        .addColumn('expires_at', time, (c) => c.notNull())
        .addColumn('decided_at', time)
        .addColumn('redeemed_at', time)
        .addColumn('device_code_hash', 'text')
        .addColumn('user_code', 'text')
        .addColumn('last_poll_at', time)
        .addColumn('interval_seconds', 'integer', (c) => c.notNull())
        .addColumn('announced_at', time)
        .addPrimaryKeyConstraint('oauth_requests_pk', ['device_id', 'id'])
        .execute();
      await db.schema.createIndex('oauth_requests_by_status').on('oauth_requests').columns(['device_id', 'status']).execute();
      await db.schema.createIndex('oauth_requests_by_code').on('oauth_requests').columns(['device_id', 'code_hash']).execute();
      await db.schema
        .createIndex('oauth_requests_by_device_code')
        .on('oauth_requests')
        .columns(['device_id', 'device_code_hash'])
        .execute();
      await db.schema.createIndex('oauth_requests_by_user_code').on('oauth_requests').column('user_code').execute();
      await db.schema.createIndex('oauth_requests_by_age').on('oauth_requests').column('created_at').execute();

      await db.schema
        .createTable('oauth_tokens')
        .addColumn('device_id', 'text', (c) => c.notNull())
        .addColumn('hash', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('key_id', 'text', (c) => c.notNull())
        .addColumn('client_id', 'text', (c) => c.notNull())
        .addColumn('resource', 'text')
        .addColumn('family', 'text', (c) => c.notNull())
        .addColumn('seq', time, (c) => c.notNull())
        .addColumn('created_at', time, (c) => c.notNull())
        .addPrimaryKeyConstraint('oauth_tokens_pk', ['device_id', 'hash'])
        .execute();
      await db.schema.createIndex('oauth_tokens_by_key').on('oauth_tokens').columns(['device_id', 'key_id', 'kind', 'seq']).execute();
    },
  };
}
