import { DEFAULT_HISTORY_CAP_PER_APP, HISTORY_CAP_RANGE } from '../limits.js';
import { log } from '../log.js';
import type { Store } from '../store/store.js';

export interface SettingsValues {
  historyCapPerApp?: number;
  muteAllSounds?: boolean;
  bannerCardImage?: boolean;
}

/**
 * The person's settings (`settings.json`). This issue only reads them when the daemon starts; the settings
 * routes that change them come later (issue 7). A value out of range is ignored with a warning, never fatal.
 */
export class Settings {
  private constructor(
    readonly historyCapPerApp: number,
    /** No sound and no speech from any notification. */
    readonly muteAllSounds: boolean,
    /** Each banner carries its card, drawn through its template, as its picture (daemon/core/cards.ts). */
    readonly bannerCardImage: boolean,
  ) {}

  static async open(store: Store): Promise<Settings> {
    const { data } = await store.open<SettingsValues>('settings.json', {});
    return new Settings(historyCap(data.historyCapPerApp), data.muteAllSounds === true, data.bannerCardImage === true);
  }
}

function historyCap(value: unknown): number {
  if (value === undefined) return DEFAULT_HISTORY_CAP_PER_APP;
  if (Number.isInteger(value) && (value as number) >= HISTORY_CAP_RANGE.min && (value as number) <= HISTORY_CAP_RANGE.max) {
    return value as number;
  }
  log.warn(`settings.json: historyCapPerApp ${JSON.stringify(value)} is not a whole number from ${HISTORY_CAP_RANGE.min} to ${HISTORY_CAP_RANGE.max}; using ${DEFAULT_HISTORY_CAP_PER_APP}`);
  return DEFAULT_HISTORY_CAP_PER_APP;
}
