import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { errors } from '../../protocol/errors.js';
import { log } from '../log.js';
import type { Presenter } from '../present/presenter.js';
import { Store } from '../store/store.js';
import { ActionRunner } from './actions/action-runner.js';
import { Actions } from './actions/actions.js';
import { appIsKnown, deleteAppFiles } from './app-admin/app-removal.js';
import { AppRegistry } from './apps/app-registry.js';
import { Approvals } from './approvals/approvals.js';
import { Banners, lifetimeOf } from './notifications/banners.js';
import { BannerDrawing } from './notifications/banner-drawing.js';
import { Assets } from './templates/assets.js';
import { CardPictures } from './templates/cards.js';
import { Designs } from './templates/designs.js';
import { TemplateBundles } from './templates/template-bundles.js';
import { TemplateLibrary } from './templates/library.js';
import { coerceFields, resolveFields } from '../../protocol/fields.js';
import { FollowUps } from './actions/follow-ups.js';
import { History } from './history/history.js';
import { ReadState } from './history/read-state.js';
import { ImageCache } from './media/images.js';
import { prepareNotification, type NotificationInput } from './notifications/notify.js';
import { PersonSide } from './person.js';
import { ReplyQueue, type ReplyRecord } from './notifications/replies.js';
import { endingOf, type WaitEnded } from './notifications/endings.js';
import { queryWords } from '../../protocol/search-text.js';
import { QuietHours, type QuietStatus } from './settings/quiet-hours.js';
import { type RelayHost, RelayService, type RelayServiceOptions } from './relay/relay-service.js';
import { ENGINE_VOICE, Settings } from './settings/settings.js';
import { stackKey } from './notifications/stacking.js';
import {
  SPEECH_APP_MUTED,
  SPEECH_APP_OFF,
  SPEECH_MUTED,
  SPEECH_QUIET,
  SPEECH_UNAVAILABLE,
  speechRecord,
  wantsSpeech,
} from './voice/speech.js';
import { Timers } from './timers.js';
import {
  type AppPreferences,
  type AppRegistration,
  HELD,
  type HistoryRecord,
  type Notification,
  type SpeakRequest,
  type StackingLevel,
} from '../../protocol/types.js';
import { findSpeechEngine, type SpeechEngine, Voice } from './voice/voice.js';
import { VoiceSetup } from './voice/voice-setup.js';
import { SPEAK_TITLE_CHARS, SPOKEN_TEXT_CHARS } from '../../protocol/limits.js';
import { type AppPage, OWN_APP, OWN_APP_NAME } from '../../protocol/app-api.js';

/** docs/api/notifications.md#n36: at launch the 6 newest undismissed banners are restored. */
const BANNERS_RESTORED_AT_START = 6;

export interface CoreOptions {
  supportDir: string;
  presenter: Presenter;
  /** The speech engine; default: the one this computer has (espeak-ng on Linux, `say` on macOS and Windows). */
  speech?: SpeechEngine | null;
  /** Epoch milliseconds now, for quiet hours; tests move it. Default Date.now. */
  clock?: () => number;
  /** The relay's device-token store and keep-alive, for tests; default the Secret Service (else a file) and 300 s. */
  relay?: Pick<RelayServiceOptions, 'secrets' | 'pingSeconds'>;
}

const { quietHours: HELD_QUIET, appMuted: HELD_MUTED } = HELD;

/**
 * A notification still on its way in (its picture downloading, its app loading): what happened to its id
 * meanwhile. A newer notification with the same id puts its own entry in place of this one.
 */
interface InFlight {
  dismissedAt?: string;
}

/** An item of `GET /v1/stacks` (docs/api/notifications.md#n44); its shape: docs/api/notifications.md#n44. */
export interface Stack {
  level: StackingLevel;
  app: string;
  group?: string;
  count: number;
  expanded: boolean;
  members: Array<{ app: string; id: string; title: string; group?: string; deliveredAt: string }>;
}

/** POST /v1/speak, read: the text to say and how. */
export interface SpeakInput {
  app: string;
  id?: string;
  text: string;
  speak: SpeakRequest;
}

/** Whether the person's app could be opened, and why not. */
export type OpenResult = { ok: true } | { ok: false; error: string };

export type WaitResult = { replied: true; reply: ReplyRecord } | WaitEnded | { replied: false; timedOut: true; waitedSeconds: number };

const keyOf = (app: string, id: string): string => `${app}\u0000${id}`;

/** Which stack a stack is, for remembering that it was opened: its level, app and group. */
const stackIdentity = (stack: Stack): string => `${stack.level}\u0000${stack.app}\u0000${stack.group ?? ''}`;

