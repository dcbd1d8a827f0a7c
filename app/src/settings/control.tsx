// One setting as a control fitted to its type — a switch, a number with its range, a choice, a text — saved as soon
// as it is changed (a switch or a choice at once, a number or a text when the person leaves it or presses Enter).
// A refusal is shown next to it in the API's words, and what the person typed stays in the field.

import type { VNode } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { SettingValue } from '../../../protocol/app-api-settings.js';
import { messageOf } from '../models/requests.js';
import { described, FieldNotes, SelectField, TextField } from '../ui/fields.js';
import { useSaves } from '../ui/saves.js';

export interface ControlProps {
  id: string;
  label: string;
  type: 'boolean' | 'integer' | 'number' | 'string' | 'choice';
  value: SettingValue | null;
  /** What it says under the control: its meaning and range. */
  hint?: string;
  /** A choice's values and what the person reads for each. */
  choices?: ReadonlyArray<readonly [value: string, label: string]>;
  /** Saves the new value (null: a nullable key back to its default); throws the API's refusal. */
  save: (value: SettingValue | null) => Promise<void>;
  /** "Reset to default", shown while the value is not the default. */
  reset?: { isDefault: boolean; run: () => Promise<void> };
}

/** A number typed as a number; anything else is sent as typed, for the API to refuse in its words. */
function typed(type: ControlProps['type'], text: string): SettingValue {
  if (type !== 'integer' && type !== 'number') return text;
  const number = Number(text);
  return text.trim() !== '' && Number.isFinite(number) ? number : text;
}

export function SettingControl(props: ControlProps): VNode {
  const shown = props.value === null ? '' : String(props.value);
  const [text, setText] = useState(shown);
  const { problem, run } = useSaves((error) => ({ control: props.id, message: messageOf(error) }));
  // A value saved elsewhere (reset, another window) replaces what is shown, unless the person's refused text waits.
  useEffect(() => {
    if (!problem) setText(shown);
  }, [shown]);

  const save = (value: SettingValue | null): Promise<boolean> => run(() => props.save(value));

  const reset = props.reset && !props.reset.isDefault && (
    <button
      type="button"
      class="button button-quiet reset-button"
      onClick={() => {
        void run(props.reset!.run).then((done) => {
          if (done) document.getElementById(props.id)?.focus(); // the button goes away with the change
        });
      }}
    >
      Reset to default<span class="visually-hidden"> ({props.label})</span>
    </button>
  );

  if (props.type === 'boolean') {
    const mine = problem?.control === props.id;
    return (
      <div class={`setting setting-switch${mine ? ' field-invalid' : ''}`}>
        <div class="setting-main">
          <label class="switch" for={props.id}>
            <input
              id={props.id}
              type="checkbox"
              role="switch"
              checked={props.value === true}
              {...described(props.id, props.hint, mine)}
              onChange={(event) => void save(event.currentTarget.checked)}
            />
            <span>{props.label}</span>
          </label>
          {reset}
        </div>
        <FieldNotes id={props.id} hint={props.hint} problem={problem} />
      </div>
    );
  }

  if (props.choices) {
    return (
      <div class="setting">
        <SelectField
          id={props.id}
          label={props.label}
          hint={props.hint}
          problem={problem}
          value={shown}
          choices={props.choices}
          onValue={(value) => void save(value === '' ? null : value)}
        />
        {reset}
      </div>
    );
  }

  const numeric = props.type === 'integer' || props.type === 'number';
  return (
    <div
      class="setting"
      onChange={(event) => {
        const target = event.target as HTMLInputElement;
        if (target.id === props.id) void save(typed(props.type, target.value));
      }}
    >
      <TextField
        id={props.id}
        label={props.label}
        hint={props.hint}
        problem={problem}
        type={numeric ? 'number' : 'text'}
        value={text}
        onValue={setText}
      />
      {reset}
    </div>
  );
}
