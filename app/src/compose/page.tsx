// Compose: the person writes a notification — title, subtitle, body (Markdown, previewed as the banner reads it),
// a link, buttons, a reply field, speech, sound, priority, optionally one of an app's templates with its fields
// and the card it draws. "Send" puts it on screen and in History. An error from the daemon is shown next to the
// field it names, and the draft stays as it was.

import type { VNode } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { appPaths, type ComposeAnswer, type ComposeTemplatesAnswer, type TemplateFieldDescription } from '../../../protocol/app-api.js';
import { PRIORITIES } from '../../../protocol/types.js';
import { ApiProblem, call, isAbort, messageOf, send, withQuery } from '../api.js';
import { apps } from '../history/store.js';
import { detailsHref } from '../router.js';
import { shownTheme } from '../theme.js';
import { Icon } from '../ui/icon.js';
import { Markdown } from '../ui/markdown.js';
import { draft, edit, EMPTY_DRAFT, newButton, OWN_APP, toNotification, type Draft } from './draft.js';

/** The card preview waits for typing to pause this long (drawing a card takes the renderer tens of ms). */
const PREVIEW_DEBOUNCE_MS = 300;

const PRIORITY_LABELS: Record<Draft['priority'], string> = { low: 'Low', normal: 'Normal', high: 'High', urgent: 'Urgent' };

