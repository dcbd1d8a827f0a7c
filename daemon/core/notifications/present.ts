// The notify pipeline's last step (docs/architecture.md, "One notification's way"): what the person sees and
// hears of a delivered notification — its banner, with its card picture drawn first where banners show cards, or
// the banner of an earlier one with its id closed when this one is held; and its speech or recording.

import type { HistoryRecord } from '../../../protocol/types.js';
import type { Presenter } from '../../present/presenter.js';
import type { Settings } from '../settings/settings.js';
import type { AppNames } from '../templates/app-names.js';
import type { CardPictures } from '../templates/cards.js';
import type { Delivery } from './delivery.js';
import type { Prepared } from './prepare.js';
import type { Screen } from './screen.js';
import type { Speech } from './speech.js';

export interface PresentParts {
  screen: Pick<Screen, 'putUp' | 'hold'>;
  cards: Pick<CardPictures, 'draw'>;
  names: Pick<AppNames, 'icon'>;
  settings: Pick<Settings, 'bannerCardImage'>;
  presenter: Pick<Presenter, 'showsCards'>;
  speech: Pick<Speech, 'say'>;
}

export async function present(record: HistoryRecord, prepared: Prepared, delivery: Delivery, parts: PresentParts): Promise<void> {
  const { app, id } = record;
  if (delivery.banner === 'shown') {
    const wantsCard = parts.settings.bannerCardImage && parts.presenter.showsCards !== false;
    if (wantsCard) await parts.cards.draw(record, prepared.appName, parts.names.icon(app));
    parts.screen.putUp(record, { sound: true, delivery });
  } else if (delivery.banner === 'held') parts.screen.hold(app, id);
  if (delivery.speak && (delivery.speechWanted || prepared.recording)) parts.speech.say(record, prepared.recording);
}
