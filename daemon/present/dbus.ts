import dbus from 'dbus-next';
import { busDaemon, setUpOnBus } from '../integrations/dbus-bus.js';
import { bodyMarkup, escapeMarkup, parseMarkdown, plainText } from '../../protocol/markdown.js';
import { log } from '../log.js';
import { type DunstProcess, dunstMaxIconSize, dunstMenu, dunstProcess, missingMenuAdvice } from './dunst-config.js';
import { LIVE_BANNER_WIDTH } from '../../templates-renderer/schema.js';
import { openOnDesktop } from './opener.js';
import {
  type Banner,
  type BannerKey,
  type OpenTarget,
  type Presenter,
  type PresenterListener,
  type Question,
  SNOOZE_CHOICES,
  answerLabels,
} from './presenter.js';
import { askForReply, type ReplyRequest } from './prompt.js';
import { playSound } from './sound.js';
import { recordKey } from '../../protocol/record-key.js';

const SERVICE = 'org.freedesktop.Notifications';
const PATH = '/org/freedesktop/Notifications';
/** How long finding the notification server may take before the daemon carries on without it. */
const CONNECT_TIMEOUT_MS = 3_000;

/** freedesktop urgency: 0 low, 1 normal, 2 critical (critical banners stay until the person closes them). */
const URGENCY = { low: 0, normal: 1, high: 1, urgent: 2 } as const;
/** NotificationClosed reasons of the freedesktop spec. */
const CLOSED = { EXPIRED: 1, DISMISSED: 2, BY_CALL: 3 } as const;
const DEFAULT_ACTION = 'default';
/** The click action's label: servers that list actions (dunst's menu) show it beside the buttons. */
const DEFAULT_ACTION_LABEL = 'Open link';
const INLINE_REPLY_ACTION = 'inline-reply';
const SNOOZE_ACTION = 'snooze:';

type Shown = { kind: 'banner'; key: BannerKey; banner: Banner } | { kind: 'question'; question: Question };

const keyOf = (key: BannerKey): string => recordKey(key.app, key.id);
/**
 * Servers known to draw the `value` hint as a progress bar (it is no capability a server advertises): dunst, KDE
 * Plasma and notify-osd, by the name `GetServerInformation` gives. Elsewhere the progress is a line of text.
 */
const DRAWS_VALUE_HINT = new Set(['dunst', 'Plasma', 'notify-osd']);
/**
 * Servers that show a banner's picture as an icon (GNOME Shell, KDE Plasma, notify-osd, xfce4-notifyd, mako, SwayNC,
 * by their `GetServerInformation` names), where a card 380 points wide is an unreadable thumbnail: they get the
 * notification's own picture. dunst shrinks pictures to its `max_icon_size`, which is read from its dunstrc.
 */
const SHRINKS_PICTURES = new Set(['gnome-shell', 'Plasma', 'notify-osd', 'Xfce Notify Daemon', 'mako', 'SwayNotificationCenter']);

/**
 * Banners in the desktop's own notification server, over D-Bus (org.freedesktop.Notifications): `Notify` with
 * actions for the buttons and a `default` action for a click, `replaces_id` for a reused id, `CloseNotification`
 * on dismiss. `ActionInvoked` and `NotificationClosed` become the core's events; dbus-next drops signals that do
 * not come from the bus name owning the service, so no other program can press a button. The server times
 * banners out itself (and may pause while one is hovered). What the server can do (`GetCapabilities`) decides how
 * buttons and replies are offered.
 */
