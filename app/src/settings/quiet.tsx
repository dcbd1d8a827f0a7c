// Quiet hours (GET and PUT /v1/settings/quiet-hours, through /app/api/settings/quiet-hours): what is quiet now, a
// quiet period started here (the tray's "Quiet for an hour" changes the same state), and the weekly windows — each
// with its days, start, end and what it silences — added, edited and removed. Every time of day is in the person's
// own format (clock.ts), as the status line's "Quiet until 6:45 AM" is.

import type { VNode } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import {
  type QuietHoursAnswer,
  type QuietHoursChange,
  type QuietWindowEntry,
  type Silences,
  WEEK_DAYS,
} from '../../../protocol/app-api-settings.js';
import { useModels } from '../models/context.js';
import { ApiProblem, messageOf } from '../models/requests.js';
import { CheckField, type Problem, TextField } from '../ui/fields.js';
import { focusWhenDrawn } from '../ui/focus.js';
import { Icon } from '../ui/icon.js';
import { minutesUntilTomorrowMorning, type Moment, untilTime, useDateFormats, useTime } from '../ui/time.js';
import { clockTime, parseClock } from './clock.js';

/** The status is read again this often while the page is open (a window starts or ends on the clock). */
const STATUS_REFRESH_MS = 30_000;
/** The tray's quiet period. */
const QUIET_HOUR_MINUTES = 60;

const DAY_NAMES: Record<string, string> = { mon: 'Mon', tue: 'Tue', wed: 'Wed', thu: 'Thu', fri: 'Fri', sat: 'Sat', sun: 'Sun' };
const DAY_FULL_NAMES: Record<string, string> = {
  mon: 'Monday',
  tue: 'Tuesday',
  wed: 'Wednesday',
  thu: 'Thursday',
  fri: 'Friday',
  sat: 'Saturday',
  sun: 'Sunday',
};

/** "banners, sounds and speech": what is silenced, in words. */
export function silencedWords(silences: Silences): string {
  const words = [silences.banners && 'banners', silences.sounds && 'sounds', silences.speech && 'speech'].filter(Boolean) as string[];
  if (words.length === 0) return 'nothing';
  return words.length === 1 ? words[0]! : `${words.slice(0, -1).join(', ')} and ${words.at(-1)}`;
}

function daysWords(days: readonly string[]): string {
  if (days.length === 0 || days.length === 7) return 'Every day';
  const set = new Set(days);
  if (set.size === 5 && ['mon', 'tue', 'wed', 'thu', 'fri'].every((day) => set.has(day))) return 'Weekdays';
  if (set.size === 2 && set.has('sat') && set.has('sun')) return 'Weekends';
  return WEEK_DAYS.filter((day) => set.has(day))
    .map((day) => DAY_NAMES[day])
    .join(', ');
}

/** "Quiet until 7:00 AM — sounds and speech", or that nothing is quiet. */
export function statusWords(answer: QuietHoursAnswer, moment: Moment): string {
  const { status } = answer;
  if (!status.active) return 'Not quiet now: banners, sounds and speech are on.';
  const what = silencedWords(status);
  return status.until ? `Quiet until ${untilTime(status.until, moment)} — ${what}` : `Quiet now — ${what}`;
}

/** A change of the quiet hours, and what the status line says once it is made (or the refusal); true once made. */
function useChange(): (body: QuietHoursChange, done: string) => Promise<boolean> {
  const { settings, status } = useModels();
  return async (body, done) => {
    try {
      await settings.changeQuiet(body);
      status.say(done);
      return true;
    } catch (error) {
      status.sayError(error);
      return false;
    }
  };
}

interface Draft extends Silences {
  /** The window edited, or null for a new one. */
  id: string | null;
  start: string;
  end: string;
  days: string[];
  speakSummary: boolean;
}

const NEW_WINDOW: Draft = { id: null, start: '', end: '', days: [], speech: true, sounds: true, banners: false, speakSummary: false };

/** What a time the page cannot read is told, with examples in the person's format. */
const timeProblem = (moment: Pick<Moment, 'formats'>): string =>
  `Write a time of day, such as ${clockTime('07:00', moment.formats)} or ${clockTime('22:30', moment.formats)}.`;

/** The API's refusal of the window at `index`, next to its field, in the form's words where it can say better. */
function problemOf(error: unknown, index: number, moment: Pick<Moment, 'formats'>): Problem {
  if (!(error instanceof ApiProblem)) return { control: '', message: messageOf(error) };
  const about = new RegExp(`^windows\\[${index}\\](\\.(start|end|days)|: start and end are the same)`).exec(error.message);
  if (about?.[2] === 'start' || about?.[2] === 'end') return { control: `quiet-${about[2]}`, message: timeProblem(moment) };
  if (about?.[1]?.includes('same')) return { control: 'quiet-end', message: 'The end must be another time than the start.' };
  if (about?.[2] === 'days') return { control: 'quiet-days', message: messageOf(error) };
  return { control: '', message: messageOf(error) };
}

