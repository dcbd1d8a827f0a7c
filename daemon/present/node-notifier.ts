import { createHash, randomInt } from 'node:crypto';
import path from 'node:path';
import nodeNotifier from 'node-notifier';
import { log } from '../log.js';
import { openOnDesktop } from './opener.js';
import {
  type Banner,
  type BannerAction,
  type BannerKey,
  type OpenTarget,
  type Presenter,
  type PresenterEvent,
  type PresenterListener,
  type Question,
  SNOOZE_CHOICES,
  answerLabels,
} from './presenter.js';
import { parseMarkdown, plainText } from '../../protocol/markdown.js';
import { recordKey } from '../../protocol/record-key.js';

// Banners on macOS (Notification Center, through the terminal-notifier 1.7.2 that node-notifier 10.0.1 ships) and
// on Windows 8+ (toasts, through SnoreToast 0.7.0), over node-notifier's API. Every banner is one child process
// that stays alive until the person acts on it or it goes away; node-notifier calls our callback once, when that
// process ends, with what happened. That callback is what this presenter listens to: node-notifier's emitter
// events carry the same data, but on macOS they are only emitted for the most recent notification (a module-wide
// `activeId` in notifiers/notificationcenter.js), so they cannot tell several banners apart.
//
// What the callback receives (node-notifier 10.0.1, checked in its source and the vendored binaries):
// - macOS: `(error, response, metadata)` where metadata is terminal-notifier's `-json` output:
//   `{activationType: 'contentsClicked' | 'actionClicked' | 'replied' | 'closed' | 'timeout', activationValue?,
//   activationValueIndex?, deliveredAt, activationAt}`. `activationValue` is the pressed action's label (with its
//   index when there are several actions), the typed text for `replied`, the close button's label for `closed`.
//   `response` is that type lowercased, with anything ending in "clicked" turned into 'activate'.
// - Windows: metadata is SnoreToast's pipe message parsed: `{action: 'clicked' | 'buttonClicked' | 'timedout' |
//   'dismissed' | 'hidden' | 'textEntered', button?, notificationId, pipe, application, activationType}`, where
//   node-notifier copies the button's label into `activationType` for `buttonClicked`.
// - Elsewhere (notify-send on Linux): nothing but the exit of notify-send; no clicks, no buttons.

/** The options this presenter gives node-notifier (a union of what NotificationCenter, WindowsToaster and NotifySend read). */
export interface NodeNotifierOptions {
  title?: string;
  subtitle?: string;
  message?: string;
  /** macOS: a sound name; Windows: a `Notification.*` sound; false: silent. */
  sound?: string | false;
  /** macOS: a picture attached to the banner. */
  contentImage?: string;
  /** Windows and Linux: the banner's picture. */
  icon?: string;
  /** macOS: terminal-notifier's group; a new notification with the same group removes the old one. */
  group?: string;
  /** macOS: removes the notifications of this group. */
  remove?: string;
  /** Seconds (macOS, Linux); on macOS the string '0' waits for the person with no time limit (see MAC_NO_TIME_LIMIT). */
  timeout?: number | string | false;
  wait?: boolean;
  /** macOS: labels joined with commas; Windows: an array of labels. */
  actions?: string | string[];
  dropdownLabel?: string;
  closeLabel?: string;
  /** macOS: shows a reply field; the value is the field's placeholder. */
  reply?: string;
  /** Windows: the toast's id, to close it later. */
  id?: number;
  /** Windows: closes the toast with this id. */
  close?: number;
  appID?: string;
  /** Linux: notify-send's urgency. */
  urgency?: 'low' | 'normal' | 'critical';
  /** Linux: a notify-send hint, `TYPE:NAME:VALUE`. */
  hint?: string;
}

/**
 * Notifier's own banners name the desktop entry `notifier`, as the D-Bus presenter's do, so keeping other programs'
 * notifications (docs/desktop.md) never keeps them twice.
 */
const OWN_BANNER_HINT = 'string:desktop-entry:notifier';

