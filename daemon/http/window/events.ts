// `GET /app/api/events` (docs/app.md#live-events): server-sent events, fed by the same core events the tray
// watches. A notification that arrives or changes travels whole (its row), so the app paints it without asking;
// removals, the unread count and the approvals follow as they change, and so does the template library (the
// Designer reads it again). The banner, the tray and the app are three views of one state: each hears of a change,
// wherever it was made.

import type { Request, Response } from 'express';
import { APP_EVENTS_KEEPALIVE_MS, type AppEventName, type AppEvents } from '../../../protocol/app-api.js';
import type { HistoryEvent } from '../../core/history/history.js';
import type { ReadChange } from '../../core/history/read-state.js';
import type { RowMaker } from '../../core/history/rows.js';
import type { Core } from '../../core/core.js';
import type { Session, Sessions } from './sessions.js';
import { keyParts, recordKey } from '../../../protocol/record-key.js';

/** How soon a browser reconnects after the stream broke. */
const RETRY_MS = 2000;
/**
 * What a stream may hold unsent (a window that stopped reading: a frozen tab, a suspended laptop's browser) before it
 * is cut: the browser reconnects and fetches the rows it shows anew (docs/app.md#live-events), rather than the daemon
 * keeping every event for it without end.
 */
export const STALLED_STREAM_BYTES = 1024 * 1024;

interface Client {
  res: Response;
  session: Session;
  keepAlive: NodeJS.Timeout;
}

export class EventHub {
  private readonly clients = new Set<Client>();
  /**
   * The number of the last change to History's rows (`row`, `removed`, `read`), counted whether or not a stream is
   * open: a window whose page was read before its stream opened learns from the stream's first number that it
   * missed some.
   */
  private changes = 0;
  /** The unread count the clients were told last. */
  private toldUnread: number | null = null;
  private unreadQueued = false;
  private templatesQueued = false;
  /** The notifications that asked a question still open (their rows say `waiting`). */
  private asking = new Set<string>();
  private readonly stops: Array<() => void> = [];

  constructor(
    private readonly core: Core,
    private readonly rows: RowMaker,
    private readonly sessions: Sessions,
    approvals: () => AppEvents['approvals'],
  ) {
    this.asking = this.askingNow();
    this.stops.push(
      core.history.onChange((event) => this.historyChanged(event)),
      core.readState.onChange((change) => this.readChanged(change)),
      core.approvals.onChange(() => this.approvalsChanged(approvals)),
      core.relay.connectors.onChange(() => this.clients.size > 0 && this.send('approvals', approvals())),
      core.designs.onChange(() => this.templatesChanged()),
      sessions.onEnd((session) => {
        for (const client of this.clients) if (client.session === session) this.drop(client);
      }),
    );
  }

  /** The number of the last change to History's rows: a page of rows says which changes it includes. */
  get seq(): number {
    return this.changes;
  }

  /** Opens a stream: the headers, how soon to reconnect, the number of the last change, and the unread count now. */
  subscribe(req: Request, res: Response, session: Session): void {
    res.writeHead(200, {
      'Content-Type': 'text/event-stream; charset=utf-8',
      'Cache-Control': 'no-store',
      Connection: 'keep-alive',
      'X-Accel-Buffering': 'no',
    });
    res.write(`retry: ${RETRY_MS}\n\n`);
    const keepAlive = setInterval(() => {
      if (!this.sessions.isOpen(session)) this.drop(client);
      else res.write(': keep-alive\n\n');
    }, APP_EVENTS_KEEPALIVE_MS);
    const client: Client = { res, session, keepAlive };
    this.clients.add(client);
    req.socket.setNoDelay(true);
    res.once('close', () => this.drop(client));
    this.write(client, 'stream', { seq: this.changes });
    this.write(client, 'unread', { unread: this.core.readState.unreadCount(), seq: this.changes });
  }

  /** Sends an event to every open stream. */
  send<Name extends AppEventName>(name: Name, data: AppEvents[Name]): void {
    if (this.clients.size === 0) return;
    const text = `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`;
    for (const client of [...this.clients]) {
      if (client.res.writableLength > STALLED_STREAM_BYTES) this.drop(client, { cut: true });
      else client.res.write(text);
    }
  }

  /** All of History was cleared (each app's records say so as they go; this says it was everything). */
  everythingRemoved(): void {
    const seq = ++this.changes;
    this.send('removed', { seq });
  }

  /** The daemon stops: every stream ends (the browser reconnects to whatever answers next). */
  close(): void {
    for (const stop of this.stops) stop();
    for (const client of [...this.clients]) this.drop(client);
  }

  private write<Name extends AppEventName>(client: Client, name: Name, data: AppEvents[Name]): void {
    client.res.write(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  /** Ends a stream; `cut` drops what it holds unsent (a stalled one), else it is sent first. */
  private drop(client: Client, options: { cut?: boolean } = {}): void {
    if (!this.clients.delete(client)) return;
    clearInterval(client.keepAlive);
    if (options.cut) client.res.destroy();
    else client.res.end();
  }

  private historyChanged(event: HistoryEvent): void {
    const seq = ++this.changes;
    if (this.clients.size === 0) return;
    if (event.type === 'stored') this.send('row', { row: this.rows.row(event.record), seq });
    else if (event.type === 'removed') this.send('removed', { app: event.record.app, id: event.record.id, seq });
    else this.send('removed', { app: event.app, seq });
    this.queueUnread();
  }

  private readChanged(change: ReadChange): void {
    const seq = ++this.changes;
    if (this.clients.size === 0) return;
    const record = change.app !== undefined && change.id !== undefined ? this.core.history.get(change.app, change.id) : undefined;
    if (record) this.send('row', { row: this.rows.row(record), seq });
    else
      this.send('read', { ...(change.app === undefined ? {} : { app: change.app }), seq, ...(change.restored ? { restored: true } : {}) });
    this.queueUnread();
  }

  /** The questions changed: the approvals, and the rows of the notifications that start or stop waiting. */
  private approvalsChanged(approvals: () => AppEvents['approvals']): void {
    const before = this.asking;
    this.asking = this.askingNow();
    const changed = [...new Set([...before, ...this.asking])].filter((key) => before.has(key) !== this.asking.has(key));
    if (this.clients.size === 0) {
      if (changed.length > 0) this.changes++; // a row's state changed: a page read before counts it as a change
      return;
    }
    this.send('approvals', approvals());
    for (const key of changed) {
      const { app, id } = keyParts(key);
      const record = this.core.history.get(app, id);
      if (record) this.send('row', { row: this.rows.row(record), seq: ++this.changes });
    }
  }

  private askingNow(): Set<string> {
    const keys = new Set<string>();
    for (const open of this.core.approvals.openQuestions()) {
      if (open.notificationId) keys.add(recordKey(open.grant.app, open.notificationId));
    }
    return keys;
  }

  /** One templates event per turn of the event loop (removing an app deletes its templates one by one). */
  private templatesChanged(): void {
    if (this.clients.size === 0 || this.templatesQueued) return;
    this.templatesQueued = true;
    setImmediate(() => {
      this.templatesQueued = false;
      this.send('templates', {});
    });
  }

  /** One unread event per turn of the event loop, and only when the count changed. */
  private queueUnread(): void {
    if (this.unreadQueued) return;
    this.unreadQueued = true;
    setImmediate(() => {
      this.unreadQueued = false;
      const unread = this.core.readState.unreadCount();
      if (unread === this.toldUnread) return;
      this.toldUnread = unread;
      this.send('unread', { unread, seq: this.changes });
    });
  }
}
