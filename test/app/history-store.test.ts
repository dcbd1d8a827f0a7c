// The History model of the person's app (app/src/models/history.ts) against a model of the daemon, in-process:
// notifications arrive in bursts while windows are fetched, and the answers and the live events travel on separate
// connections, each with its own delay — an event may arrive after an answer that already counts its row, an
// answer after events it does not count. When it all settles, the count and every row in memory must be the
// daemon's. The model is given this daemon as its API and its event stream (and the real clock), as main.tsx gives
// it the browser's. (The real daemon and browser: test/app/history.test.ts.)

import { expect, test } from '@jest/globals';
import { randomGenerator } from '../../rigs/random.js';
import { type LiveEvents, type Requests, systemClock } from '../../app/src/models/dependencies.js';
import { HistoryModel } from '../../app/src/models/history.js';
import {
  type AppEventName,
  type AppEvents,
  appPaths,
  type HistoryPage,
  type HistoryRow,
  type MarkRequest,
  type ReadAnswer,
} from '../../protocol/app-api.js';

type Listener = (data: never) => void;

/** The daemon as the History model sees it: History newest first, numbered changes, a stream, and slow connections. */
class ModelDaemon implements Requests, LiveEvents {
  rows: HistoryRow[] = [];
  seq = 0;
  streaming = false;
  /** Timers not yet fired (events and answers on their way). */
  travelling = 0;
  private eventsFreeAt = 0;
  private readonly listeners = new Map<string, Listener>();
  private openListener: ((again: boolean, seq: number) => void) | undefined;
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

  // The event stream, as the model subscribes to it (one subscriber: the model under test).
  on<N extends AppEventName>(name: N, handler: (data: AppEvents[N]) => void): () => void {
    this.listeners.set(name, handler as Listener);
    return () => this.listeners.delete(name);
  }

  onOpen(handler: (again: boolean, seq: number) => void): () => void {
    this.openListener = handler;
    return () => (this.openListener = undefined);
  }

  openStream(): void {
    this.streaming = true;
    const seq = this.seq;
    this.emit(() => this.openListener?.(false, seq));
  }

  add(id: string): void {
    const last = this.rows[0]?.deliveredAt ?? new Date(0).toISOString();
    const now = new Date().toISOString();
    const row = { app: 'bulk', id, title: id, deliveredAt: now > last ? now : last, read: false } as unknown as HistoryRow;
    this.rows.unshift(row);
    const data: AppEvents['row'] = { row, seq: ++this.seq };
    this.emit(() => this.listeners.get('row')?.(data as never));
    this.tellUnread();
  }

  /** The count after the change just made, on the stream, with its number. */
  private tellUnread(): void {
    const data: AppEvents['unread'] = { unread: this.unread(), seq: this.seq };
    this.emit(() => this.listeners.get('unread')?.(data as never));
  }

  remove(position: number): void {
    const [row] = this.rows.splice(position, 1);
    const data: AppEvents['removed'] = { app: row!.app, id: row!.id, seq: ++this.seq };
    this.emit(() => this.listeners.get('removed')?.(data as never));
    this.tellUnread();
  }

  unread(): number {
    return this.rows.filter((row) => !row.read).length;
  }

  /**
   * The API, as the model calls it: the request reaches the daemon after a while; it answers from what it holds
   * then, and the answer takes a while back. A page of rows, or a selection marked read or unread.
   */
  call<T>(_method: string, path: string, body?: unknown): Promise<T> {
    return new Promise((resolve) =>
      this.later(this.delay(5), () => {
        const answer = path === appPaths.historyMark ? this.mark(body as MarkRequest) : this.page(path);
        this.later(this.delay(15), () => resolve(answer as T));
      }),
    );
  }

  private page(path: string): HistoryPage {
    const query = new URL(path, 'http://127.0.0.1').searchParams;
    const offset = Number(query.get('offset'));
    const limit = Number(query.get('limit'));
    return { seq: this.seq, total: this.rows.length, unread: this.unread(), items: this.rows.slice(offset, offset + limit) };
  }

