import {
  DEFAULT_HISTORY_CAP_PER_APP,
  DEFAULT_PORT,
  DEFAULT_VOICE_LANG,
  DEFAULT_VOICE_SPEED,
  HISTORY_CAP_CHOICES,
  HISTORY_CAP_RANGE,
  PORT_SETTING_RANGE,
  SPEECH_SPEED,
  VOICE_DEFAULT_BYTES,
  VOICE_LANG_BYTES,
} from '../../../protocol/limits.js';
import { log } from '../../log.js';
import { soundChoices } from '../../present/sound.js';
import type { Document, Store } from '../../store/store.js';
import { checkChange, describeRule, LANG_RULE_PATTERN, ruleProblem, type SettingRule, VOICE_RULE_PATTERN } from './setting-rules.js';
import { CORNERS, DEFAULT_STACKING, STACKING_LEVELS, type StackingLevel } from '../../../protocol/types.js';
import type { VoiceEntry } from '../voice/voice-setup.js';

// The person's global settings (GET/PUT /v1/settings, docs/api/settings.md#s1): one table says what each key is; the
// same table checks a change, describes the schema and reads `settings.json`. Every key takes effect at once:
// the core reads the values when it needs them, and the keys that act on something outside (the port, the
// service started at login) have an effect that runs before the change is accepted.

export const TOOLTIP_LEVELS = ['nameOnly', 'nameAndDescription'] as const;
export type TooltipLevel = (typeof TOOLTIP_LEVELS)[number];

/** The `voiceDefault` that means "the engine's own voice": no voice is passed to the engine. */
export const ENGINE_VOICE = 'default';

/**
 * The speech engines: `system` is the platform's (espeak-ng on Linux, `say` on macOS and Windows). The
 * specification's `kokoro` is not offered: this service has no neural engine (docs/settings.md).
 */
export const VOICE_ENGINES = ['system', 'off'] as const;

export interface SettingsValues {
  port: number;
  launchAtLogin: boolean;
  muteAllSounds: boolean;
  stacking: StackingLevel;
  historyCapPerApp: number;
  tooltipLevel: TooltipLevel;
  bannerCardImage: boolean;
  voiceEngine: string;
  voiceDefault: string;
  voiceSpeed: number;
  voiceLang: string;
}

export type SettingKey = keyof SettingsValues;

const RULES: ReadonlyArray<SettingRule & { key: SettingKey }> = [
  {
    key: 'port',
    group: 'General',
    type: 'integer',
    ...PORT_SETTING_RANGE,
    restartsServer: true,
    description: 'The port of the local API on 127.0.0.1. A change moves the server to it at once and rewrites the port file.',
  },
  {
    key: 'launchAtLogin',
    group: 'General',
    type: 'boolean',
    description: 'Start Notifier when you log in (a systemd user service on Linux, a launchd agent on macOS).',
  },
  { key: 'muteAllSounds', group: 'General', type: 'boolean', description: 'No sound and no speech from any notification.' },
  {
    key: 'stacking',
    group: 'General',
    type: 'choice',
    values: STACKING_LEVELS,
    description: 'How banners stack by default: byApp, byIssuer, bySender or never. An app can override it.',
  },
  {
    key: 'historyCapPerApp',
    group: 'General',
    type: 'integer',
    ...HISTORY_CAP_RANGE,
    description: 'How many notifications History keeps per app; the oldest beyond it are removed at once.',
  },
  {
    key: 'tooltipLevel',
    group: 'General',
    type: 'choice',
    values: TOOLTIP_LEVELS,
    description: 'What the tray shows on hover: the name only, or the name and a description.',
  },
  {
    key: 'bannerCardImage',
    group: 'General',
    type: 'boolean',
    description: 'Each banner carries its card, drawn through its template, as its picture.',
  },
  {
    key: 'voiceEngine',
    group: 'Voice',
    type: 'choice',
    values: VOICE_ENGINES,
    description:
      'The speech engine: system (the platform voice: espeak-ng on Linux, say on macOS and Windows) or off. A notification that cannot be spoken is shown as a banner.',
  },
  {
    key: 'voiceDefault',
    group: 'Voice',
    type: 'string',
    maxLength: VOICE_DEFAULT_BYTES,
    pattern: VOICE_RULE_PATTERN,
    description: `The voice when a notification names none; "${ENGINE_VOICE}" is the engine's own voice (see options.voices).`,
  },
  {
    key: 'voiceSpeed',
    group: 'Voice',
    type: 'number',
    ...SPEECH_SPEED,
    description: 'The speech speed when a notification gives none, 0.5 to 2.0.',
  },
  {
    key: 'voiceLang',
    group: 'Voice',
    type: 'string',
    maxLength: VOICE_LANG_BYTES,
    pattern: LANG_RULE_PATTERN,
    description: 'The language when a notification gives none, for example en-us or en-gb.',
  },
];

