// History exported as CSV (GET /app/api/history/export?format=csv): one line per record, newest first, for a
// spreadsheet. A cell a spreadsheet would read as a formula (=, +, -, @ first) is written with a ' before it, so
// a notification's text can never run as a formula on the person's computer.

import type { HistoryRow } from '../../../protocol/app-api.js';
import type { HistoryRecord } from '../../../protocol/types.js';

const COLUMNS = [
  'deliveredAt',
  'app',
  'appName',
  'id',
  'title',
  'subtitle',
  'body',
  'read',
  'state',
  'reply',
  'actionUsed',
  'dismissedAt',
] as const;

function cell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\n\r]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** The state in words: `waiting; replied; failed: …`. */
function stateWords(row: HistoryRow): string {
  const { state } = row;
  return [
    state.waiting ? 'waiting' : '',
    state.replied ? 'replied' : '',
    state.snoozedUntil ? `snoozed until ${state.snoozedUntil}` : '',
    state.failed ? `failed: ${state.failed}` : '',
    state.held ? `held: ${state.held}` : '',
    state.dismissed ? 'dismissed' : '',
    state.relayed ? 'relayed' : '',
  ]
    .filter(Boolean)
    .join('; ');
}

export function historyCsv(records: HistoryRecord[], rowOf: (record: HistoryRecord) => HistoryRow): string {
  const lines = [COLUMNS.join(',')];
  for (const record of records) {
    const row = rowOf(record);
    const n = record.notification;
    const values: Record<(typeof COLUMNS)[number], string> = {
      deliveredAt: record.deliveredAt,
      app: record.app,
      appName: row.appName,
      id: record.id,
      title: n.title ?? '',
      subtitle: n.subtitle ?? '',
      body: n.body ?? '',
      read: String(row.read),
      state: stateWords(row),
      reply: record.reply ?? '',
      actionUsed: record.actionUsed ?? '',
      dismissedAt: record.dismissedAt ?? '',
    };
    lines.push(COLUMNS.map((column) => cell(values[column])).join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}
