// Pairing this computer with a relay, and the pairing once made: online or not and since when, the relay's
// addresses, and "Unpair" (asked first). A refusal is shown next to the field it is about, in words.

import type { VNode } from 'preact';
import { useState } from 'preact/hooks';
import {
  type RelayPairAnswer,
  type RelayPairRequest,
  relayPaths,
  type RelayStatusAnswer,
  type RelayUnpairRequest,
} from '../../../protocol/app-api-relay.js';
import { type Models, useModels } from '../models/context.js';
import { ApiProblem, messageOf, sentence } from '../models/requests.js';
import { FormProblem, type Problem, TextField } from '../ui/fields.js';
import { Fact } from '../ui/facts.js';
import { Icon, type IconName } from '../ui/icon.js';
import { exactTime, type Moment, relativeTime, untilTime, useTime } from '../ui/time.js';
import { focusSoon } from '../ui/focus.js';
import '../ui/tones.css';
import { useSubmit } from '../ui/submit.js';

export const PAIR_HEADING_ID = 'relay-pair-heading';
export const CONNECTION_HEADING_ID = 'relay-connection-heading';

/** The address rule of docs/api/relay-connection.md#rl2, in a person's words. */
const ADDRESS_RULE =
  'The address starts with https://. Only a relay running on this computer may use http:// ' +
  '(such as http://127.0.0.1:8080), so that this computer’s key never crosses a network unencrypted.';

/** A refusal of the pairing, next to the field it is about. */
function pairingProblem(error: unknown): Problem {
  if (!(error instanceof ApiProblem)) return { control: '', message: messageOf(error) };
  if (error.field === 'relayURL') {
    // The reason as the API words it, which may start with the scheme (`http:// is only for…`): never capitalised.
    const reason = (error.reason ?? error.message).trim();
    return { control: 'relay-url', message: `This address cannot be used: ${reason}${/[.!?]$/.test(reason) ? '' : '.'}` };
  }
  if (error.field === 'pairingSecret') return { control: 'relay-secret', message: sentence(error.message) };
  // A 403 at pairing is the relay refusing its pairing secret (or a relay that takes no more computers).
  if (error.status === 403) {
    return { control: 'relay-secret', message: `${sentence(error.message)} Check the pairing secret with whoever runs the relay.` };
  }
  return { control: '', message: messageOf(error) };
}

export function PairForm({ again }: { again?: RelayStatusAnswer }): VNode {
  const { api, relay, status } = useModels();
  const [address, setAddress] = useState(again?.relayURL ?? '');
  const [secret, setSecret] = useState('');
  // The address being paired with, said while the pairing is out.
  const [pairingWith, setPairingWith] = useState('');
  const { busy, problem, submit } = useSubmit(pairingProblem, 'relay-pair-problem');

  const pair = submit(async () => {
    const relayURL = address.trim();
    setPairingWith(relayURL);
    await api.call<RelayPairAnswer, RelayPairRequest>('POST', relayPaths.pair, {
      relayURL,
      ...(secret ? { pairingSecret: secret } : {}),
    });
    setSecret('');
    await relay.loadStatus();
    relay.watchClosely();
    status.say(`Paired with ${relayURL}. Agents can now send you notifications through it.`);
    focusSoon(CONNECTION_HEADING_ID);
  });

  return (
    <section class="section relay-pair" aria-labelledby={PAIR_HEADING_ID}>
      <h2 id={PAIR_HEADING_ID} tabIndex={-1}>
        {again ? 'Pair again' : 'Pair this computer with a relay'}
      </h2>
      <p class="muted">
        A cloud relay lets agents that run elsewhere — Claude, Codex, ChatGPT, a build server — send you notifications on this computer and
        read your replies. Whoever runs the relay gives you its address, and sometimes a pairing secret.
      </p>
      <form class="relay-form" onSubmit={(event) => void pair(event)} aria-busy={busy} noValidate>
        <TextField
          id="relay-url"
          label="Relay address"
          type="url"
          placeholder="https://relay.example.org"
          value={address}
          onValue={setAddress}
          problem={problem}
          hint={ADDRESS_RULE}
        />
        <TextField
          id="relay-secret"
          label="Pairing secret (optional)"
          type="password"
          value={secret}
          onValue={setSecret}
          problem={problem}
          hint="Only if the relay has one: ask whoever runs it."
        />
        <div class="actions send-row">
          <button type="submit" class="button button-primary" aria-disabled={busy}>
            <Icon name="radioTower" />
            <span>{busy ? 'Pairing…' : 'Pair'}</span>
          </button>
          <p class="muted relay-progress" role="status">
            {busy && pairingWith !== '' && `Pairing with ${pairingWith}: asking the relay for a code and using it at once…`}
          </p>
        </div>
        <FormProblem id="relay-pair-problem" problem={problem} />
      </form>
    </section>
  );
}

