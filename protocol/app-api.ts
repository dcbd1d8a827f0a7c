// The person's app (docs/app.md): the contract between the daemon, which serves `/app` and its person-only API
// `/app/api/*`, and the front end in `app/`, which imports these types. Only the person's session cookie opens
// `/app/api` (never the API token), and the API token's `/v1` never takes the cookie.
//
// Changes to this file are additive only (new optional fields, new routes): the front end is built against it.

import type { ApprovalQuestion, ApprovalsAnswer } from './app-api-approvals.js';
import type { ErrorBody } from './errors.js';
import type { ReceiptKind, SuppressScope } from './relay/receipts.js';
import type { ButtonKind, HistoryRecord, Notification } from './types.js';

// ---------------------------------------------------------------------------------------------------------------
// Where things are

/** Everything of the app is under this path. */
export const APP_BASE = '/app';
/** The person-only API. */
export const APP_API_BASE = '/app/api';

/** Is `path` the folder `base` or something inside it (`/app/api`, `/app/api/history`, never `/app/apiary`)? */
export const isWithin = (path: string, base: string): boolean => path === base || path.startsWith(`${base}/`);

/** The app's pages (`/app/<page>`); `history` is the landing page. */
export const APP_PAGES = ['history', 'approvals', 'compose', 'settings', 'designer', 'relay'] as const;
export type AppPage = (typeof APP_PAGES)[number];
/** Each page's name, as the window's navigation and the app menu's actions (a right-click on Notifier) show it. */
export const APP_PAGE_TITLES: Record<AppPage, string> = {
  history: 'History',
  approvals: 'Approvals',
  compose: 'Compose',
  settings: 'Settings',
  designer: 'Designer',
  relay: 'Relay',
};
export const DEFAULT_APP_PAGE: AppPage = 'history';

/** The session cookie: `HttpOnly; SameSite=Strict; Path=/app`. */
export const APP_SESSION_COOKIE = 'notifier_session';
/**
 * The header every request of the API carries, with the session's CSRF value. The page gets that value once, from
 * the sign-in, in the fragment of the address it goes on to (`#csrf=…`), and keeps it in the storage of its own
 * origin: browsers send the cookie to every port of 127.0.0.1, but keep storage apart by port, so a program on
 * another port that is sent the cookie still has no value to go with it (docs/app.md#the-three-doors).
 */
export const APP_CSRF_HEADER = 'X-Notifier-CSRF';
/**
 * The name of the CSRF value in the sign-in's fragment, and in the query of a GET that cannot carry the header (an
 * EventSource, an image, a download link).
 */
export const APP_CSRF_PARAM = 'csrf';
/** Where the app's page keeps the CSRF value: its origin's `localStorage` (every tab and window of the app). */
export const APP_CSRF_STORAGE = 'notifier.csrf';

/** The error `code` of a request whose session is missing or ended (401). */
export const APP_SESSION_REQUIRED = 'app_session_required';
/** The error `code` of a request without the session's CSRF value (403): the page has no session it can use. */
export const APP_CSRF_MISMATCH = 'app_csrf_mismatch';

/**
 * Notifier's own app: what the person writes in Compose is sent as it (unless they pick another), and so are the
 * cloud relay's connector requests. Its name is Notifier, registered or not.
 */
export const OWN_APP = 'notifier';
export const OWN_APP_NAME = 'Notifier';

/**
 * How a person opens the window, in their words: said by the window once signed out, and by the daemon's pages
 * without a session or after a used sign-in link. The tray's item and the app menu's entry have these names.
 */
export const HOW_TO_OPEN_NOTIFIER =
  'To open Notifier, click its icon in the system tray and choose Open Notifier, start “Notifier” from your list of apps, ' +
  'or run “notifier open” in a terminal.';

/**
 * The routes of the person-only API, as patterns: `{name}` stands for one part of the path, percent-encoded. The
 * daemon's routes stand at these very patterns, and the window builds its paths from them (appPaths), so neither
 * writes a path of the API again.
 */
