#!/usr/bin/env node
// The tray companion: `node dist/tray/main.js --support-dir <folder>`, started by the daemon when there is a
// desktop session. Its menu shows what waits for the person's approval (Allow / Deny each), the last
// notifications, a quiet hour, the support folder and Quit. It talks to the daemon over the private channel
// only (docs/private-channel.md), never with the API token.

import { accessSync, constants } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { channelPath } from '../daemon/control/channel.js';
import type { Question } from '../daemon/present/presenter.js';
import { openOnDesktop } from '../daemon/present/opener.js';
import { TRAY_ICON_PNG_BASE64 } from './icon.js';
import { SEPARATOR_TITLE, startTrayBinary, type TrayItem } from './traybin.js';

/** The tray's name: its title in the panel (the StatusNotifierItem's `Title` on Linux) and its tooltip. */
const TRAY_NAME = 'Notifier';
const RECENT_SHOWN = 5;
const QUESTION_SLOTS = 3;
const QUIET_MINUTES = 60;

const say = (message: string): void => void process.stderr.write(`${message}\n`);

/** One connection to the daemon's private channel: requests answered in order, events passed on. */
class Channel {
  private readonly waiting: Array<(answer: any) => void> = [];
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
        else this.waiting.shift()?.(message);
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
      this.waiting.push(resolve);
      this.socket.write(`${JSON.stringify(message)}\n`);
    });
  }

  onClose(listener: () => void): void {
    this.socket.once('close', listener);
  }
}

interface State {
  questions: Question[];
  recent: Array<{ app: string; appName?: string; title: string }>;
  /** When the quiet hour started here ends (ISO 8601); null when none runs. */
  quietUntil: string | null;
}

interface TrayActions {
  answer(question: Question, allow: boolean): void;
  toggleQuiet(): void;
  /** Null when nothing on this computer opens a folder: the item is not shown. */
  openFolder: (() => void) | null;
  quit(): void;
}

type Slot = (state: State) => Partial<TrayItem> & { click?: () => void };

const quietRunning = (state: State): boolean => state.quietUntil !== null && Date.parse(state.quietUntil) > Date.now();
/** A time of day as the person's locale writes it (15:42, 3:42 PM). */
const clockTime = (iso: string): string => new Date(iso).toLocaleTimeString([], { hour: 'numeric', minute: '2-digit' });

/**
 * The tray's menu. The binary numbers its items once, at start (items added later cannot be clicked), so the menu
 * has a fixed set of slots: questions (Allow and Deny each), recent notifications, then the fixed items. A
 * refresh retitles, shows or hides slots in place.
 */
class TrayMenu {
  readonly items: TrayItem[] = [];
  private readonly clicks: Array<(() => void) | null> = [];
  private readonly slots: Slot[] = [];

  constructor(actions: TrayActions) {
    for (let slot = 0; slot < QUESTION_SLOTS; slot++) {
      for (const allow of [true, false]) {
        this.add((state) => {
          const question = state.questions[slot];
          if (!question) return { hidden: true, title: '' };
          return {
            title: `${allow ? 'Allow' : 'Deny'}: ${question.text}`,
            tooltip: question.detail ?? '',
            click: () => actions.answer(question, allow),
          };
        });
      }
    }
    this.add((state) => ({ hidden: state.questions.length > 0, title: 'Nothing waits for your approval', enabled: false }));
    this.add(() => ({ title: SEPARATOR_TITLE }));
    for (let slot = 0; slot < RECENT_SHOWN; slot++) {
      this.add((state) => {
        const recent = state.recent[slot];
        // The app's display name (from its registration or its design), as on its banners.
        return recent ? { title: `${recent.appName ?? recent.app}: ${recent.title}`, enabled: false } : { hidden: true, title: '' };
      });
    }
    this.add((state) => ({ hidden: state.recent.length > 0, title: 'No notifications yet', enabled: false }));
    this.add(() => ({ title: SEPARATOR_TITLE }));
    // The binary cannot make a check item (see docs/desktop.md#the-tray-traymaints): the label says the state.
    this.add((state) =>
      quietRunning(state)
        ? {
            title: `Quiet until ${clockTime(state.quietUntil!)} (click to end it)`,
            tooltip: 'Sounds and speech come back',
            click: actions.toggleQuiet,
          }
        : { title: 'Quiet for an hour', tooltip: 'No sounds and no speech for an hour', click: actions.toggleQuiet },
    );
    const openFolder = actions.openFolder;
    this.add(() =>
      openFolder ? { title: 'Open the support folder', click: openFolder } : { title: 'Open the support folder', hidden: true },
    );
    this.add(() => ({ title: 'Quit Notifier', tooltip: 'Stops the Notifier service', click: actions.quit }));
  }