export class DBusPresenter implements Presenter {
  readonly name = 'dbus';
  readonly handlesExpiry = true;
  /** Freedesktop servers show every banner sent (GNOME gathers them only in its message list). */
  readonly drawsStacks = false;
  /** Whether the server shows a picture as wide as a card (docs/templates.md#what-each-server-shows-of-a-card). */
  showsCards = true;
  private listener: PresenterListener = () => undefined;
  /** Banner -> the server's id for it, as a chain so a replace waits for the id of the show before it. */
  private readonly ids = new Map<string, Promise<number | null>>();
  private readonly shown = new Map<number, Shown>();
  /** Ids the person acted on: the close that follows an action is part of that action, not a dismissal. */
  private readonly acted = new Set<number>();
  /**
   * Question -> the server's id for its banner, once `Notify` answered. Kept from the moment it is asked, so a
   * question withdrawn (or asked again) before the server answered still closes (or replaces) its banner.
   */
  private readonly questions = new Map<string, { pending: Promise<number | null>; id?: number }>();

  private constructor(
    private readonly bus: dbus.MessageBus,
    private readonly busDaemon: dbus.ClientInterface,
    private readonly server: dbus.ClientInterface,
    private capabilities: Set<string>,
    private serverName: string,
  ) {}

  /** Connects to the session bus's notification server; null (with the reason) when there is none. */
  static async connect(busAddress?: string): Promise<{ presenter: DBusPresenter } | { reason: string }> {
    const connected = await setUpOnBus(
      'session',
      async (bus) => {
        bus.on('error', (error: Error) => log.warn(`session bus: ${error.message}`));
        const daemon = await busDaemon(bus);
        const owned = (await daemon.NameHasOwner(SERVICE)) as boolean;
        const activatable = ((await daemon.ListActivatableNames()) as string[]).includes(SERVICE);
        const display = Boolean(process.env.DISPLAY || process.env.WAYLAND_DISPLAY);
        if (!owned && !(activatable && display)) throw new Error('no notification server on the session bus');
        const server = (await bus.getProxyObject(SERVICE, PATH)).getInterface(SERVICE);
        const { capabilities, serverName } = await readServer(server);
        return new DBusPresenter(bus, daemon, server, capabilities, serverName);
      },
      { timeoutMs: CONNECT_TIMEOUT_MS, address: busAddress },
    );
    return 'failed' in connected ? { reason: connected.failed } : { presenter: connected.value };
  }

  async start(listener: PresenterListener): Promise<void> {
    this.listener = listener;
    this.server.on('ActionInvoked', (id: number, action: string) => this.invoked(id, action));
    this.server.on('NotificationClosed', (id: number, reason: number) => this.closed(id, reason));
    // Subscribed whatever the server can do now: another server may take over (below).
    this.server.on('NotificationReplied', (id: number, text: string) => this.repliedInline(id, text));
    this.busDaemon.on('NameOwnerChanged', (name: string, _old: string, owner: string) => {
      if (name === SERVICE && owner) void this.serverRestarted();
    });
    this.readDunstSettings();
  }

  /**
   * The notification server was restarted, or another one took its place: what it can do is read again (a dunst
   * restarted with `markup = full` shows links from now on), the banners of the one before are gone with it, and
   * its menu program is looked for again.
   */
  private async serverRestarted(): Promise<void> {
    this.ids.clear();
    this.shown.clear();
    this.acted.clear();
    const { capabilities, serverName } = await readServer(this.server).catch((error: Error) => {
      log.warn(`the new notification server did not say what it can do: ${error.message}`);
      return { capabilities: this.capabilities, serverName: this.serverName };
    });
    [this.capabilities, this.serverName] = [capabilities, serverName];
    log.info(`notification server ${serverName || '(unnamed)'} took over: ${[...capabilities].sort().join(', ')}`);
    this.readDunstSettings();
  }

  /**
   * What the server's settings decide: whether it shows a card whole (dunst: `max_icon_size` 0, or at least a card's
   * width), and, on dunst, whether its menu program is there (below).
   */
  private readDunstSettings(): void {
    // dunst's own is known once its dunstrc is read (at once): until then, no card.
    this.showsCards = !SHRINKS_PICTURES.has(this.serverName) && this.serverName !== 'dunst';
    if (this.serverName !== 'dunst') return;
    void this.dunst().then((dunst) => {
      const size = dunstMaxIconSize(dunst);
      this.showsCards = size === 0 || size >= LIVE_BANNER_WIDTH;
      return this.checkMenuProgram(dunst);
    });
  }

