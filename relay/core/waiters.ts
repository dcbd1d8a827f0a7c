// Long-polls waiting in this process (docs/relay-api.md#ra47). A waiter is keyed by computer and note; a
// `receipt` message on the bus — from whichever process stored the receipt — wakes it, and the request then
// re-reads the note. Nothing polls: a waiter is a promise and one timer for its deadline.

import type { Bus } from '../store/backend.js';

export interface Waiting {
  /** True when woken by a change, false when the deadline came first. */
  readonly done: Promise<boolean>;
  cancel(): void;
}

export class Waiters {
  private readonly waiting = new Map<string, Set<(woken: boolean) => void>>();
  /** The node is closing: every long-poll answers now with what it has (the agent asks again, another node). */
  private closed = false;

  constructor(bus: Bus) {
    bus.subscribe((message) => {
      if (message.t === 'receipt') this.wake(`${message.d}/${message.r}`);
      if (message.t === 'gone') for (const key of [...this.waiting.keys()]) if (key.startsWith(`${message.d}/`)) this.wake(key);
    });
    // Messages may have been missed: let every waiter re-read.
    bus.onResync(() => [...this.waiting.keys()].forEach((key) => this.wake(key)));
  }

  /** Starts waiting for a change of note `rid` of computer `deviceId`, for at most `ms`. */
  wait(deviceId: string, rid: string, ms: number): Waiting {
    const key = `${deviceId}/${rid}`;
    let settle!: (woken: boolean) => void;
    const done = new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => settle(false), this.closed ? 0 : ms);
      settle = (woken) => {
        clearTimeout(timer);
        const set = this.waiting.get(key);
        set?.delete(settle);
        if (set?.size === 0) this.waiting.delete(key);
        resolve(woken);
      };
    });
    const set = this.waiting.get(key) ?? new Set();
    set.add(settle);
    this.waiting.set(key, set);
    return { done, cancel: () => settle(false) };
  }

  /** Ends every wait as if its deadline had come, and every later one at once. */
  close(): void {
    this.closed = true;
    for (const set of [...this.waiting.values()]) for (const settle of [...set]) settle(false);
  }

  private wake(key: string): void {
    for (const settle of [...(this.waiting.get(key) ?? [])]) settle(true);
  }
}