/** The app's own voice, speed and language (PUT /v1/apps/settings): a notification's own `speak` values win. */
const appVoice = (preferences: AppPreferences | undefined): SpeakRequest => {
  const { voice, speed, lang } = preferences ?? {};
  return { ...(voice ? { voice } : {}), ...(speed ? { speed } : {}), ...(lang ? { lang } : {}) };
};

/**
 * An app's display name: the registered one wins over the manifest's (docs/api/apps.md#a2); else its id — but
 * Notifier's own app is Notifier.
 */
const displayName = (app: string, apps: AppRegistry, designs: Designs): string =>
  apps.get(app)?.appName ?? designs.manifest(app)?.appName ?? (app === OWN_APP ? OWN_APP_NAME : app);

/**
 * The service itself, independent of HTTP and of any display: notifications, History, apps, what is on screen
 * and when that changes, replies and approvals. Every change is made synchronously and then awaited on disk, so
 * the order of requests is the order of changes, and a caller is answered only once its change is durable.
 */
export class NotifierCore {
  private readonly inFlight = new Map<string, InFlight>();
  private readonly deliveryListeners = new Set<() => void>();
  private readonly speechListeners = new Set<(app: string, id: string) => void>();
  /** Called with the record once a banner ended (its `dismissedAt` and `actionUsed` are on disk). */
  private readonly endListeners = new Set<(record: HistoryRecord) => void>();
  /** The cloud relay as this computer uses it (docs/api/relay-connection.md); set once the core is assembled. */
  relay!: RelayService;
  /** What the person has read (docs/app.md#read-and-unread); set once the core is assembled. */
  readState!: ReadState;
  /** What the person does on a banner, or in the person's app. */
  readonly person: PersonSide;
  /** What a record's banner looks like, and the banner that says what went wrong. */
  private readonly drawing: BannerDrawing;
  /** Opens the person's app on the desktop (docs/app.md#how-it-opens); the daemon sets it. */
  openApp: (page: AppPage) => Promise<OpenResult> = async () => ({ ok: false, error: 'the app cannot be opened from here' });
  /** Stacks the caller opened (POST /v1/stacks/expand), by `stackIdentity`. */
  private readonly expandedStacks = new Set<string>();
  /** The voice engine's state and installation (GET /v1/voice, POST /v1/voice/install). */
  readonly voiceSetup = new VoiceSetup(
    () => this.voice.engine,
    (engine) => (this.voice.engine = engine),
  );

  private constructor(
    readonly store: Store,
    readonly apps: AppRegistry,
    readonly history: History,
    readonly designs: Designs,
    readonly banners: Banners,
    readonly presenter: Presenter,
    readonly replies: ReplyQueue,
    readonly approvals: Approvals,
    readonly followUps: FollowUps,
    private readonly timers: Timers,
    private readonly images: ImageCache,
    readonly voice: Voice,
    readonly settings: Settings,
    actions: Actions,
    readonly assets: Assets,
    readonly library: TemplateLibrary,
    readonly bundles: TemplateBundles,
    readonly cards: CardPictures,
    readonly quietHours: QuietHours,
  ) {
    this.person = new PersonSide(this, actions);
    this.drawing = new BannerDrawing(
      {
        settings,
        cards,
        designs,
        apps,
        banners,
        history,
        presenter,
        appName: (app) => this.appName(app),
        appIcon: (app) => this.appIcon(app),
        soundsQuiet: (notification) => this.quietFor(notification).sounds,
        stackingOf: (app) => this.stackingOf(app),
        expired: (app, id) => void this.endBanner(app, id, 'timeout'),
      },
      timers,
    );
    // A banner whose record the History cap dropped cannot be answered any more: it goes too, so what is on
    // screen never outgrows History.
    history.onEvict = (record) => this.takeOffScreen(record.app, record.id);
  }

