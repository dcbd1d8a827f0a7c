// The shapes of the API's resources and their fields (docs/api/) as the core holds them.

export const BUTTON_KINDS = ['url', 'command', 'script', 'shortcut', 'callback', 'openApp', 'reply'] as const;
export type ButtonKind = (typeof BUTTON_KINDS)[number];

export interface CallbackTarget {
  url?: string;
  payload?: unknown;
  /** A request written by the sender (docs/api/replies.md#r10a): sent as it is instead of Notifier's JSON. */
  method?: CallbackMethod;
  headers?: Record<string, string>;
  body?: string;
}

/** The methods a callback written by its sender may use (ntfy's `http` actions use these). */
export const CALLBACK_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type CallbackMethod = (typeof CALLBACK_METHODS)[number];

export interface Button {
  label: string;
  /** Manifest and template actions carry an id; a sender's button gets the slug of its label. */
  id?: string;
  style?: 'default' | 'destructive' | 'cancel';
  url?: string;
  command?: string;
  script?: string;
  shortcut?: string;
  input?: string;
  callback?: CallbackTarget;
  openApp?: { bundleId?: string; path?: string };
  reply?: { placeholder?: string; callback?: CallbackTarget; voice?: boolean };
}

export const FOLLOW_UP_KINDS = ['shortcut', 'script', 'command', 'callback'] as const;

/** docs/api/notifications.md#follow-up-object: an action written inline, a button with id and label and a kind. */
export interface InlineAction {
  id?: string;
  label: string;
  kind: string;
  command?: string;
  script?: string;
  shortcut?: string;
  input?: string;
  callback?: CallbackTarget;
}

export interface FollowUp {
  /** Seconds once validated; the sender may write `90s`, `10m`, `2h`. */
  after?: number;
  actionRef?: string;
  action?: InlineAction;
  enabled?: boolean;
}

export interface SpeakRequest {
  text?: string;
  voice?: string;
  speed?: number;
  lang?: string;
}

export const PRIORITIES = ['low', 'normal', 'high', 'urgent'] as const;
export const PRESENTATIONS = ['banner', 'voice', 'both'] as const;
export const LAYOUTS = ['imageLeft', 'imageRight', 'hero', 'compact'] as const;
export type Layout = (typeof LAYOUTS)[number];

/**
 * The notification object of docs/api/notifications.md#the-notification-object, after parsing (#n1 and #n15
 * applied, `speak` normalised).
 */
export interface Notification {
  app: string;
  id: string;
  title?: string;
  subtitle?: string;
  body?: string;
  image?: string;
  url?: string;
  template?: string;
  metadata?: Record<string, unknown>;
  group?: string;
  persistent?: boolean;
  timeout?: number;
  sound?: string;
  priority?: (typeof PRIORITIES)[number];
  snooze?: boolean;
  reminder?: { title?: string; due?: string };
  buttons?: Button[];
  actionIds?: string[];
  followUp?: FollowUp;
  speak?: SpeakRequest;
  audio?: string;
  presentation?: (typeof PRESENTATIONS)[number];
  layout?: Layout;
  accentColor?: string;
  showSubtitle?: boolean;
  showBody?: boolean;
  showTimestamp?: boolean;
  maxBodyLines?: number;
}

/** History `held`: why a banner was kept in History only — quiet hours silenced banners, or the app is muted. */
export const HELD = { quietHours: 'quiet-hours', appMuted: 'app-muted' } as const;

/** History `speech.suppressed`: why a notification that asked to be spoken was not. */
export const SPEECH_SUPPRESSED = {
  /** No speech engine on this computer. */
  unavailable: 'unavailable',
  /** The muteAllSounds setting. */
  muted: 'muted',
  /** A quiet period. */
  quietHours: 'quiet-hours',
  /** The app's muteBanners setting: History only. */
  appMuted: 'app-muted',
  /** The app's Speak switch is off. */
  appSpeechOff: 'app-speech-off',
} as const;
export type SpeechSuppressed = (typeof SPEECH_SUPPRESSED)[keyof typeof SPEECH_SUPPRESSED];

