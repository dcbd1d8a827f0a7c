// "What happened" in a notification's details: when it arrived, how its banner ended, what was replied, held back or
// read aloud (or why not), what its buttons and follow-up did, and what this computer reported to the cloud relay —
// each in the words a person reads, never a reason code.

import type { VNode } from 'preact';
import type { NotificationDetails, RelayReceipt } from '../../../protocol/app-api.js';
import { isOpenableLink } from '../../../protocol/notification-rules.js';
import { SUPPRESS_REASONS, type SuppressReason } from '../../../protocol/relay/receipts.js';
import { HELD, SPEECH_SUPPRESSED, type SpeechSuppressed } from '../../../protocol/types.js';
import { Fact } from '../ui/facts.js';
import { exactTime, useDateFormats } from '../ui/time.js';

export function WhatHappened({ details }: { details: NotificationDetails }): VNode | null {
  const formats = useDateFormats();
  const { record } = details;
  const facts: Array<[string, VNode | string]> = [];
  facts.push(['Arrived', exactTime(record.deliveredAt, formats)]);
  if (record.reply !== undefined) facts.push(['You replied', <q class="reply-text">{record.reply}</q>]);
  if (record.repliedAt) facts.push(['Replied at', exactTime(record.repliedAt, formats)]);
  if (record.dismissedAt)
    facts.push([
      'Banner closed',
      `${exactTime(record.dismissedAt, formats)}${record.actionUsed && !details.row.state.program ? ` (${endedBy(record.actionUsed)})` : ''}`,
    ]);
  if (record.snoozedUntil) facts.push(['Snoozed until', exactTime(record.snoozedUntil, formats)]);
  if (record.held) facts.push(['Not shown', record.held === HELD.quietHours ? 'held back by quiet hours' : 'the app is muted']);
  if (record.actionNote) facts.push(['Problem', record.actionNote]);
  if (record.followUp) {
    const follow = record.followUp;
    facts.push([
      'Follow-up',
      `${follow.action}: ${follow.outcome === 'ran' ? 'ran' : follow.outcome === 'failed' ? `failed (${follow.detail ?? 'no reason given'})` : 'waiting for your approval'} at ${exactTime(follow.ranAt, formats)}`,
    ]);
  }
  if (record.speech) {
    const why = record.speech.suppressed;
    facts.push(['Read aloud', why ? `No: ${NOT_SPOKEN[why as SpeechSuppressed] ?? why}` : record.speech.text]);
  }
  const url = record.notification.url;
  if (url)
    facts.push([
      'Link',
      isOpenableLink(url) ? (
        <a href={url} target="_blank" rel="noopener noreferrer">
          {url}
        </a>
      ) : (
        <code>{url}</code>
      ),
    ]);
  return (
    <section class="section" aria-labelledby="happened-heading">
      <h3 id="happened-heading">What happened</h3>
      <dl class="facts">
        {facts.map(([label, value]) => (
          <Fact key={label} term={label}>
            {value}
          </Fact>
        ))}
      </dl>
      {details.callbackAttempts && details.callbackAttempts.length > 0 && (
        <>
          <h4>What its buttons and follow-up did</h4>
          <ul class="attempts">
            {details.callbackAttempts.map((attempt, index) => (
              <li key={index} class={attempt.outcome === 'failed' ? 'attempt-failed' : undefined}>
                <strong>{attempt.action}</strong>:{' '}
                {attempt.outcome === 'ran' ? 'done' : attempt.outcome === 'failed' ? 'failed' : 'waiting for your approval'}
                {attempt.detail && <> — {attempt.detail}</>}
                {attempt.at && <span class="muted"> · {exactTime(attempt.at, formats)}</span>}
              </li>
            ))}
          </ul>
        </>
      )}
      {details.receipts && details.receipts.length > 0 && (
        <>
          <h4>Reported to the cloud relay</h4>
          <ul class="attempts">
            {details.receipts.map((receipt, index) => (
              <li key={index}>{receiptWords(receipt)}</li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

/** Why a notification was not read aloud (the record's `speech.suppressed`), as the person reads it. */
const NOT_SPOKEN: Record<SpeechSuppressed, string> = {
  [SPEECH_SUPPRESSED.unavailable]: 'this computer has no voice to read it with',
  [SPEECH_SUPPRESSED.muted]: 'all sounds are muted',
  [SPEECH_SUPPRESSED.quietHours]: 'quiet hours',
  [SPEECH_SUPPRESSED.appMuted]: 'the app is muted',
  [SPEECH_SUPPRESSED.appSpeechOff]: 'reading aloud is off for this app',
};

/** Why the relay was told a notification was not shown or not read aloud. */
const RECEIPT_REASONS: Record<SuppressReason, string> = {
  [SUPPRESS_REASONS.muted]: 'muted',
  [SUPPRESS_REASONS.quietHours]: 'quiet hours',
  [SUPPRESS_REASONS.deliveryFailed]: 'it could not be delivered',
  [SUPPRESS_REASONS.unreadable]: 'it could not be read',
  [SUPPRESS_REASONS.speechOff]: 'reading aloud is off for this app',
  [SUPPRESS_REASONS.speechUnavailable]: 'this computer has no voice to read it with',
};

/** A receipt this computer sent the relay, in words: "Shown on screen", "Not read aloud (quiet hours)". */
function receiptWords(receipt: RelayReceipt): string {
  const what =
    receipt.kind === 'displayed'
      ? 'Shown on screen'
      : receipt.kind === 'spoken'
        ? 'Read aloud'
        : receipt.kind === 'replied'
          ? 'Replied'
          : receipt.scope === 'speech'
            ? 'Not read aloud'
            : 'Not shown';
  return receipt.reason ? `${what} (${RECEIPT_REASONS[receipt.reason as SuppressReason] ?? receipt.reason})` : what;
}

const ENDINGS: Record<string, string> = {
  dismiss: 'dismissed by the app',
  close: 'you closed it',
  timeout: 'it timed out',
  open: 'you clicked it',
};
const endedBy = (action: string): string => ENDINGS[action] ?? `“${action}”`;
