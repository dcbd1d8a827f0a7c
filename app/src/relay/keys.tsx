// Agent keys: make one (a name, and the agent it is for), see it once with its ready-made set-ups and "Copy", list
// them, revoke one (asked first). The new key lives only in this view's state: it is never stored, and once the
// person leaves the view or reloads the page it cannot be shown again (the relay keeps only its hash).

import type { VNode } from 'preact';
import { useState } from 'preact/hooks';
import {
  RELAY_KEY_CLIENTS,
  type RelayKeyClient,
  type RelayKeyCreated,
  type RelayKeyRequest,
  type RelayKeyRow,
  relayPaths,
} from '../../../protocol/app-api-relay.js';
import { useModels } from '../models/context.js';
import { ApiProblem, messageOf, sentence } from '../models/requests.js';
import { FormProblem, type Problem, SelectField, TextField } from '../ui/fields.js';
import { Icon } from '../ui/icon.js';
import { HideKey, KeyTimes, KeyValue, SetupLines } from '../ui/key-parts.js';
import { focusSoon } from '../ui/focus.js';
import { type Removal, RemovableRow } from '../ui/remove.js';
import { useSubmit } from '../ui/submit.js';
import { setupsFor } from './setups.js';
import '../ui/cards.css';

const CLIENT_LABELS: Record<RelayKeyClient, string> = {
  claude: 'Claude Code',
  codex: 'Codex',
  other: 'Another agent or a script',
};
const NAME_RULE = '1 to 32 lower-case letters, digits and dashes, such as build-bot.';
const KEYS_HEADING_ID = 'relay-keys-heading';
const NEW_KEY_HEADING_ID = 'relay-new-key-heading';

function keyProblem(error: unknown): Problem {
  if (!(error instanceof ApiProblem)) return { control: '', message: messageOf(error) };
  if (error.field === 'client') return { control: 'relay-key-client', message: sentence(error.message) };
  if (error.field === 'name' && error.code === 'missing_field') return { control: 'relay-key-name', message: 'Give the key a name.' };
  if (error.field === 'name') return { control: 'relay-key-name', message: `Use ${NAME_RULE}` };
  // The relay's own refusals of a name: its rule (400) or a name in use (409), about the name the person typed.
  if (error.code === 'relay_refused' && (error.status === 400 || error.status === 409)) {
    return { control: 'relay-key-name', message: sentence(error.message) };
  }
  return { control: '', message: messageOf(error) };
}

/** The key made just now, shown this once, with what to paste into each agent. */
function NewKey({ made, onDone }: { made: RelayKeyCreated; onDone: () => void }): VNode {
  const { relay } = useModels();
  const relayURL = relay.status.value?.relayURL ?? made.mcpURL.replace(/\/mcp$/, '');
  return (
    <div class="card new-key" role="region" aria-labelledby={NEW_KEY_HEADING_ID}>
      <h3 id={NEW_KEY_HEADING_ID} tabIndex={-1} class="card-title">
        The key “{made.name}”
      </h3>
      <p>
        <strong>This is the only time it is shown.</strong> Copy it now, or one of the set-ups below. If it gets lost, revoke it and create
        another.
      </p>
      <KeyValue value={made.key} id="relay-new-key-value" />
      <p class="muted">Set it up in the agent (the one it was made for is open):</p>
      <SetupLines lines={setupsFor(made, relayURL)} prefix="relay-setup" />
      <HideKey onDone={onDone} />
    </div>
  );
}