  /** Each row's change travels on the stream, then the new count; the answer says the count too. */
  private mark({ items, read }: MarkRequest): ReadAnswer {
    for (const { id } of items) {
      const position = this.rows.findIndex((row) => row.id === id);
      const row = { ...this.rows[position]!, read };
      this.rows[position] = row;
      const data: AppEvents['row'] = { row, seq: ++this.seq };
      this.emit(() => this.listeners.get('row')?.(data as never));
    }
    this.tellUnread();
    const answer: ReadAnswer = { ok: true, unread: this.unread(), seq: this.seq };
    this.afterMark?.();
    return answer;
  }

  /** Runs once a selection is marked, before its answer leaves (notifications that come right after). */
  afterMark: (() => void) | undefined;
}

let daemon: ModelDaemon;

/** History as a window that just loaded has it: made on this daemon, following its events. */
const freshHistory = (): HistoryModel => new HistoryModel({ api: daemon, events: daemon, clock: systemClock });

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Until nothing travels and the model's debounced reload has had its turn. */
async function settled(): Promise<void> {
  for (let quiet = 0; quiet < 5;) {
    await pause(30);
    quiet = daemon.travelling === 0 ? quiet + 1 : 0;
  }
}

function expectTheDaemons(history: HistoryModel): void {
  expect(history.total.value).toBe(daemon.rows.length);
  const wrong: string[] = [];
  for (let position = 0; position < daemon.rows.length; position++) {
    const cached = history.rowAt(position);
    if (cached && cached.id !== daemon.rows[position]!.id) wrong.push(`${position}: ${cached.id}, not ${daemon.rows[position]!.id}`);
  }
  expect(wrong).toEqual([]);
  expect(history.rowAt(daemon.rows.length)).toBeUndefined();
}

const SEEDS = Array.from({ length: 6 }, (_, index) => index + 1);

test.each(SEEDS)('a burst while the first windows travel ends with the daemon’s count and rows (seed %i)', async (seed) => {
  daemon = new ModelDaemon(seed);
  for (let index = 0; index < 5; index++) daemon.add(`old${index}`);
  const history = freshHistory();
  void history.reload(); // as the window starts: the first page, and the stream a while later
  daemon.later(daemon.delay(20), () => daemon.openStream());
  const painter = setInterval(() => history.showRange(0, Math.min(20, history.total.value)), 5);
  for (let index = 0; index < 400; index++) {
    daemon.add(`n${index}`);
    if (daemon.chance(0.3)) await pause(daemon.delay(3));
    if (daemon.chance(0.02)) daemon.remove(Math.floor(daemon.delay(10)) % daemon.rows.length);
  }
  await settled();
  clearInterval(painter);
  expectTheDaemons(history);
});

test.each(SEEDS)('scrolled down, rows arriving on top shift the rows in memory, not the count (seed %i)', async (seed) => {
  daemon = new ModelDaemon(seed);
  for (let index = 0; index < 300; index++) daemon.add(`old${index}`);
  daemon.openStream();
  const history = freshHistory();
  await history.reload();
  await settled();
  let top = 0;
  const painter = setInterval(() => {
    top = Math.min(top + 3, 250);
    history.showRange(top, top + 20);
  }, 5);
  for (let index = 0; index < 200; index++) {
    daemon.add(`n${index}`);
    if (daemon.chance(0.3)) await pause(daemon.delay(3));
  }
  await settled();
  clearInterval(painter);
  expectTheDaemons(history);
});

test.each(SEEDS)('Mark read on a selection while notifications keep coming: the count ends as the daemon’s (seed %i)', async (seed) => {
  daemon = new ModelDaemon(seed);
  for (let index = 0; index < 120; index++) daemon.add(`unread${index}`);
  daemon.openStream();
  const history = freshHistory();
  await history.reload();
  history.showRange(0, 120);
  await settled();
  expect(history.unreadTotal.value).toBe(120);
  // The answer counts what the daemon held when it marked them: the counts of the notifications that came right
  // after travel on the stream, and may arrive before it.
  daemon.afterMark = () => {
    for (let index = 0; index < 5; index++) daemon.add(`new${index}`);
  };
  await history.setRead(
    Array.from({ length: 100 }, (_, position) => history.rowAt(position)!),
    true,
  );
  await settled();
  expect(daemon.unread()).toBe(25);
  expect(history.unreadTotal.value).toBe(25);
});
