// The person's app's state, unit by unit: sign-in codes (single use, 60 s, their files ended once), sessions
// (30 days idle, Sign out, kept on disk as digests, listed and signed out by handle), and read state over a real History in a temporary folder (the count kept in step with
// every kind of change, a spoken-only notification delivered read).

import { afterAll, afterEach, describe, expect, jest, test } from '@jest/globals';
import path from 'node:path';
import { History } from '../../../../daemon/core/history/history.js';
import { HistoryPages } from '../../../../daemon/core/history/history-pages.js';
import { RowMaker } from '../../../../daemon/core/history/rows.js';
import { ReadState } from '../../../../daemon/core/history/read-state.js';
import { ImageCache } from '../../../../daemon/core/media/images.js';
import {
  SESSION_IDLE_MS,
  SIGNIN_CODE_MS,
  Sessions,
  SignInCodes,
  csrfMatches,
  describeBrowser,
} from '../../../../daemon/http/window/sessions.js';
import { log } from '../../../../daemon/log.js';
import { Store } from '../../../../daemon/store/store.js';
import type { HistoryRecord } from '../../../../protocol/types.js';
import { tempFolder } from '../../../helpers/daemon.js';

log.setQuiet(true);

describe('sign-in codes', () => {
  afterEach(() => {
    jest.useRealTimers();
  });

  test('a code gives its page once; a second use and a made-up code give nothing', () => {
    const codes = new SignInCodes();
    const ended = jest.fn();
    const code = codes.mint('approvals', ended);
    expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(codes.consume(code)).toBe('approvals');
    expect(ended).toHaveBeenCalledTimes(1);
    expect(codes.consume(code)).toBeNull();
    expect(codes.consume('made-up')).toBeNull();
    expect(ended).toHaveBeenCalledTimes(1);
  });

  test('after 60 s a code is over, and its file is ended by the timer even if never used', () => {
    jest.useFakeTimers();
    let now = 1_000_000;
    const codes = new SignInCodes(() => now);
    const [usedLate, neverUsed, fresh] = [jest.fn(), jest.fn(), jest.fn()];
    const late = codes.mint('history', usedLate);
    codes.mint('history', neverUsed);
    now += SIGNIN_CODE_MS + 1; // the clock passed 60 s before the timer ran
    expect(codes.consume(late)).toBeNull();
    expect(usedLate).toHaveBeenCalledTimes(1);
    const newer = codes.mint('compose', fresh);
    jest.advanceTimersByTime(SIGNIN_CODE_MS);
    expect(neverUsed).toHaveBeenCalledTimes(1);
    expect(fresh).toHaveBeenCalledTimes(1);
    expect(codes.consume(newer)).toBeNull();
  });

  test('clear ends every code', () => {
    const codes = new SignInCodes();
    const ended = jest.fn();
    const code = codes.mint('history', ended);
    codes.clear();
    expect(ended).toHaveBeenCalledTimes(1);
    expect(codes.consume(code)).toBeNull();
  });
});