  static async open(options: CoreOptions): Promise<NotifierCore> {
    const { supportDir, presenter } = options;
    const store = new Store(supportDir);
    const images = new ImageCache(path.join(supportDir, 'images'));
    const engine = options.speech === undefined ? findSpeechEngine() : options.speech;
    const settings = await Settings.open(store);
    let sayLater: (text: string) => void = () => undefined;
    const quietHours = await QuietHours.open(store, {
      ...(options.clock ? { clock: options.clock } : {}),
      onSummary: (text) => sayLater(text),
    });
    const history = new History(store, images, () => settings.historyCapPerApp);
    const designs = new Designs(store);
    const replies = new ReplyQueue(store);
    const [apps, approvals] = await Promise.all([
      AppRegistry.open(store),
      Approvals.open(store, presenter),
      history.open(),
      designs.load(),
      replies.load(),
    ]);
    const timers = new Timers();
    const appName = (app: string): string => displayName(app, apps, designs);
    const actions = new Actions(presenter, apps, approvals, new ActionRunner(supportDir), appName);
    const followUps = new FollowUps(timers, history, designs, actions, {
      end: (app, id, actionUsed) => core.endBanner(app, id, actionUsed),
      showProblem: (app, id, problem) => core.showProblem(app, id, problem),
    });
    const voice = new Voice(path.join(supportDir, 'audio'), engine);
    const banners = new Banners(presenter, timers);
    const assets = new Assets(store);
    const library = new TemplateLibrary(designs, apps, approvals, assets);
    const bundles = new TemplateBundles(designs, library, assets);
    const core = new NotifierCore(
      store,
      apps,
      history,
      designs,
      banners,
      presenter,
      replies,
      approvals,
      followUps,
      timers,
      images,
      voice,
      settings,
      actions,
      assets,
      library,
      bundles,
      new CardPictures(path.join(supportDir, 'cards'), designs),
      quietHours,
    );
    sayLater = (text) => core.speakSummary(text);
    core.readState = await ReadState.open(store, history);
    // Acting on a banner (a click, a button, a reply) is reading it.
    core.person.onActed((app, id) => {
      const record = history.get(app, id);
      if (record) core.readState.mark(record, true).catch((error: Error) => log.error(`could not mark ${id} read: ${error.message}`));
    });
    settings.onChange('historyCapPerApp', () => history.trim());
    core.relay = await RelayService.open({ store, supportDir, host: core.relayHost(), ...options.relay });
    await presenter.start((event) => core.person.handle(event));
    // The apps' standing requests to run code wait for the person again (docs/app.md#approvals).
    for (const app of apps.list()) if (app.allowCommands === true) approvals.requestCommands(app.app, core.appName(app.app));
    // History goes on loading in the background; requests wait only for the apps they touch.
    const loading = performance.now();
    void core.relay.resume();
    void history.ready.then(() => {
      core.resumeAfterStart();
      history.warmSearch();
      const { apps: count, records } = history.size();
      log.info(`History loaded: ${records} records of ${count} apps in ${Math.round(performance.now() - loading)} ms`);
    });
    return core;
  }

  appName(app: string): string {
    return displayName(app, this.apps, this.designs);
  }

  /** What the relay needs of the core (daemon/core/relay/relay-service.ts). */
  private relayHost(): RelayHost {
    return {
      notify: (input) => this.notify(input),
      record: (app, id) => this.history.get(app, id),
      registration: (app) => this.apps.get(app),
      register: (registration) => this.register(registration),
      appName: (app) => this.appName(app),
      presenter: this.presenter,
      deviceStatus: () => {
        const quiet = this.quietHours.status();
        const until = quiet.active && quiet.until ? { quietUntil: quiet.until.replace(/\.\d+Z$/, 'Z') } : {};
        return { quietActive: quiet.active, muted: this.settings.muteAllSounds, ...until };
      },
      onDeviceStatusChange: (listener) => {
        this.quietHours.onChange(listener);
        this.settings.onChange('muteAllSounds', listener);
      },
      onReply: (listener) => this.replies.onAdd(listener),
      onSpoken: (listener) => this.speechListeners.add(listener),
    };
  }

