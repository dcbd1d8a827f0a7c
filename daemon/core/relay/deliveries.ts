// Relayed notifications (docs/api/relay-connection.md#rl21, #rl30 to #rl36): a `notify` frame becomes a local notification
// of the app `cloud.<key name>`, rebuilt from the whitelist alone, delivered through the core's normal path (so
// mute, quiet hours, History and the reply queue apply as they do to every app), and answered with receipts. One
// with a collapse id takes the place of the key's earlier one with that id (its local id is the collapse id, so
// the core replaces it in place); one with a time ahead waits among the scheduled notifications, and its receipts
// follow when it shows (#rl35); a withdrawal takes back the key's notification of its collapse id (#rl36).

import { LANG_PATTERN, NOTIFY_FIELD_BYTES } from '../../../protocol/limits.js';
import type { NotifyFrame, SenderKey } from '../../../protocol/relay/frames.js';
import { MAX_REPLY_CHARS, SHOW_AT_MAX_AHEAD_MS } from '../../../protocol/relay/limits.js';
import type { NotifyPayload, SpeakObject } from '../../../protocol/relay/notify.js';
import { RELAY_ID_PATTERN, SUPPRESS_REASONS, type ReceiptInput } from '../../../protocol/relay/receipts.js';
import { RELAYED_APP_PREFIX } from '../../../protocol/notification-rules.js';
import { cutUTF8 } from '../../../protocol/text.js';
import { HELD, SPEECH_SUPPRESSED, type HistoryRecord } from '../../../protocol/types.js';
import { log } from '../../log.js';
import type { Document, Store } from '../../store/store.js';
import type { NotificationInput } from '../notifications/checks.js';
import type { Withdrawal } from '../scheduled/withdraw.js';

/** RL31: a relay id seen in the last 24 hours is never shown twice. */
export const SEEN_FOR_MS = 24 * 60 * 60 * 1000;
/** RL31: at most this many ids are remembered (far above what a relay's daily caps let through). */
const MAX_SEEN = 10_000;
/**
 * RL35: a time further ahead than the relay lets agents ask (RA44b), with an hour for the two clocks to differ, is
 * broken: the notification shows at once instead of taking a place among the scheduled ones for years.
 */
const LATEST_SHOW_AT_MS = SHOW_AT_MAX_AHEAD_MS + 60 * 60_000;
/** RL21: the metadata texts a relayed notification keeps, each cut to this many characters. */
const METADATA_TEXT_CHARS = 200;

/** A receipt before it is addressed: what to tell the relay about one notification. */
export type Outcome = Omit<ReceiptInput, 'id'>;

interface SeenEntry {
  at: number;
  app: string;
  /** What the relay was told (displayed, suppressed): told again when the notification comes again. */
  outcomes: Outcome[];
  /** Its id on the computer where that is not the relay's: its collapse id. */
  localId?: string;
  /** It waits to show at its time: its receipts are told when it shows. */
  waiting?: true;
}

interface SeenFile {
  seen: Record<string, SeenEntry>;
}

/** What deliveries need of the core. */
export interface DeliveryHost {
  /** The core's normal path (POST /v1/notify); resolves once the record is on disk. */
  notify(input: NotificationInput): Promise<string>;
  /** Keeps it among the scheduled notifications to show at `at`; resolves once that is on disk. */
  schedule(input: NotificationInput, at: Date): Promise<unknown>;
  /** Takes back a notification of the app (clear: closed and read; delete: gone, or cancelled while it waits). */
  withdraw(app: string, id: string, how: Withdrawal): Promise<void>;
  record(app: string, id: string): HistoryRecord | undefined;
  /** The app id for a sender (registered under its display name); resolves once that is saved. */
  appFor(key: SenderKey): Promise<string>;
  /** The sender's display name, for the reply field's hint. */
  displayName(app: string): string;
  /** The relay's socket: an `ack` (not kept: a lost one only makes the relay send the notification again). */
  ack(id: string): void;
  /** A receipt, kept until the relay has it. */
  receipt(receipt: ReceiptInput): Promise<void>;
}

/** `cloud.` and the key's name as an app id: lower case, letters, digits and `-` (RL21). */
export function cloudAppId(keyName: string): string {
  const slug = keyName
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 32);
  return `${RELAYED_APP_PREFIX}${slug || 'agent'}`;
}

/** Reply on every relayed banner, and Open link when a link survived (RL21): nothing else, ever. */
export const REPLY_BUTTON = 'Reply';
export const OPEN_LINK_BUTTON = 'Open link';

/**
 * RL21: the local notification, field by field from the whitelisted payload. Nothing of the frame reaches it
 * otherwise: no buttons, commands, callbacks, scripts, templates, audio, file paths or app of the sender's.
 */