export interface NodeNotifierMetadata {
  activationType?: string;
  activationValue?: string;
  activationValueIndex?: string;
  action?: string;
  button?: string;
  [key: string]: unknown;
}

export type NodeNotifierCallback = (error: unknown, response?: unknown, metadata?: NodeNotifierMetadata) => void;

/** What this presenter needs of a node-notifier notifier (NotificationCenter, WindowsToaster, or a test's fake). */
export interface NotifierLike {
  notify(options: NodeNotifierOptions, callback: NodeNotifierCallback): unknown;
}

export interface NodeNotifierPresenterOptions {
  /** The notifier to drive; by default node-notifier's NotificationCenter (macOS), WindowsToaster (Windows) or its own choice. */
  notifier?: NotifierLike;
  /** Whose options to build: 'darwin', 'win32', anything else for plain notify-send. Defaults to process.platform. */
  platform?: NodeJS.Platform;
  /** Windows: an AppUserModelID registered with a Start menu shortcut (`snoretoast -install`); without one toasts say "SnoreToast". */
  windowsAppId?: string;
  /** Windows: the first toast id (ids then count up). Defaults to a random number so a restarted daemon never reuses a live id. */
  firstToastId?: number;
}

/**
 * terminal-notifier waits for the person (and reports a click) only when it was given `-timeout`, actions or a
 * reply; its timer runs only for a timeout above 0. node-notifier turns `timeout: 0`, `timeout: false` with
 * `wait: true`, and no timeout at all into 5 or 10 seconds (lib/utils.js mapToMac), but keeps a string as it is,
 * so '0' is what reaches terminal-notifier as "wait, with no time limit".
 */
const MAC_NO_TIME_LIMIT = '0';
/** macOS's default alert sound (docs/desktop.md#sound); also what a sound terminal-notifier cannot play becomes. */
const MAC_DEFAULT_SOUND = 'Glass';
/** The system sounds node-notifier lists for Notification Center. */
const MAC_SOUNDS = [
  'Basso',
  'Blow',
  'Bottle',
  'Frog',
  'Funk',
  'Glass',
  'Hero',
  'Morse',
  'Ping',
  'Pop',
  'Purr',
  'Sosumi',
  'Submarine',
  'Tink',
];
const WINDOWS_DEFAULT_SOUND = 'Notification.Default';
/** A toast holds at most five buttons. */
const WINDOWS_MAX_BUTTONS = 5;
const QUESTION_TITLE = 'Notifier';
const ALLOW = 'Allow';
const DENY = 'Deny';

type Platform = 'mac' | 'windows' | 'plain';

/** What a button on screen stands for. */
type Target = { kind: 'action'; action: BannerAction } | { kind: 'snooze'; minutes: number } | { kind: 'answer'; allow: boolean };

/** One node-notifier call that is on screen: a banner (or the reply field for one of its actions), or a question. */
interface Delivery {
  slot: string;
  banner?: Banner;
  question?: Question;
  /** The button labels as sent, in order, and what each stands for. */
  labels: string[];
  targets: Target[];
  /** macOS: the reply action whose text field this notification shows. */
  replyAction?: BannerAction;
  /** Windows: the toast's id. */
  toastId?: number;
}

/** What the person did, read from node-notifier's callback. */
type Activation =
  | { kind: 'clicked' }
  | { kind: 'action'; label?: string; index?: number }
  | { kind: 'replied'; text: string }
  | { kind: 'closed'; reason: 'dismissed' | 'expired' };

const keyOf = (key: BannerKey): string => recordKey(key.app, key.id);
const hash = (text: string): string => createHash('sha256').update(text).digest('hex').slice(0, 32);

/** terminal-notifier's group for a banner: stable for its app and id, so a new one replaces the old (never the reserved 'ALL'). */
export const macGroupOf = (key: BannerKey): string => `notifier.${hash(keyOf(key))}`;
/** terminal-notifier's group for a question. */
export const macQuestionGroupOf = (questionId: string): string => `notifier.question.${hash(questionId)}`;