  /** dunst's command line and environment (its settings and PATH), else this process's own as the best guess. */
  private async dunst(): Promise<DunstProcess> {
    const pid = (await this.busDaemon.GetConnectionUnixProcessID(SERVICE).catch(() => null)) as number | null;
    return (pid && dunstProcess(pid)) || { argv: [], env: process.env };
  }

  /**
   * dunst draws no buttons: they are pressed in the menu it opens with its `dmenu` program. When that program is
   * missing, the person is told once (the log and a banner) how to mend it (docs/desktop.md).
   */
  private async checkMenuProgram(dunst: DunstProcess): Promise<void> {
    const menu = dunstMenu(dunst);
    if (menu.installed) return;
    const advice = missingMenuAdvice(menu);
    log.warn(advice.log);
    const hints = { urgency: new dbus.Variant('y', URGENCY.normal), 'desktop-entry': new dbus.Variant('s', 'notifier') };
    await this.call(this.server.Notify('Notifier', 0, 'dialog-warning', advice.title, this.text(advice.body), [], hints, 0), 'show');
  }

  show(banner: Banner): Promise<void> {
    return this.notify(banner);
  }

  replace(banner: Banner): Promise<void> {
    return this.notify(banner);
  }

  async close(key: BannerKey): Promise<void> {
    const id = await this.ids.get(keyOf(key));
    this.ids.delete(keyOf(key));
    if (id) await this.closeId(id);
  }

  open(target: OpenTarget): Promise<void> {
    return openOnDesktop(target);
  }

  /** A question asked again (new codes) replaces its banner in place. */
  ask(question: Question): void {
    const labels = answerLabels(question);
    const actions = ['allow', labels.allow, 'deny', labels.deny];
    const hints = {
      urgency: new dbus.Variant('y', URGENCY.urgent),
      category: new dbus.Variant('s', 'presence'),
      'desktop-entry': new dbus.Variant('s', 'notifier'), // Notifier's own: never kept again as another program's
    };
    const body = question.detail ? this.text(question.detail) : '';
    const entry: { pending: Promise<number | null>; id?: number } = { pending: Promise.resolve(null) };
    const previous = this.questions.get(question.id)?.pending ?? Promise.resolve(null);
    entry.pending = previous.then(async (replacesId) => {
      const shownBefore = replacesId !== null && this.shown.has(replacesId) ? replacesId : 0;
      const notify = this.server.Notify('Notifier', shownBefore, 'dialog-question', question.text, body, actions, hints, 0);
      const id = await this.call(notify, 'ask');
      if (typeof id !== 'number') return null;
      if (shownBefore && shownBefore !== id) this.shown.delete(shownBefore);
      this.shown.set(id, { kind: 'question', question });
      entry.id = id;
      return id;
    });
    this.questions.set(question.id, entry);
  }

  withdraw(questionId: string): void {
    const entry = this.questions.get(questionId);
    if (!entry) return;
    this.questions.delete(questionId);
    void entry.pending.then((id) => {
      if (id !== null && this.shown.get(id)?.kind === 'question') return this.closeId(id);
    });
  }

  async stop(): Promise<void> {
    this.bus.disconnect();
  }

  /**
   * Shows a banner, in place of the one with the same app and id when it is up, or of the one it `replaces`
   * (`replaces_id`).
   */
  private notify(banner: Banner): Promise<void> {
    const key = keyOf(banner.key);
    const replaced = banner.replaces && keyOf(banner.replaces) !== key ? keyOf(banner.replaces) : undefined;
    const previous = this.ids.get(replaced ?? key) ?? Promise.resolve(null);
    if (replaced) this.ids.delete(replaced);
    const next = previous.then(async (replacesId) => {
      const { summary, body, actions, hints } = this.draw(banner);
      const timeout = banner.expireSeconds === null ? 0 : Math.round(banner.expireSeconds * 1000);
      const id = (await this.call(
        this.server.Notify(banner.appName, replacesId ?? 0, banner.appIcon ?? '', summary, body, actions, hints, timeout),
        'show',
      )) as number | undefined;
      if (typeof id !== 'number') return null;
      if (replacesId && replacesId !== id) this.shown.delete(replacesId);
      this.shown.set(id, { kind: 'banner', key: banner.key, banner });
      return id;
    });
    this.ids.set(key, next);
    if (banner.sound) playSound(banner.sound);
    return next.then(() => undefined);
  }

