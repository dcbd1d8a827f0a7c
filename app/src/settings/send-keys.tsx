// An app's sending keys, on its card (docs/app.md#settings, docs/api/keys.md): a key lets one tool — a backup script,
// Uptime Kuma, Home Assistant — send notifications as this app and nothing else. "Make a sending key" shows the key
// once, with Copy and the lines to paste into the tools; the key lives only in this view's state (the daemon keeps
// its hash), so once the person hides it or leaves, it cannot be shown again. Each key can be revoked alone.

import type { VNode } from 'preact';
import { useState } from 'preact/hooks';
import { type AppSettingsEntry, type SendKeyCreated, type SendKeyRow, settingsPaths } from '../../../protocol/app-api-settings.js';
import { useModels } from '../models/context.js';
import { messageOf } from '../models/requests.js';
import { TextField } from '../ui/fields.js';
import { focusSoon } from '../ui/focus.js';
import { Icon } from '../ui/icon.js';
import { HideKey, KeyTimes, KeyValue, SetupLines, type SetupLine } from '../ui/key-parts.js';
import { type Removal, RemovableRow } from '../ui/remove.js';
import { useSubmit } from '../ui/submit.js';

/** A topic of ntfy's dialect is an app id of these characters only (docs/api/ntfy.md#nt2). */
const TOPIC = /^[-_A-Za-z0-9]{1,64}$/;

/** The lines of a key just made, each with what it is for. */
function linesOf(made: SendKeyCreated, topicWorks: boolean): SetupLine[] {
  const lines = [
    {
      id: 'curl',
      title: 'curl, in a script or cron job',
      where: 'Sends one notification; change the text after -d.',
      text: made.lines.curl,
    },
    {
      id: 'apprise',
      title: 'Apprise, changedetection.io',
      where: 'The URL to give Apprise, or any tool that takes Apprise URLs.',
      text: made.lines.apprise,
    },
    {
      id: 'ntfy',
      title: 'Uptime Kuma, Home Assistant, diun and other tools that speak ntfy',
      where: `Server: the address below. Topic: ${made.app}. Access token: the key.`,
      text: made.lines.ntfyServer,
    },
  ];
  return topicWorks ? lines : lines.filter((line) => line.id === 'curl');
}

/** The key made just now, shown this once. */
function NewKey({ made, appName, onDone }: { made: SendKeyCreated; appName: string; onDone: () => void }): VNode {
  const headingId = `send-key-new-${made.id}`;
  const topicWorks = TOPIC.test(made.app);
  return (
    <div class="card new-key send-key-new" role="region" aria-labelledby={headingId}>
      <h4 id={headingId} tabIndex={-1} class="card-title">
        The sending key “{made.name}”
      </h4>
      <p>
        <strong>This is the only time it is shown.</strong> Copy it now, or one of the lines below. It sends notifications as {appName} and
        nothing else. If it gets lost, revoke it and make another.
      </p>
      <KeyValue value={made.key} />
      {!topicWorks && (
        <p class="muted">
          Tools that speak ntfy need an app name of letters, digits, - and _ only: this one can send with curl and Notifier's own API.
        </p>
      )}
      <SetupLines lines={linesOf(made, topicWorks)} prefix={headingId} />
      <HideKey onDone={onDone} />
    </div>
  );
}

function KeyRow({ row, headingId }: { row: SendKeyRow; headingId: string }): VNode {
  const { settings } = useModels();
  const revoke: Removal = {
    question: {
      title: `Revoke the sending key “${row.name}”?`,
      message: 'The tool that uses it can no longer send notifications. What it sent stays in History.',
      confirm: 'Revoke',
    },
    path: settingsPaths.key(row.id),
    done: `The sending key “${row.name}” was revoked.`,
    reload: settings.loadKeys,
    headingId,
  };
  return (
    <RemovableRow id={`send-key-${row.id}`} button="Revoke" removal={revoke}>
      <strong>{row.name}</strong> <span class="muted">· {row.hint}…</span>
      <KeyTimes made="made" at={row.createdAt} {...(row.lastUsedAt ? { lastUsedAt: row.lastUsedAt } : {})} />
    </RemovableRow>
  );
}

/** The sending keys of one app, on its card. `prefix` makes the ids of this card's controls unique. */
export function AppKeys({ entry, prefix }: { entry: AppSettingsEntry; prefix: string }): VNode {
  const { settings, status } = useModels();
  const [name, setName] = useState('');
  const headingId = `${prefix}-keys`;
  const nameId = `${prefix}-key-name`;
  // Every failure is shown under the name, the form's one field.
  const { busy, problem, submit } = useSubmit((error) => ({ control: nameId, message: messageOf(error) }), nameId);
  // The key made: only here, for as long as this card shows it.
  const [made, setMade] = useState<SendKeyCreated | null>(null);
  const keys = settings.sendKeys.value.filter((row) => row.app === entry.app);

  const make = submit(async () => {
    const answer = await settings.makeKey({ app: entry.app, ...(name.trim() ? { name: name.trim() } : {}) });
    setMade(answer);
    setName('');
    status.say(`The sending key “${answer.name}” was made. Copy it now: it is shown only once.`);
    focusSoon(`send-key-new-${answer.id}`);
  });

  return (
    <section class="app-keys" aria-labelledby={headingId}>
      <h4 id={headingId} tabIndex={-1}>
        Sending keys
      </h4>
      <p class="hint">
        A key lets a tool — a backup script, Uptime Kuma, Home Assistant — send notifications as {entry.appName}, and nothing else: it
        cannot read History or change settings.
      </p>
      {made && (
        <NewKey
          made={made}
          appName={entry.appName}
          onDone={() => {
            setMade(null);
            focusSoon(nameId);
          }}
        />
      )}
      {keys.length > 0 && (
        <ul class="framed-list relay-list" aria-label={`Sending keys of ${entry.appName}`}>
          {keys.map((row) => (
            <KeyRow key={row.id} row={row} headingId={headingId} />
          ))}
        </ul>
      )}
      <form class="app-key-form" onSubmit={(event) => void make(event)} aria-busy={busy} noValidate>
        <TextField
          id={nameId}
          label="Name of the new key"
          value={name}
          onValue={setName}
          problem={problem}
          hint="Optional: the tool and the computer it runs on, such as “Uptime Kuma on the NAS”."
        />
        <div class="actions">
          <button type="submit" class="button" aria-disabled={busy}>
            <Icon name="plus" />
            <span>
              {busy ? 'Making…' : 'Make a sending key'}
              <span class="visually-hidden"> for {entry.appName}</span>
            </span>
          </button>
        </div>
      </form>
    </section>
  );
}