export class NodeNotifierPresenter implements Presenter {
  readonly name = 'node-notifier';
  /**
   * macOS: yes. terminal-notifier closes the notification itself after `timeout` seconds and reports
   * `activationType: 'timeout'` (it does not pause while hovered). Windows: no. node-notifier passes no duration to
   * SnoreToast (`timeout` is not among the flags lib/utils.js mapToWin8 keeps), so Windows keeps a toast up for its
   * own few seconds whatever expireSeconds says; the core times banners out and calls close(), and the toast's own
   * 'timedout' still arrives as closed/expired. Elsewhere: no, notify-send reports nothing.
   */
  readonly handlesExpiry: boolean;
  /** Notification Center and the Action Center gather an app's notifications themselves. */
  readonly drawsStacks = true;
  private readonly platform: Platform;
  private readonly notifier: NotifierLike;
  private readonly windowsAppId: string | undefined;
  private nextToastId: number;
  private listener: PresenterListener = () => undefined;
  /** What is on screen now, by 'b' + app and id or 'q' + question id. A callback from anything else is stale. */
  private readonly onScreen = new Map<string, Delivery>();

  constructor(options: NodeNotifierPresenterOptions = {}) {
    const platform = options.platform ?? process.platform;
    this.platform = platform === 'darwin' ? 'mac' : platform === 'win32' ? 'windows' : 'plain';
    this.notifier = options.notifier ?? defaultNotifier(this.platform);
    this.handlesExpiry = this.platform === 'mac';
    this.windowsAppId = options.windowsAppId;
    this.nextToastId = options.firstToastId ?? randomInt(1, 2 ** 30);
  }

  async start(listener: PresenterListener): Promise<void> {
    this.listener = listener;
  }

  async show(banner: Banner): Promise<void> {
    this.present(banner, 'show');
  }

  /**
   * Neither platform can update a notification in place. macOS: the new one has the same group, so terminal-notifier
   * removes the old one as it delivers it. Windows: the old toast is closed by its id and a new toast appears.
   */
  async replace(banner: Banner): Promise<void> {
    this.present(banner, 'replace');
  }

  async close(key: BannerKey): Promise<void> {
    const slot = bannerSlot(key);
    const delivery = this.onScreen.get(slot);
    this.onScreen.delete(slot);
    const what = `close banner [${key.app}] ${key.id}`;
    // macOS: always, also for a banner this run does not know (one left on screen by an earlier run of the daemon).
    if (this.platform === 'mac') this.send({ remove: macGroupOf(key) }, what);
    else if (this.platform === 'windows' && delivery?.toastId !== undefined) this.closeToast(delivery.toastId, what);
    // notify-send has no way to close a notification.
  }

  open(target: OpenTarget): Promise<void> {
    return openOnDesktop(target);
  }

  /** The question as a notification from Notifier itself with Allow and Deny; the choice comes back as `answered`. */
  ask(question: Question): void {
    const slot = questionSlot(question.id);
    const previous = this.onScreen.get(slot);
    if (this.platform === 'windows' && previous?.toastId !== undefined)
      this.closeToast(previous.toastId, `replace question ${question.id}`);
    const delivery: Delivery = {
      slot,
      question,
      labels: [answerLabels(question).allow, answerLabels(question).deny],
      targets: [
        { kind: 'answer', allow: true },
        { kind: 'answer', allow: false },
      ],
    };
    const message = question.detail ? `${question.text}\n${question.detail}` : question.text;
    let options: NodeNotifierOptions;
    if (this.platform === 'mac') {
      options = {
        title: QUESTION_TITLE,
        message,
        sound: MAC_DEFAULT_SOUND,
        group: macQuestionGroupOf(question.id),
        timeout: MAC_NO_TIME_LIMIT,
        wait: true,
        actions: delivery.labels.join(','),
        dropdownLabel: 'Answer',
        closeLabel: 'Close',
      };
    } else if (this.platform === 'windows') {
      delivery.toastId = this.takeToastId();
      options = {
        title: QUESTION_TITLE,
        message,
        sound: WINDOWS_DEFAULT_SOUND,
        id: delivery.toastId,
        wait: true,
        actions: [...delivery.labels],
        ...this.appId(),
      };
    } else {
      // notify-send shows no buttons: the question is answered in the tray or through the private channel.
      delivery.labels = [];
      delivery.targets = [];
      options = { title: QUESTION_TITLE, message, timeout: 0, urgency: 'critical' };
    }
    this.deliver(delivery, options, `ask question ${question.id}`);
  }