  /**
   * The banner in the server's terms: its text, its actions (or, without them, the buttons listed), its hints. The
   * body is the subtitle, the body's Markdown as body markup (or plain text), the progress where the server draws
   * no `value`, how many more a collapsed stack holds, and what went wrong (docs/desktop.md).
   */
  private draw(banner: Banner): { summary: string; body: string; actions: string[]; hints: Record<string, dbus.Variant> } {
    const drawsValue = DRAWS_VALUE_HINT.has(this.serverName);
    const lines = [
      banner.subtitle && this.text(banner.subtitle),
      banner.body && this.markdown(banner.body),
      banner.progress !== undefined && !drawsValue ? this.text(`${banner.progress} %`) : undefined,
      banner.more ? this.text(`+${banner.more} more`) : undefined,
      banner.problem && this.text(`⚠ ${banner.problem}`),
    ].filter((line): line is string => Boolean(line));
    const actions: string[] = this.offersClick(banner) ? [DEFAULT_ACTION, DEFAULT_ACTION_LABEL] : [];
    const hints: Record<string, dbus.Variant> = {
      urgency: new dbus.Variant('y', URGENCY[banner.priority]),
      'suppress-sound': new dbus.Variant('b', true), // the daemon plays the banner's sound itself
      'desktop-entry': new dbus.Variant('s', 'notifier'),
    };
    const picture = (this.showsCards && banner.card) || banner.imagePath;
    if (picture) hints['image-path'] = new dbus.Variant('s', picture);
    if (banner.group) hints['x-notifier-group'] = new dbus.Variant('s', banner.group);
    if (banner.progress !== undefined) hints.value = new dbus.Variant('i', banner.progress);
    for (const action of banner.actions) {
      if (action.kind === 'reply' && this.capabilities.has(INLINE_REPLY_ACTION)) {
        actions.push(INLINE_REPLY_ACTION, action.label);
        if (action.placeholder) hints['x-kde-reply-placeholder-text'] = new dbus.Variant('s', action.placeholder);
      } else {
        actions.push(action.actionId, action.label);
      }
    }
    if (banner.snooze) for (const choice of SNOOZE_CHOICES) actions.push(`${SNOOZE_ACTION}${choice.minutes}`, choice.label);
    if (!this.capabilities.has('actions') && banner.actions.length > 0) {
      lines.push(banner.actions.map((action) => `[${this.text(action.label)}]`).join(' '));
    }
    return { summary: banner.title, body: lines.join('\n'), actions: this.capabilities.has('actions') ? actions : [], hints };
  }

  /**
   * A click only opens the notification's link (person.ts): without one there is no click action, so a server marks
   * nothing as clickable (dunst's "(A)") and lists no empty "Open". dunst has no click action of its own either
   * (its menu lists it as one more line; a click closes the banner): there a button that opens the same link is
   * enough.
   */
  private offersClick(banner: Banner): boolean {
    if (!banner.url) return false;
    return !(this.serverName === 'dunst' && banner.actions.some((action) => action.url === banner.url));
  }

  /**
   * Text for the body, always escaped so a notification cannot inject markup: some servers parse markup without
   * advertising `body-markup` (dunst 1.9 with no `markup` setting), so the capability cannot be trusted to say no.
   */
  private text(value: string): string {
    return escapeMarkup(value);
  }

