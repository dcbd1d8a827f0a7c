// The date filter: "Dates" (Any time, Today, Last 7 days, This month, Custom dates) and, for custom dates, From and
// To, typed as text in the order this browser writes dates (models/history-dates.ts says why not date fields).

import type { VNode } from 'preact';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { useModels } from '../models/context.js';
import {
  DATE_PRESET_LABELS,
  DATE_PRESETS,
  type DatePreset,
  dateShape,
  type DateShape,
  presetRange,
  readTypedDate,
  shownDate,
} from '../models/history-dates.js';

function DateField({ which, shape }: { which: 'from' | 'to'; shape: DateShape }): VNode {
  const { history } = useModels();
  const value = history.filters.value[which];
  const [text, setText] = useState(shownDate(value, shape));
  const [problem, setProblem] = useState(false);
  useEffect(() => setText(shownDate(value, shape)), [value]);
  const id = `dates-${which}`;
  // Read when the person leaves the field or presses Enter: a date half typed is not a filter yet.
  const apply = (): void => {
    const day = readTypedDate(text, shape);
    setProblem(day === null);
    if (day === null) return;
    setText(shownDate(day, shape));
    if (day !== value) history.setFilters({ [which]: day });
  };
  return (
    <div class="field-inline extra date">
      <label for={id}>{which === 'from' ? 'From' : 'To'}</label>
      <input
        id={id}
        type="text"
        autocomplete="off"
        value={text}
        placeholder={shape.pattern}
        aria-invalid={problem || undefined}
        aria-describedby={problem ? `${id}-problem` : undefined}
        onInput={(event) => setText(event.currentTarget.value)}
        onChange={apply}
        onKeyDown={(event) => event.key === 'Enter' && apply()}
      />
      {problem && (
        <span id={`${id}-problem`} class="field-problem" role="alert">
          Write the date as {shape.pattern}.
        </span>
      )}
    </div>
  );
}

export function DateFilters(): VNode {
  const { history } = useModels();
  const shape = useMemo(() => dateShape(), []);
  const preset = history.filters.value.dates;
  const choose = (dates: DatePreset): void =>
    history.setFilters(dates === 'custom' ? { dates } : { dates, ...presetRange(dates, new Date()) });
  return (
    <>
      <label class="field-inline extra">
        <span>Dates</span>
        <select value={preset} onChange={(event) => choose(event.currentTarget.value as DatePreset)}>
          {DATE_PRESETS.map((choice) => (
            <option key={choice} value={choice}>
              {DATE_PRESET_LABELS[choice]}
            </option>
          ))}
        </select>
      </label>
      {preset === 'custom' && (
        <>
          <DateField which="from" shape={shape} />
          <DateField which="to" shape={shape} />
        </>
      )}
    </>
  );
}