const DEFAULTS: SettingsValues = {
  port: DEFAULT_PORT,
  launchAtLogin: false,
  muteAllSounds: false,
  stacking: DEFAULT_STACKING,
  historyCapPerApp: DEFAULT_HISTORY_CAP_PER_APP,
  tooltipLevel: 'nameAndDescription',
  bannerCardImage: false,
  voiceEngine: 'system',
  voiceDefault: ENGINE_VOICE,
  voiceSpeed: DEFAULT_VOICE_SPEED,
  voiceLang: DEFAULT_VOICE_LANG,
};

/**
 * A setting that acts on something outside the daemon's memory. `read` says what it is now (the port listened
 * on, whether the login service is installed); `change` makes it so, or throws and the whole change is refused.
 * It may return a note for the reply.
 */
export interface SettingEffect<T> {
  read(): T | Promise<T>;
  change(value: T): Promise<string | void>;
}

/** The effects run in this order; when one fails, those already done are undone. */
const EFFECT_ORDER: SettingKey[] = ['launchAtLogin', 'port'];

type Effects = { [K in SettingKey]?: SettingEffect<SettingsValues[K]> };
type Listener = (value: unknown) => void | Promise<void>;

export class Settings {
  private readonly effects: Effects = {};
  private readonly listeners = new Map<SettingKey, Listener[]>();
  /** Changes run one after another (a port move must finish before the next change looks at the port). */
  private queue: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly store: Store,
    private readonly document: Document<Record<string, unknown>>,
    private readonly values: SettingsValues,
  ) {}

  /** Reads `settings.json`; a value that breaks the table's rules is ignored with a warning, never fatal. */
  static async open(store: Store): Promise<Settings> {
    const document = await store.open<Record<string, unknown>>('settings.json', {});
    if (typeof document.data !== 'object' || document.data === null || Array.isArray(document.data)) {
      log.warn('settings.json does not hold an object; the defaults apply');
      document.data = {};
    }
    const values = { ...DEFAULTS };
    for (const rule of RULES) {
      const stored = document.data[rule.key];
      if (stored === undefined) continue;
      if (ruleProblem(rule, stored) === null) {
        Object.assign(values, { [rule.key]: stored });
        continue;
      }
      const wanted = rule.type === 'integer' ? `a whole number from ${rule.min} to ${rule.max}` : ruleProblem(rule, stored);
      log.warn(`settings.json: ${rule.key} ${JSON.stringify(stored)} is not ${wanted}; using ${JSON.stringify(values[rule.key])}`);
    }
    return new Settings(store, document, values);
  }

  get historyCapPerApp(): number {
    return this.values.historyCapPerApp;
  }

  get muteAllSounds(): boolean {
    return this.values.muteAllSounds;
  }

  get bannerCardImage(): boolean {
    return this.values.bannerCardImage;
  }

  /** The global stacking level (an app's own `stacking` wins). */
  get stacking(): StackingLevel {
    return this.values.stacking;
  }

  get voiceEngine(): string {
    return this.values.voiceEngine;
  }

  get voiceDefault(): string {
    return this.values.voiceDefault;
  }

  get voiceSpeed(): number {
    return this.values.voiceSpeed;
  }

  get voiceLang(): string {
    return this.values.voiceLang;
  }

  /** The port stored for the next start (the daemon's `--port` and NOTIFIER_PORT win over it). */
  get storedPort(): number {
    return this.values.port;
  }

  /** Gives a key its effect (the daemon: `port`; the core: `launchAtLogin`). */
  useEffect<K extends SettingKey>(key: K, effect: SettingEffect<SettingsValues[K]>): void {
    (this.effects as Record<string, unknown>)[key] = effect;
  }

  /** Calls back after a key changed (and is on disk); the change's reply waits for the listener. */
  onChange<K extends SettingKey>(key: K, listener: (value: SettingsValues[K]) => void | Promise<void>): void {
    this.listeners.set(key, [...(this.listeners.get(key) ?? []), listener as Listener]);
  }

  /** Every value as it is now (the port listened on, whether the login service is installed). */
  async current(): Promise<SettingsValues> {
    const values = { ...this.values };
    for (const key of EFFECT_ORDER) {
      const effect = this.effects[key] as SettingEffect<unknown> | undefined;
      if (effect) Object.assign(values, { [key]: await effect.read() });
    }
    return values;
  }

  /** docs/api/settings.md#get-v1-settings: one entry per key, with its limits, its choices and its default. */
  schema(): Array<Record<string, unknown>> {
    return RULES.map((rule) => ({ ...describeRule(rule), default: DEFAULTS[rule.key] }));
  }

  /** The lists a settings screen offers (docs/api/settings.md#get-v1-settings, `options`); `voices` are the speech engine's. */
  options(voices: VoiceEntry[]): Record<string, unknown> {
    return {
      stackingLevels: [...STACKING_LEVELS],
      tooltipLevels: [...TOOLTIP_LEVELS],
      voiceEngines: [...VOICE_ENGINES],
      voices: [{ id: ENGINE_VOICE, name: "The engine's own voice" }, ...voices.map(({ id, name }) => ({ id, name }))],
      historyCapChoices: [...HISTORY_CAP_CHOICES],
      corners: [...CORNERS],
      sounds: soundChoices(),
      displays: [{ id: 'main', name: 'Main display' }],
    };
  }

  /**
   * PUT /v1/settings: every key checked first (in sorted order: the first problem is a 400 naming its key, and
   * nothing changes); then the effects, undone if one fails; then the values, on disk before the reply.
   */
  change(body: Record<string, unknown>): Promise<{ applied: SettingKey[]; note?: string }> {
    const applied = checkChange(RULES, body, '{"muteAllSounds":true}') as SettingKey[];
    const run = this.queue.then(() => this.apply(applied, body as Partial<SettingsValues>));
    this.queue = run.catch(() => undefined);
    return run;
  }

  private async apply(applied: SettingKey[], change: Partial<SettingsValues>): Promise<{ applied: SettingKey[]; note?: string }> {
    const before = await this.current();
    const done: SettingKey[] = [];
    let note: string | undefined;
    try {
      for (const key of EFFECT_ORDER) {
        const effect = this.effects[key] as SettingEffect<unknown> | undefined;
        if (!effect || !applied.includes(key) || change[key] === before[key]) continue;
        note = (await effect.change(change[key])) || note;
        done.push(key);
      }
    } catch (error) {
      for (const key of done.reverse()) {
        await (this.effects[key] as SettingEffect<unknown>)
          .change(before[key])
          .catch((undo: Error) => log.error(`could not undo ${key}: ${undo.message}`));
      }
      throw error;
    }
    const previous = { ...this.values };
    for (const key of applied) Object.assign(this.values, { [key]: change[key] });
    this.document.data = { ...this.document.data, ...Object.fromEntries(applied.map((key) => [key, change[key]])) };
    await this.store.save(this.document);
    for (const key of applied) {
      if (this.values[key] === previous[key]) continue;
      for (const listener of this.listeners.get(key) ?? []) await listener(this.values[key]);
    }
    return { applied, ...(note ? { note } : {}) };
  }
}
