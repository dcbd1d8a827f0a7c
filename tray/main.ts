#!/usr/bin/env node
// The tray companion: `node dist/tray/main.js --support-dir <folder>`, started by the daemon when there is a
// desktop session. Its menu shows what waits for the person's approval (Allow / Deny each), connectors asking
// through the cloud relay (Approve / Deny each, with the code for the relay's page), the last notifications, the
// person's app (Open Notifier with the unread count, History…, Compose…, Approvals…, Settings…, Designer…,
// Relay…), a quiet hour, the support folder and Quit. It talks to the daemon over the private channel only
// (docs/private-channel.md), never with the API token.

import { accessSync, constants } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { channelPath } from '../daemon/control/channel.js';
import { codeHint, type PendingConnector, questionFor, whereFrom } from '../daemon/present/connector-question.js';
import type { Question } from '../daemon/present/presenter.js';
import { openOnDesktop } from '../daemon/present/opener.js';
import type { StartTray, TrayEntry, TrayStatus } from './backend.js';
import { TRAY_ICON_PNG_BASE64 } from './icon.js';
import { startStatusNotifierItem } from './sni.js';
import { startTrayBinary } from './traybin.js';

/** The tray's name: its title in the panel (the StatusNotifierItem's `Title` on Linux) and its tooltip. */
const TRAY_NAME = 'Notifier';
/** On Linux the tray's own StatusNotifierItem; elsewhere systray2's binary (docs/desktop.md#two-ways-of-drawing-it). */
const startTray: StartTray = process.platform === 'linux' ? startStatusNotifierItem : startTrayBinary;
const RECENT_SHOWN = 5;
const QUESTION_SLOTS = 3;
/** A relay lets at most 3 connector requests wait for one computer (docs/relay-api.md). */
const CONNECTOR_SLOTS = 3;
/** The menu lines of one connector request (connectorEntries). */
const CONNECTOR_LINES = 4;
const QUIET_MINUTES = 60;
/** The menu items that open the person's app at one of its pages. */
const APP_ITEMS = [
  ['History…', 'history'],
  ['Compose…', 'compose'],
  ['Approvals…', 'approvals'],
  ['Settings…', 'settings'],
  ['Designer…', 'designer'],
  ['Relay…', 'relay'],
] as const;

const say = (message: string): void => void process.stderr.write(`${message}\n`);

/**
 * One connection to the daemon's private channel: events passed on, and each answer to the request of its `seq` (a
 * slow request, such as showing a notification again, is answered after quicker ones sent later).
 */
class Channel {
  private readonly waiting = new Map<number, (answer: any) => void>();
  private sent = 0;
  private buffered = '';

  private constructor(
    private readonly socket: net.Socket,
    onEvent: (event: any) => void,
  ) {
    socket.on('data', (chunk: Buffer) => {
      this.buffered += chunk.toString('utf8');
      for (let end = this.buffered.indexOf('\n'); end >= 0; end = this.buffered.indexOf('\n')) {
        const message = JSON.parse(this.buffered.slice(0, end));
        this.buffered = this.buffered.slice(end + 1);
        if (message.event) onEvent(message);
        else if (this.waiting.has(message.seq)) {
          this.waiting.get(message.seq)!(message);
          this.waiting.delete(message.seq);
        }
      }
    });
  }

  static connect(where: string, onEvent: (event: any) => void): Promise<Channel> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(where, () => resolve(new Channel(socket, onEvent)));
      socket.once('error', reject);
    });
  }

  request(message: Record<string, unknown>): Promise<any> {
    return new Promise((resolve) => {
      const seq = ++this.sent;
      this.waiting.set(seq, resolve);
      this.socket.write(`${JSON.stringify({ ...message, seq })}\n`);
    });
  }

  onClose(listener: () => void): void {
    this.socket.once('close', listener);
  }
}

interface State {
  questions: Question[];
  /** Connector requests waiting for the person, with the codes (docs/api/relay-connection.md#rl43: shown only here and on the banner). */
  connectors: PendingConnector[];
  recent: Array<{ app: string; appName?: string; id: string; title: string }>;
  /** What quiet hours silence now, as the daemon says (docs/private-channel.md): whether any runs, and until when. */
  quiet: { active: boolean; until?: string };
  /** Notifications the person has not read (docs/app.md#read-and-unread). */
  unread: number;
}

interface TrayActions {
  answer(question: Question, allow: boolean): void;
  decide(request: PendingConnector, approve: boolean): void;
  /** Shows a recent notification again (the private channel's `show`). */
  show(recent: State['recent'][number]): void;
  toggleQuiet(): void;
  /** Opens the person's app at a page (History when none). */
  openApp(page?: string): void;
  /** Null when nothing on this computer opens a folder: the item is not shown. */
  openFolder: (() => void) | null;
  quit(): void;
}

type SlotLook = Partial<TrayEntry> & { click?: () => void };
type Slot = (state: State) => SlotLook;

