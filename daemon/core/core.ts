// The core assembled (docs/architecture.md, "The core"): every part of the headless service made once, from the
// support folder and the presenter, and wired to the others it needs. What comes out is a plain record of the
// parts; the HTTP routes, the private channel and the tray take the few they use. Nothing here decides anything:
// each decision lives in the part it belongs to.

import path from 'node:path';
import { log } from '../log.js';
import type { Presenter } from '../present/presenter.js';
import { Store } from '../store/store.js';
import { ActionRunner } from './actions/action-runner.js';
import { Actions } from './actions/actions.js';
import { FollowUps } from './actions/follow-ups.js';
import { AppAdmin } from './app-admin/app-admin.js';
import { AppRegistry } from './apps/app-registry.js';
import { Approvals } from './approvals/approvals.js';
import { History } from './history/history.js';
import { ReadState } from './history/read-state.js';
import { ImageCache } from './media/images.js';
import { Banners } from './notifications/banners.js';
import { DeliveryRules } from './notifications/delivery.js';
import { InFlight } from './notifications/in-flight.js';
import { Notifications } from './notifications/notifications.js';
import { Records } from './notifications/records.js';
import { ReplyQueue } from './notifications/replies.js';
import { ReplyWait } from './notifications/reply-wait.js';
import { Screen } from './notifications/screen.js';
import { withdraw, type WithdrawParts } from './scheduled/withdraw.js';
import { DesktopHistory, type DesktopHistoryParts } from './desktop/desktop-history.js';
import { NotificationMonitor } from '../integrations/notification-monitor.js';
import { Speech } from './notifications/speech.js';
import { Stacks } from './notifications/stacks.js';
import { PersonSide } from './person.js';
import { RelayService, type RelayHost, type RelayServiceOptions } from './relay/relay-service.js';
import { QuietHours } from './settings/quiet-hours.js';
import { Settings } from './settings/settings.js';
import { AppNames } from './templates/app-names.js';
import { Assets } from './templates/assets.js';
import { CardPictures } from './templates/cards.js';
import { Designs } from './templates/designs.js';
import { TemplateLibrary } from './templates/library.js';
import { TemplateBundles } from './templates/template-bundles.js';
import { ScheduledNotifications } from './scheduled/scheduled.js';
import { SendKeys } from './keys/send-keys.js';
import { Timers } from './timers.js';
import { VoiceSetup } from './voice/voice-setup.js';
import { findSpeechEngine, type SpeechEngine, Voice } from './voice/voice.js';

export interface CoreOptions {
  supportDir: string;
  presenter: Presenter;
  /** The speech engine; default: the one this computer has (espeak-ng on Linux, `say` on macOS and Windows). */
  speech?: SpeechEngine | null;
  /** Epoch milliseconds now, for quiet hours; tests move it. Default Date.now. */
  clock?: () => number;
  /** The relay's device-token store and keep-alive, for tests; default the Secret Service (else a file) and 300 s. */
  relay?: Pick<RelayServiceOptions, 'secrets' | 'pingSeconds'>;
  /** How other programs' notifications are watched; default the session bus's monitor (docs/desktop.md). */
  startMonitor?: DesktopHistoryParts['startMonitor'];
}

/** Whether the person's app could be opened, and why not. */
export type OpenResult = { ok: true } | { ok: false; error: string };