  /**
   * The body's Markdown (docs/api/notifications.md#n46): links, bold and italic as body markup when the server reads
   * it (links only with `body-hyperlinks`), else plain text with each link's label.
   */
  private markdown(value: string): string {
    const runs = parseMarkdown(value);
    if (!this.capabilities.has('body-markup')) return escapeMarkup(plainText(runs));
    return bodyMarkup(runs, { links: this.capabilities.has('body-hyperlinks') });
  }

  private invoked(id: number, action: string): void {
    const shown = this.shown.get(id);
    if (!shown) return;
    if (shown.kind === 'question') {
      if (action === 'allow' || action === 'deny') {
        this.acted.add(id);
        this.listener({ type: 'answered', questionId: shown.question.id, allow: action === 'allow' });
      }
      return;
    }
    const { key, banner } = shown;
    this.acted.add(id);
    if (action === DEFAULT_ACTION) return this.listener({ type: 'clicked', key });
    if (action.startsWith(SNOOZE_ACTION))
      return this.listener({ type: 'snoozed', key, minutes: Number(action.slice(SNOOZE_ACTION.length)) });
    const pressed = banner.actions.find((candidate) => candidate.actionId === action);
    if (pressed?.kind === 'reply') {
      void askForReply(replyRequest(banner, pressed.placeholder))
        .then((text) => text !== null && this.listener({ type: 'replied', key, actionId: pressed.actionId, text }))
        .catch((error: Error) => {
          log.warn(`a reply could not be asked for: ${error.message}`);
          this.listener({ type: 'failed', key, label: pressed.label, reason: error.message });
        });
      return;
    }
    this.listener({ type: 'button', key, actionId: action });
  }

  private repliedInline(id: number, text: string): void {
    if (!this.capabilities.has(INLINE_REPLY_ACTION)) return;
    const shown = this.shown.get(id);
    const reply = shown?.kind === 'banner' ? shown.banner.actions.find((action) => action.kind === 'reply') : undefined;
    if (shown?.kind === 'banner' && reply) {
      this.acted.add(id);
      this.listener({ type: 'replied', key: shown.key, actionId: reply.actionId, text });
    }
  }

  private closed(id: number, reason: number): void {
    const shown = this.shown.get(id);
    this.shown.delete(id);
    if (shown?.kind === 'question' && this.questions.get(shown.question.id)?.id === id) this.questions.delete(shown.question.id);
    if (this.acted.delete(id) || !shown || reason === CLOSED.BY_CALL) return;
    if (shown.kind === 'question') return; // closed without an answer: the question stays open (tray, channel)
    this.ids.delete(keyOf(shown.key));
    this.listener({ type: 'closed', key: shown.key, reason: reason === CLOSED.EXPIRED ? 'expired' : 'dismissed' });
  }

  private async closeId(id: number): Promise<void> {
    await this.call(this.server.CloseNotification(id), 'close');
  }

  /** A D-Bus call that failing never fails the core: the display is lost, not the notification. */
  private call(pending: Promise<unknown>, what: string): Promise<unknown> {
    return pending.catch((error: Error) => {
      log.warn(`notification server could not ${what}: ${error.message}`);
      return undefined;
    });
  }
}

/** What a notification server can do (`GetCapabilities`) and its name (`GetServerInformation`). */
async function readServer(server: dbus.ClientInterface): Promise<{ capabilities: Set<string>; serverName: string }> {
  const capabilities = new Set((await server.GetCapabilities()) as string[]);
  const [serverName] = (await server.GetServerInformation().catch(() => [''])) as string[];
  return { capabilities, serverName: serverName ?? '' };
}

/** What the reply window shows of a banner: who asks, and the notification's texts, its Markdown as plain text. */
function replyRequest(banner: Banner, placeholder: string | undefined): ReplyRequest {
  return {
    appName: banner.appName,
    ...(banner.relayed ? { relayed: true } : {}),
    title: banner.title,
    ...(banner.subtitle ? { subtitle: banner.subtitle } : {}),
    ...(banner.body ? { body: plainText(parseMarkdown(banner.body)) } : {}),
    ...(placeholder ? { placeholder } : {}),
  };
}