  /** POST /v1/notify (docs/api/notifications.md#post-v1-notify). Resolves with the notification's id once its record is on disk. */
  async notify(input: NotificationInput): Promise<string> {
    const id = input.id || randomUUID().toUpperCase();
    const deliveredAt = this.timestamp();
    const appName = this.appName(input.app);
    const notification = prepareNotification(input, id, this.designs, { appName, deliveredAt });
    const registered = this.apps.ensure(input.app);

    let imagePath: string | null = null;
    let recording: string | null = null;
    let dismissedAt: string | undefined;
    if (notification.image !== undefined || notification.audio !== undefined || !this.history.isLoaded(input.app)) {
      // Something to wait for (a picture, the app's History loading): meanwhile a newer notification with this
      // id may replace this one, or a dismissal may close it before it is shown.
      const key = keyOf(input.app, id);
      const entry: InFlight = {};
      this.inFlight.set(key, entry);
      [imagePath, recording] = await Promise.all([
        notification.image === undefined ? null : this.images.cache(notification.image),
        notification.audio === undefined ? null : this.voice.cacheRecording(notification.audio),
        this.history.load(input.app),
      ]);
      if (this.inFlight.get(key) !== entry) {
        this.images.discard(imagePath);
        await registered;
        return id;
      }
      this.inFlight.delete(key);
      dismissedAt = entry.dismissedAt;
    }

    if (imagePath && notification.image?.startsWith('data:')) notification.image = imagePath;
    if (recording && notification.audio?.startsWith('data:')) notification.audio = recording;

    // docs/api/notifications.md#n31: `voice` speaks instead of showing a banner, `both` does both. Speech that cannot play
    // (a quiet period, muted, the app's Speak switch off, no engine) is shown as a banner so it is not lost, and
    // the record says why. A muted app's notifications go to History only (docs/api/apps.md#a10).
    const preferences = this.apps.get(input.app)?.settings ?? {};
    const muted = preferences.muteBanners === true;
    const quiet = this.quietFor(notification);
    const speechWanted = wantsSpeech(notification);
    const blocked = muted
      ? SPEECH_APP_MUTED
      : (this.silenced(quiet) ??
        (speechWanted && preferences.speak === false ? SPEECH_APP_OFF : null) ??
        (speechWanted && !this.speechOn() ? SPEECH_UNAVAILABLE : null));
    const bannerWanted = notification.presentation !== 'voice' || blocked !== null;
    // A muted app's banners, and banners quiet hours silence, are held: the record goes to History, not dismissed,
    // and is never shown (a reshow shows it).
    const held = !bannerWanted ? null : muted ? HELD_MUTED : quiet.banners ? HELD_QUIET : null;
    const showBanner = bannerWanted && held === null;
    if (quiet.active && !muted) this.quietHours.noteQuieted(notification.title || appName);
    const record: HistoryRecord = {
      id,
      app: input.app,
      notification,
      deliveredAt,
      // A notification only spoken has no banner to close later: it is done when it is delivered.
      ...(dismissedAt ? { dismissedAt, actionUsed: 'dismiss' } : held ? { held } : showBanner ? {} : { dismissedAt: deliveredAt }),
      ...(imagePath ? { imagePath } : {}),
      ...(recording ? { recordingPath: recording } : {}),
      fields: this.fieldsOf(notification, appName, deliveredAt),
      ...(speechWanted ? { speech: speechRecord(notification, blocked) } : {}),
    };
    // docs/api/notifications.md#n3: a notification with the same id replaces the banner in place and cancels a pending snooze.
    this.timers.cancel('snooze', keyOf(input.app, id));
    this.followUps.cancel(input.app, id);
    this.voice.stop(input.app, id);
    const saved = this.history.put(record);
    const wantsCard = this.settings.bannerCardImage && this.presenter.showsCards !== false;
    if (showBanner && !dismissedAt && wantsCard) await this.cards.draw(record, appName, this.appIcon(input.app));
    if (showBanner && !dismissedAt) this.putOnScreen(record, { sound: true });
    else if (held) this.banners.close(input.app, id); // an earlier banner with this id does not stay up in its place
    if (!dismissedAt && blocked === null && (speechWanted || recording)) this.queueSpeech(record, recording);
    await (registered ? Promise.all([saved, registered]) : saved);
    for (const listener of this.deliveryListeners) listener();
    return id;
  }

  /**
   * History `fields` (docs/api/history.md#h3, docs/api/templates.md#t10): the notification's, the template's `extra`, the manifest's
   * number and bool fields read as such.
   */
  private fieldsOf(notification: Notification, appName: string, deliveredAt: string): Record<string, string> {
    const extra = this.designs.template(notification.app, notification.template)?.extra;
    return coerceFields(resolveFields(notification, appName, deliveredAt, extra ? { extra } : {}), this.designs.manifest(notification.app));
  }

  /** The app's icon: the registered one, else the manifest's. */
  appIcon(app: string): string | undefined {
    return this.apps.get(app)?.icon ?? this.designs.manifest(app)?.icon;
  }

  /** Calls back after every notification delivered (the tray refreshes its list); returns a function that stops. */
  onDelivery(listener: () => void): () => void {
    this.deliveryListeners.add(listener);
    return () => this.deliveryListeners.delete(listener);
  }

  /** A quiet period from the person (the tray): no sounds and no speech for `minutes`; 0 ends it. */
  setQuiet(minutes: number): { quietUntil: string | null } {
    return this.quietHours.quietFor(minutes);
  }

  /** What quiet hours silence for this notification now: nothing when it is urgent and its app lets it through. */
  private quietFor(notification: Notification): QuietStatus {
    return this.quietHours.statusFor(notification.priority, this.apps.get(notification.app)?.settings?.urgentBreaksQuiet === true);
  }

  /** Why sounds and speech are off right now, or null. */
  private silenced(quiet: QuietStatus): string | null {
    if (quiet.speech) return SPEECH_QUIET;
    return this.settings.muteAllSounds ? SPEECH_MUTED : null;
  }

