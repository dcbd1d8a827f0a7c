// Other programs' notifications (GET and PUT /app/api/settings/desktop), under General settings: the switch that
// keeps every desktop notification in History; what is kept, where, who sees it and how to stop, in plain words;
// what the watch is doing; and each program seen with what is kept of it. Each change is saved at once, as every
// other setting on the page, and a refusal is shown next to its control.

import type { VNode } from 'preact';
import { useEffect } from 'preact/hooks';
import type { DesktopProgram } from '../../../protocol/app-api-settings.js';
import { PROGRAM_KEEPS, type ProgramKeep } from '../../../protocol/desktop-programs.js';
import { useModels } from '../models/context.js';
import { messageOf } from '../models/requests.js';
import { WatchState } from '../ui/desktop-watch.js';
import { Fact } from '../ui/facts.js';
import { described, FieldNotes } from '../ui/fields.js';
import { useSaves } from '../ui/saves.js';
import { SettingControl } from './control.js';

/** Each choice of a program, as the person reads it, and what the status line says once it is saved. */
const KEEPS: Record<ProgramKeep, { label: string; saved: string }> = {
  all: { label: 'Everything', saved: 'everything is kept from now on' },
  titles: { label: 'Titles only', saved: 'only the titles are kept from now on' },
  none: { label: 'Nothing', saved: 'nothing is kept from now on' },
};

function ProgramChoice({ program }: { program: DesktopProgram }): VNode {
  const { desktop, status } = useModels();
  const id = `keep-${program.app}`;
  const { problem, run } = useSaves((error) => ({ control: id, message: messageOf(error) }));
  const hint = program.excludedByDefault ? `Left out by default — ${program.excludedByDefault}.` : undefined;
  const change = async (keep: ProgramKeep): Promise<void> => {
    if (await run(() => desktop.setProgramKeep(program.app, keep))) status.say(`${program.name}: ${KEEPS[keep].saved}.`);
  };
  return (
    <li class={`framed-row desktop-program${problem ? ' field-invalid' : ''}`}>
      <div class="desktop-program-text">
        <span class="desktop-program-name">{program.name}</span>
        <FieldNotes id={id} hint={hint} problem={problem} />
      </div>
      <div class="desktop-program-keep">
        {/* Named "Keep from Evolution": the list has one such choice per program. */}
        <label for={id}>
          Keep<span class="visually-hidden"> from {program.name}</span>
        </label>
        <select
          id={id}
          value={program.keep}
          {...described(id, hint, problem?.control === id)}
          onChange={(event) => void change(event.currentTarget.value as ProgramKeep)}
        >
          {PROGRAM_KEEPS.map((keep) => (
            <option key={keep} value={keep}>
              {KEEPS[keep].label}
            </option>
          ))}
        </select>
      </div>
    </li>
  );
}

export function DesktopSection(): VNode {
  const { desktop, status } = useModels();
  const answer = desktop.answer.value;
  useEffect(() => desktop.follow(), []);
  return (
    <section class="group settings-group desktop-section" aria-labelledby="desktop-heading">
      <h3 id="desktop-heading">Other programs' notifications</h3>
      {answer ? (
        <>
          <SettingControl
            id="desktop-keep"
            label="Keep every desktop notification in History"
            type="boolean"
            value={answer.keep}
            hint="Your mail, chat, calendar and other programs show notifications on this computer too. With this on, History keeps each of them with the rest, to read and search again."
            save={async (keep) => {
              await desktop.setKeep(keep === true);
              status.say(
                keep
                  ? "Other programs' notifications are kept in History from now on."
                  : "No more of other programs' notifications are kept. What was kept stays in History.",
              );
            }}
          />
          <WatchState answer={answer} />
          <dl class="facts desktop-facts">
            <Fact term="What is kept">
              Of each notification: the program's name, the title, the text, its picture, the labels of its buttons, how its banner ended
              and which button you chose.
            </Fact>
            <Fact term="Where">
              On this computer, with the rest of History, in the folder <code class="exact">{answer.where}</code>.
            </Fact>
            <Fact term="Who sees them">Only you, here. The programs, scripts and agents that use Notifier never see them.</Fact>
            <Fact term="To stop">Turn the switch off: nothing more is kept. What was kept stays in History until you delete it there.</Fact>
          </dl>
          {(answer.keep || answer.programs.length > 0) && <Programs programs={answer.programs} />}
        </>
      ) : (
        <p class="muted">Loading…</p>
      )}
    </section>
  );
}

function Programs({ programs }: { programs: DesktopProgram[] }): VNode {
  return (
    <>
      <h4 id="desktop-programs-heading">Programs</h4>
      {programs.length === 0 ? (
        <p class="hint">No program has shown a notification yet. Each appears here with its first one.</p>
      ) : (
        <>
          <p class="hint">
            Each program that showed a notification. Titles only keeps the title and leaves out the text, the picture and the buttons. What
            you choose applies to its next notifications.
          </p>
          <ul class="framed-list" aria-labelledby="desktop-programs-heading">
            {programs.map((program) => (
              <ProgramChoice key={program.app} program={program} />
            ))}
          </ul>
        </>
      )}
    </>
  );
}