export const APP_API = {
  session: '/app/api/session',
  /** GET: the signed-in windows; DELETE: "Sign out everywhere". */
  sessions: '/app/api/sessions',
  /** DELETE: signs out one window, by its handle. */
  sessionOne: '/app/api/sessions/{handle}',
  apps: '/app/api/apps',
  appIcon: '/app/api/apps/{app}/icon',
  history: '/app/api/history',
  historyExport: '/app/api/history/export',
  historyReadAll: '/app/api/history/read-all',
  /** POST: marks the records of a selection read or unread, in one request. */
  historyMark: '/app/api/history/mark',
  /** POST: deletes records, which its Undo puts back (`historyUndo`). */
  historyDelete: '/app/api/history/delete',
  /** POST: takes back a deletion, a Mark all read or a dismissal, by the token its answer gave. */
  historyUndo: '/app/api/history/undo',
  /** GET (`?app=`) and DELETE (`?app=&id=`): `GET`, `DELETE /v1/scheduled` (docs/api/scheduled.md). */
  historyScheduled: '/app/api/history/scheduled',
  notification: '/app/api/history/{app}/{id}',
  card: '/app/api/history/{app}/{id}/card.png',
  read: '/app/api/history/{app}/{id}/read',
  reply: '/app/api/history/{app}/{id}/reply',
  press: '/app/api/history/{app}/{id}/press',
  reshow: '/app/api/history/{app}/{id}/reshow',
  dismiss: '/app/api/history/{app}/{id}/dismiss',
  snooze: '/app/api/history/{app}/{id}/snooze',
  unsnooze: '/app/api/history/{app}/{id}/unsnooze',
  approvals: '/app/api/approvals',
  question: '/app/api/approvals/questions/{id}',
  revoke: '/app/api/approvals/revoke',
  deny: '/app/api/approvals/deny',
  askAgain: '/app/api/approvals/ask-again',
  connector: '/app/api/approvals/connectors/{id}',
  composeTemplates: '/app/api/compose/templates',
  compose: '/app/api/compose',
  preview: '/app/api/preview',
  events: '/app/api/events',
} as const;

/** A pattern's path with its parts filled in, each percent-encoded: `pathOf('/a/{id}', {id: 'x/y'})` is `/a/x%2Fy`. */
export function pathOf(pattern: string, parts: Readonly<Record<string, string>>): string {
  return pattern.replace(/\{(\w+)\}/g, (_match, name: string) => encodeURIComponent(parts[name] ?? ''));
}

/** The paths of the app and its API, as the window asks for them. */
export const appPaths = {
  /** `GET /app/signin?code=…`: trades a one-time sign-in code for a session. */
  signin: '/app/signin',
  /** A page of the app: `/app/history`. */
  page: (page: AppPage): string => `/app/${page}`,
  /** The details of one notification, as a page the app shows: `/app/history/<app>/<id>`. */
  notificationPage: (app: string, id: string): string => pathOf('/app/history/{app}/{id}', { app, id }),
  /** The built front end's files. */
  assets: '/app/assets/',

  session: APP_API.session,
  sessions: APP_API.sessions,
  sessionOne: (handle: string): string => pathOf(APP_API.sessionOne, { handle }),
  apps: APP_API.apps,
  appIcon: (app: string): string => pathOf(APP_API.appIcon, { app }),
  history: APP_API.history,
  historyExport: APP_API.historyExport,
  historyReadAll: APP_API.historyReadAll,
  historyMark: APP_API.historyMark,
  historyDelete: APP_API.historyDelete,
  historyUndo: APP_API.historyUndo,
  notification: (app: string, id: string): string => pathOf(APP_API.notification, { app, id }),
  card: (app: string, id: string): string => pathOf(APP_API.card, { app, id }),
  read: (app: string, id: string): string => pathOf(APP_API.read, { app, id }),
  reply: (app: string, id: string): string => pathOf(APP_API.reply, { app, id }),
  press: (app: string, id: string): string => pathOf(APP_API.press, { app, id }),
  reshow: (app: string, id: string): string => pathOf(APP_API.reshow, { app, id }),
  dismiss: (app: string, id: string): string => pathOf(APP_API.dismiss, { app, id }),
  snooze: (app: string, id: string): string => pathOf(APP_API.snooze, { app, id }),
  unsnooze: (app: string, id: string): string => pathOf(APP_API.unsnooze, { app, id }),
  approvals: APP_API.approvals,
  question: (id: string): string => pathOf(APP_API.question, { id }),
  revoke: APP_API.revoke,
  deny: APP_API.deny,
  askAgain: APP_API.askAgain,
  connector: (id: string): string => pathOf(APP_API.connector, { id }),
  composeTemplates: APP_API.composeTemplates,
  compose: APP_API.compose,
  preview: APP_API.preview,
  events: APP_API.events,
} as const;