export function localNotification(frame: NotifyFrame, app: string, displayName: string): NotificationInput {
  const payload = frame.payload;
  const persistent = payload.persistent ?? (payload.timeoutSeconds === undefined ? true : undefined);
  return {
    app,
    id: payload.collapseId ?? frame.id,
    title: cutUTF8(payload.title, NOTIFY_FIELD_BYTES.title),
    ...(payload.subtitle ? { subtitle: cutUTF8(payload.subtitle, NOTIFY_FIELD_BYTES.subtitle) } : {}),
    ...(payload.body ? { body: cutUTF8(payload.body, NOTIFY_FIELD_BYTES.body) } : {}),
    ...(payload.link ? { url: payload.link } : {}),
    ...(payload.group ? { group: payload.group } : {}),
    ...(payload.priority && payload.priority !== 'normal' ? { priority: payload.priority } : {}),
    ...(persistent !== undefined ? { persistent } : {}),
    ...(persistent !== true && payload.timeoutSeconds !== undefined ? { timeout: payload.timeoutSeconds } : {}),
    ...(payload.sound ? { sound: payload.sound } : {}),
    ...(payload.imageURL ? { image: payload.imageURL } : {}),
    ...(payload.speak ? { speak: localSpeech(payload.speak) } : {}),
    ...(payload.presentation && payload.speak !== false ? { presentation: payload.presentation } : {}),
    metadata: metadataOf(frame, payload),
    buttons: [
      { label: REPLY_BUTTON, reply: { placeholder: `Reply to ${displayName}…` } },
      ...(payload.link ? [{ label: OPEN_LINK_BUTTON, url: payload.link }] : []),
    ],
  };
}

/** The speech request as the local rules take it: a language tag they do not read (`es-419`) is left to the voice. */
function localSpeech(speak: true | SpeakObject): true | SpeakObject {
  if (speak === true || speak.lang === undefined || LANG_PATTERN.test(speak.lang)) return speak;
  const { lang: _, ...rest } = speak;
  return Object.keys(rest).length > 0 ? rest : true;
}

/** RL21: where it came from, and the payload's descriptive fields, as the record's metadata. */
function metadataOf(frame: NotifyFrame, payload: NotifyPayload): Record<string, unknown> {
  const texts = { status: payload.status, project: payload.project, session: payload.session, task: payload.task, tool: payload.tool };
  const metadata: Record<string, unknown> = {
    source: 'cloud-relay',
    relayKey: frame.key.name,
    relayNotificationId: frame.notificationId,
  };
  for (const [key, value] of Object.entries({ ...texts, duration: payload.duration, link: payload.link })) {
    if (value !== undefined) metadata[key] = value.slice(0, METADATA_TEXT_CHARS);
  }
  if (payload.tags) metadata.tags = payload.tags;
  if (payload.expectReply) metadata.needsInput = true;
  return metadata;
}

/** RL32: what the record says became of the notification: shown, or held back by mute or quiet hours. */
export function outcomesOf(record: HistoryRecord | undefined): Outcome[] {
  if (!record) return [{ kind: 'suppressed', reason: SUPPRESS_REASONS.deliveryFailed, scope: 'all' }];
  if (record.held === HELD.appMuted) return [{ kind: 'suppressed', reason: SUPPRESS_REASONS.muted, scope: 'all' }];
  if (record.held === HELD.quietHours) return [{ kind: 'suppressed', reason: SUPPRESS_REASONS.quietHours, scope: 'all' }];
  const outcomes: Outcome[] = [{ kind: 'displayed' }];
  const speechHeld = record.speech?.suppressed;
  const reason = speechHeld && SPEECH_REASONS[speechHeld];
  if (reason) outcomes.push({ kind: 'suppressed', reason, scope: 'speech' });
  return outcomes;
}

const SPEECH_REASONS: Record<string, string> = {
  [SPEECH_SUPPRESSED.quietHours]: SUPPRESS_REASONS.quietHours,
  [SPEECH_SUPPRESSED.muted]: SUPPRESS_REASONS.muted,
  [SPEECH_SUPPRESSED.appMuted]: SUPPRESS_REASONS.muted,
  [SPEECH_SUPPRESSED.appSpeechOff]: SUPPRESS_REASONS.speechOff,
  [SPEECH_SUPPRESSED.unavailable]: SUPPRESS_REASONS.speechUnavailable,
};

/**
 * The relayed notifications of the last 24 hours (`relay/seen.json`) and what became of them. A notification the
 * relay sends again (after a reconnect) is acknowledged and its receipts are sent again; it is never shown twice.
 */
export class Deliveries {
  /** Relay ids being delivered now: a second frame meanwhile waits for the first. */
  private readonly inFlight = new Map<string, Promise<void>>();

  private constructor(
    private readonly store: Store,
    private readonly document: Document<SeenFile>,
    private readonly host: DeliveryHost,
  ) {
    if (typeof document.data.seen !== 'object' || document.data.seen === null) document.data.seen = {};
  }

  static async open(store: Store, host: DeliveryHost): Promise<Deliveries> {
    return new Deliveries(store, await store.open<SeenFile>('relay/seen.json', { seen: {} }), host);
  }

  /** RL30: one `notify` frame; resolves once its receipts are on their way. */
  deliver(frame: NotifyFrame | { id: string; unreadable: true }): Promise<void> {
    const running = this.inFlight.get(frame.id);
    if (running) return running.then(() => this.deliver(frame));
    const work = this.deliverOnce(frame).finally(() => this.inFlight.delete(frame.id));
    this.inFlight.set(frame.id, work);
    return work;
  }

