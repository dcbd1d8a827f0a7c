import { log } from '../../log.js';
import type { Banner, BannerKey, Presenter } from '../../present/presenter.js';
import { keyParts, recordKey } from '../../../protocol/record-key.js';
import type { Timers } from '../timers.js';

/** A banner drawn late (its stack's next newest) whose time is nearly up still shows this long. */
const MIN_REMAINING_SECONDS = 0.5;

interface OnScreen {
  key: BannerKey;
  /** Stacking key: the notification's group, else the app id (docs/api/notifications.md#n40). */
  group: string;
  /** The stack it is drawn in on a display that draws no stacks of its own; null: drawn on its own. */
  stack: string | null;
  /** What the display draws for it (kept to draw it again when it becomes its stack's newest). */
  banner: Banner;
  /** When it was shown (performance.now()): a lifetime runs from then. */
  shownAt: number;
  expired: () => void;
}

/** What the display shows for one collapsed stack: its newest member, and how many more it stands for. */
interface Drawn {
  key: string;
  more: number;
  /** The banner drawn for it: a member shown again with other content (same app and id) is drawn again. */
  banner?: Banner;
}

/**
 * Which banners are on screen: the core's own record, whatever the display does. Presenter calls are made in
 * order and never make a request fail: a display that breaks costs the picture on screen, not the notification.
 * A banner's lifetime is timed here unless the display times it itself (and may pause it while hovered).
 *
 * On a display that draws no stacks (freedesktop servers), the passive banners of one stack (no buttons, so
 * nothing waits for the person's answer) are collapsed: only the newest is drawn, in place of the one before,
 * with how many more it stands for (docs/api/notifications.md#n47). All of them stay on screen for the API (GET
 * /v1/stacks, dismissAll) and in History. Banners with buttons are always drawn on their own.
 */
export class Banners {
  private readonly onScreen = new Map<string, OnScreen>();
  /** Collapsed stacks: their members (oldest first) and what is drawn for them. */
  private readonly stacks = new Map<string, { members: Set<string>; drawn?: Drawn; sound?: string | null }>();
  /** Stacks whose drawing is out of date, brought up to date once the current change is complete. */
  private readonly stale = new Set<string>();

  constructor(
    private readonly presenter: Presenter,
    private readonly timers: Timers,
  ) {}

  isOnScreen(app: string, id: string): boolean {
    return this.onScreen.has(recordKey(app, id));
  }

  /**
   * Shows a banner, or replaces it in place when the same app and id is already on screen. `stack` is its stack
   * at its app's stacking level (null at `never`). `expired` runs when its time is up (if the core times it).
   */
  show(banner: Banner, placement: { group: string; stack: string | null }, expired: () => void): void {
    const key = recordKey(banner.key.app, banner.key.id);
    const previous = this.onScreen.get(key);
    const collapses = !this.presenter.drawsStacks && placement.stack !== null && banner.actions.length === 0;
    const stack = collapses ? placement.stack : null;
    // Whether the display shows this very key now (on its own, or as its stack's drawn banner).
    let drawn = previous !== undefined && (previous.stack === null || this.stacks.get(previous.stack)?.drawn?.key === key);
    if (previous?.stack) {
      const staying = previous.stack === stack;
      if (drawn && !staying) {
        // It leaves a stack it was drawn for: its stack is drawn afresh without it, and it afresh where it goes.
        this.draw(this.presenter.close(banner.key), 'close');
        drawn = false;
      }
      this.leaveStack(key, previous.stack, !staying);
    }
    // Delete first, so a replaced banner counts as the newest of its stack.
    this.onScreen.delete(key);
    this.onScreen.set(key, { key: banner.key, group: placement.group, stack, banner, shownAt: performance.now(), expired });
    this.timers.cancel('expire', key);
    if (!this.presenter.handlesExpiry && banner.expireSeconds !== null) {
      this.timers.after('expire', key, banner.expireSeconds * 1000, expired);
    }
    if (stack === null) {
      this.draw(drawn ? this.presenter.replace(banner) : this.presenter.show(banner), 'show');
      return;
    }
    const members = this.stackOf(stack);
    if (drawn && previous?.stack === null) {
      // Drawn on its own until now: its slot becomes the stack's, unless the stack has one already.
      if (members.drawn) this.draw(this.presenter.close(banner.key), 'close');
      else members.drawn = { key, more: -1 };
    }
    members.members.add(key);
    members.sound = banner.sound;
    this.markStale(stack);
  }

  /** Takes a banner off the screen; false when it was not on screen. */
  close(app: string, id: string): boolean {
    const key = recordKey(app, id);
    this.timers.cancel('expire', key);
    const entry = this.onScreen.get(key);
    if (!entry) return false;
    this.onScreen.delete(key);
    if (entry.stack === null) this.draw(this.presenter.close({ app, id }), 'close');
    else this.leaveStack(key, entry.stack, false);
    return true;
  }

