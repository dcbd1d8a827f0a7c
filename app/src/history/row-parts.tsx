// What a row and a notification's details both show: the app's picture and the notification's state in words.

import type { VNode } from 'preact';
import { appPaths, type HistoryRow, type RowState } from '../../../protocol/app-api.js';
import { exactTime, relativeTime, untilTime } from '../time.js';
import { Icon, type IconName } from '../ui/icon.js';
import { withCsrf } from '../api.js';
import { apps } from './store.js';

/** A calm colour per app for its initial when it has no icon (the same app always gets the same one). */
const AVATAR_HUES = 8;
function hueOf(app: string): number {
  let hash = 2166136261; // FNV-1a: similar ids (ci, claude, calendar) still spread over the colours
  for (const char of app) hash = Math.imul(hash ^ char.charCodeAt(0), 16777619);
  hash ^= hash >>> 15; // FNV's low bits change little: mix the high ones in
  hash = Math.imul(hash, 0x2c1b3c6d);
  hash ^= hash >>> 12;
  return (hash >>> 0) % AVATAR_HUES;
}

export function AppPicture({ app, appName, size = 'small' }: { app: string; appName: string; size?: 'small' | 'large' }): VNode {
  const summary = apps.value.find((known) => known.app === app);
  if (summary?.hasIcon) return <img class={`app-picture app-picture-${size}`} src={withCsrf(appPaths.appIcon(app))} alt="" />;
  const initial = ([...(appName || app).trim()][0] ?? '?').toUpperCase();
  return (
    <span class={`app-picture app-picture-${size} avatar-${hueOf(app)}`} aria-hidden="true">
      {initial}
    </span>
  );
}

interface Badge {
  text: string;
  icon: IconName;
  tone: 'waiting' | 'done' | 'quiet' | 'problem';
  title?: string;
}

export function badgesOf(state: RowState): Badge[] {
  const badges: Badge[] = [];
  if (state.waiting) badges.push({ text: 'Waiting for you', icon: 'hourglass', tone: 'waiting' });
  if (state.replied) badges.push({ text: 'Replied', icon: 'messageSquareReply', tone: 'done' });
  if (state.snoozedUntil) {
    badges.push({
      text: `Snoozed until ${untilTime(state.snoozedUntil)}`,
      icon: 'clock',
      tone: 'quiet',
      title: exactTime(state.snoozedUntil),
    });
  }
  if (state.failed) badges.push({ text: 'Failed', icon: 'triangleAlert', tone: 'problem', title: state.failed });
  if (state.held === 'quietHours') badges.push({ text: 'Held: quiet hours', icon: 'moonStar', tone: 'quiet' });
  if (state.held === 'appMuted') badges.push({ text: 'Held: app muted', icon: 'bellOff', tone: 'quiet' });
  if (state.relayed) badges.push({ text: 'Relayed', icon: 'cloud', tone: 'quiet' });
  return badges;
}

export function StateBadges({ state }: { state: RowState }): VNode | null {
  const badges = badgesOf(state);
  if (badges.length === 0) return null;
  return (
    <span class="badges">
      {badges.map((badge) => (
        <span key={badge.text} class={`badge badge-${badge.tone}`} title={badge.title ?? badge.text}>
          <Icon name={badge.icon} />
          <span class="badge-text">{badge.text}</span>
        </span>
      ))}
    </span>
  );
}

export function When({ at }: { at: string }): VNode {
  return (
    <time class="when" dateTime={at} title={exactTime(at)}>
      {relativeTime(at)}
    </time>
  );
}

export const titleOf = (row: Pick<HistoryRow, 'title' | 'firstLine'>): string => row.title || row.firstLine || '(no title)';