// ---------------------------------------------------------------------------------------------------------------
// Errors

/**
 * Every error of `/app/api`: the daemon's one error shape (protocol/errors.ts), the same as `/v1`'s;
 * `app_session_required` (401) when the session is missing or ended.
 */
export type AppError = ErrorBody;

// ---------------------------------------------------------------------------------------------------------------
// Session: GET and DELETE /app/api/session

export interface SessionAnswer {
  /** This computer's name, for the window's title bar or header. */
  computerName: string;
}

export interface OkAnswer {
  ok: true;
}

/** A signed-in window (a session), as Settings lists it. */
export interface SignedInWindow {
  /** Names the session without revealing it: the first characters of its digest. */
  handle: string;
  /** "Chromium on Linux". */
  browser: string;
  signedInAt: string;
  lastUsedAt: string;
  /** The window that asks. */
  thisWindow: boolean;
}

/** `GET /app/api/sessions` */
export interface SessionsAnswer {
  sessions: SignedInWindow[];
}

/** A notification waiting for its time (ntfy's delay: docs/api/scheduled.md). */
export interface ScheduledRow {
  app: string;
  id: string;
  title: string;
  /** When it shows. */
  at: string;
  createdAt: string;
}

export interface ScheduledAnswer {
  scheduled: ScheduledRow[];
}

// ---------------------------------------------------------------------------------------------------------------
// Apps: GET /app/api/apps

export interface AppSummary {
  app: string;
  /** The display name, as on its banners. */
  appName: string;
  /** GET /app/api/apps/<app>/icon answers a picture. */
  hasIcon: boolean;
  /** Records in History. */
  count: number;
  unread: number;
  /** The app's own template names (for Compose). */
  templates: string[];
}

export interface AppsAnswer {
  apps: AppSummary[];
}

// ---------------------------------------------------------------------------------------------------------------
// History

export const HISTORY_STATES = ['all', 'unread', 'waiting', 'replied', 'failed', 'programs'] as const;
export type HistoryStateFilter = (typeof HISTORY_STATES)[number];

/** `GET /app/api/history` (and `/export`): `limit` 1..500, default 100. */
export const APP_HISTORY_LIMIT = { default: 100, max: 500 } as const;

/** The query of `GET /app/api/history`, as the front end builds it (every value is sent as text). */
export interface HistoryQuery {
  /** Every word must occur, case and accents ignored (as GET /v1/history/search). */
  q?: string;
  app?: string;
  state?: HistoryStateFilter;
  /** ISO 8601 date or date-time; a date alone is that day's start (from) or end (to), local time. */
  from?: string;
  to?: string;
  offset?: number;
  limit?: number;
}

/** Why a banner was never shown. */
export const HELD_REASONS = ['quietHours', 'appMuted'] as const;
export type HeldReason = (typeof HELD_REASONS)[number];

export interface RowState {
  /** It takes a reply or an answer and has not expired. */
  waiting?: boolean;
  replied?: boolean;
  snoozedUntil?: string;
  /** What failed and why: the action's note (a command, a callback) or why it was not spoken. */
  failed?: string;
  held?: HeldReason;
  /** Its banner is closed (by the person, a timeout, an action). */
  dismissed?: boolean;
  /** It came through the cloud relay. */
  relayed?: boolean;
  /** Another program's notification, kept from the desktop (docs/desktop.md): read-only here. */
  program?: boolean;
}

/**
 * Does a row belong to a History filter? The one rule of the filters: the daemon filters History by it, and the app
 * places a row that arrives live by it. `row` may work its facts out lazily: only the one the filter needs is read.
 */