  /** Is there a speech engine, is it on (setting voiceEngine), and is there a player to hear it with? */
  private speechOn(): boolean {
    return this.voice.engine !== null && this.settings.voiceEngine !== 'off' && this.voice.playerName() !== null;
  }

  /**
   * A speech request with the settings' defaults (voiceDefault, voiceSpeed, voiceLang) where it gives none. A
   * request that names a language but no voice gets the engine's voice for that language, not voiceDefault.
   */
  private withSpeechDefaults(request: SpeakRequest): SpeakRequest {
    const { voiceDefault, voiceSpeed, voiceLang } = this.settings;
    const voice = request.voice ?? (request.lang === undefined && voiceDefault !== ENGINE_VOICE ? voiceDefault : undefined);
    return { ...request, ...(voice ? { voice } : {}), speed: request.speed ?? voiceSpeed, lang: request.lang ?? voiceLang };
  }

  /** Says the summary of a quiet-hours window that asked for one, unless sounds are muted or speech is off. */
  speakSummary(text: string): void {
    if (this.settings.muteAllSounds || !this.speechOn()) {
      log.info(`quiet hours are over; the summary is not spoken (sounds muted or speech off): ${text}`);
      return;
    }
    this.voice.say({
      app: OWN_APP, // the service's own app speaks the summary (docs/api/settings.md#s15)
      id: `quiet-summary-${Date.now()}`,
      text,
      request: this.withSpeechDefaults({}),
      spoken: () => undefined,
    });
  }

  /** Queues a record's speech (and recording); once written, its audio file and length go on the record. */
  private queueSpeech(record: HistoryRecord, recording: string | null): void {
    const { app, id, notification } = record;
    this.voice.say({
      app,
      id,
      text: record.speech?.text ?? '',
      request: this.withSpeechDefaults({ ...appVoice(this.apps.get(app)?.settings), ...notification.speak }),
      ...(recording ? { recording } : {}),
      // Speech only, with no banner: when it cannot play after all, the person sees it rather than nothing.
      ...(notification.presentation === 'voice' ? { failed: (reason: string) => this.showProblem(app, id, `Not spoken: ${reason}`) } : {}),
      spoken: (written) => {
        void this.history.update(app, id, (current) =>
          current.speech ? { ...current, speech: { ...current.speech, ...written } } : current,
        );
      },
      finished: () => {
        for (const listener of this.speechListeners) listener(app, id);
      },
    });
  }

  /**
   * POST /v1/speak (docs/api/notifications.md#n38): says the text, with a History entry titled with its first 80 characters. Speech that
   * cannot play is shown as a banner instead, so it is not lost.
   */
  speak(input: SpeakInput): Promise<string> {
    return this.notify({
      app: input.app,
      ...(input.id ? { id: input.id } : {}),
      title: input.text.trim().slice(0, SPEAK_TITLE_CHARS),
      presentation: 'voice',
      speak: { ...input.speak, text: input.text.slice(0, SPOKEN_TEXT_CHARS) },
    });
  }

  /** POST /v1/register (docs/api/apps.md#post-v1-register). `allowCommands: false` withdraws the request and the person's confirmation. */
  async register(registration: AppRegistration): Promise<void> {
    await this.apps.register(registration);
    if (registration.allowCommands === false) await this.approvals.withdrawRequest(registration.app);
    if (registration.allowCommands === true) this.approvals.requestCommands(registration.app, this.appName(registration.app));
  }

  /** POST /v1/dismiss (docs/api/notifications.md#n39): an id that is not on screen is not an error. */
  async dismiss(app: string, id: string): Promise<void> {
    const pending = this.inFlight.get(keyOf(app, id));
    if (pending) pending.dismissedAt ??= this.timestamp();
    await this.history.load(app);
    await this.endBanner(app, id, 'dismiss');
  }

  /** POST /v1/dismissAll (docs/api/notifications.md#n40): every banner, one app's, or one stack of one app. Records stay in History. */
  async dismissAll(filter: { app?: string; group?: string }): Promise<void> {
    for (const [key, pending] of this.inFlight) {
      if (filter.app === undefined || key.startsWith(`${filter.app}\u0000`)) pending.dismissedAt ??= this.timestamp();
    }
    const banners = this.banners.list(filter);
    await Promise.all(banners.map((banner) => this.history.load(banner.app)));
    await Promise.all(banners.map((banner) => this.endBanner(banner.app, banner.id, 'dismiss')));
  }

