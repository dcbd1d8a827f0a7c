// What every part of the relay works with: its limits, its store, the signing secret and the clock.

import { RelayError } from '../../protocol/relay/errors.js';
import { OAuthError } from '../../protocol/relay/oauth-errors.js';
import type { Limits } from '../limits.js';
import type { Backend, DeviceTx, Grouped } from '../store/backend.js';
import type { Credentials } from './credentials.js';
import type { Outbound } from './outbound.js';
import type { Clock } from './time.js';
import type { Waiters } from './waiters.js';

export interface Relay {
  readonly limits: Limits;
  readonly store: Backend;
  readonly credentials: Credentials;
  readonly clock: Clock;
  /** PAIRING_SECRET: when set, starting a pairing needs it. */
  readonly pairingSecret: string | undefined;
  /** Long-polls waiting in this process. */
  readonly waiters: Waiters;
  /** EVENT_CALLBACK_HOSTS: the only hosts webhooks may go to (empty: any public host). */
  readonly eventCallbackHosts: readonly string[];
  /** The relay's own requests out (webhooks, client metadata documents), under the outbound rules. */
  readonly outbound: Outbound;
}

/** A refusal of the caller's request: the relay's own error shape, or the OAuth routes'. */
type Refusal = RelayError | OAuthError;

/** A step's outcome as its transaction returns it: its value, or the refusal to throw once it committed. */
export type Settled<T> = { value: T } | { refusal: Refusal };

/** Runs `work`, turning a refusal into a value, so the transaction around it commits. */
const catchRefusal =
  <T>(work: (tx: DeviceTx) => Promise<T>) =>
  async (tx: DeviceTx): Promise<Settled<T>> => {
    try {
      return { value: await work(tx) };
    } catch (error) {
      if (error instanceof RelayError || error instanceof OAuthError) return { refusal: error };
      throw error;
    }
  };

async function settle<T>(outcome: Promise<Settled<T>>): Promise<T> {
  const settled = await outcome;
  if ('refusal' in settled) throw settled.refusal;
  return settled.value;
}

/**
 * A computer's locked transaction whose refusals still commit. Steps check first and write last, so what a
 * refusal leaves behind is only what must count anyway (the request against the daily budget, RA51; a grant
 * revoked on the reuse of its code or refresh token, RA106); the RelayError or OAuthError is thrown after the
 * commit. Any other error rolls everything back. A group (`grouped`) answers each of its jobs with a Settled, as
 * the job's own transaction would.
 */
export function refusable<T>(relay: Relay, deviceId: string, work: (tx: DeviceTx) => Promise<T>, grouped?: Grouped): Promise<T> {
  return settle(relay.store.withDeviceLock(deviceId, catchRefusal(work), grouped));
}

/** The same for the relay-wide rules of pairing (a wrong code is recorded even though it is refused, RA12). */
export function refusableRelayWide<T>(relay: Relay, work: (tx: DeviceTx) => Promise<T>): Promise<T> {
  return settle(relay.store.withRelayLock(catchRefusal(work)));
}