/** docs/api/history.md#the-history-record. Fields that do not apply are absent, never null. */
export interface HistoryRecord {
  id: string;
  app: string;
  notification: Notification;
  deliveredAt: string;
  dismissedAt?: string;
  actionUsed?: string;
  actionNote?: string;
  snoozedUntil?: string;
  /**
   * Why the banner was never shown: `quiet-hours` (held while quiet hours silenced banners). The record stays in
   * History, not dismissed; it is not put on screen later, not even after a restart (docs/settings.md).
   */
  held?: string;
  imagePath?: string;
  /** The service's copy of the notification's `audio` recording (content-addressed in `<support>/audio/`). */
  recordingPath?: string;
  fields?: Record<string, string>;
  speech?: { text: string; voice?: string; audioPath?: string; durationSeconds?: number; suppressed?: string };
  followUp?: {
    ranAt: string;
    action: string;
    actionId: string;
    kind: string;
    outcome: 'ran' | 'failed' | 'waitingForApproval';
    detail?: string;
    unattendedSeconds: number;
  };
  reply?: string;
  repliedAt?: string;
  replyAudioPath?: string;
  replyTranscript?: string;
}

/** docs/api/replies.md#the-reply-record: an item of an app's reply queue, what the person typed into a banner. */
export interface ReplyRecord {
  notificationId: string;
  app: string;
  /** The notification's title; absent when it had none. */
  title?: string;
  text: string;
  repliedAt: string;
}

/** docs/api/apps.md#post-v1-register: the corners a banner may appear in. */
export const CORNERS = ['topRight', 'topLeft', 'bottomRight', 'bottomLeft'] as const;

/** An app's registration (docs/api/apps.md#post-v1-register), with the person's own settings for the app. */
export interface AppRegistration {
  app: string;
  appName?: string;
  bundleId?: string;
  callbackURL?: string;
  allowCommands?: boolean;
  defaults?: { sound?: string; persistent?: boolean; timeout?: number; corner?: string };
  icon?: string;
  /** What the person set for the app beyond its registration (PUT /v1/apps/settings; docs/api/apps.md#a8). */
  settings?: AppPreferences;
}

/** Per-app settings of the person; absent keys take their defaults (docs/api/apps.md#a8). */
export interface AppPreferences {
  /** The name the person gave the app, shown instead of its own (docs/api/apps.md#a8); absent: its own. */
  displayName?: string | null;
  /** Notifications go to History only: no banner, no sound. */
  muteBanners?: boolean;
  /** Stacking level for this app; absent or null follows the global `stacking` setting. */
  stacking?: string | null;
  /** Speech allowed for this app (default true). */
  speak?: boolean;
  /** The app's voice, speed and language when a notification gives none; absent: the global settings. */
  voice?: string | null;
  speed?: number | null;
  lang?: string | null;
  /** `priority: urgent` from this app breaks through quiet hours (default false). */
  urgentBreaksQuiet?: boolean;
}

/** docs/api/templates.md#t21: the types of a manifest field. */
export const FIELD_TYPES = ['text', 'number', 'date', 'url', 'image', 'bool', 'list'] as const;

export interface ManifestField {
  key: string;
  type: (typeof FIELD_TYPES)[number];
  required: boolean;
  sample?: string | number | boolean | string[];
}

/** A reusable action: a button with an id and its kind written out. */
export type ManifestAction = Button & { id: string; kind: string };

export interface ManifestAsset {
  id: string;
  type: 'rive';
  /** Absolute, `~/`, `file://`, or a plain name in the app's assets folder. */
  path: string;
  stateMachine?: string;
  inputs?: Record<string, unknown> | unknown[];
}

/**
 * The manifest object (docs/api/templates.md#manifests, #t21), as validated and normalised
 * (daemon/core/templates/manifest-rules.ts).
 */
export interface Manifest {
  app: string;
  /** Default: the app id. A name set by app registration wins when a banner is drawn. */
  appName: string;
  version: number;
  icon?: string;
  fields: ManifestField[];
  actions: ManifestAction[];
  assets: ManifestAsset[];
  defaultTemplate?: string;
  family?: string;
  followUp?: FollowUp;
  appBundleId?: string;
  appPath?: string;
}

/** How banners gather into stacks: the global `stacking` setting and an app's own. */
export const STACKING_LEVELS = ['byApp', 'byIssuer', 'bySender', 'never'] as const;
export type StackingLevel = (typeof STACKING_LEVELS)[number];
/** The stacking a computer starts with (docs/api/notifications.md#n44). */
export const DEFAULT_STACKING: StackingLevel = 'bySender';

/** What importing a template bundle does when the app already has a template of that name. */
export const ON_CONFLICT = ['keepBoth', 'replace', 'fail'] as const;

/** The agent clients `POST /v1/mcp/install` knows. */
export const MCP_CLIENTS = ['claudeCode', 'codex', 'claudeDesktop', 'cli', 'generic'] as const;
