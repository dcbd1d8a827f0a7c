// Migration 004: no approval code and no authorization code at rest (docs/relay.md, "What the database keeps of
// codes"). A request keeps a random nonce instead, and the relay makes both codes again from it and RELAY_SECRET
// whenever it needs them (relay/oauth/codes.ts); of the authorization code the database keeps only its SHA-256, as
// before.
//
// The column of the 6-digit code becomes the nonce: a request waiting during the upgrade gets a new approval code
// (its banner's Approve still works; the code shown there no longer does), and the column of the authorization code
// in clear goes, with whatever codes it still held.

import type { Kysely, Migration } from 'kysely';

export function codesAtRest(): Migration {
  return {
    async up(db: Kysely<any>): Promise<void> {
      await db.schema.alterTable('oauth_requests').renameColumn('approval_code', 'code_nonce').execute();
      await db.schema.alterTable('oauth_requests').dropColumn('code').execute();
    },
  };
}