function KeyRow({ row }: { row: RelayKeyRow }): VNode {
  const { relay } = useModels();
  const revoke: Removal = {
    question: {
      title: `Revoke the key “${row.name}”?`,
      message: 'The agent that uses it can no longer send you notifications. Its app and its notifications in History stay.',
      confirm: 'Revoke',
    },
    path: relayPaths.key(row.id),
    done: `The key “${row.name}” was revoked.`,
    reload: relay.loadKeys,
    headingId: KEYS_HEADING_ID,
  };
  const client = CLIENT_LABELS[row.client as RelayKeyClient] ?? row.client;
  // A revoked key stays listed (with when), with nothing left to press.
  return (
    <RemovableRow id={`relay-key-${row.id}`} button="Revoke" removal={row.revokedAt ? undefined : revoke}>
      <strong>{row.name}</strong> <span class="muted">· {client}</span>
      <KeyTimes
        made="made"
        at={row.createdAt}
        {...(row.lastUsedAt ? { lastUsedAt: row.lastUsedAt } : {})}
        {...(row.revokedAt ? { revokedAt: row.revokedAt } : {})}
      />
    </RemovableRow>
  );
}

export function KeysSection(): VNode {
  const { api, relay, status } = useModels();
  const [name, setName] = useState('');
  const [client, setClient] = useState<RelayKeyClient>('other');
  const { busy, problem, submit } = useSubmit(keyProblem, 'relay-key-problem');
  // The key made: only here, for as long as this view shows it.
  const [made, setMade] = useState<RelayKeyCreated | null>(null);

  const create = submit(async () => {
    const answer = await api.call<RelayKeyCreated, RelayKeyRequest>('POST', relayPaths.keys, { name: name.trim(), client });
    setMade(answer);
    setName('');
    status.say(`The key “${answer.name}” was made. Copy it now: it is shown only once.`);
    focusSoon(NEW_KEY_HEADING_ID);
    void relay.loadKeys();
  });
  const done = (): void => {
    setMade(null);
    focusSoon('relay-key-name');
  };

  const { answer, error } = relay.keys.value;
  const mine = (answer?.keys ?? []).filter((row) => row.kind !== 'oauth');
  const active = mine.filter((row) => !row.revokedAt);
  const revoked = mine.filter((row) => row.revokedAt);
  return (
    <section class="section relay-keys" aria-labelledby={KEYS_HEADING_ID}>
      <h2 id={KEYS_HEADING_ID} tabIndex={-1}>
        Agent keys
      </h2>
      <p class="muted">
        A key lets one agent or script send you notifications through the relay and read your replies to them. Make one per agent: you can
        revoke it alone.
      </p>
      {made && <NewKey made={made} onDone={done} />}
      <form class="relay-form relay-key-form" onSubmit={(event) => void create(event)} aria-busy={busy} noValidate>
        <div class="field-row">
          <TextField id="relay-key-name" label="Name" value={name} onValue={setName} problem={problem} hint={`Use ${NAME_RULE}`} />
          <SelectField
            id="relay-key-client"
            label="For"
            value={client}
            onValue={(value) => setClient(value as RelayKeyClient)}
            problem={problem}
            choices={RELAY_KEY_CLIENTS.map((value) => [value, CLIENT_LABELS[value]] as const)}
          />
        </div>
        <div class="actions send-row">
          <button type="submit" class="button button-primary" aria-disabled={busy}>
            <Icon name="plus" />
            <span>{busy ? 'Creating…' : 'Create key'}</span>
          </button>
        </div>
        <FormProblem id="relay-key-problem" problem={problem} />
      </form>
      {error && <p class="field-problem">The keys could not be read: {error}</p>}
      {answer &&
        (active.length === 0 ? (
          <p class="empty-line">No agent has a key yet.</p>
        ) : (
          <ul class="framed-list relay-list" aria-label="Keys in use">
            {active.map((row) => (
              <KeyRow key={row.id} row={row} />
            ))}
          </ul>
        ))}
      {revoked.length > 0 && (
        <details class="relay-revoked">
          <summary>Revoked keys ({revoked.length})</summary>
          <ul class="framed-list relay-list" aria-label="Revoked keys">
            {revoked.map((row) => (
              <KeyRow key={row.id} row={row} />
            ))}
          </ul>
        </details>
      )}
    </section>
  );
}