  /** The display already took it away (the person closed it, or it expired there): only forget it. */
  forget(app: string, id: string): void {
    const key = recordKey(app, id);
    this.timers.cancel('expire', key);
    const entry = this.onScreen.get(key);
    this.onScreen.delete(key);
    if (entry?.stack) this.leaveStack(key, entry.stack, true);
  }

  /**
   * The banners a collapsed stack's drawn banner stands for, besides itself (the person closing it closes them
   * all: docs/api/notifications.md#n47); empty for a banner drawn on its own.
   */
  collapsedWith(app: string, id: string): BannerKey[] {
    const key = recordKey(app, id);
    const stack = this.onScreen.get(key)?.stack;
    const members = stack ? this.stacks.get(stack) : undefined;
    if (!members || members.drawn?.key !== key) return [];
    return [...members.members].filter((member) => member !== key).map((member) => this.onScreen.get(member)!.key);
  }

  /** Banners on screen, optionally of one app and one stack. */
  list(filter: { app?: string; group?: string } = {}): BannerKey[] {
    return [...this.onScreen.values()]
      .filter((banner) => filter.app === undefined || banner.key.app === filter.app)
      .filter((banner) => filter.group === undefined || banner.group === filter.group)
      .map((banner) => banner.key);
  }

  private stackOf(stack: string): { members: Set<string>; drawn?: Drawn; sound?: string | null } {
    let found = this.stacks.get(stack);
    if (!found) this.stacks.set(stack, (found = { members: new Set() }));
    return found;
  }

  /**
   * A member leaves its collapsed stack. When it was the drawn one, its slot passes to the stack's next newest,
   * unless `slotGone` (the display took it away, or it is drawn elsewhere now): then the stack is drawn afresh.
   */
  private leaveStack(key: string, stack: string, slotGone: boolean): void {
    const members = this.stacks.get(stack);
    if (!members?.members.delete(key)) return;
    if (members.drawn?.key === key && slotGone) members.drawn = undefined;
    this.markStale(stack);
  }

  private markStale(stack: string): void {
    if (this.stale.size === 0) queueMicrotask(() => this.redrawStale());
    this.stale.add(stack);
  }

  /**
   * Brings the drawing of every changed stack up to date, once per change (a dismissAll of a stack of 100 draws
   * once): its newest member in the slot of what was drawn, with the count of the others, or nothing.
   */
  private redrawStale(): void {
    for (const stack of this.stale) {
      const members = this.stacks.get(stack);
      if (!members) continue;
      const { drawn } = members;
      let newest: string | undefined;
      for (const member of members.members) newest = member;
      if (newest === undefined) {
        if (drawn && !this.onScreen.has(drawn.key)) this.closeDrawn(drawn.key);
        this.stacks.delete(stack);
        continue;
      }
      const more = members.members.size - 1;
      const sound = members.sound ?? null;
      members.sound = null;
      const entry = this.onScreen.get(newest)!;
      if (drawn?.key === newest && drawn.more === more && drawn.banner === entry.banner && sound === null) continue;
      const banner: Banner = { ...entry.banner, sound, expireSeconds: this.remaining(entry) };
      if (more > 0) banner.more = more;
      else delete banner.more;
      if (drawn && drawn.key !== newest) banner.replaces = this.keyOfDrawn(drawn.key);
      this.draw(drawn ? this.presenter.replace(banner) : this.presenter.show(banner), 'show');
      members.drawn = { key: newest, more, banner: entry.banner };
      this.timeHidden(members.members, newest);
    }
    this.stale.clear();
  }

  /** The app and id of a drawn banner, also when it has just left the screen. */
  private keyOfDrawn(key: string): BannerKey {
    return this.onScreen.get(key)?.key ?? keyParts(key);
  }

  private closeDrawn(key: string): void {
    this.draw(this.presenter.close(this.keyOfDrawn(key)), 'close');
  }

  /** What is left of a banner's lifetime, for a display that times it (null: it stays). */
  private remaining(entry: OnScreen): number | null {
    const seconds = entry.banner.expireSeconds;
    if (seconds === null) return null;
    return Math.max(MIN_REMAINING_SECONDS, seconds - (performance.now() - entry.shownAt) / 1000);
  }

  /**
   * On a display that times banners itself, the members it does not draw are timed here; the drawn one is timed
   * there.
   */
  private timeHidden(members: Set<string>, drawn: string): void {
    if (!this.presenter.handlesExpiry) return;
    this.timers.cancel('expire', drawn);
    for (const member of members) {
      const entry = this.onScreen.get(member)!;
      const seconds = entry.banner.expireSeconds;
      if (member === drawn || seconds === null || this.timers.has('expire', member)) continue;
      this.timers.at('expire', member, Date.now() + seconds * 1000 - (performance.now() - entry.shownAt), entry.expired);
    }
  }

  private draw(call: Promise<void>, what: string): void {
    call.catch((error: Error) => log.warn(`presenter ${this.presenter.name} could not ${what} a banner: ${error.message}`));
  }
}
