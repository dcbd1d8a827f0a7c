// The form kit of every page that has a form (Compose, Settings, the Relay page, the Designer, quiet hours): a field
// is a label, the control, an optional hint, and the daemon's message when an error names this field (the control
// then says it is invalid, and is described by the message).

import type { ComponentChildren, VNode } from 'preact';
import './fields.css';

export interface Problem {
  /** The id of the control it is about, or '' for the whole form. */
  control: string;
  message: string;
}

interface Common {
  id: string;
  label: string;
  problem: Problem | null;
  hint?: string;
}

/** What the control carries: the ids that describe it, and whether it is the one in error. */
type Described = { 'aria-describedby'?: string; 'aria-invalid'?: boolean };

/** What describes the control `id`: the problem named on it (if `mine`), then its hint. */
export function described(id: string, hint: string | undefined, mine: boolean): Described {
  const ids = [mine ? `${id}-problem` : '', hint ? `${id}-hint` : ''].filter(Boolean).join(' ');
  return { 'aria-describedby': ids || undefined, 'aria-invalid': mine || undefined };
}

/** Under a control: its hint, and the daemon's message when the problem names it (their ids as `described` gives). */
export function FieldNotes({ id, hint, problem }: { id: string; hint?: string | undefined; problem: Problem | null }): VNode {
  return (
    <>
      {hint && (
        <p id={`${id}-hint`} class="hint">
          {hint}
        </p>
      )}
      {problem?.control === id && (
        <p id={`${id}-problem`} class="field-problem">
          {problem.message}
        </p>
      )}
    </>
  );
}

/** The problem of the whole form (one that names no field), where the focus goes after a failed submit. */
export function FormProblem({ id, problem }: { id: string; problem: Problem | null }): VNode | null {
  if (problem?.control !== '') return null;
  return (
    <p id={id} class="field-problem" role="alert" tabIndex={-1}>
      {problem.message}
    </p>
  );
}

function Frame(props: Common & { control: (described: Described) => VNode }): VNode {
  const mine = props.problem?.control === props.id;
  return (
    <div class={`field${mine ? ' field-invalid' : ''}`}>
      <label for={props.id}>{props.label}</label>
      {props.control(described(props.id, props.hint, mine))}
      <FieldNotes id={props.id} hint={props.hint} problem={props.problem} />
    </div>
  );
}

export function TextField(
  props: Common & { value: string; onValue: (value: string) => void; type?: string; placeholder?: string; rows?: number },
): VNode {
  const input = (event: Event): void => props.onValue((event.currentTarget as HTMLInputElement | HTMLTextAreaElement).value);
  return (
    <Frame
      {...props}
      control={(described) =>
        props.rows ? (
          <textarea id={props.id} rows={props.rows} value={props.value} placeholder={props.placeholder} onInput={input} {...described} />
        ) : (
          <input
            id={props.id}
            type={props.type ?? 'text'}
            value={props.value}
            placeholder={props.placeholder}
            onInput={input}
            {...described}
          />
        )
      }
    />
  );
}

export function SelectField(
  props: Common & { value: string; onValue: (value: string) => void; choices: ReadonlyArray<readonly [value: string, label: string]> },
): VNode {
  return (
    <Frame
      {...props}
      control={(described) => (
        <select id={props.id} value={props.value} onChange={(event) => props.onValue(event.currentTarget.value)} {...described}>
          {props.choices.map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      )}
    />
  );
}

/** A checkbox with its words beside it, in one label (a click on the words checks it). */
export function CheckField(props: {
  id?: string;
  class?: string;
  checked: boolean;
  onChecked: (checked: boolean) => void;
  children: ComponentChildren;
}): VNode {
  return (
    <label class={props.class ? `check ${props.class}` : 'check'}>
      <input type="checkbox" id={props.id} checked={props.checked} onChange={(event) => props.onChecked(event.currentTarget.checked)} />
      {props.children}
    </label>
  );
}