  /**
   * POST /v1/snooze (docs/api/notifications.md#n41): hides the banner for `minutes` of elapsed time and returns when it comes back.
   * 404 for an unknown notification, 400 for a dismissed one. The time survives a restart (`snoozedUntil`).
   */
  async snooze(app: string, id: string, minutes: number): Promise<string> {
    const record = await this.requireRecord(app, id);
    if (record.dismissedAt) throw errors.alreadyDismissed();
    const until = new Date(Date.now() + minutes * 60_000).toISOString();
    this.banners.close(app, id);
    this.followUps.cancel(app, id);
    this.timers.at('snooze', keyOf(app, id), Date.parse(until), () => void this.snoozeOver(app, id, { sound: true }));
    await this.history.update(app, id, (current) => ({ ...current, snoozedUntil: until }));
    return until;
  }

  /** POST /v1/unsnooze (docs/api/notifications.md#n42): the snoozed banner comes back now, without sound. */
  async unsnooze(app: string, id: string): Promise<void> {
    const record = await this.requireRecord(app, id);
    if (record.dismissedAt) throw errors.alreadyDismissed();
    if (record.snoozedUntil) await this.snoozeOver(app, id, { sound: false });
  }

  /**
   * GET /v1/stacks (docs/api/notifications.md#n44): groups of two or more banners on screen, newest first, gathered at each app's stacking
   * level (its own setting, else the global one).
   */
  stacks(app?: string): Stack[] {
    const stacks = new Map<string, { level: StackingLevel; members: HistoryRecord[] }>();
    for (const key of this.banners.list(app === undefined ? {} : { app })) {
      const record = this.history.get(key.app, key.id);
      const level = this.stackingOf(key.app);
      const stack = record && stackKey(record, level, this.designs.manifest(record.app));
      if (!record || !stack) continue;
      if (!stacks.has(stack)) stacks.set(stack, { level, members: [] });
      stacks.get(stack)!.members.push(record);
    }
    return [...stacks.values()]
      .filter(({ members }) => members.length >= 2)
      .map(({ level, members }) => ({ level, members: members.sort((a, b) => (a.deliveredAt < b.deliveredAt ? 1 : -1)) }))
      .sort((a, b) => (a.members[0]!.deliveredAt < b.members[0]!.deliveredAt ? 1 : -1))
      .map(({ level, members }) =>
        this.withExpanded({
          level,
          app: members[0]!.app,
          ...(level === 'bySender' && members[0]!.notification.group ? { group: members[0]!.notification.group } : {}),
          count: members.length,
          expanded: false,
          members: members.map((record) => ({
            app: record.app,
            id: record.id,
            title: record.notification.title ?? '',
            ...(record.notification.group ? { group: record.notification.group } : {}),
            deliveredAt: record.deliveredAt,
          })),
        }),
      );
  }

  private withExpanded(stack: Stack): Stack {
    return { ...stack, expanded: this.expandedStacks.has(stackIdentity(stack)) };
  }

  /**
   * POST /v1/stacks/expand (docs/api/notifications.md#n45): opens or closes one app's stack — the stack of `group` (the
   * notifications' group, else the app id). 404 when there is no stack of two or more banners there.
   */
  expandStack(app: string, group: string, expanded: boolean): void {
    const stack = this.stacks(app).find((found) => (found.group ?? found.app) === group);
    if (!stack) throw errors.noStack(app, group);
    // Stacks that have come apart since are forgotten, so one that forms again starts closed.
    const live = new Set(this.stacks().map(stackIdentity));
    for (const known of this.expandedStacks) if (!live.has(known)) this.expandedStacks.delete(known);
    const key = stackIdentity(stack);
    if (expanded) this.expandedStacks.add(key);
    else this.expandedStacks.delete(key);
  }

  /** An app's stacking level: its own setting, else the global one. */
  private stackingOf(app: string): StackingLevel {
    return (this.apps.get(app)?.settings?.stacking as StackingLevel | null | undefined) ?? this.settings.stacking;
  }

  /** POST /v1/history/reshow (docs/api/history.md#h14): a new banner with sound and a fresh delivery time. */
  async reshow(app: string, id: string): Promise<string> {
    const current = await this.requireRecord(app, id);
    const { dismissedAt: _d, actionUsed: _a, snoozedUntil: _s, held: _h, ...rest } = current;
    const record: HistoryRecord = { ...rest, deliveredAt: this.timestamp() };
    this.timers.cancel('snooze', keyOf(app, id));
    const saved = this.history.put(record);
    this.putOnScreen(record, { sound: true });
    await saved;
    return id;
  }

  /** DELETE /v1/history/item (docs/api/history.md#h15): a banner still on screen is closed. */
  async deleteRecord(app: string, id: string): Promise<void> {
    await this.requireRecord(app, id);
    this.takeOffScreen(app, id);
    await this.history.remove(app, id);
  }

