// What agents read about a notification (docs/relay-api.md#ra46, #ra47): the receipt, and the reply answer of the
// long-poll. A voice reply comes with a signed download link made for the address the agent used.

import {
  DEFAULT_SUPPRESS_REASON,
  TRANSCRIPT_NOTE,
  type Receipt,
  type ReplyAnswer,
  type ReplyFields,
  type SuppressScope,
} from '../../protocol/relay/receipts.js';
import type { NoteRow } from '../store/schema.js';
import { AUDIO_LINK_SECONDS } from '../limits.js';
import { audioLink } from './audio.js';
import type { Relay } from './relay.js';
import { iso } from './time.js';

/** Where links in a view point: the relay's origin as the caller reached it, and the time of the read. */
export interface ViewContext {
  relay: Relay;
  origin: string;
  now: number;
}

function replyFields(note: NoteRow, context: ViewContext): Partial<ReplyFields> {
  if (note.replied_at === null) return {};
  const reply = note.reply_text ?? note.transcript ?? undefined;
  return {
    repliedAt: iso(note.replied_at),
    ...(reply !== undefined && { reply }),
    ...(note.reply_text !== null && { text: note.reply_text }),
    ...(note.transcript !== null && { transcript: note.transcript, transcriptNote: TRANSCRIPT_NOTE }),
    ...(note.audio_size !== null && {
      audioUrl: audioLink(context.relay, context.origin, note.device_id, note.rid, context.now),
      audioUrlExpiresInSeconds: AUDIO_LINK_SECONDS,
    }),
    ...(note.duration_seconds !== null && { durationSeconds: note.duration_seconds }),
  };
}

function suppression(note: NoteRow): { suppressed: boolean; reason?: string } {
  return note.suppressed_at === null
    ? { suppressed: false }
    : { suppressed: true, reason: note.suppressed_reason ?? DEFAULT_SUPPRESS_REASON };
}

/** RA46: the receipt. */
export function receiptView(note: NoteRow, context: ViewContext): Receipt {
  const suppressed = suppression(note);
  return {
    notificationId: note.nid,
    received: true,
    receivedAt: iso(note.created_at),
    queued: note.acked_at === null && note.suppressed_at === null,
    displayed: note.displayed_at !== null,
    ...(note.displayed_at !== null && { displayedAt: iso(note.displayed_at) }),
    spoken: note.spoken_at !== null,
    ...(note.spoken_at !== null && { spokenAt: iso(note.spoken_at) }),
    replied: note.replied_at !== null,
    ...replyFields(note, context),
    expectReply: note.expect_reply === 1,
    ...suppressed,
    ...(suppressed.suppressed && { suppressedScope: (note.suppressed_scope ?? 'all') as SuppressScope }),
  };
}

/** RA47: the reply answer; `timedOut` only when a wait longer than 0 ran out. */
export function replyAnswer(note: NoteRow, context: ViewContext, timedOut: boolean): ReplyAnswer {
  return {
    notificationId: note.nid,
    replied: note.replied_at !== null,
    ...replyFields(note, context),
    ...(timedOut && { timedOut: true as const }),
    ...suppression(note),
  };
}

/** RA47: what ends a long-poll: a reply, or a suppression of everything (nothing will be shown, so no reply). */
export const replyIsSettled = (note: NoteRow): boolean =>
  note.replied_at !== null || (note.suppressed_at !== null && note.suppressed_scope === 'all');