/** A time as the person's locale writes it (15:42, 3:42 PM), with the day when it is not today (Tue 15:42). */
function clockTime(iso: string): string {
  const when = new Date(iso);
  const today = when.toDateString() === new Date().toDateString();
  return when.toLocaleString([], { ...(today ? {} : { weekday: 'short' }), hour: 'numeric', minute: '2-digit' });
}

/** `3 unread notifications`; nothing when there are none. */
const unreadWords = (unread: number): string =>
  unread === 1 ? '1 unread notification' : unread > 1 ? `${unread} unread notifications` : '';

/** The tooltip's line under the name, and whether the icon asks for attention (something waits for an answer). */
function statusOf(state: State): TrayStatus {
  const waiting = state.questions.length;
  const asking = state.connectors.length;
  const lines = [
    waiting === 1 ? '1 question waits for your approval' : waiting > 1 ? `${waiting} questions wait for your approval` : '',
    asking === 1 ? '1 connector asks to send you notifications' : asking > 1 ? `${asking} connectors ask to send you notifications` : '',
    state.quiet.active && state.quiet.until ? `Quiet until ${clockTime(state.quiet.until)}` : '',
    unreadWords(state.unread),
  ];
  return { summary: lines.filter(Boolean).join('\n'), attention: waiting + asking > 0 };
}

/**
 * A connector request in the menu (docs/api/relay-connection.md#rl41): what it asks, with where the browser returns (or the
 * agent's own code), then its two answers, then the 6-digit code for the relay's page.
 */
function connectorEntries(request: PendingConnector | undefined, actions: TrayActions): SlotLook[] {
  if (!request) return Array.from({ length: CONNECTOR_LINES }, () => ({ visible: false }));
  const question = questionFor(request);
  const tooltip = `${question.text}\n${question.detail ?? ''}`;
  const asks = request.flow === 'device' ? `${request.clientName} (code ${request.userCode})` : `${request.clientName}`;
  return [
    { label: `${asks} asks to send you notifications`, tooltip: whereFrom(request), enabled: false },
    { label: `Approve ${request.clientName}`, tooltip, click: () => actions.decide(request, true) },
    { label: `Deny ${request.clientName}`, tooltip, click: () => actions.decide(request, false) },
    { label: codeHint(request), enabled: false },
  ];
}

const PLAIN: TrayEntry = { separator: false, label: '', tooltip: '', enabled: true, visible: true, checked: null };
const SEPARATOR: Partial<TrayEntry> = { separator: true };

/**
 * The tray's menu: a fixed set of slots, questions (Allow and Deny each), recent notifications, then the fixed
 * items. A refresh relabels, shows or hides slots in place (systray2's binary numbers its items once, at start, and
 * items added later cannot be clicked; the same slots serve the StatusNotifierItem).
 */
class TrayMenu {
  readonly entries: TrayEntry[] = [];
  private readonly clicks: Array<(() => void) | null> = [];
  private readonly slots: Slot[] = [];

  constructor(actions: TrayActions) {
    for (let slot = 0; slot < QUESTION_SLOTS; slot++) {
      for (const allow of [true, false]) {
        this.add((state) => {
          const question = state.questions[slot];
          if (!question) return { visible: false };
          return {
            label: `${allow ? 'Allow' : 'Deny'}: ${question.text}`,
            tooltip: question.detail ?? '',
            click: () => actions.answer(question, allow),
          };
        });
      }
    }
    for (let slot = 0; slot < CONNECTOR_SLOTS; slot++) {
      for (let line = 0; line < CONNECTOR_LINES; line++) this.add((state) => connectorEntries(state.connectors[slot], actions)[line]!);
    }
    this.add((state) => ({
      visible: state.questions.length === 0 && state.connectors.length === 0,
      label: 'Nothing waits for your approval',
      enabled: false,
    }));
    this.add(() => SEPARATOR);
    for (let slot = 0; slot < RECENT_SHOWN; slot++) {
      this.add((state) => {
        const recent = state.recent[slot];
        // The app's display name (from its registration or its design), as on its banners; a click shows it again.
        if (!recent) return { visible: false };
        return { label: `${recent.appName ?? recent.app}: ${recent.title}`, tooltip: 'Show it again', click: () => actions.show(recent) };
      });
    }
    this.add((state) => ({ visible: state.recent.length === 0, label: 'No notifications yet', enabled: false }));
    this.add(() => SEPARATOR);
    // The person's app (docs/app.md), signed in through the private channel.
    this.add((state) => ({
      label: state.unread > 0 ? `Open Notifier (${unreadWords(state.unread)})` : 'Open Notifier',
      click: () => actions.openApp(),
    }));
    for (const [label, page] of APP_ITEMS) this.add(() => ({ label, click: () => actions.openApp(page) }));
    this.add(() => SEPARATOR);
    // A check item: checked while quiet hours run (started here, through the API, or a scheduled window); a click
    // starts an hour, or ends what runs.
    this.add((state) =>
      state.quiet.active
        ? {
            label: state.quiet.until ? `Quiet until ${clockTime(state.quiet.until)}` : 'Quiet',
            tooltip: 'Click to end it: sounds and speech come back',
            checked: true,
            click: actions.toggleQuiet,
          }
        : { label: 'Quiet for an hour', tooltip: 'No sounds and no speech for an hour', checked: false, click: actions.toggleQuiet },
    );
    const openFolder = actions.openFolder;
    this.add(() => ({ label: 'Open the support folder', visible: openFolder !== null, ...(openFolder ? { click: openFolder } : {}) }));
    this.add(() => ({ label: 'Quit Notifier', tooltip: 'Stops the Notifier service', click: actions.quit }));
  }

