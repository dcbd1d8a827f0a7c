import type { Banner, BannerKey, OpenTarget, Presenter, PresenterListener, Question } from './presenter.js';
import { recordKey } from '../../protocol/record-key.js';

const keyOf = (key: BannerKey): string => recordKey(key.app, key.id);

/**
 * An in-process presenter for tests of the core: it keeps what would be on screen and lets the test act as the
 * person (click, press a button, type a reply, close). It is reachable only from code in the same process,
 * never from the HTTP API, the CLI or an agent tool.
 */
export class TestPresenter implements Presenter {
  readonly name = 'test';
  /** Set true to act like a display that times banners out itself (the test then calls `closeByPerson`). */
  handlesExpiry = false;
  /** Set false to act like a freedesktop server, where the core keeps one passive banner per stack. */
  drawsStacks = true;
  /** What the person's computer was asked to open. */
  readonly opened: OpenTarget[] = [];
  /** Set to make `open` fail with this reason. */
  openFails: string | null = null;
  /** Questions in front of the person now, by id. */
  readonly questions = new Map<string, Question>();
  /** Banners on screen now, by app and id. */
  readonly onScreen = new Map<string, Banner>();
  /** Every call the core made, in order. */
  readonly calls: Array<{ call: 'show' | 'replace' | 'close'; key: BannerKey; banner?: Banner }> = [];
  private listener: PresenterListener = () => undefined;

  async start(listener: PresenterListener): Promise<void> {
    this.listener = listener;
  }

  async show(banner: Banner): Promise<void> {
    this.calls.push({ call: 'show', key: banner.key, banner });
    if (banner.replaces) this.onScreen.delete(keyOf(banner.replaces));
    this.onScreen.set(keyOf(banner.key), banner);
  }

  async replace(banner: Banner): Promise<void> {
    this.calls.push({ call: 'replace', key: banner.key, banner });
    if (banner.replaces) this.onScreen.delete(keyOf(banner.replaces));
    this.onScreen.set(keyOf(banner.key), banner);
  }

  async close(key: BannerKey): Promise<void> {
    this.calls.push({ call: 'close', key });
    this.onScreen.delete(keyOf(key));
  }

  async open(target: OpenTarget): Promise<void> {
    if (this.openFails) throw new Error(this.openFails);
    this.opened.push(target);
  }

  ask(question: Question): void {
    this.questions.set(question.id, question);
  }

  withdraw(questionId: string): void {
    this.questions.delete(questionId);
  }

  async stop(): Promise<void> {}

  banner(app: string, id: string): Banner | undefined {
    return this.onScreen.get(keyOf({ app, id }));
  }

  // The person's side.

  click(app: string, id: string): void {
    this.listener({ type: 'clicked', key: { app, id } });
  }

  press(app: string, id: string, actionId: string): void {
    this.listener({ type: 'button', key: { app, id }, actionId });
  }

  reply(app: string, id: string, actionId: string, text: string): void {
    this.listener({ type: 'replied', key: { app, id }, actionId, text });
  }

  snoozeByPerson(app: string, id: string, minutes: number): void {
    this.listener({ type: 'snoozed', key: { app, id }, minutes });
  }

  /** The display could not do what the person tried on a banner (a real display: no reply window program). */
  failToAct(app: string, id: string, label: string, reason: string): void {
    this.listener({ type: 'failed', key: { app, id }, label, reason });
  }

  /** The person answers a question the display showed (the banner's Allow or Deny). */
  answer(questionId: string, allow: boolean): void {
    this.listener({ type: 'answered', questionId, allow });
  }

  closeByPerson(app: string, id: string, reason: 'dismissed' | 'expired' = 'dismissed'): void {
    this.onScreen.delete(keyOf({ app, id }));
    this.listener({ type: 'closed', key: { app, id }, reason });
  }
}