/** The service's parts: what the routes, the private channel and the tray use. */
export interface Core {
  readonly store: Store;
  readonly presenter: Presenter;
  readonly settings: Settings;
  readonly quietHours: QuietHours;
  readonly apps: AppRegistry;
  readonly names: AppNames;
  readonly designs: Designs;
  readonly library: TemplateLibrary;
  readonly bundles: TemplateBundles;
  readonly assets: Assets;
  readonly cards: CardPictures;
  readonly history: History;
  readonly readState: ReadState;
  readonly records: Records;
  readonly approvals: Approvals;
  readonly banners: Banners;
  readonly screen: Screen;
  readonly stacks: Stacks;
  readonly notifications: Notifications;
  readonly replies: ReplyQueue;
  readonly replyWait: ReplyWait;
  readonly speech: Speech;
  readonly voice: Voice;
  readonly voiceSetup: VoiceSetup;
  readonly appAdmin: AppAdmin;
  /** Keys that send notifications as one app and do nothing else. */
  readonly sendKeys: SendKeys;
  /** Notifications waiting for their time (ntfy's delayed publishes). */
  readonly scheduled: ScheduledNotifications;
  /** Other programs' notifications, kept in History when the person asks (docs/desktop.md). */
  readonly desktop: DesktopHistory;
  readonly relay: RelayService;
  /** What the person does on a banner, or in the person's app. */
  readonly person: PersonSide;
  /** Stops the timers and the relay, and waits for every write to reach the disk. */
  close(): Promise<void>;
}

/** Makes the core: reads what is on disk, wires the parts, and starts what runs by itself. */
export async function openCore(options: CoreOptions): Promise<Core> {
  const { supportDir, presenter } = options;
  const store = new Store(supportDir);
  const images = new ImageCache(path.join(supportDir, 'images'));
  const settings = await Settings.open(store);
  let speakSummary: (text: string) => void = () => undefined;
  const quietHours = await QuietHours.open(store, {
    ...(options.clock ? { clock: options.clock } : {}),
    onSummary: (text) => speakSummary(text),
  });
  const history = new History(store, images, settings);
  const designs = new Designs(store);
  const replies = new ReplyQueue(store);
  const [apps, approvals, sendKeys] = await Promise.all([
    AppRegistry.open(store),
    Approvals.open(store, presenter),
    SendKeys.open(store),
    history.open(),
    designs.load(),
    replies.load(),
  ]);
  const desktop = await DesktopHistory.open({
    store,
    history,
    images,
    startMonitor: options.startMonitor ?? ((watch) => NotificationMonitor.start(watch)),
  });
  const names = new AppNames(apps, designs, desktop);
  const timers = new Timers();
  const voice = new Voice(path.join(supportDir, 'audio'), options.speech === undefined ? findSpeechEngine() : options.speech);
  const voiceSetup = new VoiceSetup(
    () => voice.engine,
    (engine) => (voice.engine = engine),
  );
  const rules = new DeliveryRules(settings, quietHours, apps, voice);
  const banners = new Banners(presenter, timers);
  const cards = new CardPictures(path.join(supportDir, 'cards'), designs);
  const assets = new Assets(store);
  const library = new TemplateLibrary(designs, apps, approvals, assets);
  const bundles = new TemplateBundles(designs, library, assets);
  const inFlight = new InFlight();
  const actions = new Actions(presenter, apps, approvals, new ActionRunner(supportDir), (app) => names.name(app));
  // Follow-ups end banners and show problems on the screen, which arms and cancels them: they are made first, and
  // call the screen only later, when a timer fires.
  const followUps = new FollowUps(timers, history, designs, actions, {
    end: (app, id, actionUsed) => screen.end(app, id, actionUsed),
    showProblem: (app, id, problem) => screen.showProblem(app, id, problem),
  });
  const screen = new Screen({
    history,
    banners,
    cards,
    designs,
    apps,
    names,
    presenter,
    settings,
    voice,
    timers,
    rules,
    inFlight,
    followUps,
  });
  const speech = new Speech({
    voice,
    voiceSetup,
    settings,
    apps,
    history,
    rules,
    showProblem: (app, id, problem) => screen.showProblem(app, id, problem),
  });
  speakSummary = (text) => speech.summary(text);
  const notifications = new Notifications({
    apps,
    designs,
    names,
    history,
    images,
    voice,
    inFlight,
    rules,
    quietHours,
    screen,
    speech,
  });
  const readState = await ReadState.open(store, history);
  const scheduled = await ScheduledNotifications.open(store, (input) => notifications.notify(input), options.clock);
  const appAdmin = new AppAdmin({
    store,
    apps,
    history,
    replies,
    designs,
    assets,
    approvals,
    cards,
    names,
    inFlight,
    screen,
    sendKeys,
    scheduled,
  });

  settings.onChange('historyCapPerApp', () => history.trim());
  const records = new Records(history, names, banners, screen);
  const relay = await RelayService.open({
    store,
    supportDir,
    host: relayHost({
      notifications,
      scheduled,
      withdrawing: { screen, history, readState, scheduled, records },
      history,
      apps,
      appAdmin,
      names,
      presenter,
      quietHours,
      settings,
      replies,
      speech,
    }),
    ...options.relay,
  });
  const person = new PersonSide(
    { approvals, connectors: relay.connectors, banners, designs, history, followUps, presenter, replies, screen },
    actions,
  );
  // Acting on a banner (a click, a button, a reply) is reading it.
  person.onActed((app, id) => {
    const record = history.get(app, id);
    if (record) readState.mark(record, true).catch((error: Error) => log.error(`could not mark ${id} read: ${error.message}`));
  });
  await presenter.start((event) => person.handle(event));
  scheduled.start(); // what came due while the daemon was stopped shows now
  desktop.start(); // the person turned keeping other programs' notifications on
  // The apps' standing requests to run code wait for the person again (docs/app.md#approvals).
  for (const app of apps.list()) if (app.allowCommands === true) approvals.requestCommands(app.app, names.name(app.app));
  // History goes on loading in the background; requests wait only for the apps they touch.
  const loading = performance.now();
  void relay.resume();
  void history.ready.then(() => {
    screen.resumeAfterStart();
    history.warmSearch();
    const { apps: count, records } = history.size();
    log.info(`History loaded: ${records} records of ${count} apps in ${Math.round(performance.now() - loading)} ms`);
  });

  return {
    store,
    presenter,
    settings,
    quietHours,
    apps,
    names,
    designs,
    library,
    bundles,
    assets,
    cards,
    history,
    readState,
    records,
    approvals,
    banners,
    screen,
    stacks: new Stacks(banners, history, designs, rules),
    notifications,
    replies,
    replyWait: new ReplyWait(replies, history, designs, screen),
    speech,
    voice,
    voiceSetup,
    appAdmin,
    sendKeys,
    scheduled,
    desktop,
    relay,
    person,
    close: async () => {
      await relay.close();
      scheduled.close();
      desktop.close();
      await desktop.settled();
      timers.clear();
      quietHours.close();
      await history.close();
      await sendKeys.close();
      await store.settle();
      await presenter.stop();
    },
  };
}