const CHECKS: ReadonlyArray<readonly [keyof Silences | 'speakSummary', string]> = [
  ['banners', 'Banners (kept in History, not shown)'],
  ['sounds', 'Sounds'],
  ['speech', 'Speech'],
  ['speakSummary', 'Speak a summary of what came in when it ends'],
];

function WindowForm({ draft, windows, close }: { draft: Draft; windows: QuietWindowEntry[]; close: (saved: boolean) => void }): VNode {
  const { settings, status } = useModels();
  const moment = useDateFormats();
  const [form, setForm] = useState(draft);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [saving, setSaving] = useState(false);
  const formElement = useRef<HTMLFormElement>(null);
  // The form opens with the focus on its first field, unless the person is already in one of its fields (the
  // effect runs after the form was drawn, and a quick click can come first).
  useEffect(() => {
    if (!formElement.current?.contains(document.activeElement)) document.getElementById('quiet-start')?.focus();
  }, []);
  const edit = (change: Partial<Draft>): void => setForm((current) => ({ ...current, ...change }));

  const refuse = (found: Problem): void => {
    setProblem(found);
    focusWhenDrawn(() => document.getElementById(found.control || 'quiet-form-problem'));
  };

  const save = async (event: Event): Promise<void> => {
    event.preventDefault();
    if (saving) return;
    const { id, ...rest } = form;
    // The times as the API writes them; one the page cannot read is said at once, next to its field.
    const [start, end] = [parseClock(rest.start), parseClock(rest.end)];
    if (start === null || end === null)
      return refuse({ control: start === null ? 'quiet-start' : 'quiet-end', message: timeProblem(moment) });
    const window = { ...(id ? { id } : {}), ...rest, start, end } as QuietWindowEntry;
    const index = id ? windows.findIndex((known) => known.id === id) : windows.length;
    const next = id ? windows.map((known, at) => (at === index ? window : known)) : [...windows, window];
    setSaving(true);
    try {
      await settings.changeQuiet({ windows: next });
      status.say(`Quiet hours ${clockTime(start, moment.formats)} to ${clockTime(end, moment.formats)} saved.`);
      close(true);
    } catch (error) {
      refuse(problemOf(error, index, moment));
    } finally {
      setSaving(false);
    }
  };

  const daysProblem = problem?.control === 'quiet-days';
  return (
    <form
      ref={formElement}
      class="quiet-form group"
      aria-labelledby="quiet-form-title"
      noValidate
      onSubmit={(event) => void save(event)}
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.preventDefault();
          close(false);
        }
      }}
    >
      <h3 id="quiet-form-title">{draft.id ? 'Edit quiet hours' : 'New quiet hours'}</h3>
      <div class="field-row">
        <TextField
          id="quiet-start"
          label="Quiet from"
          hint={`Such as ${clockTime('22:30', moment.formats)}`}
          problem={problem}
          value={form.start}
          onValue={(value) => edit({ start: value })}
        />
        <TextField
          id="quiet-end"
          label="Quiet until"
          hint="Past midnight runs into the next morning"
          problem={problem}
          value={form.end}
          onValue={(value) => edit({ end: value })}
        />
      </div>
      <fieldset class="quiet-days" aria-describedby={daysProblem ? 'quiet-days-problem' : 'quiet-days-hint'}>
        <legend>Days</legend>
        <div class="day-checks" id="quiet-days" tabIndex={-1}>
          {WEEK_DAYS.map((day) => (
            <CheckField
              key={day}
              class="day-check"
              checked={form.days.includes(day)}
              onChecked={(checked) => edit({ days: checked ? [...form.days, day] : form.days.filter((known) => known !== day) })}
            >
              <span aria-hidden="true">{DAY_NAMES[day]}</span>
              <span class="visually-hidden">{DAY_FULL_NAMES[day]}</span>
            </CheckField>
          ))}
        </div>
        <p id="quiet-days-hint" class="hint">
          None checked: every day. A window belongs to the day it starts.
        </p>
        {daysProblem && (
          <p id="quiet-days-problem" class="field-problem">
            {problem!.message}
          </p>
        )}
      </fieldset>
      <fieldset class="quiet-silences">
        <legend>What it silences</legend>
        {CHECKS.map(([key, label]) => (
          <CheckField key={key} checked={form[key]} onChecked={(checked) => edit({ [key]: checked })}>
            <span>{label}</span>
          </CheckField>
        ))}
      </fieldset>
      {problem?.control === '' && (
        <p id="quiet-form-problem" class="field-problem" tabIndex={-1}>
          {problem.message}
        </p>
      )}
      <div class="actions">
        <button type="submit" class="button button-primary" aria-disabled={saving || undefined}>
          Save
        </button>
        <button type="button" class="button" onClick={() => close(false)}>
          Cancel
        </button>
      </div>
    </form>
  );
}