/** The form control an error's `field` is about (`buttons[1].url` is the second button's link). */
function controlIdOf(field: string, draftNow: Draft): string {
  const button = /^buttons\[(\d+)\](?:\.(\w+))?/.exec(field);
  if (button) {
    const index = Number(button[1]);
    const row = draftNow.buttons[index];
    if (!row) return 'compose-reply';
    return button[2] === 'label' || !button[2] ? `button-label-${row.key}` : `button-link-${row.key}`;
  }
  const top = field.split(/[.[]/)[0]!;
  const known: Record<string, string> = {
    app: 'compose-app',
    template: 'compose-template',
    title: 'compose-title',
    subtitle: 'compose-subtitle',
    body: 'compose-body',
    url: 'compose-link',
    speak: 'compose-speak',
    sound: 'compose-sound',
    priority: 'compose-priority',
  };
  return known[top] ?? (draftNow.fields[top] !== undefined ? `field-${top}` : '');
}

interface Problem {
  /** The id of the control it is about, or '' for the whole form. */
  control: string;
  message: string;
}

function Field(props: {
  id: string;
  label: string;
  problem: Problem | null;
  hint?: string;
  children: (describedBy: string | undefined, invalid: boolean | undefined) => VNode;
}): VNode {
  const mine = props.problem?.control === props.id;
  const describedBy = [mine ? `${props.id}-problem` : '', props.hint ? `${props.id}-hint` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div class={`field${mine ? ' field-invalid' : ''}`}>
      <label for={props.id}>{props.label}</label>
      {props.children(describedBy, mine || undefined)}
      {props.hint && (
        <p id={`${props.id}-hint`} class="hint">
          {props.hint}
        </p>
      )}
      {mine && (
        <p id={`${props.id}-problem`} class="field-problem">
          {props.problem!.message}
        </p>
      )}
    </div>
  );
}

function useTemplates(app: string): Array<{ name: string; fields: TemplateFieldDescription[] }> {
  const [templates, setTemplates] = useState<Array<{ name: string; fields: TemplateFieldDescription[] }>>([]);
  useEffect(() => {
    let current = true;
    call<ComposeTemplatesAnswer>('GET', withQuery(appPaths.composeTemplates, { app })).then(
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
  const [picture, setPicture] = useState('');
  const [problem, setProblem] = useState('');
  const body = JSON.stringify({ app: notification.app, notification, theme: shownTheme() });
  useEffect(() => {
    const abort = new AbortController();
    const timer = setTimeout(() => {
      send('POST', appPaths.preview, JSON.parse(body), { signal: abort.signal })
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
  const current = draft.value;
  const templates = useTemplates(current.app);
  const template = templates.find((known) => known.name === current.template);
  const templateFields = template?.fields ?? [];
  const [problem, setProblem] = useState<Problem | null>(null);
  const [sending, setSending] = useState(false);
  const [sent, setSent] = useState<{ app: string; id: string; title: string } | null>(null);
  const form = useRef<HTMLFormElement>(null);
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
      const answer = await call<ComposeAnswer>('POST', appPaths.compose, notification);
      setProblem(null);
      setSent({ app: current.app, id: answer.id, title: current.title || current.body.split('\n')[0] || 'your notification' });
    } catch (error) {
      const field = error instanceof ApiProblem ? error.field : undefined;
      const control = field ? controlIdOf(field, current) : '';
      setProblem({ control, message: messageOf(error) });
      // Take the person to the field (after it shows its message).
      requestAnimationFrame(() => (document.getElementById(control) ?? document.getElementById('compose-problem'))?.focus());
    } finally {
      setSending(false);
    }
  };

  const appChoices = [{ app: OWN_APP, appName: 'Notifier (you)' }, ...apps.value.filter((app) => app.app !== OWN_APP)];

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
              draft.value = EMPTY_DRAFT;
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
            <Field id="compose-app" label="Send as" problem={problem}>
              {(describedBy, invalid) => (
                <select
                  id="compose-app"
                  value={current.app}
                  aria-describedby={describedBy}
                  aria-invalid={invalid}
                  onChange={(event) => edit({ app: event.currentTarget.value, template: '', fields: {} })}
                >
                  {appChoices.map((app) => (
                    <option key={app.app} value={app.app}>
                      {app.appName}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <Field id="compose-template" label="Template" problem={problem}>
              {(describedBy, invalid) => (
                <select
                  id="compose-template"
                  value={current.template}
                  aria-describedby={describedBy}
                  aria-invalid={invalid}
                  onChange={(event) => edit({ template: event.currentTarget.value })}
                >
                  <option value="">No template</option>
                  {templates.map((known) => (
                    <option key={known.name} value={known.name}>
                      {known.name}
                    </option>
                  ))}
                </select>
              )}
            </Field>
          </div>
          <Field id="compose-title" label="Title" problem={problem}>
            {(describedBy, invalid) => (
              <input
                id="compose-title"
                type="text"
                value={current.title}
                aria-describedby={describedBy}
                aria-invalid={invalid}
                onInput={(event) => edit({ title: event.currentTarget.value })}
              />
            )}
          </Field>
          <Field id="compose-subtitle" label="Subtitle" problem={problem}>
            {(describedBy, invalid) => (
              <input
                id="compose-subtitle"
                type="text"
                value={current.subtitle}
                aria-describedby={describedBy}
                aria-invalid={invalid}
                onInput={(event) => edit({ subtitle: event.currentTarget.value })}
              />
            )}
          </Field>
          <Field
            id="compose-body"
            label="Body"
            problem={problem}
            hint="**bold**, *italic* and [a link](https://example.com) work, as on the banner."
          >
            {(describedBy, invalid) => (
              <textarea
                id="compose-body"
                rows={5}
                value={current.body}
                aria-describedby={describedBy}
                aria-invalid={invalid}
                onInput={(event) => edit({ body: event.currentTarget.value })}
              />
            )}
          </Field>
          <Field id="compose-link" label="Link" problem={problem} hint="Opened when the banner is clicked (http, https or mailto).">
            {(describedBy, invalid) => (
              <input
                id="compose-link"
                type="url"
                value={current.link}
                placeholder="https://"
                aria-describedby={describedBy}
                aria-invalid={invalid}
                onInput={(event) => edit({ link: event.currentTarget.value })}
              />
            )}
          </Field>

          {templateFields.length > 0 && (
            <fieldset class="group">
              <legend>Fields of “{current.template}”</legend>
              {templateFields.map((field) => (
                <Field key={field.key} id={`field-${field.key}`} label={field.label || field.key} problem={problem}>
                  {(describedBy, invalid) => (
                    <input
                      id={`field-${field.key}`}
                      type={field.type === 'number' ? 'number' : field.type === 'date' ? 'date' : field.type === 'url' ? 'url' : 'text'}
                      value={current.fields[field.key] ?? ''}
                      aria-describedby={describedBy}
                      aria-invalid={invalid}
                      onInput={(event) => edit({ fields: { ...current.fields, [field.key]: event.currentTarget.value } })}
                    />
                  )}
                </Field>
              ))}
            </fieldset>
          )}

          <fieldset class="group">
            <legend>Buttons</legend>
            {current.buttons.length === 0 && <p class="hint">No buttons: clicking the banner opens the link, if there is one.</p>}
            {current.buttons.map((button, index) => {
              const update = (change: Partial<typeof button>): void =>
                edit({ buttons: current.buttons.map((other) => (other.key === button.key ? { ...other, ...change } : other)) });
              return (
                <div class="button-row" key={button.key}>
                  <Field id={`button-label-${button.key}`} label={`Button ${index + 1} label`} problem={problem}>
                    {(describedBy, invalid) => (
                      <input
                        id={`button-label-${button.key}`}
                        type="text"
                        value={button.label}
                        aria-describedby={describedBy}
                        aria-invalid={invalid}
                        onInput={(event) => update({ label: event.currentTarget.value })}
                      />
                    )}
                  </Field>
                  <Field id={`button-link-${button.key}`} label={`Button ${index + 1} link`} problem={problem}>
                    {(describedBy, invalid) => (
                      <input
                        id={`button-link-${button.key}`}
                        type="url"
                        value={button.link}
                        placeholder="https://"
                        aria-describedby={describedBy}
                        aria-invalid={invalid}
                        onInput={(event) => update({ link: event.currentTarget.value })}
                      />
                    )}
                  </Field>
                  <button
                    type="button"
                    class="button button-quiet icon-button"
                    aria-label={`Remove button ${index + 1}`}
                    onClick={() => edit({ buttons: current.buttons.filter((other) => other.key !== button.key) })}
                  >
                    <Icon name="x" />
                  </button>
                </div>
              );
            })}
            <button type="button" class="button button-quiet" onClick={() => edit({ buttons: [...current.buttons, newButton()] })}>
              <Icon name="plus" />
              <span>Add a button</span>
            </button>
          </fieldset>

          <fieldset class="group">
            <legend>Options</legend>
            <label class="check">
              <input
                type="checkbox"
                id="compose-reply"
                checked={current.askReply}
                onChange={(event) => edit({ askReply: event.currentTarget.checked })}
              />
              Ask for a reply (the banner gets a reply field)
            </label>
            {current.askReply && (
              <Field id="compose-placeholder" label="Reply field hint" problem={problem}>
                {(describedBy) => (
                  <input
                    id="compose-placeholder"
                    type="text"
                    value={current.replyPlaceholder}
                    placeholder="Type your answer"
                    aria-describedby={describedBy}
                    onInput={(event) => edit({ replyPlaceholder: event.currentTarget.value })}
                  />
                )}
              </Field>
            )}
            <label class="check">
              <input
                type="checkbox"
                id="compose-speak"
                checked={current.speak}
                onChange={(event) => edit({ speak: event.currentTarget.checked })}
              />
              Read it aloud
            </label>
            <div class="field-row">
              <Field id="compose-sound" label="Sound" problem={problem}>
                {(describedBy, invalid) => (
                  <select
                    id="compose-sound"
                    value={current.sound}
                    aria-describedby={describedBy}
                    aria-invalid={invalid}
                    onChange={(event) => edit({ sound: event.currentTarget.value as Draft['sound'] })}
                  >
                    <option value="default">The usual sound</option>
                    <option value="none">Silent</option>
                  </select>
                )}
              </Field>
              <Field id="compose-priority" label="Priority" problem={problem}>
                {(describedBy, invalid) => (
                  <select
                    id="compose-priority"
                    value={current.priority}
                    aria-describedby={describedBy}
                    aria-invalid={invalid}
                    onChange={(event) => edit({ priority: event.currentTarget.value as Draft['priority'] })}
                  >
                    {PRIORITIES.map((priority) => (
                      <option key={priority} value={priority}>
                        {PRIORITY_LABELS[priority]}
                      </option>
                    ))}
                  </select>
                )}
              </Field>
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
            {current.body ? <Markdown class="banner-body" text={current.body} /> : <p class="muted">The body appears here.</p>}
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