  withdraw(questionId: string): void {
    const slot = questionSlot(questionId);
    const delivery = this.onScreen.get(slot);
    this.onScreen.delete(slot);
    const what = `withdraw question ${questionId}`;
    if (this.platform === 'mac') this.send({ remove: macQuestionGroupOf(questionId) }, what);
    else if (this.platform === 'windows' && delivery?.toastId !== undefined) this.closeToast(delivery.toastId, what);
  }

  /** Forgets what is on screen; whatever the notification processes report later is ignored. */
  async stop(): Promise<void> {
    this.onScreen.clear();
    this.listener = () => undefined;
  }

  // Drawing.

  private present(banner: Banner, verb: 'show' | 'replace'): void {
    const slot = bannerSlot(banner.key);
    const previous = this.onScreen.get(slot);
    const what = `${verb} banner [${banner.key.app}] ${banner.key.id}`;
    if (this.platform === 'windows' && previous?.toastId !== undefined) this.closeToast(previous.toastId, what);
    const delivery: Delivery = { slot, banner, labels: [], targets: [] };
    const options =
      this.platform === 'mac'
        ? this.macBanner(banner, delivery)
        : this.platform === 'windows'
          ? this.windowsBanner(banner, delivery)
          : plainBanner(banner);
    this.deliver(delivery, options, what);
  }

  private macBanner(banner: Banner, delivery: Delivery): NodeNotifierOptions {
    const replies = banner.actions.filter((action) => action.kind === 'reply');
    // terminal-notifier shows a reply field only on a notification without actions. A lone reply action gets the
    // field directly; next to other buttons it is a button that brings up the field (see promptForReply).
    const direct = replies.length === 1 && banner.actions.length === 1 && !banner.snooze ? replies[0] : undefined;
    if (direct) delivery.replyAction = direct;
    // terminal-notifier splits its actions at ',': a comma in a label becomes a look-alike (U+201A).
    else setButtons(delivery, banner, banner.actions, Infinity, (label) => label.replace(/,/g, '\u201a'));
    const { labels } = delivery;
    return {
      title: banner.title || banner.appName,
      ...(banner.subtitle ? { subtitle: banner.subtitle } : {}),
      message: bodyText(banner) || ' ',
      sound: macSound(banner.sound),
      ...(pictureOf(banner) ? { contentImage: pictureOf(banner) } : {}),
      group: macGroupOf(banner.key),
      timeout: banner.expireSeconds === null ? MAC_NO_TIME_LIMIT : Math.max(1, Math.round(banner.expireSeconds)),
      wait: true,
      // One comma-separated string: node-notifier would quote each element of an array ("A","B"), which
      // terminal-notifier's comma split would then show with its quotes.
      ...(labels.length > 0 ? { actions: labels.join(',') } : {}),
      // Several actions become a menu. terminal-notifier 1.7.2 crashes on a menu without a close button (node-notifier #227).
      ...(labels.length > 1 ? { dropdownLabel: 'Actions', closeLabel: 'Close' } : {}),
      ...(direct ? { reply: direct.placeholder ?? direct.label } : {}),
    };
  }

