import { SPOKEN_TEXT_CHARS } from '../../../protocol/limits.js';
import { parseMarkdown, plainText } from '../../../protocol/markdown.js';
import type { HistoryRecord, Notification } from '../../../protocol/types.js';

const MARKDOWN_LINK = /\[([^\]]*)\]\([^)]*\)/g;

/** One sentence of speech: Markdown links read as their label, white space collapsed, a full stop at the end. */
function sentence(text: string | undefined): string {
  const clean = (text ?? '').replace(MARKDOWN_LINK, '$1').replace(/\s+/g, ' ').trim();
  return clean === '' || /[.!?]$/.test(clean) ? clean : `${clean}.`;
}

/** Does this notification ask to be spoken (a `speak` value, or presentation `voice` or `both`)? */
export const wantsSpeech = (n: Notification): boolean => n.speak !== undefined || n.presentation === 'voice' || n.presentation === 'both';

/**
 * The speech record for History (docs/api/voice.md#v7: `text`, `voice`, ...; docs/api/voice.md#v2 for the text): the speak text, else
 * the title and the body (its Markdown without its marks) as two sentences, the first 2000 characters. `suppressed` says why it was not played;
 * `audioPath` and `durationSeconds` are added once it is written.
 */
export function speechRecord(n: Notification, suppressed: string | null): NonNullable<HistoryRecord['speech']> {
  const text = (
    n.speak?.text !== undefined
      ? sentence(n.speak.text)
      : [sentence(n.title), sentence(n.body && plainText(parseMarkdown(n.body)))].filter(Boolean).join(' ')
  ).slice(0, SPOKEN_TEXT_CHARS);
  return { text, ...(n.speak?.voice ? { voice: n.speak.voice } : {}), ...(suppressed ? { suppressed } : {}) };
}
