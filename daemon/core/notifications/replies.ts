import { MAX_REPLIES_PER_APP } from '../../../protocol/limits.js';
import type { ReplyRecord } from '../../../protocol/types.js';
import { safeFileName } from '../../store/safe-name.js';
import type { Document, Store } from '../../store/store.js';

const FOLDER = 'replies';

/** `replies/<app>.json`: one app's queue, oldest first. */
interface RepliesFile {
  app: string;
  replies: ReplyRecord[];
}

type Waiter = { id: string; app?: string; deliver: (reply: ReplyRecord) => void };

/**
 * The reply queues, one per app (docs/api/replies.md#r3: at most 200, one per notification, persisted), and the requests
 * waiting for a reply. A waiting request is answered the moment its reply is stored: no polling.
 */
export class ReplyQueue {
  private readonly queues = new Map<string, Document<RepliesFile>>();
  private readonly waiters = new Map<string, Set<Waiter>>();
  private readonly listeners = new Set<(reply: ReplyRecord) => void>();

  constructor(private readonly store: Store) {}

  async load(): Promise<void> {
    for (const name of await this.store.listJSON(FOLDER)) {
      const document = await this.store.open<RepliesFile>(`${FOLDER}/${name}`, { app: '', replies: [] });
      if (typeof document.data.app === 'string' && Array.isArray(document.data.replies)) {
        this.queues.set(document.data.app, document);
      }
    }
  }

  /**
   * Appends a reply (a second reply to the same notification replaces the first), drops the oldest beyond the
   * cap, and answers the requests waiting for it once it is on disk.
   */
  async add(reply: ReplyRecord): Promise<void> {
    const document = this.queueOf(reply.app);
    const replies = document.data.replies.filter((item) => item.notificationId !== reply.notificationId);
    replies.push(reply);
    document.data = { app: reply.app, replies: replies.slice(-MAX_REPLIES_PER_APP) };
    await this.store.save(document);
    for (const waiter of this.waiters.get(reply.notificationId) ?? []) {
      if (waiter.app === undefined || waiter.app === reply.app) waiter.deliver(reply);
    }
    for (const listener of this.listeners) listener(reply);
  }

  /** Calls back after every reply stored (the relay tells the sender of a relayed notification). */
  onAdd(listener: (reply: ReplyRecord) => void): void {
    this.listeners.add(listener);
  }

  /** Replies oldest first, optionally of one app and strictly after `since` (epoch ms). */
  list(filter: { app?: string; since?: number } = {}): ReplyRecord[] {
    const queues = filter.app === undefined ? [...this.queues.values()] : [this.queues.get(filter.app)].filter((q) => q !== undefined);
    const replies = queues.flatMap((document) => document.data.replies);
    const after = filter.since;
    const chosen = after === undefined ? replies : replies.filter((reply) => Date.parse(reply.repliedAt) > after);
    return chosen.sort((a, b) => (a.repliedAt < b.repliedAt ? -1 : a.repliedAt > b.repliedAt ? 1 : 0));
  }

  /** The queued reply to a notification (of one app, or of any app). */
  find(notificationId: string, app?: string): ReplyRecord | undefined {
    const queues = app === undefined ? this.queues.values() : [this.queues.get(app)];
    for (const document of queues) {
      const reply = document?.data.replies.find((item) => item.notificationId === notificationId);
      if (reply) return reply;
    }
    return undefined;
  }

  /** Removes exactly these replies from their queues (what a `consume` read returned). */
  async consume(replies: ReplyRecord[]): Promise<void> {
    const byApp = new Map<string, Set<ReplyRecord>>();
    for (const reply of replies) {
      if (!byApp.has(reply.app)) byApp.set(reply.app, new Set());
      byApp.get(reply.app)!.add(reply);
    }
    await Promise.all(
      [...byApp].map(([app, taken]) => {
        const document = this.queues.get(app);
        if (!document) return Promise.resolve();
        document.data = { app, replies: document.data.replies.filter((reply) => !taken.has(reply)) };
        return document.data.replies.length > 0 ? this.store.save(document) : this.store.delete(document);
      }),
    );
  }

  /** Removes the queued reply to one notification, if there is one. */
  take(app: string, notificationId: string): Promise<void> {
    const reply = this.find(notificationId, app);
    return reply ? this.consume([reply]) : Promise.resolve();
  }

  /** Removes an app's queue (its History was cleared). */
  async clear(app: string): Promise<void> {
    const document = this.queues.get(app);
    if (!document) return;
    this.queues.delete(app);
    await this.store.delete(document);
  }

  /** Calls `deliver` when a reply to this notification is stored; returns a function that stops waiting. */
  wait(notificationId: string, app: string | undefined, deliver: (reply: ReplyRecord) => void): () => void {
    const waiter: Waiter = { id: notificationId, app, deliver };
    if (!this.waiters.has(notificationId)) this.waiters.set(notificationId, new Set());
    this.waiters.get(notificationId)!.add(waiter);
    return () => {
      const set = this.waiters.get(notificationId);
      set?.delete(waiter);
      if (set?.size === 0) this.waiters.delete(notificationId);
    };
  }

  private queueOf(app: string): Document<RepliesFile> {
    let document = this.queues.get(app);
    if (!document) {
      document = this.store.create<RepliesFile>(`${FOLDER}/${safeFileName(app)}.json`, { app, replies: [] });
      this.queues.set(app, document);
    }
    return document;
  }
}
