// What an agent can do, whichever way it asks (docs/relay-api.md#ra40 to #ra49): the HTTP routes and the MCP
// tools call these, so both count, limit and answer alike.

import type { BoundedBody } from '../../common/bounded-body.js';
import type { Receipt } from '../../protocol/relay/receipts.js';
import { countNotify } from '../metrics.js';
import type { AgentCaller } from './auth.js';
import { findDevice, statusView } from './devices.js';
import { notify, readableNote } from './notes.js';
import { notifyGroup, type NotifyInput } from './notify-group.js';
import type { Relay } from './relay.js';
import { agentStep } from './requests.js';
import { receiptView } from './views.js';

/** RA40-RA46: 202 with the receipt, or 200 with the first receipt for a duplicate. */
export async function sendNotification(
  relay: Relay,
  agent: AgentCaller,
  body: BoundedBody,
  origin: string,
): Promise<{ status: 200 | 202; body: { duplicate: boolean } & Receipt }> {
  // On PostgreSQL, requests for the computer that wait together are taken together (notify-group.ts).
  const grouped = { group: notifyGroup(relay), input: { agent, body } satisfies NotifyInput };
  const outcome = await countNotify(
    agentStep(relay, agent, { readLimited: false, sending: true, grouped }, (step) => notify(relay, step, body)),
  );
  const receipt = receiptView(outcome.note, { relay, origin, now: relay.clock() });
  return { status: outcome.duplicate ? 200 : 202, body: { duplicate: outcome.duplicate, ...receipt } };
}

/** RA46: the receipt of one of the key's notifications of the last 24 hours. */
export async function readReceipt(relay: Relay, agent: AgentCaller, nid: string, origin: string): Promise<Receipt> {
  const note = await agentStep(relay, agent, { readLimited: true }, ({ tx, key, now }) => readableNote(tx.db, key, nid, now));
  return receiptView(note, { relay, origin, now: relay.clock() });
}

/** RA49: online and quiet hours. */
export function readStatus(relay: Relay, agent: AgentCaller): Promise<ReturnType<typeof statusView>> {
  return agentStep(relay, agent, { readLimited: false }, async ({ tx, now }) =>
    statusView((await findDevice(tx.db, agent.deviceId))!, now),
  );
}