  private windowsBanner(banner: Banner, delivery: Delivery): NodeNotifierOptions {
    // No reply on Windows: SnoreToast's text box (-tb) is only for toasts without buttons, and node-notifier does
    // not hand its text back reliably, so reply actions are left out (a click on the toast still reports `clicked`).
    const buttons = banner.actions.filter((action) => action.kind !== 'reply');
    // SnoreToast splits buttons at ';' and node-notifier its answer at '=': those become ',' and '-' (plain ASCII,
    // which comes back unchanged; see throughToasterPipe).
    setButtons(delivery, banner, buttons, WINDOWS_MAX_BUTTONS, (label) => label.replace(/;/g, ',').replace(/=/g, '-'));
    delivery.toastId = this.takeToastId();
    const { labels } = delivery;
    return {
      title: banner.title || banner.appName,
      // A toast has a title and a body: the subtitle becomes the body's first line.
      message: [banner.subtitle, bodyText(banner)].filter(Boolean).join('\n') || ' ',
      sound: banner.sound === null ? false : banner.sound.startsWith('Notification.') ? banner.sound : WINDOWS_DEFAULT_SOUND,
      ...(pictureOf(banner) ? { icon: pictureOf(banner) } : {}),
      id: delivery.toastId,
      wait: true,
      ...(labels.length > 0 ? { actions: [...labels] } : {}),
      ...this.appId(),
    };
  }

  /** macOS: the person pressed a reply button next to others; a notification with the reply field takes the text. */
  private promptForReply(banner: Banner, action: BannerAction): void {
    const delivery: Delivery = { slot: bannerSlot(banner.key), banner, labels: [], targets: [], replyAction: action };
    const options: NodeNotifierOptions = {
      title: banner.title || banner.appName,
      subtitle: action.label,
      message: bodyText(banner) || ' ',
      sound: false,
      group: macGroupOf(banner.key),
      timeout: MAC_NO_TIME_LIMIT,
      wait: true,
      reply: action.placeholder ?? action.label,
    };
    this.deliver(delivery, options, `ask for a reply to [${banner.key.app}] ${banner.key.id}`);
  }

  // What comes back.

  private deliver(delivery: Delivery, options: NodeNotifierOptions, what: string): void {
    this.onScreen.set(delivery.slot, delivery);
    this.send(options, what, (response, metadata) => this.settled(delivery, response, metadata));
  }

  /** The notification's process has ended: what the person did, if it is still the one on screen. */
  private settled(delivery: Delivery, response: unknown, metadata: NodeNotifierMetadata | undefined): void {
    if (this.onScreen.get(delivery.slot) !== delivery) return; // replaced, closed or withdrawn since
    this.onScreen.delete(delivery.slot);
    const activation = readActivation(response, metadata);
    if (!activation) return;
    if (delivery.question) {
      const target = activation.kind === 'action' ? targetOf(delivery, activation) : undefined;
      if (target?.kind === 'answer') this.emit({ type: 'answered', questionId: delivery.question.id, allow: target.allow });
      return; // closed, clicked or timed out without an answer: the question stays open (tray, private channel)
    }
    const banner = delivery.banner!;
    const key = banner.key;
    switch (activation.kind) {
      case 'clicked':
        return this.emit({ type: 'clicked', key });
      case 'closed':
        return this.emit({ type: 'closed', key, reason: activation.reason });
      case 'replied':
        if (delivery.replyAction) this.emit({ type: 'replied', key, actionId: delivery.replyAction.actionId, text: activation.text });
        return;
      case 'action': {
        const target = targetOf(delivery, activation);
        // A label this banner did not send is the notification's own button (macOS "Show"): the person opened it.
        if (!target) return this.emit({ type: 'clicked', key });
        if (target.kind === 'snooze') return this.emit({ type: 'snoozed', key, minutes: target.minutes });
        if (target.kind !== 'action') return;
        if (target.action.kind === 'reply' && this.platform === 'mac') return this.promptForReply(banner, target.action);
        return this.emit({ type: 'button', key, actionId: target.action.actionId });
      }
    }
  }

