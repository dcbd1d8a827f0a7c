// Types of the Node client (notifier.cjs, re-exported by notifier.mjs). The package is "type": "commonjs", so these
// declarations describe the CommonJS exports; an ES module importing the package sees the same named exports.

/** The port used when the platform's own support folder has no readable `port` file (a folder of its own has none). */
export declare const DEFAULT_PORT: number;
/** Milliseconds to wait for an answer when no `timeoutMs` is given. */
export declare const DEFAULT_TIMEOUT_MS: number;

/**
 * The support folder a Notifier started without options uses: `NOTIFIER_SUPPORT_DIR`, else the platform's place
 * (`~/Library/Application Support/Notifier`, `%APPDATA%\Notifier`, `$XDG_DATA_HOME/notifier` or `~/.local/share/notifier`).
 */
export declare function defaultSupportDir(env?: Record<string, string | undefined>): string;

export interface NotifierOptions {
  /**
   * Default: read from the support folder's `port` file, at construction, or on a later call while there is none.
   * Without one: 48617 for the platform's own folder, none (NotifierUnavailable) for a folder of its own.
   */
  port?: number;
  /** Default: read from the support folder's `token` file on every call. */
  token?: string;
  /** Per request; default 10000. */
  timeoutMs?: number;
  /** Default: `NOTIFIER_SUPPORT_DIR`, else the platform's default (see `defaultSupportDir`). */
  supportDir?: string;
}

/** Reply of GET /v1/health. */
export interface Health {
  ok: boolean;
  version: string;
  pid: number;
}

/** Fields of a notification besides `app` and `title`. Any other key is a template field (it lands in `metadata`). */
export interface NotificationFields {
  /** Your own id; reusing one replaces the banner on screen in place. */
  id?: string;
  subtitle?: string;
  body?: string;
  /** A file path, an https URL or a data: URI. */
  image?: string;
  url?: string;
  template?: string;
  metadata?: Record<string, unknown>;
  group?: string;
  persistent?: boolean;
  /** Seconds until the banner closes itself. */
  timeout?: number;
  sound?: string;
  priority?: 'low' | 'normal' | 'high' | 'urgent';
  snooze?: boolean;
  reminder?: Record<string, unknown>;
  /** Up to 8 button objects (see the API documentation). */
  buttons?: Record<string, unknown>[];
  actionIds?: string[];
  followUp?: Record<string, unknown>;
  speak?: boolean | { text?: string; voice?: string; speed?: number; lang?: string };
  audio?: string;
  presentation?: 'banner' | 'voice' | 'both';
  layout?: 'imageLeft' | 'imageRight' | 'hero' | 'compact';
  accentColor?: string;
  showSubtitle?: boolean;
  showBody?: boolean;
  showTimestamp?: boolean;
  maxBodyLines?: number;
  [templateField: string]: unknown;
}

/** Body of POST /v1/register besides `app`. */
export interface AppFields {
  appName?: string;
  callbackURL?: string;
  defaults?: { sound?: string; [key: string]: unknown };
  allowCommands?: boolean;
  [key: string]: unknown;
}

/** One entry of GET /v1/apps. */
export interface AppInfo {
  app: string;
  appName?: string;
  defaults?: Record<string, unknown>;
  [key: string]: unknown;
}

/** A History record; fields that do not apply are absent. */
export interface HistoryRecord {
  id: string;
  app: string;
  /** The notification as drawn, after the template was applied. */
  notification: NotificationFields & { app: string; id: string; title?: string };
  deliveredAt: string;
  dismissedAt?: string;
  actionUsed?: string;
  actionNote?: string;
  snoozedUntil?: string;
  imagePath?: string;
  /** Values the template's tokens resolved to at delivery. */
  fields?: Record<string, unknown>;
  speech?: Record<string, unknown>;
  followUp?: Record<string, unknown>;
  reply?: string;
  repliedAt?: string;
  replyAudioPath?: string;
  replyTranscript?: string;
}

/** One entry of the reply queue: what the person typed into a notification's reply field. */
export interface ReplyRecord {
  notificationId: string;
  app: string;
  /** The notification's title; absent when it had none. */
  title?: string;
  text: string;
  repliedAt: string;
}

export interface RepliesOptions {
  /** Only this app's queue; default every app's. */
  app?: string;
  /** Only replies after this moment: a Date, epoch seconds, or an ISO 8601 text. */
  since?: Date | number | string;
  /** true removes the replies returned from the queue (they stay on their History records). Default false. */
  consume?: boolean;
}

export interface WaitForReplyOptions {
  /** The notification's app: give it so a reply already on the History record is found too. */
  app?: string;
  /** Seconds to wait, 1 to 300; default 60. The request itself waits this plus a margin. */
  timeout?: number;
  /** false leaves the reply in the queue. Default true. */
  consume?: boolean;
}

/** Notifier answered with an error status; `message` is the reply's `error` text (the raw reply when it has none). */
export declare class NotifierError extends Error {
  constructor(status: number, message: string, options?: { cause?: unknown });
  /** The HTTP status; 0 for NotifierUnavailable. */
  readonly status: number;
}

/** Nothing answered: Notifier is not running, or it did not answer within the timeout. */
export declare class NotifierUnavailable extends NotifierError {
  constructor(message?: string, options?: { cause?: unknown });
  readonly status: 0;
}

export declare class Notifier {
  constructor(options?: NotifierOptions);
  readonly supportDir: string;
  /** null: a folder of its own without a `port` file (its Notifier is not running); looked for again on each call. */
  readonly port: number | null;
  readonly timeoutMs: number;
  /** `http://127.0.0.1:<port>`; null while the port is not known. */
  readonly baseURL: string | null;

  /** true when GET /v1/health answers, false on an error answer; rejects with NotifierUnavailable when nothing answers. */
  isAvailable(): Promise<boolean>;
  health(): Promise<Health>;
  /** Resolves to the notification's id. `title` may be undefined when the template supplies one. */
  notify(app: string, title: string | undefined, fields?: NotificationFields): Promise<string>;
  register(app: string, fields?: AppFields): Promise<void>;
  dismiss(app: string, id: string): Promise<void>;
  /** Without an app: every banner of every app. */
  dismissAll(app?: string): Promise<void>;
  /** Newest first; every app when `app` is undefined. Default limit 50. */
  history(app?: string, limit?: number): Promise<HistoryRecord[]>;
  /** Rejects with a TypeError for an empty app (Notifier would clear every app's History). */
  clearHistory(app: string): Promise<void>;
  apps(): Promise<AppInfo[]>;
  /** GET /v1/replies: the reply queue, oldest first. */
  replies(options?: RepliesOptions): Promise<ReplyRecord[]>;
  /** GET /v1/replies/wait: the reply to notification `id`, or null when the time is up. */
  waitForReply(id: string, options?: WaitForReplyOptions): Promise<ReplyRecord | null>;
  /** POST /v1/snooze: resolves to when the banner comes back (ISO 8601). */
  snooze(app: string, id: string, minutes: number): Promise<string>;
  /** POST /v1/unsnooze: brings a snoozed banner back now. */
  unsnooze(app: string, id: string): Promise<void>;
}
