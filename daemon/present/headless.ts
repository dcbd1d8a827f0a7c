import { log } from '../log.js';
import type { Banner, BannerKey, OpenTarget, Presenter, Question } from './presenter.js';

/**
 * For a machine with no desktop session (a server, CI, a container): nothing is drawn, each banner is one
 * line in the log. Notifications still go to History and the reply queue, so apps work the same. Questions
 * are logged too; the person answers them through the private channel (the tray, or `notifier` tools later).
 */
export class HeadlessPresenter implements Presenter {
  readonly name = 'headless';
  readonly handlesExpiry = false;
  /** Nothing is drawn, so nothing piles up. */
  readonly drawsStacks = true;

  async start(): Promise<void> {}

  async show(banner: Banner): Promise<void> {
    log.info(`banner ${describe(banner)}`);
  }

  async replace(banner: Banner): Promise<void> {
    log.info(`banner replaced ${describe(banner)}`);
  }

  async close(key: BannerKey): Promise<void> {
    log.info(`banner closed [${key.app}] ${key.id}`);
  }

  async open(_target: OpenTarget): Promise<void> {
    throw new Error('there is no desktop session to open it on (headless)');
  }

  ask(question: Question): void {
    const detail = question.detail && !question.private ? ` (${question.detail})` : '';
    log.info(`question ${question.id} [${question.app}]: ${question.text}${detail}`);
  }

  withdraw(questionId: string): void {
    log.info(`question ${questionId} withdrawn`);
  }

  async stop(): Promise<void> {}
}

function describe(banner: Banner): string {
  const text = [banner.title, banner.subtitle, banner.body].filter(Boolean).join(' | ');
  const buttons = banner.actions.length ? ` (buttons: ${banner.actions.map((action) => action.label).join(', ')})` : '';
  return `[${banner.key.app}] ${banner.key.id}: ${text}${buttons}`;
}