/** The socket's state in words, with its icon and tone. */
const STATE_WORDS: Record<RelayStatusAnswer['state'], { words: string; icon: IconName; tone: 'done' | 'waiting' | 'problem' }> = {
  online: { words: 'Online', icon: 'circleCheck', tone: 'done' },
  connecting: { words: 'Connecting…', icon: 'hourglass', tone: 'waiting' },
  starting: { words: 'Starting: reading this computer’s key', icon: 'hourglass', tone: 'waiting' },
  offline: { words: 'Offline', icon: 'cloud', tone: 'waiting' },
  limited: { words: 'Offline: the relay asked this computer to wait', icon: 'clock', tone: 'waiting' },
  rejected: { words: 'The relay no longer knows this computer: pair again', icon: 'triangleAlert', tone: 'problem' },
  stopped: { words: 'Stopped', icon: 'cloud', tone: 'problem' },
  unpaired: { words: 'Not paired', icon: 'cloud', tone: 'problem' },
};

/** Since when the state is what it is: the socket came up; else when this page saw it change. */
function since(current: RelayStatusAnswer, changed: string | null, moment: Moment): VNode | null {
  if (current.online && current.lastSeenAt) {
    return <span title={exactTime(current.lastSeenAt, moment)}>since {relativeTime(current.lastSeenAt, moment)}</span>;
  }
  const parts: VNode[] = [];
  if (changed) parts.push(<span title={exactTime(changed, moment)}>since {relativeTime(changed, moment)}</span>);
  if (current.lastSeenAt) {
    parts.push(<span title={exactTime(current.lastSeenAt, moment)}>last online {relativeTime(current.lastSeenAt, moment)}</span>);
  }
  if (current.nextAttemptAt)
    parts.push(<span title={exactTime(current.nextAttemptAt, moment)}>trying again at {untilTime(current.nextAttemptAt, moment)}</span>);
  if (parts.length === 0) return null;
  return (
    <>
      {parts.map((part, index) => (
        <span key={index}>
          {index > 0 && ' · '}
          {part}
        </span>
      ))}
    </>
  );
}

async function unpair({ api, confirm, relay, status }: Models, current: RelayStatusAnswer): Promise<void> {
  const yes = await confirm.ask({
    title: 'Unpair this computer?',
    message:
      `Agents will no longer reach you through ${current.relayURL}, and the keys made for them stop working. ` +
      'The apps they sent as, and their notifications in History, stay.',
    confirm: 'Unpair',
  });
  if (!yes) return;
  try {
    await api.call<unknown, RelayUnpairRequest>('POST', relayPaths.unpair, {});
  } catch (error) {
    // The relay could not be told (it is down, or the key cannot be read): forgetting it here alone is the person's call.
    if (!(error instanceof ApiProblem) || (error.status !== 502 && error.status !== 503)) return status.sayError(error);
    const anyway = await confirm.ask({
      title: 'The relay could not be told',
      message: `${messageOf(error)} Unpair on this computer anyway? The relay keeps listing it until it is removed there.`,
      confirm: 'Unpair anyway',
    });
    if (!anyway) return;
    try {
      await api.call<unknown, RelayUnpairRequest>('POST', relayPaths.unpair, { force: true });
    } catch (again) {
      return status.sayError(again);
    }
  }
  await relay.loadStatus();
  status.say('This computer is no longer paired with a relay.');
  focusSoon(PAIR_HEADING_ID);
}

export function Connection({ current }: { current: RelayStatusAnswer }): VNode {
  const models = useModels();
  const moment = useTime();
  const state = STATE_WORDS[current.state] ?? STATE_WORDS.offline;
  const when = since(current, models.relay.stateChangedAt.value, moment);
  return (
    <section class="section relay-connection" aria-labelledby={CONNECTION_HEADING_ID}>
      <h2 id={CONNECTION_HEADING_ID} tabIndex={-1}>
        Connection
      </h2>
      <p class={`relay-state tone-${state.tone}`}>
        <Icon name={state.icon} />
        <strong>{state.words}</strong>
        {when && <span class="muted"> — {when}</span>}
      </p>
      {current.problem && !current.online && <p class="muted">Why: {sentence(current.problem)}</p>}
      <dl class="facts">
        <Fact term="Relay address">
          <code class="exact">{current.relayURL}</code>
        </Fact>
        <Fact term="MCP address">
          <code class="exact">{current.mcpURL}</code>
          <span class="muted"> — where agents that sign in themselves (ChatGPT, Claude) connect</span>
        </Fact>
        {current.pairedAt && (
          <Fact term="Paired" title={exactTime(current.pairedAt, moment)}>
            {relativeTime(current.pairedAt, moment)}
          </Fact>
        )}
        {current.tokenStore && (
          <Fact term="Its key is kept">
            {current.tokenStore === 'secret-service' ? 'in your desktop’s keyring' : 'in a file only you can read'}
          </Fact>
        )}
      </dl>
      <div class="actions">
        <button type="button" class="button button-danger" onClick={() => void unpair(models, current)}>
          Unpair
        </button>
      </div>
    </section>
  );
}
