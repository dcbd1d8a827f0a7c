// Compose: the person writes a notification — title, subtitle, body (Markdown, previewed as the banner reads it),
// a link, buttons, a reply field, speech, sound, priority, optionally one of an app's templates with its fields
// and the card it draws. "Send" puts it on screen and in History. An error from the daemon is shown next to the
// field it names, and the draft stays as it was.

import type { VNode } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import {
  appPaths,
  type ComposeAnswer,
  type ComposeRequest,
  type ComposeTemplatesAnswer,
  OWN_APP,
  OWN_APP_NAME,
  type TemplateFieldDescription,
} from '../../../protocol/app-api.js';
import { MAX_BUTTONS } from '../../../protocol/limits.js';
import { PRIORITIES } from '../../../protocol/types.js';
import type { Draft } from '../models/compose.js';
import { useModels } from '../models/context.js';
import { isAbort, messageOf, withQuery } from '../models/requests.js';
import { detailsHref } from '../models/router.js';
import { CheckField, type Problem, SelectField, TextField } from '../ui/fields.js';
import { focusSoon, focusWhenDrawn } from '../ui/focus.js';
import { Icon } from '../ui/icon.js';
import { Markdown } from '../ui/markdown.js';
import { toNotification } from './notification.js';
import { problemOf } from './problems.js';
import './compose.css';

/** The card preview waits for typing to pause this long (drawing a card takes the renderer tens of ms). */
const PREVIEW_DEBOUNCE_MS = 300;

/** The notification's own texts, as the form asks for them. */
const TEXTS: ReadonlyArray<{
  key: 'title' | 'subtitle' | 'body' | 'link';
  label: string;
  rows?: number;
  type?: 'url';
  placeholder?: string;
  hint?: string;
}> = [
  { key: 'title', label: 'Title' },
  { key: 'subtitle', label: 'Subtitle' },
  {
    key: 'body',
    label: 'Body',
    rows: 5,
    hint: 'Markdown: **bold**, *italic*, `code`, lists and [a link](https://example.com). History shows all of it; a banner shows what your desktop can draw.',
  },
  {
    key: 'link',
    label: 'Link',
    type: 'url',
    placeholder: 'https://',
    hint: 'Opened when the banner is clicked (http, https or mailto).',
  },
];

const PRIORITY_LABELS: Record<Draft['priority'], string> = { low: 'Low', normal: 'Normal', high: 'High', urgent: 'Urgent' };
const SOUND_CHOICES = [
  ['default', 'The usual sound'],
  ['none', 'Silent'],
] as const;

function useTemplates(app: string): Array<{ name: string; fields: TemplateFieldDescription[] }> {
  const { api } = useModels();
  const [templates, setTemplates] = useState<Array<{ name: string; fields: TemplateFieldDescription[] }>>([]);
  useEffect(() => {
    let current = true;
    api.call<ComposeTemplatesAnswer>('GET', withQuery(appPaths.composeTemplates, { app })).then(
      (answer) => current && setTemplates(answer.templates),
      () => current && setTemplates([]),
    );
    return () => {
      current = false;
    };
  }, [app]);
  return templates;
}

