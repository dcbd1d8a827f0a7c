// Relay: this computer's cloud relay. Not paired, the pairing form; paired, the connection (online or not, since
// when, the relay's addresses, Unpair), the connectors (a request waiting comes first), the agent keys, today's use
// and the reply-event subscriptions. The relay model (models/relay.ts) reads the state while the page is open, and
// again on each visit.

import type { VNode } from 'preact';
import { useEffect } from 'preact/hooks';
import { useModels } from '../models/context.js';
import { ConnectorsSection, SubscriptionsSection, UsageSection } from './connectors.js';
import { KeysSection } from './keys.js';
import { Connection, PairForm } from './pairing.js';
import './relay.css';

export function RelayPage(): VNode {
  const { relay } = useModels();
  useEffect(() => relay.follow(), []);
  const current = relay.status.value;
  const statusError = relay.statusError;
  return (
    <div class="page relay">
      <header class="page-head">
        <div class="page-title">
          <h1>Relay</h1>
          <p class="muted">Notifications from agents that run elsewhere, through a cloud relay you pair this computer with.</p>
        </div>
      </header>
      {statusError.value && <p role="alert">The relay’s state could not be read: {statusError.value}</p>}
      {!current ? (
        !statusError.value && <p class="muted">Loading…</p>
      ) : !current.paired ? (
        <PairForm />
      ) : (
        <div class="relay-columns">
          <div class="relay-main">
            <Connection current={current} />
            {current.state === 'rejected' && <PairForm again={current} />}
            <ConnectorsSection />
            <KeysSection />
          </div>
          <div class="relay-side">
            <UsageSection />
            <SubscriptionsSection />
          </div>
        </div>
      )}
    </div>
  );
}
