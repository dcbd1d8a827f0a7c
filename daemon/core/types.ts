// The shapes of spec 1 ("Resources and their fields") as the core holds them.

export const BUTTON_KINDS = ['url', 'command', 'script', 'shortcut', 'callback', 'openApp', 'reply'] as const;
export type ButtonKind = (typeof BUTTON_KINDS)[number];

export interface CallbackTarget {
  url?: string;
  payload?: unknown;
}

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
export type FollowUpKind = (typeof FOLLOW_UP_KINDS)[number];

/** spec 1, Follow-up object: "An action written inline: a button with id and label and a kind". */
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

/** The notification object of spec 1, after parsing (rules 1 and 4 applied, `speak` normalised). */
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

/** spec 1, History record. Fields that do not apply are absent, never null. */
export interface HistoryRecord {
  id: string;
  app: string;
  notification: Notification;
  deliveredAt: string;
  dismissedAt?: string;
  actionUsed?: string;
  actionNote?: string;
  snoozedUntil?: string;
  imagePath?: string;
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

/** spec 1, App registration, with the keys the reference (§1.17) pins down for the CLI's extras. */
export interface AppRegistration {
  app: string;
  appName?: string;
  bundleId?: string;
  callbackURL?: string;
  allowCommands?: boolean;
  defaults?: { sound?: string; persistent?: boolean; timeout?: number; corner?: string };
  icon?: string;
}

/** The parts of a manifest (spec 2) the notification path reads. The manifest routes come with templates. */
export interface Manifest {
  app: string;
  appName?: string;
  defaultTemplate?: string;
  actions?: Array<Button & { kind?: string }>;
  followUp?: FollowUp;
}

/** The parts of a saved template (spec 2) the notification path reads: its defaults. */
export interface Template {
  name: string;
  app: string;
  title?: string;
  subtitle?: string;
  body?: string;
  image?: string;
  url?: string;
  sound?: string;
  priority?: Notification['priority'];
  persistent?: boolean;
  timeout?: number;
  snooze?: boolean;
  accentColor?: string;
  buttons?: Button[];
  followUp?: FollowUp;
}