  /**
   * The relay id of a relayed notification of the last 24 hours, by its app and its id on the computer (the
   * receipts of replies and speech name it): the relay id itself, or a collapse id, whose newest notification it is.
   */
  relayIdOf(app: string, localId: string): string | undefined {
    const seen = this.document.data.seen;
    if (RELAY_ID_PATTERN.test(localId)) return seen[localId]?.app === app ? localId : undefined;
    let newest: { id: string; at: number } | undefined;
    for (const [id, entry] of Object.entries(seen)) {
      if (entry.app === app && entry.localId === localId && (!newest || entry.at >= newest.at)) newest = { id, at: entry.at };
    }
    return newest?.id;
  }

  /** RL32: the person replied: `replied` with the text (cut to the relay's limit). */
  async replied(app: string, localId: string, text: string): Promise<void> {
    const id = this.relayIdOf(app, localId);
    if (id) await this.host.receipt({ id, kind: 'replied', text: text.slice(0, MAX_REPLY_CHARS) });
  }

  /** RL32: its speech finished. */
  async spoken(app: string, localId: string): Promise<void> {
    const id = this.relayIdOf(app, localId);
    if (id) await this.host.receipt({ id, kind: 'spoken' });
  }

  /** RL35: a scheduled notification showed: if it is a relayed one still waiting, the relay is told what became of it. */
  async shown(app: string, localId: string): Promise<void> {
    const id = this.relayIdOf(app, localId);
    const entry = id === undefined ? undefined : this.document.data.seen[id];
    if (!id || !entry?.waiting) return;
    const outcomes = outcomesOf(this.host.record(app, localId));
    const { waiting: _, ...told } = entry;
    this.document.data.seen[id] = { ...told, outcomes };
    await this.store.save(this.document);
    await Promise.all(outcomes.map((outcome) => this.host.receipt({ id, ...outcome })));
  }

  /** Unpairing: the ids belong to the old pairing. */
  async clear(): Promise<void> {
    this.document.data.seen = {};
    await this.store.save(this.document);
  }

  private async deliverOnce(frame: NotifyFrame | { id: string; unreadable: true }): Promise<void> {
    const known = this.document.data.seen[frame.id];
    if (known && Date.now() - known.at < SEEN_FOR_MS) return this.answer(frame.id, known.outcomes);
    if ('unreadable' in frame) {
      log.warn(`relay: notification ${frame.id} has no readable title; it is not shown`);
      return this.remember(frame.id, { app: '', outcomes: [{ kind: 'suppressed', reason: SUPPRESS_REASONS.unreadable, scope: 'all' }] });
    }
    let app = '';
    let entry: Omit<SeenEntry, 'at'>;
    try {
      app = await this.host.appFor(frame.key);
      const { withdraw, collapseId } = frame.payload;
      if (withdraw && collapseId) return await this.remember(frame.id, { app, outcomes: await this.withdraw(app, collapseId, withdraw) });
      const local = localNotification(frame, app, this.host.displayName(app));
      const localId = local.id !== frame.id ? { localId: local.id! } : {};
      const ahead = frame.payload.showAt === undefined ? 0 : Date.parse(frame.payload.showAt) - Date.now();
      if (ahead > 0 && ahead <= LATEST_SHOW_AT_MS) {
        await this.host.schedule(local, new Date(Date.parse(frame.payload.showAt!)));
        entry = { app, outcomes: [], ...localId, waiting: true };
      } else {
        await this.host.notify(local);
        entry = { app, outcomes: outcomesOf(this.host.record(app, local.id!)), ...localId };
      }
    } catch (error) {
      log.warn(`relay: notification ${frame.id} could not be delivered: ${(error as Error).message}`);
      entry = { app, outcomes: [{ kind: 'suppressed', reason: SUPPRESS_REASONS.deliveryFailed, scope: 'all' }] };
    }
    await this.remember(frame.id, entry);
  }

  /** RL36: a withdrawal shows nothing, so it has no receipts: the ack says the computer has it. */
  private async withdraw(app: string, collapseId: string, how: Withdrawal): Promise<Outcome[]> {
    await this.host.withdraw(app, collapseId, how);
    return [];
  }

  private async remember(id: string, entry: Omit<SeenEntry, 'at'>): Promise<void> {
    const now = Date.now();
    const seen = this.document.data.seen;
    seen[id] = { at: now, ...entry };
    const ids = Object.keys(seen);
    for (const old of ids) if (now - seen[old]!.at >= SEEN_FOR_MS) delete seen[old];
    for (const old of Object.keys(seen).slice(0, Math.max(0, Object.keys(seen).length - MAX_SEEN))) delete seen[old];
    await Promise.all([this.store.save(this.document), this.answer(id, entry.outcomes)]);
  }

  /** RL32: `ack`, then the receipts. */
  private async answer(id: string, outcomes: Outcome[]): Promise<void> {
    this.host.ack(id);
    await Promise.all(outcomes.map((outcome) => this.host.receipt({ id, ...outcome })));
  }
}