function WindowRow({ window, onEdit }: { window: QuietWindowEntry; onEdit: () => void }): VNode {
  const { settings } = useModels();
  const { formats } = useDateFormats();
  const change = useChange();
  const [start, end] = [clockTime(window.start, formats), clockTime(window.end, formats)];
  const name = `${start} to ${end}`;
  const remove = (): void => {
    const windows = settings.quiet.value?.windows.filter((known) => known.id !== window.id) ?? [];
    const pressed = document.activeElement;
    void change({ windows }, `Quiet hours ${name} removed.`).then(() =>
      focusWhenDrawn(() => document.getElementById('quiet-add'), 0, pressed),
    );
  };
  return (
    <li class="quiet-window">
      <Icon name="moonStar" />
      <div class="quiet-window-text">
        <span class="quiet-window-time">
          {start} – {end}
        </span>
        <span class="muted">
          {daysWords(window.days)} · silences {silencedWords(window)}
          {window.speakSummary && window.speech ? ' · a spoken summary at the end' : ''}
        </span>
      </div>
      <div class="quiet-window-actions">
        <button
          id={`quiet-edit-${window.id}`}
          type="button"
          class="button button-quiet"
          aria-label={`Edit quiet hours ${name}`}
          onClick={onEdit}
        >
          <Icon name="squarePen" />
          <span>Edit</span>
        </button>
        <button type="button" class="button button-quiet" aria-label={`Remove quiet hours ${name}`} onClick={remove}>
          <Icon name="trash" />
          <span>Remove</span>
        </button>
      </div>
    </li>
  );
}

export function QuietSection(): VNode {
  const { settings, clock } = useModels();
  const change = useChange();
  const moment = useTime();
  const answer = settings.quiet.value;
  const [editing, setEditing] = useState<Draft | null>(null);
  useEffect(() => clock.every(STATUS_REFRESH_MS, () => void settings.loadQuiet().catch(() => undefined)), []);
  if (!answer) {
    return (
      <section class="settings-section" aria-labelledby="quiet-heading">
        <h2 id="quiet-heading">Quiet hours</h2>
      </section>
    );
  }

  const close = (): void => {
    const returnTo = editing?.id ? `quiet-edit-${editing.id}` : 'quiet-add';
    setEditing(null);
    focusWhenDrawn(() => document.getElementById(returnTo) ?? document.getElementById('quiet-add'));
  };
  const active = answer.status.active;
  return (
    <section class="settings-section" aria-labelledby="quiet-heading">
      <h2 id="quiet-heading">Quiet hours</h2>
      <p class={`quiet-status${active ? ' quiet-status-on' : ''}`} role="status">
        <Icon name={active ? 'bellOff' : 'clock'} />
        <span>{statusWords(answer, moment)}</span>
      </p>
      <div class="actions quiet-now" role="group" aria-label="Quiet now">
        <button
          id="quiet-hour"
          type="button"
          class="button"
          onClick={() => void change({ adHoc: { minutes: QUIET_HOUR_MINUTES } }, 'Quiet for an hour: no sounds and no speech.')}
        >
          <Icon name="moon" />
          <span>Quiet for 1 hour</span>
        </button>
        <button
          type="button"
          class="button"
          onClick={() =>
            void change(
              { adHoc: { minutes: minutesUntilTomorrowMorning() } },
              `Quiet until tomorrow morning (${clockTime('09:00', moment.formats)}).`,
            )
          }
        >
          <Icon name="moonStar" />
          <span>Quiet until tomorrow morning</span>
        </button>
        {active && (
          <button
            type="button"
            class="button"
            onClick={(event) => {
              // The button goes with the quiet: the focus goes to the first one, not to the page's start.
              const pressed = event.currentTarget;
              void change({ resume: true }, 'Quiet is off: sounds and speech are back.').then(() =>
                focusWhenDrawn(() => document.getElementById('quiet-hour'), 0, pressed),
              );
            }}
          >
            <Icon name="x" />
            <span>Turn quiet off</span>
          </button>
        )}
      </div>
      <p class="hint">
        The same as “Quiet for an hour” in the tray: no sounds and no speech; banners still show. Turning it off also ends a window running
        now, until its next time.
      </p>

      <h3>Every week</h3>
      {answer.windows.length === 0 ? (
        <p class="muted">No quiet hours are set.</p>
      ) : (
        <ul class="framed-list quiet-windows" aria-label="Quiet hours">
          {answer.windows.map((window) => (
            <WindowRow
              key={window.id}
              window={window}
              onEdit={() =>
                setEditing({
                  ...window,
                  start: clockTime(window.start, moment.formats),
                  end: clockTime(window.end, moment.formats),
                  days: [...window.days],
                  id: window.id,
                })
              }
            />
          ))}
        </ul>
      )}
      {editing ? (
        <WindowForm key={editing.id ?? 'new'} draft={editing} windows={answer.windows} close={close} />
      ) : (
        <button id="quiet-add" type="button" class="button" onClick={() => setEditing(NEW_WINDOW)}>
          <Icon name="plus" />
          <span>Add quiet hours</span>
        </button>
      )}
    </section>
  );
}