/** The card the chosen template draws, redrawn as the person types. */
function CardPreview({ notification }: { notification: ReturnType<typeof toNotification> }): VNode {
  const { api, theme } = useModels();
  const [picture, setPicture] = useState('');
  const [problem, setProblem] = useState('');
  const body = JSON.stringify({ app: notification.app, notification, theme: theme.shown.value });
  useEffect(() => {
    const abort = new AbortController();
    const timer = setTimeout(() => {
      api
        .send('POST', appPaths.preview, JSON.parse(body), { signal: abort.signal })
        .then((reply) => reply.blob())
        .then((blob) => {
          setPicture((old) => {
            if (old) URL.revokeObjectURL(old);
            return URL.createObjectURL(blob);
          });
          setProblem('');
        })
        .catch((error: unknown) => !isAbort(error) && setProblem(messageOf(error)));
    }, PREVIEW_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [body]);
  return (
    <div class="card-preview">
      {picture && <img src={picture} alt="Preview of the card this template draws" />}
      {problem && <p class="field-problem">The card cannot be drawn yet: {problem}</p>}
    </div>
  );
}

export function ComposePage(): VNode {
  const { api, apps, compose } = useModels();
  const { edit } = compose;
  const current = compose.draft.value;
  const templates = useTemplates(current.app);
  const template = templates.find((known) => known.name === current.template);
  const templateFields = template?.fields ?? [];
  const [problem, setProblem] = useState<Problem | null>(null);
  const [sending, setSending] = useState(false);
  const [sent, setSent] = useState<{ app: string; id: string; title: string } | null>(null);
  const form = useRef<HTMLFormElement>(null);
  /** One of the draft's choices as a select; choosing edits the draft (or does what `choose` says). */
  const select = (
    key: 'app' | 'template' | 'sound' | 'priority',
    label: string,
    choices: ReadonlyArray<readonly [value: string, label: string]>,
    choose: (value: string) => void = (value) => edit({ [key]: value }),
  ): VNode => <SelectField id={`compose-${key}`} label={label} problem={problem} value={current[key]} onValue={choose} choices={choices} />;
  const notification = toNotification(
    current,
    templateFields.map((field) => field.key),
  );

  const submit = async (event: Event): Promise<void> => {
    event.preventDefault();
    if (sending) return;
    setSending(true);
    setSent(null);
    try {
      const answer = await api.call<ComposeAnswer, ComposeRequest>('POST', appPaths.compose, notification);
      setProblem(null);
      setSent({ app: current.app, id: answer.id, title: current.title || current.body.split('\n')[0] || 'your notification' });
    } catch (error) {
      const found = problemOf(error, current, templateFields);
      setProblem(found);
      // Take the person to the field (after it shows its message).
      focusWhenDrawn(() => document.getElementById(found.control) ?? document.getElementById('compose-problem'));
    } finally {
      setSending(false);
    }
  };

  const appChoices = [{ app: OWN_APP, appName: `${OWN_APP_NAME} (you)` }, ...apps.apps.value.filter((app) => app.app !== OWN_APP)];

  return (
    <div class="page compose">
      <header class="page-head">
        <div class="page-title">
          <h1>Compose</h1>
          <p class="muted">Write a notification to yourself: it appears on screen and in History.</p>
        </div>
        <div class="page-actions">
          <button
            type="button"
            class="button button-quiet"
            onClick={() => {
              compose.clear();
              setProblem(null);
              setSent(null);
            }}
          >
            <Icon name="plus" />
            <span>New notification</span>
          </button>
        </div>
      </header>
      <div class="compose-layout">
        <form ref={form} class="compose-form" onSubmit={(event) => void submit(event)} noValidate>
          <div class="field-row">
            {select(
              'app',
              'Send as',
              appChoices.map((app) => [app.app, app.appName] as const),
              (app) => edit({ app, template: '', fields: {} }),
            )}
            {select('template', 'Template', [['', 'No template'], ...templates.map((known) => [known.name, known.name] as const)])}
          </div>
          {TEXTS.map((text) => (
            <TextField
              key={text.key}
              id={`compose-${text.key}`}
              label={text.label}
              problem={problem}
              rows={text.rows}
              type={text.type}
              placeholder={text.placeholder}
              hint={text.hint}
              value={current[text.key]}
              onValue={(value) => edit({ [text.key]: value })}
            />
          ))}

          {templateFields.length > 0 && (
            <fieldset class="group">
              <legend>Fields of “{current.template}”</legend>
              {templateFields.map((field) => (
                <TextField
                  key={field.key}
                  id={`field-${field.key}`}
                  label={field.label || field.key}
                  problem={problem}
                  type={field.type === 'number' || field.type === 'date' || field.type === 'url' ? field.type : 'text'}
                  value={current.fields[field.key] ?? ''}
                  onValue={(value) => edit((now) => ({ fields: { ...now.fields, [field.key]: value } }))}
                />
              ))}
            </fieldset>
          )}

          <fieldset class="group">
            <legend>Buttons</legend>
            {current.buttons.length === 0 && <p class="hint">No buttons: clicking the banner opens the link, if there is one.</p>}
            {/* Above the buttons: a new one's fields appear under what was pressed, and take the focus. */}
            {current.buttons.length + (current.askReply ? 1 : 0) < MAX_BUTTONS ? (
              <button
                id="compose-add-button"
                type="button"
                class="button button-quiet"
                onClick={() => {
                  const added = compose.newButton();
                  edit((now) => ({ buttons: [...now.buttons, added] }));
                  focusSoon(`button-label-${added.key}`);
                }}
              >
                <Icon name="plus" />
                <span>Add a button</span>
              </button>
            ) : (
              <p class="hint">A notification has {MAX_BUTTONS} buttons at most; “Ask for a reply” adds one.</p>
            )}
            {current.buttons.map((button, index) => {
              const update = (change: Partial<typeof button>): void =>
                edit((now) => ({ buttons: now.buttons.map((other) => (other.key === button.key ? { ...other, ...change } : other)) }));
              // The focus goes where the row was: the next button's label, else the one before, else "Add a button".
              const remove = (): void => {
                const rest = current.buttons.filter((other) => other.key !== button.key);
                const next = rest[index] ?? rest[index - 1];
                edit({ buttons: rest });
                focusSoon(next ? `button-label-${next.key}` : 'compose-add-button');
              };
              return (
                <div class="button-row" key={button.key}>
                  <TextField
                    id={`button-label-${button.key}`}
                    label={`Button ${index + 1} label`}
                    problem={problem}
                    value={button.label}
                    onValue={(label) => update({ label })}
                  />
                  <TextField
                    id={`button-link-${button.key}`}
                    label={`Button ${index + 1} link`}
                    problem={problem}
                    type="url"
                    placeholder="https://"
                    value={button.link}
                    onValue={(link) => update({ link })}
                  />
                  <button type="button" class="button button-quiet icon-button" aria-label={`Remove button ${index + 1}`} onClick={remove}>
                    <Icon name="x" />
                  </button>
                </div>
              );
            })}
          </fieldset>

          <fieldset class="group">
            <legend>Options</legend>
            <CheckField id="compose-reply" checked={current.askReply} onChecked={(askReply) => edit({ askReply })}>
              Ask for a reply (the banner gets a reply field)
            </CheckField>
            {current.askReply && (
              <TextField
                id="compose-placeholder"
                label="Reply field hint"
                problem={problem}
                placeholder="Type your answer"
                value={current.replyPlaceholder}
                onValue={(replyPlaceholder) => edit({ replyPlaceholder })}
              />
            )}
            <CheckField id="compose-speak" checked={current.speak} onChecked={(speak) => edit({ speak })}>
              Read it aloud
            </CheckField>
            <div class="field-row">
              {select('sound', 'Sound', SOUND_CHOICES)}
              {select(
                'priority',
                'Priority',
                PRIORITIES.map((priority) => [priority, PRIORITY_LABELS[priority]] as const),
              )}
            </div>
          </fieldset>

          {problem && problem.control === '' && (
            <p id="compose-problem" class="field-problem form-problem" tabIndex={-1} role="alert">
              {problem.message}
            </p>
          )}
          <div class="actions send-row">
            <button type="submit" class="button button-primary" aria-disabled={sending}>
              <Icon name="send" />
              <span>Send</span>
            </button>
            {sent && (
              <p class="sent" role="status">
                Sent. <a href={detailsHref(sent.app, sent.id)}>See “{sent.title}” in History</a>
              </p>
            )}
          </div>
        </form>

        <aside class="compose-preview" aria-labelledby="preview-heading">
          <h2 id="preview-heading">Preview</h2>
          <div class="banner-preview">
            <p class="banner-app">{appChoices.find((app) => app.app === current.app)?.appName ?? current.app}</p>
            <p class="banner-title">{current.title || <span class="muted">Title</span>}</p>
            {current.subtitle && <p class="banner-subtitle">{current.subtitle}</p>}
            {current.body ? <Markdown class="banner-body" text={current.body} flat /> : <p class="muted">The body appears here.</p>}
            {(current.buttons.length > 0 || current.askReply) && (
              <div class="banner-buttons">
                {current.buttons.map((button) => (
                  <span key={button.key} class="banner-button">
                    {button.label || 'Button'}
                  </span>
                ))}
                {current.askReply && <span class="banner-button">Reply</span>}
              </div>
            )}
          </div>
          {current.template && <CardPreview notification={notification} />}
        </aside>
      </div>
    </div>
  );
}
