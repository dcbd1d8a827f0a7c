// The display side of the daemon. The core decides what is on screen; a Presenter only draws it and reports
// what the person did. The shape follows freedesktop notifications (org.freedesktop.Notifications): a banner
// has an id the presenter can replace in place or close, and named actions the person can invoke.

import type { ButtonKind } from '../../protocol/types.js';

export interface BannerKey {
  app: string;
  id: string;
}

export interface BannerAction {
  /** Stable key of the action (a D-Bus action key); the button's id. */
  actionId: string;
  label: string;
  kind: ButtonKind | 'dismiss';
  style?: string;
  /** For a reply action: the hint shown in the empty text field. */
  placeholder?: string;
  /** For a link button: the link it opens. */
  url?: string;
}

export interface Banner {
  key: BannerKey;
  appName: string;
  /** It came from an agent through the cloud relay (the reply window says so). */
  relayed?: true;
  title: string;
  subtitle?: string;
  body?: string;
  /** A local picture file (the cached copy of the notification's image). */
  imagePath?: string;
  /**
   * The banner's card drawn through its template (setting `bannerCardImage`), a PNG 380 points wide: shown where the
   * display shows a picture that wide (docs/templates.md), else `imagePath` or `appIcon`.
   */
  card?: string;
  /** The app's icon, as a local file. */
  appIcon?: string;
  /** What a click on the banner opens; absent when a click opens nothing. */
  url?: string;
  actions: BannerAction[];
  /** Offer the snooze menu. */
  snooze: boolean;
  priority: 'low' | 'normal' | 'high' | 'urgent';
  group?: string;
  /** Seconds until the banner closes itself; null keeps it until it is dismissed. */
  expireSeconds: number | null;
  /** Sound to play as it appears; null plays nothing (a quiet restore, an unsnooze). */
  sound: string | null;
  /** Progress from 0 to 100 (a template's `progress` component), drawn where the display can. */
  progress?: number;
  /** A collapsed stack's newest banner: how many more of its stack it stands for ("+99 more", docs/desktop.md). */
  more?: number;
  /** What went wrong with what the person did on this banner, in a few words (docs/api/notifications.md#n48). */
  problem?: string;
  /**
   * Drawn in place of this other banner, which is on screen and goes (a collapsed stack whose newest changed):
   * the display reuses its slot rather than adding one.
   */
  replaces?: BannerKey;
}

/** What the person did: to a banner, or to a question the display put in front of them. */
export type PresenterEvent =
  | { type: 'clicked'; key: BannerKey }
  | { type: 'button'; key: BannerKey; actionId: string }
  | { type: 'replied'; key: BannerKey; actionId: string; text: string }
  | { type: 'snoozed'; key: BannerKey; minutes: number }
  | { type: 'closed'; key: BannerKey; reason: 'dismissed' | 'expired' }
  /** What the person tried on the banner could not be done by the display itself (no reply window, say). */
  | { type: 'failed'; key: BannerKey; label: string; reason: string }
  | { type: 'answered'; questionId: string; allow: boolean };

/**
 * The snooze menu a banner with `snooze: true` offers (docs/api/notifications.md#n13): two choices, because a
 * notification server's action list is short and each choice is a button there.
 */
export const SNOOZE_CHOICES = [
  { minutes: 15, label: 'Snooze 15 min' },
  { minutes: 60, label: 'Snooze 1 hour' },
] as const;

export type PresenterListener = (event: PresenterEvent) => void;

/** Something the person's computer opens: a link, or an app brought forward. */
export type OpenTarget = { url: string } | { app: { bundleId?: string; path?: string } };

/** A question for the person: may this action run? The answer comes back through the approvals channel. */
export interface Question {
  id: string;
  app: string;
  /** What is asked about: an app's command permission, a callback host, a script, a template's code. */
  kind: string;
  /** One line for the person, e.g. "Let backup run commands, scripts and shortcuts?". */
  text: string;
  /** What exactly would run or be contacted (a host, a command, a script's SHA-256). */
  detail?: string;
  /** The detail is for the person's eyes only (a connector's approval code): shown, never written to a log. */
  private?: true;
  /** The two buttons' labels; default Allow and Deny (a connector approval says Approve and Deny). */
  answers?: { allow: string; deny: string };
}

/** The labels of a question's two buttons. */
export const answerLabels = (question: Question): { allow: string; deny: string } => question.answers ?? { allow: 'Allow', deny: 'Deny' };

export interface Presenter {
  readonly name: string;
  /**
   * True when the display closes banners itself when their time is up (pausing while one is hovered) and says so
   * with a `closed`/`expired` event; the core then does not time banners out itself.
   */
  readonly handlesExpiry: boolean;
  /**
   * True when the display gathers a stack's banners itself (Notification Center, the Action Center, or nothing
   * drawn at all); false when every banner sent is one more on screen (freedesktop servers): the core then keeps
   * one passive banner per stack there (docs/api/notifications.md#n47).
   */
  readonly drawsStacks: boolean;
  /**
   * False when the display shrinks a banner's picture to an icon, where a card 380 points wide is an unreadable
   * thumbnail: the core then draws no card (docs/templates.md). Absent: the card is shown.
   */
  readonly showsCards?: boolean;
  /** Connects to the display; events go to `listener` from then on. */
  start(listener: PresenterListener): Promise<void>;
  /** A banner that is not on screen yet. */
  show(banner: Banner): Promise<void>;
  /** A banner already on screen whose content changed (same app and id): updated in place, not added. */
  replace(banner: Banner): Promise<void>;
  /** Takes a banner off the screen. Closing one that is not there is not an error. */
  close(key: BannerKey): Promise<void>;
  /** Opens a link or brings an app forward for the person; rejects with the reason when it cannot. */
  open(target: OpenTarget): Promise<void>;
  /**
   * Puts a question in front of the person (an approval the core is waiting for). Asking again with the same id
   * replaces it (in place where the display can): new codes of a connector request.
   */
  ask(question: Question): void;
  /** Takes a question away: it was answered, or is no longer needed. */
  withdraw(questionId: string): void;
  stop(): Promise<void>;
}