describe('sessions', () => {
  /** Sessions on a file of their own (in memory here), with the clock the test moves. */
  const sessionsAt = (clock: () => number, document = { data: { sessions: {} } }) => new Sessions(document, undefined, clock);

  test('a session ends after 30 days without a request; each request keeps it going', () => {
    let now = 0;
    const sessions = sessionsAt(() => now);
    const { id, session } = sessions.create('Chromium on Linux');
    now += SESSION_IDLE_MS - 1;
    expect(sessions.find(id, { touch: true })).toBe(session);
    now += SESSION_IDLE_MS - 1;
    expect(sessions.find(id, { touch: false })).toBe(session);
    now += 2;
    expect(sessions.find(id, { touch: true })).toBeNull();
    expect(sessions.isOpen(session)).toBe(false);
    expect(SESSION_IDLE_MS).toBe(30 * 24 * 60 * 60 * 1000);
  });

  test('sessions left idle end without their cookie coming back: the next sign-in ends them, and the daemon forgets them', () => {
    let now = 0;
    const sessions = sessionsAt(() => now);
    const ended = jest.fn();
    sessions.onEnd(ended);
    const idle = sessions.create('Firefox on Linux');
    const used = sessions.create('Chromium on Linux');
    now += SESSION_IDLE_MS;
    sessions.touch(used.session);
    now += 1;
    sessions.create('Chromium on Linux');
    expect(ended.mock.calls).toEqual([[idle.session]]);
    expect(sessions.isOpen(used.session)).toBe(true);
  });

  test('Sign out ends it and tells its listeners; CSRF values compare exactly', () => {
    const sessions = new Sessions();
    const ended = jest.fn();
    sessions.onEnd(ended);
    const { id, csrf, session } = sessions.create('Chromium on Linux');
    expect(csrfMatches(csrf, session)).toBe(true);
    expect(csrfMatches(`${csrf}x`, session)).toBe(false);
    expect(csrfMatches(undefined, session)).toBe(false);
    sessions.end(id);
    expect(ended).toHaveBeenCalledWith(session);
    expect(sessions.find(id, { touch: true })).toBeNull();
    expect(sessions.find(undefined, { touch: true })).toBeNull();
  });

  test('kept on disk as digests only: a restart reads them back, the same cookie and CSRF value still open the door', () => {
    const document = { data: { sessions: {} } };
    const saves = jest.fn(async () => undefined);
    const before = new Sessions(document, { save: saves });
    const { id, csrf } = before.create('Chromium on Linux');
    expect(saves).toHaveBeenCalled();
    const written = JSON.stringify(document.data);
    expect(written).not.toContain(id);
    expect(written).not.toContain(csrf);
    const after = new Sessions(JSON.parse(JSON.stringify(document)) as typeof document);
    const found = after.find(id, { touch: true });
    expect(found).toMatchObject({ browser: 'Chromium on Linux', handle: expect.stringMatching(/^[A-Za-z0-9_-]{12}$/) });
    expect(csrfMatches(csrf, found!)).toBe(true);
  });

  test('listed newest use first; one signed out by its handle; "Sign out everywhere" ends them all', () => {
    let now = 0;
    const sessions = sessionsAt(() => now);
    const first = sessions.create('Firefox on Linux');
    now += 10;
    const second = sessions.create('Chromium on Linux');
    expect(sessions.list().map((session) => session.browser)).toEqual(['Chromium on Linux', 'Firefox on Linux']);
    expect(sessions.endHandle(first.session.handle)).toBe(true);
    expect(sessions.endHandle(first.session.handle)).toBe(false);
    expect(sessions.find(first.id, { touch: false })).toBeNull();
    sessions.create('Firefox on Linux');
    sessions.endAll();
    expect(sessions.list()).toEqual([]);
    expect(sessions.find(second.id, { touch: false })).toBeNull();
  });

  test('a browser in a few words', () => {
    const chrome = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
    expect(describeBrowser(chrome)).toBe('Chrome on Linux');
    expect(describeBrowser('Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0')).toBe('Firefox on Linux');
    expect(describeBrowser(undefined)).toBe('A browser');
  });
});

describe('read state over History', () => {
  const opened: History[] = [];
  afterAll(async () => {
    for (const history of opened) await history.close();
  });

  async function open(cap = 1000) {
    const folder = await tempFolder('notifier-read-');
    const store = new Store(folder);
    const history = new History(store, new ImageCache(path.join(folder, 'images')), {
      get historyCapPerApp() {
        return cap;
      },
    });
    await history.open();
    await history.ready;
    opened.push(history);
    return { history, state: await ReadState.open(store, history), store, folder };
  }

  let clock = Date.parse('2025-01-01T00:00:00.000Z');
  const record = (app: string, id: string, more: Partial<HistoryRecord> = {}): HistoryRecord => {
    const deliveredAt = new Date((clock += 1000)).toISOString();
    return { app, id, notification: { app, id, title: id }, deliveredAt, ...more };
  };

  test('a notification only spoken is delivered read; one whose speech could not play is shown, and unread', async () => {
    const { history, state } = await open();
    const spoken = record('v', 'spoken');
    await history.put({ ...spoken, notification: { ...spoken.notification, presentation: 'voice' }, dismissedAt: spoken.deliveredAt });
    const shown = record('v', 'shown');
    await history.put({
      ...shown,
      notification: { ...shown.notification, presentation: 'voice' },
      speech: { text: 'x', suppressed: 'unavailable' },
    });
    expect(state.isRead(history.get('v', 'spoken')!)).toBe(true);
    expect(state.isRead(history.get('v', 'shown')!)).toBe(false);
    expect(state.unreadCount()).toBe(1);
    await state.mark(history.get('v', 'spoken')!, false);
    expect(state.unreadCount()).toBe(2);
  });

  test('the count kept in step with puts, replacements, changes, removals, evictions, clears and marks equals a fresh count', async () => {
    const { history, state, store } = await open(5);
    let seed = 7;
    const random = (n: number): number => (seed = (seed * 48271) % 2147483647) % n;
    state.unreadCount(); // counted once, then kept up to date
    let evicted = 0;
    history.onChange((event) => (evicted += event.type === 'removed' ? 1 : 0));
    for (let step = 0; step < 600; step++) {
      const app = `a${random(3)}`;
      const id = `n${random(8)}`;
      const current = history.get(app, id);
      switch (random(10)) {
        case 0:
        case 1:
        case 2:
          await history.put(record(app, id)); // new, or a newer one with the same id
          break;
        case 3:
          if (current) await history.update(app, id, (r) => ({ ...r, dismissedAt: new Date(clock).toISOString() }));
          break;
        case 4:
          if (current) await state.mark(current, random(2) === 0);
          break;
        case 5:
          await history.remove(app, id);
          break;
        case 6:
          if (random(3) === 0) await state.markAllRead(random(2) === 0 ? app : undefined);
          break;
        case 7:
          if (random(20) === 0) await history.clear(app);
          break;
        default:
          await history.put(record(app, `new${step}`)); // evicts the oldest beyond the cap of 5
      }
      const counted = history.appIds().flatMap((each) => history.recordsOf(each).filter((r) => !state.isRead(r))).length;
      expect([step, state.unreadCount()]).toEqual([step, counted]);
    }
    expect(evicted).toBeGreaterThan(50);
    // What is on disk reads the same: a new read state (as after a restart) agrees on every record.
    await store.settle();
    const fresh = await ReadState.open(store, history);
    expect(fresh.unreadCount()).toBe(state.unreadCount());
    for (const app of history.appIds()) {
      for (const each of history.recordsOf(app)) expect(fresh.isRead(each)).toBe(state.isRead(each));
    }
  });
});

