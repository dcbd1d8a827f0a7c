// Connectors — agents that signed in to the relay with OAuth: the requests waiting for the person, drawn and answered
// exactly as on the Approvals page (its card and its route), and the ones approved, with "Revoke" (asked first).
// Their reply-event subscriptions (webhooks to their own servers) with "End", and today's use of the relay.

import type { VNode } from 'preact';
import { useRef } from 'preact/hooks';
import {
  relayPaths,
  type RelayKeyRow,
  type RelayLimits,
  type RelaySubscription,
  type RelayUsageAnswer,
} from '../../../protocol/app-api-relay.js';
import { useModels } from '../models/context.js';
import { useAnswerFocus } from '../ui/answer-buttons.js';
import { ConnectorCard } from '../ui/connector-card.js';
import { KeyTimes } from '../ui/key-parts.js';
import { exactTime, relativeTime, useTime } from '../ui/time.js';
import { type Removal, RemovableRow } from '../ui/remove.js';

const CONNECTORS_HEADING_ID = 'relay-connectors-heading';
const EVENTS_HEADING_ID = 'relay-events-heading';

function ApprovedConnector({ row }: { row: RelayKeyRow }): VNode {
  const { relay } = useModels();
  const name = row.displayName ?? row.name;
  const revoke: Removal = {
    question: {
      title: `Revoke ${name}?`,
      message: `${name} can no longer send you notifications. To let it in again, it signs in again and you approve it.`,
      confirm: 'Revoke',
    },
    path: relayPaths.key(row.id),
    done: `${name} was revoked.`,
    reload: relay.loadConnectors,
    headingId: CONNECTORS_HEADING_ID,
  };
  return (
    <RemovableRow id={`relay-connector-${row.id}`} button="Revoke" removal={revoke}>
      <strong>{name}</strong>
      <KeyTimes made="approved" at={row.createdAt} {...(row.lastUsedAt ? { lastUsedAt: row.lastUsedAt } : {})} />
    </RemovableRow>
  );
}

export function ConnectorsSection(): VNode {
  const { approvals, relay } = useModels();
  const heading = useRef<HTMLHeadingElement>(null);
  // After Approve or Deny the card goes: the focus moves to the next request, else to this section's heading.
  const answerFocus = useAnswerFocus<HTMLElement>(heading);
  const waiting = approvals.current.value?.connectors ?? [];
  const { answer, error } = relay.connectors.value;
  return (
    <section
      class="section relay-connectors"
      aria-labelledby={CONNECTORS_HEADING_ID}
      ref={answerFocus.container}
      onClick={answerFocus.onClick}
    >
      <h2 id={CONNECTORS_HEADING_ID} ref={heading} tabIndex={-1}>
        Connectors
      </h2>
      <p class="muted">
        Agents that sign in to the relay themselves (ChatGPT, Claude and others). Each asks you first, with a 6-digit code to check against
        the one its page shows.
      </p>
      {waiting.map((request) => (
        <ConnectorCard key={request.id} request={request} />
      ))}
      {error && <p class="field-problem">The connectors could not be read: {error}</p>}
      {answer &&
        (answer.connectors.length === 0 ? (
          waiting.length === 0 && <p class="empty-line">No agent has signed in yet. When one asks, its request appears here.</p>
        ) : (
          <ul class="framed-list relay-list" aria-label="Approved connectors">
            {answer.connectors.map((row) => (
              <ApprovedConnector key={row.id} row={row} />
            ))}
          </ul>
        ))}
    </section>
  );
}

function SubscriptionRow({ subscription }: { subscription: RelaySubscription }): VNode {
  const { relay } = useModels();
  const moment = useTime();
  const who = subscription.key.displayName ?? subscription.key.name;
  const end: Removal = {
    question: {
      title: 'End this subscription?',
      message: `${who} is no longer told of your replies at ${subscription.host}. It can ask again.`,
      confirm: 'End',
    },
    path: relayPaths.subscription(subscription.id),
    done: 'The subscription was ended.',
    reload: relay.loadSubscriptions,
    headingId: EVENTS_HEADING_ID,
  };
  return (
    <RemovableRow id={`relay-subscription-${subscription.id}`} button="End" removal={end}>
      <strong>{who}</strong> is told of your replies at <code class="exact">{subscription.host}</code>
      <div class="muted key-row-times">
        {subscription.createdAt && (
          <span title={exactTime(subscription.createdAt, moment)}>since {relativeTime(subscription.createdAt, moment)}</span>
        )}
        {subscription.pending ? ` · ${subscription.pending} waiting to be delivered` : ''}
      </div>
    </RemovableRow>
  );
}

export function SubscriptionsSection(): VNode {
  const { answer, error } = useModels().relay.subscriptions.value;
  return (
    <section class="section relay-events" aria-labelledby={EVENTS_HEADING_ID}>
      <h2 id={EVENTS_HEADING_ID} tabIndex={-1}>
        Reply events
      </h2>
      <p class="muted">Connectors that asked to be told of your replies, at a server of their own.</p>
      {error && <p class="field-problem">The subscriptions could not be read: {error}</p>}
      {answer &&
        (answer.subscriptions.length === 0 ? (
          <p class="empty-line">No connector asked for your replies.</p>
        ) : (
          <ul class="framed-list relay-list" aria-label="Subscriptions">
            {answer.subscriptions.map((subscription) => (
              <SubscriptionRow key={subscription.id} subscription={subscription} />
            ))}
          </ul>
        ))}
    </section>
  );
}

/** Each counter the page shows, with the limit it is counted against. */
const COUNTERS: Array<{ label: string; used: (usage: RelayUsageAnswer) => number | undefined; limit: keyof RelayLimits; unit?: string }> = [
  { label: 'Requests', used: (u) => u.requests, limit: 'requestsPerDay' },
  { label: 'Notifications', used: (u) => u.notifications, limit: 'notificationsPerDay' },
  { label: 'Waiting for this computer', used: (u) => u.queued, limit: 'queueMax' },
  { label: 'Time agents waited for replies', used: (u) => u.pollSeconds, limit: 'pollSecondsPerDay', unit: 's' },
  { label: 'Voice recordings', used: (u) => u.audioUploads, limit: 'audioUploadsPerDay' },
];

const count = (value: number, unit = ''): string => `${Math.round(value).toLocaleString()}${unit ? ` ${unit}` : ''}`;

export function UsageSection(): VNode {
  const { answer, error } = useModels().relay.usage.value;
  return (
    <section class="section relay-usage" aria-labelledby="relay-usage-heading">
      <h2 id="relay-usage-heading">Today’s use</h2>
      {error && <p class="field-problem">Today’s use could not be read: {error}</p>}
      {answer && (
        <>
          <p class="muted">What this computer used of the relay on {answer.day} (a day in UTC), against the relay’s daily limits.</p>
          {answer.budgetExhausted && (
            <p class="field-problem" role="alert">
              Today’s budget is used up: the relay refuses more until the day ends (UTC).
            </p>
          )}
          <ul class="relay-meters">
            {COUNTERS.map(({ label, used, limit, unit }, index) => {
              const value = used(answer);
              if (value === undefined) return null;
              const most = answer.limits?.[limit];
              const id = `relay-meter-${index}`;
              return (
                <li key={label}>
                  <span id={id}>{label}</span>
                  <span class="relay-meter-figure">{most ? `${count(value, unit)} of ${count(most, unit)}` : count(value, unit)}</span>
                  {most ? <meter min={0} max={most} value={value} high={most * 0.8} optimum={0} aria-labelledby={id} /> : null}
                </li>
              );
            })}
          </ul>
        </>
      )}
    </section>
  );
}
