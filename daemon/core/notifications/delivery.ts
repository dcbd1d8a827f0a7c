// The notify pipeline's second step (docs/architecture.md, "One notification's way"): how a notification is
// delivered, decided from facts alone — whether a banner shows or is held, whether it is spoken or why not, with
// sound or without, in which stack. A pure function: the facts are read by DeliveryRules from the settings, quiet
// hours and the app's own preferences; the same rules tell a banner drawn again (a reshow, a snooze's end) its
// sound and stack.

import {
  HELD,
  SPEECH_SUPPRESSED,
  type AppPreferences,
  type HistoryRecord,
  type Notification,
  type StackingLevel,
} from '../../../protocol/types.js';
import type { AppRegistry } from '../apps/app-registry.js';
import type { QuietHours, QuietStatus } from '../settings/quiet-hours.js';
import type { Settings } from '../settings/settings.js';
import { wantsSpeech } from '../voice/speech.js';
import type { Voice } from '../voice/voice.js';

/** What the delivery of one notification depends on, read at the moment it arrives. */
export interface DeliveryFacts {
  notification: Notification;
  /** The app's own preferences (PUT /v1/apps/settings). */
  preferences: AppPreferences;
  /** What quiet hours silence for this notification now (an urgent one of an app that lets it through: nothing). */
  quiet: QuietStatus;
  /** The muteAllSounds setting. */
  muteAllSounds: boolean;
  /** A speech engine is there, switched on, with a player to hear it. */
  speechOn: boolean;
  /** The app's stacking level, else the global one. */
  stacking: StackingLevel;
  /** It was dismissed while on its way in. */
  dismissedAt?: string;
}

/**
 * What becomes of its banner: `shown` now; `held` in History, never shown (a reshow shows it) — the app is muted, or
 * quiet hours hold banners; `spokenOnly`, with no banner to close later, so it is done when it is delivered;
 * `dismissed` while it was on its way in.
 */
export type BannerOutcome = 'shown' | 'held' | 'spokenOnly' | 'dismissed';

/** How it is delivered. */
export interface Delivery {
  banner: BannerOutcome;
  /** Why the banner is held, when it is. */
  held: NonNullable<HistoryRecord['held']> | null;
  /** It asks to be spoken. */
  speechWanted: boolean;
  /** Why its speech cannot play (History `speech.suppressed`), or null. */
  speechBlocked: string | null;
  /** Its speech (or a recording it carries) may play. */
  speak: boolean;
  /** Its banner makes its sound. */
  sound: boolean;
  stacking: StackingLevel;
  /** It counts as quieted, for the summary of a quiet-hours window. */
  quieted: boolean;
}

/**
 * docs/api/notifications.md#n31 and docs/api/apps.md#a10: `voice` speaks instead of showing a banner, `both` does
 * both. Speech that cannot play (a quiet period, muted, the app's Speak switch off, no engine) is shown as a banner
 * so it is not lost, and the record says why. A muted app's notifications go to History only, held; so do banners
 * quiet hours silence.
 */
export function decideDelivery(facts: DeliveryFacts): Delivery {
  const { notification, preferences, quiet } = facts;
  const muted = preferences.muteBanners === true;
  const speechWanted = wantsSpeech(notification);
  const silenced = quiet.speech ? SPEECH_SUPPRESSED.quietHours : facts.muteAllSounds ? SPEECH_SUPPRESSED.muted : null;
  const speechBlocked = muted
    ? SPEECH_SUPPRESSED.appMuted
    : (silenced ??
      (speechWanted && preferences.speak === false ? SPEECH_SUPPRESSED.appSpeechOff : null) ??
      (speechWanted && !facts.speechOn ? SPEECH_SUPPRESSED.unavailable : null));
  const bannerWanted = notification.presentation !== 'voice' || speechBlocked !== null;
  const held = !bannerWanted ? null : muted ? HELD.appMuted : quiet.banners ? HELD.quietHours : null;
  const banner: BannerOutcome =
    facts.dismissedAt !== undefined ? 'dismissed' : held !== null ? 'held' : bannerWanted ? 'shown' : 'spokenOnly';
  return {
    banner,
    held,
    speechWanted,
    speechBlocked,
    speak: facts.dismissedAt === undefined && speechBlocked === null,
    sound: bannerSound(facts),
    stacking: facts.stacking,
    quieted: quiet.active && !muted,
  };
}

/** A banner's sound plays unless every sound is muted or quiet hours silence it. */
export const bannerSound = (facts: Pick<DeliveryFacts, 'muteAllSounds' | 'quiet'>): boolean => !facts.muteAllSounds && !facts.quiet.sounds;

/** Reads the facts a delivery depends on from the settings, quiet hours and the app's preferences, as they are now. */
export class DeliveryRules {
  constructor(
    private readonly settings: Pick<Settings, 'muteAllSounds' | 'stacking' | 'voiceEngine'>,
    private readonly quietHours: Pick<QuietHours, 'statusFor'>,
    private readonly apps: Pick<AppRegistry, 'get'>,
    /** The voice: a speech engine is there and can be heard when it has an engine and a player. */
    private readonly voice: Pick<Voice, 'engine' | 'playerName'>,
  ) {}

  /** How a notification is delivered now: the facts as they are, decided by `decideDelivery`. */
  decide(notification: Notification, dismissedAt?: string): Delivery {
    return decideDelivery(this.facts(notification, dismissedAt));
  }

  facts(notification: Notification, dismissedAt?: string): DeliveryFacts {
    const preferences = this.apps.get(notification.app)?.settings ?? {};
    return {
      notification,
      preferences,
      quiet: this.quietFor(notification),
      muteAllSounds: this.settings.muteAllSounds,
      speechOn: this.speechOn(),
      stacking: this.stackingOf(notification.app),
      ...(dismissedAt !== undefined ? { dismissedAt } : {}),
    };
  }

  /** What quiet hours silence for this notification now: nothing when it is urgent and its app lets it through. */
  quietFor(notification: Notification): QuietStatus {
    return this.quietHours.statusFor(notification.priority, this.apps.get(notification.app)?.settings?.urgentBreaksQuiet === true);
  }

  /** An app's stacking level: its own setting, else the global one. */
  stackingOf(app: string): StackingLevel {
    return (this.apps.get(app)?.settings?.stacking as StackingLevel | null | undefined) ?? this.settings.stacking;
  }

  /** Is there a speech engine, is it on (setting voiceEngine), and is there a player to hear it with? */
  speechOn(): boolean {
    return this.settings.voiceEngine !== 'off' && this.voice.engine !== null && this.voice.playerName() !== null;
  }

  /** Whether this notification's banner may make its sound now. */
  soundAllowed(notification: Notification): boolean {
    return bannerSound({ muteAllSounds: this.settings.muteAllSounds, quiet: this.quietFor(notification) });
  }
}
