// The notify pipeline's last step (docs/architecture.md, "One notification's way"): what the person sees and
// hears of a delivered notification — its banner, with its card picture drawn first where banners show cards, or
// the banner of an earlier one with its id closed when this one is held; and its speech or recording.

import type { HistoryRecord } from '../../../protocol/types.js';
import type { Delivery } from './delivery.js';
import type { Prepared } from './prepare.js';
import type { Screen } from './screen.js';
import type { Speech } from './speech.js';

export interface PresentParts {
  screen: Pick<Screen, 'deliver'>;
  speech: Pick<Speech, 'say'>;
}

export async function present(record: HistoryRecord, prepared: Prepared, delivery: Delivery, parts: PresentParts): Promise<void> {
  await parts.screen.deliver(record, prepared.appName, delivery);
  if (delivery.speak && (delivery.speechWanted || prepared.recording)) parts.speech.say(record, prepared.recording);
}