  private emit(event: PresenterEvent): void {
    try {
      this.listener(event);
    } catch (error) {
      log.warn(`node-notifier presenter: handling ${event.type} failed: ${describeError(error)}`);
    }
  }

  // node-notifier calls.

  /** One node-notifier call; its failure is logged, never thrown (the display is lost, not the notification). */
  private send(
    options: NodeNotifierOptions,
    what: string,
    onEnd?: (response: unknown, metadata: NodeNotifierMetadata | undefined) => void,
  ): void {
    const ended = (error: unknown, response?: unknown, metadata?: NodeNotifierMetadata): void => {
      if (error) log.warn(`node-notifier could not ${what}: ${describeError(error)}`);
      try {
        onEnd?.(response, metadata);
      } catch (failure) {
        log.warn(`node-notifier presenter: ${what}: ${describeError(failure)}`);
      }
    };
    try {
      this.notifier.notify(this.platform === 'plain' ? { ...options, hint: OWN_BANNER_HINT } : options, ended);
    } catch (error) {
      ended(error);
    }
  }

  private closeToast(toastId: number, what: string): void {
    this.send({ close: toastId, ...this.appId() }, what);
  }

  private takeToastId(): number {
    return this.nextToastId++;
  }

  private appId(): { appID?: string } {
    return this.windowsAppId ? { appID: this.windowsAppId } : {};
  }
}

function defaultNotifier(platform: Platform): NotifierLike {
  // The typed notify() of node-notifier takes each notifier's own option type; the runtime objects take ours.
  if (platform === 'mac') return new nodeNotifier.NotificationCenter() as unknown as NotifierLike;
  if (platform === 'windows') return new nodeNotifier.WindowsToaster() as unknown as NotifierLike;
  return nodeNotifier as unknown as NotifierLike;
}

/** The body as these banners show it: text, its Markdown without its marks (docs/api/notifications.md#n46). */
const bodyText = (banner: Banner): string | undefined => banner.body && plainText(parseMarkdown(banner.body));

/** The banner's picture: its card where one was drawn (Notification Center and toasts show it as drawn), else its own. */
const pictureOf = (banner: Banner): string | undefined => banner.card ?? banner.imagePath;

/** notify-send (and node-notifier's other fallbacks): text, picture, lifetime, urgency; no buttons, no events. */
function plainBanner(banner: Banner): NodeNotifierOptions {
  return {
    title: banner.title || banner.appName,
    message: [banner.subtitle, bodyText(banner)].filter(Boolean).join('\n') || ' ',
    ...(pictureOf(banner) ? { icon: pictureOf(banner) } : {}),
    // Seconds; 0 keeps it until it is dismissed.
    timeout: banner.expireSeconds === null ? 0 : Math.max(1, Math.round(banner.expireSeconds)),
    urgency: banner.priority === 'urgent' ? 'critical' : banner.priority === 'low' ? 'low' : 'normal',
  };
}

/** The banner's buttons: the given actions, then the snooze choices, at most `max`, labels made safe for the platform. */
function setButtons(delivery: Delivery, banner: Banner, actions: BannerAction[], max: number, safe: (label: string) => string): void {
  const targets: Target[] = [
    ...actions.map((action): Target => ({ kind: 'action', action })),
    ...(banner.snooze ? SNOOZE_CHOICES.map((choice): Target => ({ kind: 'snooze', minutes: choice.minutes })) : []),
  ];
  if (targets.length > max) log.info(`banner [${banner.key.app}] ${banner.key.id}: only ${max} of its ${targets.length} buttons fit`);
  delivery.targets = targets.slice(0, max);
  delivery.labels = delivery.targets.map((target) => safe(labelOf(target)));
}

function labelOf(target: Target): string {
  if (target.kind === 'action') return target.action.label;
  if (target.kind === 'snooze') return SNOOZE_CHOICES.find((choice) => choice.minutes === target.minutes)!.label;
  return target.allow ? ALLOW : DENY;
}