  /** Brings every slot up to date; returns the slots that changed (index and item). */
  apply(state: State): Array<{ index: number; item: TrayItem }> {
    const changed: Array<{ index: number; item: TrayItem }> = [];
    this.slots.forEach((slot, index) => {
      const { click, ...look } = slot(state);
      this.clicks[index] = click ?? null;
      const item = this.items[index]!;
      const next: TrayItem = { tooltip: '', enabled: true, hidden: false, ...look, title: look.title ?? '' };
      if ((Object.keys(next) as Array<keyof TrayItem>).some((key) => item[key] !== next[key])) {
        Object.assign(item, next);
        changed.push({ index, item });
      }
    });
    return changed;
  }

  click(index: number): void {
    this.clicks[index]?.();
  }

  private add(slot: Slot): void {
    this.slots.push(slot);
    this.items.push({ title: '', tooltip: '', enabled: true, hidden: false });
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

  const state: State = { questions: [], recent: [], quietUntil: null };
  let refresh: () => void = () => undefined;
  const channel = await Channel.connect(channelPath(path.resolve(supportDir)), (event) => {
    if (event.event === 'questions') state.questions = event.questions;
    void (event.event === 'notification' ? loadRecent() : Promise.resolve()).then(() => refresh());
  });
  const loadRecent = async (): Promise<void> => {
    state.recent = ((await channel.request({ op: 'recent', limit: RECENT_SHOWN })).notifications ?? []) as State['recent'];
  };
  state.questions = (await channel.request({ op: 'watch' })).questions ?? [];
  await loadRecent();

  let quietEnds: NodeJS.Timeout | undefined;
  const actions: TrayActions = {
    answer: (question: Question, allow: boolean) => void channel.request({ op: 'answer', id: question.id, allow }),
    toggleQuiet: () =>
      void channel.request({ op: 'quiet', minutes: quietRunning(state) ? 0 : QUIET_MINUTES }).then((answer) => {
        state.quietUntil = answer.quietUntil ?? null;
        clearTimeout(quietEnds);
        // Back to "Quiet for an hour" when the hour is over.
        if (state.quietUntil) quietEnds = setTimeout(() => refresh(), Date.parse(state.quietUntil) - Date.now() + 1_000).unref();
        refresh();
      }),
    openFolder: folderOpener(path.resolve(supportDir)),
    quit: () => void channel.request({ op: 'quit' }),
  };
  const menu = new TrayMenu(actions);
  menu.apply(state);
  const tray = await startTrayBinary(
    TRAY_NAME,
    { icon: TRAY_ICON_PNG_BASE64, title: '', tooltip: TRAY_NAME, items: menu.items },
    (clicked) => menu.click(clicked),
  );
  if (!tray) {
    say('the tray did not start (no display, or no tray library); the daemon carries on without it');
    process.exit(0);
  }
  refresh = () => {
    for (const { index, item } of menu.apply(state)) tray.update(index, item);
  };
  refresh(); // questions or notifications that came while the tray started
  channel.onClose(() => void tray.stop().finally(() => process.exit(0)));
  say('tray ready');
}

main().catch((error: Error) => {
  say(`the tray stopped: ${error.message}`);
  process.exit(1);
});
