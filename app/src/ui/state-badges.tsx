// A notification's state in words, as small badges: waiting for the person, replied, snoozed, failed, held,
// relayed; and its priority when it is high or urgent. Drawn in History's rows and details.

import type { VNode } from 'preact';
import type { MarkedPriority, RowState } from '../../../protocol/app-api.js';
import { Icon, type IconName } from './icon.js';
import { exactTime, type Moment, untilTime, useTime } from './time.js';
import './state-badges.css';
import './tones.css';

interface Badge {
  text: string;
  icon: IconName;
  tone: 'waiting' | 'done' | 'quiet' | 'problem';
  title?: string;
}

function badgesOf(state: RowState, moment: Moment): Badge[] {
  const badges: Badge[] = [];
  if (state.waiting) badges.push({ text: 'Waiting for you', icon: 'hourglass', tone: 'waiting' });
  if (state.replied) badges.push({ text: 'Replied', icon: 'messageSquareReply', tone: 'done' });
  if (state.snoozedUntil) {
    badges.push({
      text: `Snoozed until ${untilTime(state.snoozedUntil, moment)}`,
      icon: 'clock',
      tone: 'quiet',
      title: exactTime(state.snoozedUntil, moment),
    });
  }
  if (state.failed) badges.push({ text: 'Failed', icon: 'triangleAlert', tone: 'problem', title: state.failed });
  if (state.held === 'quietHours') badges.push({ text: 'Held: quiet hours', icon: 'moonStar', tone: 'quiet' });
  if (state.held === 'appMuted') badges.push({ text: 'Held: app muted', icon: 'bellOff', tone: 'quiet' });
  if (state.relayed) badges.push({ text: 'Relayed', icon: 'cloud', tone: 'quiet' });
  return badges;
}

export function StateBadges({ state }: { state: RowState }): VNode | null {
  const badges = badgesOf(state, useTime());
  if (badges.length === 0) return null;
  return (
    <span class="badges">
      {badges.map((badge) => (
        <span key={badge.text} class={`badge tone-${badge.tone}`} title={badge.title ?? badge.text}>
          <Icon name={badge.icon} />
          <span class="badge-text">{badge.text}</span>
        </span>
      ))}
    </span>
  );
}

/** High or urgent, seen at a glance (urgent in the danger colour) and named in words ("High priority", "Urgent"). */
export function PriorityMark({ priority }: { priority?: MarkedPriority }): VNode | null {
  if (!priority) return null;
  const urgent = priority === 'urgent';
  return (
    <span class={`badge tone-${priority}`} title={urgent ? 'Urgent' : 'High priority'}>
      <Icon name={urgent ? 'octagonAlert' : 'chevronsUp'} />
      <span class="badge-text">
        {urgent ? 'Urgent' : 'High'}
        {!urgent && <span class="visually-hidden"> priority</span>}
      </span>
    </span>
  );
}
