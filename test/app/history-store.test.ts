// The History list's store (app/src/history/store.ts) against a model of the daemon, in-process: notifications
// arrive in bursts while windows are fetched, and the answers and the live events travel on separate
// connections, each with its own delay — an event may arrive after an answer that already counts its row, an
// answer after events it does not count. When it all settles, the count and every row in memory must be the
// daemon's. (The real daemon and browser: test/app/history.test.ts.)

import { expect, jest, test } from '@jest/globals';
import { randomGenerator } from '../../rigs/random.js';
import type { AppEvents, HistoryPage, HistoryRow } from '../../protocol/app-api.js';

/** What of the store this test drives (its module is browser code: its own types are the app's to check). */
interface Store {
  followEvents(): void;
  reload(): Promise<void>;
  showRange(start: number, end: number): void;
  rowAt(position: number): HistoryRow | undefined;
  total: { value: number };
}
type Listener = (data: never) => void;
const listeners = new Map<string, Listener>();
let openListener: ((again: boolean, seq: number) => void) | undefined;

/** The daemon as the store sees it: History newest first, numbered changes, a stream, and slow connections. */
class ModelDaemon {
  rows: HistoryRow[] = [];
  seq = 0;
  streaming = false;
  /** Timers not yet fired (events and answers on their way). */
  travelling = 0;
  private eventsFreeAt = 0;
  private readonly rand: () => number;
  private readonly slowness: number;

  constructor(seed: number) {
    this.rand = randomGenerator(seed); // a failing seed fails again
    this.slowness = 1 + (seed % 4) * 6; // up to ~150 ms for an event, ~300 ms for an answer
  }

  chance(p: number): boolean {
    return this.rand() < p;
  }

  delay(max: number): number {
    return Math.floor(this.rand() * max * this.slowness);
  }

  later(ms: number, what: () => void): void {
    this.travelling++;
    setTimeout(() => {
      this.travelling--;
      what();
    }, ms);
  }

  /** Events travel in order, each after a while; none while no stream is open. */
  private emit(deliver: () => void): void {
    if (!this.streaming) return;
    const at = Math.max(this.eventsFreeAt, Date.now() + this.delay(8));
    this.eventsFreeAt = at;
    this.later(at - Date.now(), deliver);
  }

  openStream(): void {
    this.streaming = true;
    const seq = this.seq;
    this.emit(() => openListener?.(false, seq));
  }

  add(id: string): void {
    const last = this.rows[0]?.deliveredAt ?? new Date(0).toISOString();
    const now = new Date().toISOString();
    const row = { app: 'bulk', id, title: id, deliveredAt: now > last ? now : last, read: false } as unknown as HistoryRow;
    this.rows.unshift(row);
    const data: AppEvents['row'] = { row, seq: ++this.seq };
    this.emit(() => listeners.get('row')?.(data as never));
  }

  remove(position: number): void {
    const [row] = this.rows.splice(position, 1);
    const data: AppEvents['removed'] = { app: row!.app, id: row!.id, seq: ++this.seq };
    this.emit(() => listeners.get('removed')?.(data as never));
  }

  /** The request reaches the daemon after a while; it answers from what it holds then, and the answer takes a while back. */
  answer(path: string): Promise<unknown> {
    return new Promise((resolve) =>
      this.later(this.delay(5), () => {
        const answer = path.includes('/history') ? this.page(path) : { apps: [{ app: 'bulk' }] };
        this.later(this.delay(15), () => resolve(answer));
      }),
    );
  }

  private page(path: string): HistoryPage {
    const query = new URL(path, 'http://127.0.0.1').searchParams;
    const offset = Number(query.get('offset'));
    const limit = Number(query.get('limit'));
    return { seq: this.seq, total: this.rows.length, unread: this.rows.length, items: this.rows.slice(offset, offset + limit) };
  }
}

let daemon: ModelDaemon;

jest.mock('../../app/src/api', () => ({
  withQuery: (path: string, query: Record<string, unknown>) => {
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== '') search.set(key, String(value));
    return `${path}?${search}`;
  },
  call: (_method: string, path: string) => daemon.answer(path),
  isAbort: () => false,
  messageOf: (error: unknown) => String(error),
}));
jest.mock('../../app/src/live', () => ({
  onEvent: (name: string, handler: Listener) => listeners.set(name, handler),
  onStreamOpen: (handler: (again: boolean, seq: number) => void) => (openListener = handler),
}));

/** A store as a window that just loaded has it. */
function freshStore(): Store {
  let store!: Store;
  listeners.clear();
  jest.isolateModules(() => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    store = require('../../app/src/history/store') as Store;
  });
  store.followEvents();
  return store;
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Until nothing travels and the store's debounced reload has had its turn. */
async function settled(): Promise<void> {
  for (let quiet = 0; quiet < 5;) {
    await pause(30);
    quiet = daemon.travelling === 0 ? quiet + 1 : 0;
  }
}

function expectTheDaemons(store: Store): void {
  expect(store.total.value).toBe(daemon.rows.length);
  const wrong: string[] = [];
  for (let position = 0; position < daemon.rows.length; position++) {
    const cached = store.rowAt(position);
    if (cached && cached.id !== daemon.rows[position]!.id) wrong.push(`${position}: ${cached.id}, not ${daemon.rows[position]!.id}`);
  }
  expect(wrong).toEqual([]);
  expect(store.rowAt(daemon.rows.length)).toBeUndefined();
}

const SEEDS = Array.from({ length: 6 }, (_, index) => index + 1);

test.each(SEEDS)('a burst while the first windows travel ends with the daemon’s count and rows (seed %i)', async (seed) => {
  daemon = new ModelDaemon(seed);
  for (let index = 0; index < 5; index++) daemon.add(`old${index}`);
  const store = freshStore();
  void store.reload(); // as the window starts: the first page, and the stream a while later
  daemon.later(daemon.delay(20), () => daemon.openStream());
  const painter = setInterval(() => store.showRange(0, Math.min(20, store.total.value)), 5);
  for (let index = 0; index < 400; index++) {
    daemon.add(`n${index}`);
    if (daemon.chance(0.3)) await pause(daemon.delay(3));
    if (daemon.chance(0.02)) daemon.remove(Math.floor(daemon.delay(10)) % daemon.rows.length);
  }
  await settled();
  clearInterval(painter);
  expectTheDaemons(store);
});

test.each(SEEDS)('scrolled down, rows arriving on top shift the rows in memory, not the count (seed %i)', async (seed) => {
  daemon = new ModelDaemon(seed);
  for (let index = 0; index < 300; index++) daemon.add(`old${index}`);
  daemon.openStream();
  const store = freshStore();
  await store.reload();
  await settled();
  let top = 0;
  const painter = setInterval(() => {
    top = Math.min(top + 3, 250);
    store.showRange(top, top + 20);
  }, 5);
  for (let index = 0; index < 200; index++) {
    daemon.add(`n${index}`);
    if (daemon.chance(0.3)) await pause(daemon.delay(3));
  }
  await settled();
  clearInterval(painter);
  expectTheDaemons(store);
});