/** What the relay needs of the core (daemon/core/relay/relay-service.ts). */
function relayHost(parts: {
  notifications: Notifications;
  scheduled: ScheduledNotifications;
  withdrawing: WithdrawParts;
  history: History;
  apps: AppRegistry;
  appAdmin: AppAdmin;
  names: AppNames;
  presenter: Presenter;
  quietHours: QuietHours;
  settings: Settings;
  replies: ReplyQueue;
  speech: Speech;
}): RelayHost {
  const { notifications, scheduled, withdrawing, history, apps, appAdmin, names, presenter, quietHours, settings, replies, speech } = parts;
  return {
    notify: (input) => notifications.notify(input),
    schedule: (input, at) => scheduled.schedule(input, at),
    withdraw: (app, id, how) => withdraw(withdrawing, app, id, how),
    record: (app, id) => history.get(app, id),
    registration: (app) => apps.get(app),
    register: (registration) => appAdmin.register(registration),
    appName: (app) => names.name(app),
    presenter,
    deviceStatus: () => {
      const quiet = quietHours.status();
      const until = quiet.active && quiet.until ? { quietUntil: quiet.until.replace(/\.\d+Z$/, 'Z') } : {};
      return { quietActive: quiet.active, muted: settings.muteAllSounds, ...until };
    },
    onDeviceStatusChange: (listener) => {
      quietHours.onChange(listener);
      settings.onChange('muteAllSounds', listener);
    },
    onReply: (listener) => replies.onAdd(listener),
    onSpoken: (listener) => speech.onSpoken(listener),
    onScheduledShown: (listener) => scheduled.onShown(listener),
  };
}