/** Which button was pressed: by its index when terminal-notifier gives one (several actions), else by its label. */
function targetOf(delivery: Delivery, activation: { label?: string; index?: number }): Target | undefined {
  const { index, label } = activation;
  if (index !== undefined && delivery.targets[index] && (label === undefined || delivery.labels[index] === label))
    return delivery.targets[index];
  if (label === undefined) return undefined;
  let found = delivery.labels.indexOf(label);
  if (found < 0) found = delivery.labels.map(throughToasterPipe).indexOf(label.replace(/\u0000+$/, ''));
  return found >= 0 ? delivery.targets[found] : undefined;
}

/**
 * A label as node-notifier hands it back from SnoreToast: SnoreToast writes UTF-16, node-notifier reads the pipe's
 * bytes as UTF-8 text and writes that into a buffer it then reads as UTF-16 (lib/utils.js createNamedPipe). ASCII
 * survives; anything else comes back garbled, but always the same way, so the garbled form still finds the button.
 */
function throughToasterPipe(label: string): string {
  return Buffer.from(Buffer.from(label, 'utf16le').toString('utf8'), 'utf8').toString('utf16le');
}

/**
 * Reads node-notifier's callback. Windows metadata has `action` (SnoreToast's word) and puts a pressed button's
 * label in `activationType`, so `action` is read first; macOS metadata has `activationType` (terminal-notifier's).
 */
function readActivation(response: unknown, metadata: NodeNotifierMetadata | undefined): Activation | null {
  const meta = metadata && typeof metadata === 'object' ? metadata : {};
  const text = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);
  let type = text(meta.action) ?? text(meta.activationType);
  if (type === undefined && typeof response === 'string') {
    // terminal-notifier printed something node-notifier could not parse (two JSON objects when its timeout and
    // its close detection race): node-notifier hands over the raw output, lowercased.
    type = /"activationtype"\s*:\s*"(\w+)"/.exec(response)?.[1] ?? response;
  }
  switch (type?.toLowerCase()) {
    case 'contentsclicked': // macOS
    case 'clicked': // Windows
    case 'activate': // node-notifier's response word, when there is no metadata
      return { kind: 'clicked' };
    case 'actionclicked': {
      const index = text(meta.activationValueIndex);
      return {
        kind: 'action',
        label: text(meta.activationValue),
        ...(index !== undefined && /^\d+$/.test(index) ? { index: Number(index) } : {}),
      };
    }
    case 'buttonclicked':
      return { kind: 'action', label: text(meta.button) };
    case 'replied':
      return { kind: 'replied', text: text(meta.activationValue) ?? '' };
    case 'timeout': // macOS
    case 'timedout': // Windows
      return { kind: 'closed', reason: 'expired' };
    case 'closed': // macOS: gone from Notification Center (its close button, cleared)
    case 'dismissed': // Windows: the person closed it
    case 'hidden': // Windows: hidden by a program (not this one: a toast it closes is no longer on screen here)
      return { kind: 'closed', reason: 'dismissed' };
    default:
      return null; // 'none', 'textEntered', an empty result (notify-send), an error
  }
}

/** A sound name terminal-notifier can play: a system sound's name, or the default for `default` and for files. */
function macSound(sound: string | null): string | false {
  if (sound === null) return false;
  const known = MAC_SOUNDS.find((name) => name.toLowerCase() === sound.toLowerCase());
  if (known) return known;
  // terminal-notifier takes names only (a sound in ~/Library/Sounds, /Library/Sounds or /System/Library/Sounds).
  if (sound === 'default' || sound.startsWith('Notification.') || path.isAbsolute(sound) || /[\\/]/.test(sound)) return MAC_DEFAULT_SOUND;
  return sound;
}

function bannerSlot(key: BannerKey): string {
  return `b\u0000${keyOf(key)}`;
}

function questionSlot(questionId: string): string {
  return `q\u0000${questionId}`;
}

function describeError(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.trim().split('\n')[0] || 'unknown error';
}