export function inHistoryState(state: HistoryStateFilter, row: { readonly read: boolean; readonly state: RowState }): boolean {
  switch (state) {
    case 'all':
      return true;
    case 'unread':
      return !row.read;
    case 'waiting':
      return row.state.waiting === true;
    case 'replied':
      return row.state.replied === true;
    case 'failed':
      return row.state.failed !== undefined;
    case 'programs':
      return row.state.program === true;
  }
}

/** The priorities a row is marked with (the others go unmarked). */
export const MARKED_PRIORITIES = ['high', 'urgent'] as const;
export type MarkedPriority = (typeof MARKED_PRIORITIES)[number];

/** One row of History, as the list paints it. */
export interface HistoryRow {
  app: string;
  appName: string;
  id: string;
  title: string;
  /** The body's first line, plain text. */
  firstLine: string;
  deliveredAt: string;
  read: boolean;
  state: RowState;
  /** Sent with priority `high` or `urgent` (absent for the others). */
  priority?: MarkedPriority;
}

export interface HistoryPage {
  /**
   * The number of the last change to History's rows this answer includes (the live events are numbered the same
   * way): the app applies only the events numbered above it, so a row is never counted twice or missed.
   */
  seq: number;
  /** Every record that matches. */
  total: number;
  /** Unread records in all of History (the page title's count). */
  unread: number;
  /** The window `[offset, offset + limit)` of the matches, newest first. */
  items: HistoryRow[];
}

/** A button of a notification and what it does, in plain words. */
export interface ButtonDescription {
  actionId: string;
  label: string;
  /** `dismiss`: a label alone, which only closes the notification. */
  kind: ButtonKind | 'dismiss';
  /** "Opens https://…", "Runs the command `make deploy`", "Tells https://… what you chose", "Asks for a reply". */
  what: string;
  /** It runs code (a command, a script, a shortcut) the person has not allowed yet: pressing it asks them first. */
  asksFirst?: boolean;
  /** It runs code that cannot run, and why, in words: the app did not ask to run code, or the person denied it. */
  refused?: string;
}

/** How a button's callback went: sent and answered 2xx, failed, or waiting for the person's approval. */
export const CALLBACK_OUTCOMES = ['ran', 'failed', 'waitingForApproval'] as const;
export type CallbackOutcome = (typeof CALLBACK_OUTCOMES)[number];

export interface CallbackAttempt {
  /** The button's label or the follow-up's action. */
  action: string;
  outcome: CallbackOutcome;
  detail?: string;
  at?: string;
}

/** A receipt the computer sent the cloud relay for a relayed notification. */
export interface RelayReceipt {
  kind: ReceiptKind;
  /** Of a `suppressed` receipt: one of `SUPPRESS_REASONS`. */
  reason?: string;
  scope?: SuppressScope;
}

/** `GET /app/api/history/<app>/<id>`. Opening it marks the notification read. */
export interface NotificationDetails {
  row: HistoryRow;
  record: HistoryRecord;
  /** The whole body as the sender wrote it (Markdown: draw it with the banner's rules). */
  bodyMarkdown: string;
  buttons: ButtonDescription[];
  /** It takes a reply now: the reply button's placeholder, and until when it can be answered. */
  takesReply: { placeholder?: string; until?: string; actionId?: string } | null;
  /** GET …/card.png answers the card picture. */
  hasCard: boolean;
  /** The approval questions waiting that belong to this notification. */
  questions: ApprovalQuestion[];
  callbackAttempts?: CallbackAttempt[];
  receipts?: RelayReceipt[];
}

/** `POST …/read` */
export interface ReadRequest {
  read: boolean;
}
/** `POST /app/api/history/read-all` */
export interface ReadAllRequest {
  app?: string;
}
/** The answer of both: the new total of unread records. */
export interface ReadAnswer {
  ok: true;
  unread: number;
  /**
   * The number of the last change to History's rows the count includes (as a page's and the events'): answers to
   * requests made together arrive in any order, and the window keeps the count of the highest number.
   */
  seq: number;
}
/** Of read-all: and the token its Undo takes (`POST /app/api/history/undo`). */
export interface ReadAllAnswer extends ReadAnswer {
  undo: string;
}

