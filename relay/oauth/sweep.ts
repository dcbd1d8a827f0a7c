// The OAuth server's background work (docs/relay-api.md#ra112), one run at a time across nodes (claimed like every
// background task): waiting requests past their 10 minutes become expired — their banners go, with
// `consent_resolved` — and rows past their use are deleted: requests after a day, registration hits after the
// hour, client metadata documents past their max-age (and the oldest beyond the 1000 kept).

import type { Task } from '../core/housekeeping.js';
import type { Relay } from '../core/relay.js';
import { deleteUpTo } from '../store/queries.js';
import { CONSENT_LIST_WINDOW_MS, REGISTER_WINDOW_MS } from './limits.js';
import { MAX_KEPT_DOCUMENTS } from './metadata-documents.js';
import { expireRequests } from './requests.js';

export async function sweepOAuth(relay: Relay, now: number): Promise<void> {
  const db = relay.store.db;
  const due = await db
    .selectFrom('oauth_requests')
    .select('device_id')
    .distinct()
    .where('status', '=', 'pending')
    .where('expires_at', '<=', now)
    .execute();
  for (const { device_id } of due) await relay.store.withDeviceLock(device_id, (tx) => expireRequests(tx, device_id, now));

  await db
    .deleteFrom('oauth_requests')
    .where('created_at', '<=', now - CONSENT_LIST_WINDOW_MS)
    .where('status', '!=', 'pending')
    .execute();
  await deleteUpTo(db, 'oauth_registrations', 'at', now - REGISTER_WINDOW_MS);
  await deleteUpTo(db, 'oauth_client_documents', 'expires_at', now);
  const kept = db.selectFrom('oauth_client_documents').select('url').orderBy('fetched_at', 'desc').limit(MAX_KEPT_DOCUMENTS);
  await db.deleteFrom('oauth_client_documents').where('url', 'not in', kept).execute();
}

/** The OAuth server's background tasks, run by the Housekeeper with the core's (server.ts). */
export const OAUTH_TASKS: readonly Task[] = [{ name: 'oauthSweep', run: sweepOAuth }];
