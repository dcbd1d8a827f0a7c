// How long an app's banners stay, as one choice: "Until I close them" or "For N seconds". The API keeps it in two
// keys, `persistent` and `timeout` (seconds; 0: none), which showed as two controls that could say opposite things.
// This control saves both together, so they always say one thing: until closed is {persistent: true, timeout: 0},
// N seconds is {persistent: false, timeout: N}. Kept elsewhere as {persistent: false, timeout: 0}, a banner closes
// after 8 seconds (docs/api/notifications.md#n11): shown as "For 8 seconds".

import type { VNode } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { AppSettingsEntry, SettingValue } from '../../../protocol/app-api-settings.js';
import { useModels } from '../models/context.js';
import { messageOf } from '../models/requests.js';
import { described, FieldNotes } from '../ui/fields.js';
import { useSaves } from '../ui/saves.js';

/** What a banner of an app that is not persistent and has no timeout of its own does. */
const NOT_PERSISTENT_SECONDS = 8;
/** What the seconds field offers while banners stay until closed. */
const SUGGESTED_SECONDS = 10;
const UNTIL_CLOSED = { persistent: true, timeout: 0 };

export function BannerTime({ entry, id }: { entry: AppSettingsEntry; id: string }): VNode {
  const { settings } = useModels();
  const { persistent, timeout } = entry.settings;
  const untilClosed = persistent && timeout === 0;
  // The seconds that are saved; none while banners stay until closed.
  const seconds = timeout > 0 ? timeout : persistent ? undefined : NOT_PERSISTENT_SECONDS;
  const secondsId = `${id}-seconds`;
  const [text, setText] = useState(String(seconds ?? SUGGESTED_SECONDS));
  const { problem, run } = useSaves((error) => ({ control: secondsId, message: messageOf(error) }));
  // Saved seconds are shown (after a change here or elsewhere), unless the person's refused text waits. Until
  // closed keeps the number the field had, so choosing "For" again brings back the person's own number.
  useEffect(() => {
    if (!problem && seconds !== undefined) setText(String(seconds));
  }, [seconds, problem]);

  const save = async (change: Record<string, SettingValue>): Promise<void> => {
    await run(() => settings.changeApp(entry.app, change));
  };
  /** The seconds typed; 0 is "until I close them", and anything that is not a number goes as typed, for the API's words. */
  const forSeconds = (typed: string): Promise<void> => {
    const number = Number(typed);
    if (typed.trim() === '' || !Number.isFinite(number)) return save({ persistent: false, timeout: typed });
    if (number !== 0) return save({ persistent: false, timeout: number });
    setText(String(SUGGESTED_SECONDS)); // 0 means until closed: the field offers a number for next time
    return save(UNTIL_CLOSED);
  };

  return (
    <fieldset class="setting banner-time" aria-describedby={`${id}-hint`}>
      <legend>Banners stay</legend>
      <div class="banner-time-choices">
        <label class="check">
          <input type="radio" name={id} checked={untilClosed} onChange={() => void save(UNTIL_CLOSED)} />
          Until I close them
        </label>
        <span class="banner-seconds">
          <input id={`${id}-for`} type="radio" name={id} checked={!untilClosed} onChange={() => void forSeconds(text)} />
          <label for={`${id}-for`}>
            For<span class="visually-hidden"> a number of seconds</span>
          </label>
          <input
            id={secondsId}
            type="number"
            min={1}
            max={86400}
            value={text}
            aria-label="Seconds a banner stays"
            {...described(secondsId, undefined, problem?.control === secondsId)}
            onInput={(event) => setText(event.currentTarget.value)}
            onChange={(event) => void forSeconds(event.currentTarget.value)}
          />
          <span aria-hidden="true">seconds</span>
        </span>
      </div>
      <FieldNotes id={secondsId} problem={problem} />
      <p id={`${id}-hint`} class="hint">
        Unless a notification says how long itself.
      </p>
    </fieldset>
  );
}
