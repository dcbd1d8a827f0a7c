import { describe, expect, test } from '@jest/globals';
import { HISTORY_STATES, inHistoryState, type RowState } from '../../protocol/app-api.js';

// The one rule of History's filters: the daemon filters History by it, the app places a live row by it.

const row = (read: boolean, state: RowState) => ({ read, state });

describe('inHistoryState', () => {
  test.each([
    ['a read row with nothing to say', row(true, {}), ['all']],
    ['an unread row', row(false, {}), ['all', 'unread']],
    ['a question waiting, unread', row(false, { waiting: true }), ['all', 'unread', 'waiting']],
    ['a replied row', row(true, { replied: true }), ['all', 'replied']],
    ['a failed row', row(true, { failed: 'callback: 500' }), ['all', 'failed']],
    ['a snoozed, dismissed, held row is only in all', row(true, { snoozedUntil: 'x', dismissed: true, held: 'quietHours' }), ['all']],
  ] as const)('%s', (_name, given, states) => {
    expect(HISTORY_STATES.filter((state) => inHistoryState(state, given))).toEqual(states);
  });

  test('reads only the fact its filter tests (the daemon works the facts out lazily)', () => {
    const read: string[] = [];
    const lazy = {
      get read() {
        read.push('read');
        return false;
      },
      state: {
        get waiting() {
          read.push('waiting');
          return true;
        },
        get replied() {
          read.push('replied');
          return false;
        },
        get failed() {
          read.push('failed');
          return undefined;
        },
      },
    };
    for (const state of HISTORY_STATES) inHistoryState(state, lazy);
    expect(read).toEqual(['read', 'waiting', 'replied', 'failed']);
  });
});