/**
 * The most records one request of a selection names (Mark read or unread, Delete): a Shift range selects at most
 * this many; for more, an app's Clear and Delete all of History are there.
 */
export const SELECTION_MAX = 5000;

/** `POST /app/api/history/delete`: the records to delete. */
export interface DeleteRequest {
  items: Array<{ app: string; id: string }>;
}
/** `POST /app/api/history/mark`: the records to mark read (`read: true`) or unread. Its answer is a `ReadAnswer`. */
export interface MarkRequest {
  items: Array<{ app: string; id: string }>;
  read: boolean;
}
/** How many were deleted (those already gone are not), and the token that puts them back. */
export interface DeleteAnswer {
  ok: true;
  deleted: number;
  undo: string;
}
/** The answer of `POST …/dismiss`: the token that puts the banner back. */
export interface DismissAnswer {
  ok: true;
  undo: string;
}
/** `POST /app/api/history/undo` (answered `{ok}`, or 404 `nothing_to_undo`). */
export interface UndoRequest {
  undo: string;
}

/** `POST …/reply` */
export interface ReplyRequest {
  text: string;
}
/** `POST …/press` */
export interface PressRequest {
  actionId: string;
}
/** `POST …/reshow` */
export interface ReshowAnswer {
  ok: true;
  id: string;
}
/** `POST …/snooze`: minutes from now ("tomorrow morning" is computed by the front end). */
export interface SnoozeRequest {
  minutes: number;
}
export interface SnoozeAnswer {
  ok: true;
  until: string;
}

/** `GET /app/api/history/export?format=json|csv&…filters` */
export const EXPORT_FORMATS = ['json', 'csv'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

// ---------------------------------------------------------------------------------------------------------------
// Compose

/** A field of a template, for Compose's form. */
export interface TemplateFieldDescription {
  key: string;
  label?: string;
  type?: string;
}
export interface ComposeTemplatesAnswer {
  templates: Array<{ name: string; fields: TemplateFieldDescription[] }>;
}

/**
 * `POST /app/api/compose`: a notification object (docs/api/notifications.md#the-notification-object); `app`
 * defaults to `notifier`. Answers `{ok, id}` or a 4xx naming the `field`.
 */
export type ComposeRequest = Partial<Notification> & Record<string, unknown>;
export interface ComposeAnswer {
  ok: true;
  id: string;
}

/** `POST /app/api/preview`: answers `image/png`. */
export interface PreviewRequest {
  app: string;
  notification: ComposeRequest;
  theme: 'light' | 'dark';
}

// ---------------------------------------------------------------------------------------------------------------
// Live events: GET /app/api/events (server-sent events)

/** The events' names, and what each one's `data` holds. */
export interface AppEvents {
  /**
   * First on every stream: the number of the last change to History's rows before it began. The changes (`row`,
   * `removed`, `read`) are numbered on from it, one by one: a gap means some were lost.
   */
  stream: { seq: number };
  /** A notification arrived or changed. */
  row: { row: HistoryRow; seq: number };
  /** A record deleted (`id`), an app's records cleared (`app` alone), or everything (no `app`). */
  removed: { app?: string; id?: string; seq: number };
  /** The total of unread records, after the change numbered `seq` (and before the next). */
  unread: { unread: number; seq: number };
  /** The questions, grants or connector requests changed. */
  approvals: ApprovalsAnswer;
  /**
   * Every record of an app (`app`), or of every app (no `app`), was marked read; or, with `restored`, its read state
   * was put back as it was (an Undo of Mark all read): refetch the rows shown.
   */
  read: { app?: string; seq: number; restored?: true };
  /**
   * A template or a manifest was saved or deleted, through any door (`/v1`, the window, a bundle): the Designer reads
   * its library and the manifests again. Nothing else is in it (at most one per turn of the daemon's event loop).
   */
  templates: Record<string, never>;
}
export type AppEventName = keyof AppEvents;
export const APP_EVENT_NAMES: readonly AppEventName[] = ['stream', 'row', 'removed', 'unread', 'approvals', 'read', 'templates'];

/** A comment line keeps the stream open this often. */
export const APP_EVENTS_KEEPALIVE_MS = 25_000;