  /** Brings every slot up to date; returns the slots that changed (index and entry). */
  apply(state: State): Array<{ index: number; entry: TrayEntry }> {
    const changed: Array<{ index: number; entry: TrayEntry }> = [];
    this.slots.forEach((slot, index) => {
      const { click, ...look } = slot(state);
      this.clicks[index] = click ?? null;
      const entry: TrayEntry = { ...PLAIN, ...look };
      const before = this.entries[index];
      if (!before || (Object.keys(entry) as Array<keyof TrayEntry>).some((key) => before[key] !== entry[key])) {
        this.entries[index] = entry;
        changed.push({ index, entry });
      }
    });
    return changed;
  }

  click(index: number): void {
    this.clicks[index]?.();
  }

  private add(slot: Slot): void {
    this.slots.push(slot);
    this.clicks.push(null);
  }
}

/** Whether `program` is an executable file in one of the PATH folders. */
function onPath(program: string): boolean {
  return (process.env.PATH ?? '')
    .split(path.delimiter)
    .filter(Boolean)
    .some((folder) => {
      try {
        accessSync(path.join(folder, program), constants.X_OK);
        return true;
      } catch {
        return false;
      }
    });
}

/** Opens the support folder in the file manager; null when nothing can (on Linux: no xdg-open on PATH). */
function folderOpener(supportDir: string): (() => void) | null {
  if (process.platform === 'linux' && !onPath('xdg-open')) return null;
  return () => void openOnDesktop({ url: pathToFileURL(supportDir).href }).catch((error: Error) => say(error.message));
}

async function main(): Promise<void> {
  const index = process.argv.indexOf('--support-dir');
  const supportDir = index > 0 ? process.argv[index + 1] : undefined;
  if (!supportDir) throw new Error('usage: tray --support-dir <folder>');

  const state: State = { questions: [], connectors: [], recent: [], quiet: { active: false }, unread: 0 };
  let refresh: () => void = () => undefined;
  const channel = await Channel.connect(channelPath(path.resolve(supportDir)), (event) => {
    if (event.event === 'questions') state.questions = event.questions;
    if (event.event === 'connectors') state.connectors = event.connectors;
    if (event.event === 'quiet') state.quiet = event.quiet;
    if (event.event === 'unread') state.unread = event.unread;
    // A notification came, or some left History (deleted, cleared): the list is read again.
    void (event.event === 'notification' || event.event === 'removed' ? loadRecent() : Promise.resolve()).then(() => refresh());
  });
  const loadRecent = async (): Promise<void> => {
    state.recent = ((await channel.request({ op: 'recent', limit: RECENT_SHOWN })).notifications ?? []) as State['recent'];
  };
  const watching = await channel.request({ op: 'watch' });
  state.questions = watching.questions ?? [];
  state.connectors = watching.connectors ?? [];
  state.quiet = watching.quiet ?? state.quiet;
  state.unread = watching.unread ?? 0;
  await loadRecent();

  const actions: TrayActions = {
    answer: (question: Question, allow: boolean) => void channel.request({ op: 'answer', id: question.id, allow }),
    decide: (request: PendingConnector, approve: boolean) => void channel.request({ op: 'decide', id: request.id, approve }),
    show: (recent) => void channel.request({ op: 'show', app: recent.app, id: recent.id }),
    toggleQuiet: () =>
      void channel.request({ op: 'quiet', minutes: state.quiet.active ? 0 : QUIET_MINUTES }).then((answer) => {
        state.quiet = answer.quiet ?? state.quiet;
        refresh();
      }),
    openApp: (page?: string) =>
      void channel.request({ op: 'open', ...(page ? { page } : {}) }).then((answer) => {
        if (!answer.ok) say(`Notifier could not open: ${answer.error}`);
      }),
    openFolder: folderOpener(path.resolve(supportDir)),
    quit: () => void channel.request({ op: 'quit' }),
  };
  const menu = new TrayMenu(actions);
  menu.apply(state);
  const tray = await startTray(
    { name: TRAY_NAME, icon: Buffer.from(TRAY_ICON_PNG_BASE64, 'base64') },
    { entries: menu.entries, status: statusOf(state) },
    (clicked) => menu.click(clicked),
  );
  if ('failed' in tray) {
    say(`the tray did not start (${tray.failed}); the daemon carries on without it`);
    process.exit(0);
  }
  refresh = () => {
    tray.update(menu.apply(state));
    tray.setStatus(statusOf(state));
  };
  refresh(); // questions or notifications that came while the tray started
  channel.onClose(() => void tray.stop().finally(() => process.exit(0)));
  say('tray ready');
}

main().catch((error: Error) => {
  say(`the tray stopped: ${error.message}`);
  process.exit(1);
});