  /** DELETE /v1/history (docs/api/history.md#h16): one app's History or everyone's; their banners are closed too. */
  async clearHistory(app?: string): Promise<void> {
    await (app === undefined ? this.history.ready : this.history.load(app));
    for (const banner of this.banners.list(app === undefined ? {} : { app })) this.takeOffScreen(banner.app, banner.id);
    await this.history.clear(app);
  }

  /**
   * DELETE /v1/apps/{id} (docs/api/apps.md#a7): its banners close and its timers and speech stop, then everything the
   * service keeps of the app goes. 404 for an app it knows nothing of.
   */
  async removeApp(app: string): Promise<void> {
    await this.history.ready;
    const records = this.history.query({ app, limit: Number.MAX_SAFE_INTEGER });
    if (!appIsKnown(this, app, records)) throw errors.unknownApp(app);
    for (const [key, pending] of this.inFlight) if (key.startsWith(`${app}\u0000`)) pending.dismissedAt ??= this.timestamp();
    for (const record of records) this.takeOffScreen(app, record.id);
    const { store, apps, history, replies, designs, assets, approvals, cards } = this;
    await deleteAppFiles({ store, apps, history, replies, designs, assets, approvals, cards }, app, records);
  }

  /**
   * GET /v1/voice: the engine setting, the engine this computer has, the audio player it plays with, its voices,
   * any installation under way.
   */
  async voiceStatus() {
    return { engine: this.settings.voiceEngine, ...(await this.voiceSetup.status()), audioPlayer: this.voice.playerName() };
  }

  /** GET /v1/history and GET /v1/history/search (docs/api/history.md#get-v1-history, #get-v1-history-search). */
  async records(query: { app?: string; limit: number; q?: string }): Promise<HistoryRecord[]> {
    await (query.app === undefined ? this.history.ready : this.history.load(query.app));
    return this.history.query({
      app: query.app,
      limit: query.limit,
      words: query.q === undefined ? [] : queryWords(query.q),
      appName: (app) => this.appName(app),
    });
  }

  /** GET /v1/replies (docs/api/replies.md#r6): oldest first; `consume` removes exactly what is returned. */
  async readReplies(filter: { app?: string; since?: number; consume: boolean }): Promise<ReplyRecord[]> {
    const replies = this.replies.list(filter);
    if (filter.consume) await this.replies.consume(replies);
    return replies;
  }

  /**
   * GET /v1/replies/wait (docs/api/replies.md#r7): a reply already there is returned at once (with `app`, one already in History
   * too); otherwise the request is answered the moment the reply is stored, or after `timeout` seconds. With `ended`,
   * also the moment the banner ends without a reply (a button pressed, closed, dismissed...), or at once when it
   * already has (with `app`). Nothing polls: the reply queue and the end of a banner call back.
   */
  async waitForReply(
    request: { id: string; app?: string; timeoutSeconds: number; consume: boolean; ended?: boolean },
    cancelled: AbortSignal,
  ): Promise<WaitResult> {
    const answer = await new Promise<ReplyRecord | WaitEnded | null>((resolve) => {
      let done = false;
      const finish = (found: ReplyRecord | WaitEnded | null): void => {
        if (done) return;
        done = true;
        stopWaiting();
        this.endListeners.delete(onEnd);
        clearTimeout(timer);
        cancelled.removeEventListener('abort', onAbort);
        resolve(found);
      };
      const onAbort = (): void => finish(null);
      const isThis = (record: HistoryRecord): boolean =>
        record.id === request.id && (request.app === undefined || record.app === request.app);
      // A reply ends the banner too, but after it is stored: the reply is answered first.
      const onEnd = (record: HistoryRecord): void => {
        if (isThis(record)) finish(this.endingOf(record));
      };
      // Waiting starts before looking for a reply that is already there, so none can slip in between.
      const stopWaiting = this.replies.wait(request.id, request.app, finish);
      if (request.ended) this.endListeners.add(onEnd);
      const timer = setTimeout(() => finish(null), request.timeoutSeconds * 1000);
      cancelled.addEventListener('abort', onAbort);
      const queued = this.replies.find(request.id, request.app);
      if (queued) return finish(queued);
      void this.replyInHistory(request.id, request.app).then((found) => {
        if (found) return finish(found);
        const record = request.ended && request.app !== undefined ? this.history.get(request.app, request.id) : undefined;
        if (record?.dismissedAt) finish(this.endingOf(record));
      });
    });
    if (!answer) return { replied: false, timedOut: true, waitedSeconds: request.timeoutSeconds };
    if ('ended' in answer) return answer;
    if (request.consume) await this.replies.take(answer.app, answer.notificationId);
    return { replied: true, reply: answer };
  }

