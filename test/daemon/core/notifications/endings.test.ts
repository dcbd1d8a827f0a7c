// How a banner ended, as GET /v1/replies/wait with `ended` reports it (daemon/core/notifications/endings.ts,
// docs/api/replies.md#r7a): which endings are a button the person pressed.

import { describe, expect, test } from '@jest/globals';
import { endingOf } from '../../../../daemon/core/notifications/endings.js';
import type { HistoryRecord } from '../../../../protocol/types.js';

const record = (actionUsed: string | undefined, more: Partial<HistoryRecord> = {}): HistoryRecord => ({
  id: 'n1',
  app: 'ci',
  deliveredAt: '2026-11-20T10:00:00.000Z',
  dismissedAt: '2026-11-20T10:01:00.000Z',
  ...(actionUsed !== undefined ? { actionUsed } : {}),
  notification: {
    app: 'ci',
    id: 'n1',
    title: 'Deploy?',
    buttons: [{ label: 'Deploy' }, { label: 'close' }, { label: 'Why', reply: {} }, { label: 'Rerun', command: 'make' }],
  },
  ...more,
});

describe('the end of a banner', () => {
  test('a button of the banner is reported with its label', () => {
    expect(endingOf(record('Deploy'), undefined)).toEqual({
      replied: false,
      ended: true,
      endedAt: '2026-11-20T10:01:00.000Z',
      actionUsed: 'Deploy',
      button: 'Deploy',
    });
  });

  test('the other endings, a reply button, an unknown label and a spoken-only record are no button', () => {
    for (const ending of ['close', 'dismiss', 'timeout', 'open', 'Why', 'Gone']) {
      expect(endingOf(record(ending), undefined)).not.toHaveProperty('button');
    }
    expect(endingOf(record(undefined), undefined)).toEqual({ replied: false, ended: true, endedAt: '2026-11-20T10:01:00.000Z' });
  });

  test('a button the follow-up ran is no button: the person was away; one pressed after a failed follow-up is', () => {
    const ran = { ranAt: '2026-11-20T10:01:00.000Z', action: 'Rerun', actionId: 'rerun', kind: 'command', unattendedSeconds: 60 };
    expect(endingOf(record('Rerun', { followUp: { ...ran, outcome: 'ran' } }), undefined)).not.toHaveProperty('button');
    expect(endingOf(record('Rerun', { followUp: { ...ran, outcome: 'failed' } }), undefined)).toMatchObject({ button: 'Rerun' });
  });
});
