import type { ReceiptInput } from '../../../protocol/relay/receipts.js';
import type { Document, Store } from '../../store/store.js';

/** docs/api/relay-connection.md#rl33: at most this many receipts wait; beyond it the oldest go (a relay gone for weeks). */
export const MAX_WAITING_RECEIPTS = 1000;

/** A receipt as the relay's socket takes it (docs/relay-api.md#ra32). */
export type ReceiptFrame = { type: 'receipt' } & ReceiptInput;

interface OutboxFile {
  receipts: ReceiptFrame[];
}

/**
 * The receipts that have not reached the relay yet (`relay/outbox.json`, docs/api/relay-connection.md#rl33): each is on disk
 * before it is sent, and leaves the file once the socket took it. After a restart, or once the socket is back,
 * the waiting ones go after the next `hello`, oldest first.
 */
export class Outbox {
  private sending = false;
  /** Receipts added whose write has not finished: not counted as waiting until they are on disk. */
  private unsaved = 0;

  private constructor(
    private readonly store: Store,
    private readonly document: Document<OutboxFile>,
  ) {
    if (!Array.isArray(document.data.receipts)) document.data.receipts = [];
  }

  static async open(store: Store): Promise<Outbox> {
    return new Outbox(store, await store.open<OutboxFile>('relay/outbox.json', { receipts: [] }));
  }

  /** The receipts waiting on disk (the status's `waitingReceipts`): one being written is not there yet. */
  get size(): number {
    return Math.max(0, this.document.data.receipts.length - this.unsaved);
  }

  /** Adds a receipt; resolves once it is on disk. */
  async add(receipt: ReceiptFrame): Promise<void> {
    const receipts = this.document.data.receipts;
    receipts.push(receipt);
    if (receipts.length > MAX_WAITING_RECEIPTS) receipts.splice(0, receipts.length - MAX_WAITING_RECEIPTS);
    this.unsaved++;
    try {
      await this.store.save(this.document);
    } finally {
      this.unsaved--;
    }
  }

  /**
   * Sends the waiting receipts in order with `send` (true once the socket took one); stops at the first it could
   * not send. Those sent leave the file, in one write per round. One flush at a time: receipts added meanwhile are
   * sent by the running one.
   */
  async flush(send: (receipt: ReceiptFrame) => Promise<boolean>): Promise<void> {
    if (this.sending) return;
    this.sending = true;
    try {
      for (;;) {
        const waiting = [...this.document.data.receipts];
        const sent = new Set<ReceiptFrame>();
        for (const receipt of waiting) {
          if (!(await send(receipt))) break;
          sent.add(receipt);
        }
        if (sent.size > 0) {
          this.document.data.receipts = this.document.data.receipts.filter((receipt) => !sent.has(receipt));
          await this.store.save(this.document);
        }
        if (sent.size < waiting.length || this.document.data.receipts.length === 0) return;
      }
    } finally {
      this.sending = false;
    }
  }

  /** Unpairing: what waited belongs to the old pairing. */
  async clear(): Promise<void> {
    this.document.data.receipts = [];
    await this.store.save(this.document);
  }
}