  private endingOf(record: HistoryRecord): WaitEnded {
    return endingOf(record, this.designs.template(record.app, record.notification.template));
  }

  async close(): Promise<void> {
    await this.relay.close();
    this.timers.clear();
    this.quietHours.close();
    await this.history.close();
    await this.store.settle();
    await this.presenter.stop();
  }

  // The parts the person's side (person.ts) and the timers use.

  /**
   * Shows a record's banner (in place when it is up), times it, and arms its follow-up — unless the banner comes
   * back after a restart: a follow-up timer is lost when the daemon stops (docs/api/notifications.md#n27).
   */
  putOnScreen(record: HistoryRecord, options: { sound: boolean; afterRestart?: boolean }): void {
    this.drawing.draw(record, options);
    if (!options.afterRestart) this.followUps.arm(record);
  }

  /** Takes a banner off the screen (and stops its speech) without recording anything. */
  takeOffScreen(app: string, id: string): void {
    this.banners.close(app, id);
    this.cards.forget(app, id);
    this.voice.stop(app, id);
    this.followUps.cancel(app, id);
    this.timers.cancel('snooze', keyOf(app, id));
  }

  /**
   * Closes a banner and records, once, when and how it ended (docs/api/notifications.md#n35: a later dismissal changes
   * nothing); a pending snooze goes with it.
   */
  async endBanner(app: string, id: string, actionUsed: string): Promise<void> {
    this.takeOffScreen(app, id);
    let ended = false;
    await this.history.update(app, id, (record) => {
      if (record.dismissedAt) return record;
      ended = true;
      const { snoozedUntil: _, ...rest } = record;
      return { ...rest, dismissedAt: this.timestamp(), actionUsed };
    });
    const record = ended ? this.history.get(app, id) : undefined;
    if (record) for (const listener of this.endListeners) listener(record);
  }

  /** Records why an action could not do its job (History `actionNote`). */
  async note(app: string, id: string, actionNote: string): Promise<void> {
    await this.history.update(app, id, (record) => ({ ...record, actionNote }));
  }

  /** Shows the person what went wrong (docs/api/notifications.md#n48). */
  showProblem(app: string, id: string, problem: string): void {
    this.drawing.showProblem(app, id, problem);
  }

  timestamp(): string {
    return new Date().toISOString();
  }

  private async requireRecord(app: string, id: string): Promise<HistoryRecord> {
    await this.history.load(app);
    const record = this.history.get(app, id);
    if (!record) throw errors.notificationNotFound();
    return record;
  }

  private async replyInHistory(id: string, app: string | undefined): Promise<ReplyRecord | undefined> {
    if (app === undefined) return undefined;
    await this.history.load(app);
    const record = this.history.get(app, id);
    if (!record?.reply || !record.repliedAt) return undefined;
    const title = record.notification.title;
    return { notificationId: id, app, ...(title ? { title } : {}), text: record.reply, repliedAt: record.repliedAt };
  }

  private async snoozeOver(app: string, id: string, options: { sound: boolean; afterRestart?: boolean }): Promise<void> {
    this.timers.cancel('snooze', keyOf(app, id));
    const current = this.history.get(app, id);
    if (!current?.snoozedUntil || current.dismissedAt) return;
    const { snoozedUntil: _, held: _h, ...record } = current;
    const saved = this.history.update(app, id, () => record);
    this.putOnScreen(record, options);
    await saved;
  }

  /**
   * After a restart (docs/api/notifications.md#n36): a snooze still running is armed again and one that ended meanwhile
   * shows its banner now; a banner with a lifetime that was simply on screen has expired; the newest banners that
   * stay until dismissed come back, quietly.
   */
  private resumeAfterStart(): void {
    const open = this.history.query({ limit: Number.MAX_SAFE_INTEGER, filter: (record) => !record.dismissedAt });
    const waiting: HistoryRecord[] = [];
    for (const record of open) {
      if (record.snoozedUntil) {
        const until = Date.parse(record.snoozedUntil);
        this.timers.at(
          'snooze',
          keyOf(record.app, record.id),
          until,
          () => void this.snoozeOver(record.app, record.id, { sound: true, afterRestart: true }),
        );
      } else if (record.held) {
        // Held by quiet hours: it stays in History only.
      } else if (lifetimeOf(record, this.apps.get(record.app)) !== null) {
        void this.endBanner(record.app, record.id, 'timeout');
      } else if (waiting.length < BANNERS_RESTORED_AT_START) {
        waiting.push(record);
      }
    }
    for (const record of waiting.reverse()) this.putOnScreen(record, { sound: false, afterRestart: true });
  }
}