describe('History in windows', () => {
  test('windows near the top and far down agree with the whole list, before and after changes', async () => {
    const folder = await tempFolder('notifier-pages-');
    const store = new Store(folder);
    const history = new History(store, new ImageCache(path.join(folder, 'images')), { historyCapPerApp: 10_000 });
    await history.open();
    const unread = new Set<string>();
    const sources = {
      isRead: (record: HistoryRecord) => !unread.has(record.id),
      unreadCount: () => unread.size,
      appName: (app: string) => app,
      now: Date.now,
    };
    const rows = new RowMaker({ ...sources, template: () => undefined, asking: () => false });
    const pages = new HistoryPages(history, rows, sources);
    let time = Date.parse('2025-03-01T00:00:00.000Z');
    const put = (app: string, id: string, title: string) =>
      history.put({ app, id, notification: { app, id, title }, deliveredAt: new Date((time += 1000)).toISOString() });
    const written: Array<Promise<void>> = [];
    for (let index = 0; index < 7000; index++) {
      const id = `r${index}`;
      if (index % 3 === 0) unread.add(id);
      written.push(put(`app${index % 4}`, id, index % 2 === 0 ? `even ${index}` : `odd ${index}`));
    }
    await Promise.all(written);
    const whole = (filter: (record: HistoryRecord) => boolean) =>
      history
        .appIds()
        .flatMap((app) => [...history.recordsOf(app)])
        .filter(filter)
        .sort((a, b) => (a.deliveredAt < b.deliveredAt ? 1 : -1))
        .map((record) => record.id);
    const ids = (query: Parameters<HistoryPages['page']>[0], offset: number, limit: number) => {
      const { total, records } = pages.page(query, offset, limit);
      return { total, ids: records.map((record) => record.id) };
    };
    for (const [query, filter] of [
      [{ q: '', state: 'all' }, () => true],
      [{ q: '', state: 'unread' }, (record: HistoryRecord) => unread.has(record.id)],
      [{ q: 'EVEN', state: 'all' }, (record: HistoryRecord) => record.notification.title!.startsWith('even')],
      [{ q: '', state: 'all', app: 'app1' }, (record: HistoryRecord) => record.app === 'app1'],
    ] as const) {
      const expected = whole(filter);
      for (const [offset, limit] of [
        [0, 100],
        [4950, 100],
        [5500, 100],
        [expected.length - 10, 100],
      ]) {
        expect([query, offset, ids(query as never, offset, limit)]).toEqual([
          query,
          offset,
          { total: expected.length, ids: expected.slice(offset, offset + limit) },
        ]);
      }
    }
    // The kept list of a search follows a new match and a removal.
    const search = { q: 'odd', state: 'all' } as const;
    expect(ids(search, 5000, 10).total).toBe(3500);
    await put('app9', 'new-odd', 'odd newcomer');
    await history.remove('app3', 'r3');
    const expected = whole((record) => record.notification.title!.startsWith('odd'));
    expect(ids(search, 0, 3)).toEqual({ total: expected.length, ids: expected.slice(0, 3) });
    expect(ids(search, 5000, 10)).toEqual({ total: 3500, ids: expected.slice(5000, 5010) });
    await history.close();
  });
});

describe('rows', () => {
  test('relayed is what came through the cloud relay (a cloud. app), never what a local sender writes in its metadata', () => {
    const rows = new RowMaker({
      appName: (app) => app,
      isRead: () => false,
      template: () => undefined,
      asking: () => false,
      now: Date.now,
    });
    const record = (app: string, metadata: Record<string, unknown>): HistoryRecord => ({
      app,
      id: 'n1',
      notification: { app, id: 'n1', title: 'Deploy?', metadata },
      deliveredAt: '2026-11-27T10:00:00.000Z',
    });
    expect(rows.row(record('cloud.claude', { source: 'cloud-relay' })).state.relayed).toBe(true);
    expect(rows.row(record('local.app', { source: 'cloud-relay' })).state).not.toHaveProperty('relayed');
  });
});
