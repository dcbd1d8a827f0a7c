#!/usr/bin/env node
// The tray companion: `node dist/tray/main.js --support-dir <folder>`, started by the daemon when there is a
// desktop session. Its menu shows what waits for the person's approval (Allow / Deny each), the last
// notifications, a quiet hour, the support folder and Quit. It talks to the daemon over the private channel
// only (docs/private-channel.md), never with the API token.

import { chmod } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import systray2, { type ClickEvent, type MenuItem } from 'systray2';
import { channelPath } from '../daemon/control/channel.js';
import type { Question } from '../daemon/present/presenter.js';
import { openOnDesktop } from '../daemon/present/opener.js';
import { TRAY_ICON_PNG_BASE64 } from './icon.js';

// systray2 is CommonJS with `exports.default`: imported from ESM, the class is one level down.
const SysTray = systray2.default;

/** systray2's `ready()` never resolves when its binary cannot start (no display): give up after this. */
const READY_TIMEOUT_MS = 5_000;
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
  recent: Array<{ app: string; title: string }>;
  quiet: boolean;
}

interface TrayActions {
  answer(question: Question, allow: boolean): void;
  toggleQuiet(): void;
  openFolder(): void;
  quit(): void;
}

/**
 * The tray's menu. systray2 numbers its items once, at start (items added later cannot be clicked), so the menu
 * has a fixed set of slots: questions (Allow and Deny each), recent notifications, then the fixed items. A
 * refresh retitles, shows or hides slots in place with `update-item`.
 */
class TrayMenu {
  readonly items: MenuItem[] = [];
  private readonly clicks: Array<(() => void) | null> = [];
  private readonly slots: Array<(state: State) => Partial<MenuItem> & { click?: () => void }> = [];

  constructor(private readonly actions: TrayActions) {
    for (let slot = 0; slot < QUESTION_SLOTS; slot++) {
      for (const allow of [true, false]) {
        this.add((state) => {
          const question = state.questions[slot];
          if (!question) return { hidden: true, title: '' };
          return {
            hidden: false,
            title: `${allow ? 'Allow' : 'Deny'}: ${question.text}`,
            tooltip: question.detail ?? '',
            click: () => actions.answer(question, allow),
          };
        });
      }
    }
    this.add((state) => ({ hidden: state.questions.length > 0, title: 'Nothing waits for your approval', enabled: false }));
    this.add(() => ({ ...SysTray.separator }));
    for (let slot = 0; slot < RECENT_SHOWN; slot++) {
      this.add((state) => {
        const recent = state.recent[slot];
        return recent ? { hidden: false, title: `${recent.app}: ${recent.title}`, enabled: false } : { hidden: true, title: '' };
      });
    }
    this.add((state) => ({ hidden: state.recent.length > 0, title: 'No notifications yet', enabled: false }));
    this.add(() => ({ ...SysTray.separator }));
    this.add((state) => ({
      title: 'Quiet for an hour',
      tooltip: 'No sounds and no speech for an hour',
      checked: state.quiet,
      click: actions.toggleQuiet,
    }));
    this.add(() => ({ title: 'Open the support folder', click: actions.openFolder }));
    this.add(() => ({ title: 'Quit Notifier', tooltip: 'Stops the Notifier service', click: actions.quit }));
  }

  /** Brings every slot up to date; returns the slots that changed (index and item), for `update-item`. */
  apply(state: State): Array<{ index: number; item: MenuItem }> {
    const changed: Array<{ index: number; item: MenuItem }> = [];
    this.slots.forEach((slot, index) => {
      const { click, ...look } = slot(state);
      this.clicks[index] = click ?? null;
      const item = this.items[index]!;
      const next = { tooltip: '', enabled: true, hidden: false, ...look };
      if ((Object.keys(next) as Array<keyof MenuItem>).some((key) => item[key] !== next[key])) {
        Object.assign(item, next);
        changed.push({ index, item });
      }
    });
    return changed;
  }

  click(index: number): void {
    this.clicks[index]?.();
  }

  private add(slot: (state: State) => Partial<MenuItem> & { click?: () => void }): void {
    this.slots.push(slot);
    this.items.push({ title: '', tooltip: '' });
    this.clicks.push(null);
  }
}

async function main(): Promise<void> {
  const index = process.argv.indexOf('--support-dir');
  const supportDir = index > 0 ? process.argv[index + 1] : undefined;
  if (!supportDir) throw new Error('usage: tray --support-dir <folder>');

  const state: State = { questions: [], recent: [], quiet: false };
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

  // systray2's binary ships without its run bit (dependencies.md, "Bug 1").
  const binary = path.join(
    systrayFolder(),
    'traybin',
    `tray_${process.platform === 'win32' ? 'windows_release.exe' : process.platform === 'darwin' ? 'darwin_release' : 'linux_release'}`,
  );
  await chmod(binary, 0o755).catch(() => undefined);

  const actions: TrayActions = {
    answer: (question: Question, allow: boolean) => void channel.request({ op: 'answer', id: question.id, allow }),
    toggleQuiet: () => {
      state.quiet = !state.quiet;
      void channel.request({ op: 'quiet', minutes: state.quiet ? QUIET_MINUTES : 0 }).then(() => refresh());
    },
    openFolder: () => void openOnDesktop({ url: `file://${path.resolve(supportDir)}` }).catch((error: Error) => say(error.message)),
    quit: () => void channel.request({ op: 'quit' }),
  };
  const menu = new TrayMenu(actions);
  menu.apply(state);
  const tray = new SysTray({
    menu: { icon: TRAY_ICON_PNG_BASE64, title: '', tooltip: 'Notifier', items: menu.items },
    debug: false,
    copyDir: false,
  });
  const ready = await Promise.race([
    tray.ready().then(() => true),
    new Promise<false>((resolve) => setTimeout(() => resolve(false), READY_TIMEOUT_MS).unref()),
  ]);
  if (!ready) {
    // Bug 2: without a display the binary dies and ready() never resolves; onExit/kill would throw.
    say('the tray did not start (no display, or no tray library); the daemon carries on without it');
    process.exit(0);
  }
  refresh = () => {
    for (const { index, item } of menu.apply(state)) void tray.sendAction({ type: 'update-item', item, seq_id: index });
  };
  refresh(); // questions or notifications that came while the tray started
  await tray.onClick((event: ClickEvent) => menu.click(event.seq_id));
  channel.onClose(() => {
    void tray.kill(false).finally(() => process.exit(0));
  });
  say('tray ready');
}

/** Where systray2 is installed (its binaries are in its `traybin` folder). */
function systrayFolder(): string {
  return path.dirname(new URL(import.meta.resolve('systray2')).pathname);
}

main().catch((error: Error) => {
  say(`the tray stopped: ${error.message}`);
  process.exit(1);
});
