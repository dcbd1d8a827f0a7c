// An app hears back (docs/api/replies.md#r6, #r7): the replies waiting in its queue, and the long wait for the reply
// to one notification — answered the moment the person replies, or, when asked, the moment its banner ends without
// one. Nothing polls: the reply queue and the end of a banner call back.

import type { HistoryRecord, ReplyRecord } from '../../../protocol/types.js';
import type { History } from '../history/history.js';
import type { Designs } from '../templates/designs.js';
import { endingOf, type WaitEnded } from './endings.js';
import type { ReplyQueue } from './replies.js';
import type { Screen } from './screen.js';

export type WaitResult = { replied: true; reply: ReplyRecord } | WaitEnded | { replied: false; timedOut: true; waitedSeconds: number };

export interface WaitRequest {
  id: string;
  app?: string;
  timeoutSeconds: number;
  consume: boolean;
  ended?: boolean;
}

export class ReplyWait {
  constructor(
    private readonly replies: ReplyQueue,
    private readonly history: Pick<History, 'load' | 'get'>,
    private readonly designs: Pick<Designs, 'template'>,
    private readonly screen: Pick<Screen, 'onEnd'>,
  ) {}

  /** GET /v1/replies: oldest first; `consume` removes exactly what is returned. */
  async read(filter: { app?: string; since?: number; consume: boolean }): Promise<ReplyRecord[]> {
    const replies = this.replies.list(filter);
    if (filter.consume) await this.replies.consume(replies);
    return replies;
  }

  /**
   * GET /v1/replies/wait: a reply already there is returned at once (with `app`, one already in History too);
   * otherwise the request is answered the moment the reply is stored, or after `timeout` seconds. With `ended`,
   * also the moment the banner ends without a reply (a button pressed, closed, dismissed...), or at once when it
   * already has (with `app`).
   */
  async wait(request: WaitRequest, cancelled: AbortSignal): Promise<WaitResult> {
    const answer = await new Promise<ReplyRecord | WaitEnded | null>((resolve) => {
      let done = false;
      const finish = (found: ReplyRecord | WaitEnded | null): void => {
        if (done) return;
        done = true;
        stopWaiting();
        stopEnding();
        clearTimeout(timer);
        cancelled.removeEventListener('abort', onAbort);
        resolve(found);
      };
      const onAbort = (): void => finish(null);
      const isThis = (record: HistoryRecord): boolean =>
        record.id === request.id && (request.app === undefined || record.app === request.app);
      // Waiting starts before looking for a reply that is already there, so none can slip in between. A reply ends
      // the banner too, but after it is stored: the reply is answered first.
      const stopWaiting = this.replies.wait(request.id, request.app, finish);
      const stopEnding = request.ended ? this.screen.onEnd((record) => isThis(record) && finish(this.endingOf(record))) : () => true;
      const timer = setTimeout(() => finish(null), request.timeoutSeconds * 1000);
      cancelled.addEventListener('abort', onAbort);
      const queued = this.replies.find(request.id, request.app);
      if (queued) return finish(queued);
      void this.replyInHistory(request.id, request.app).then((found) => {
        if (found) return finish(found);
        const record = request.ended && request.app !== undefined ? this.history.get(request.app, request.id) : undefined;
        if (record?.dismissedAt) finish(this.endingOf(record));
      });
    });
    if (!answer) return { replied: false, timedOut: true, waitedSeconds: request.timeoutSeconds };
    if ('ended' in answer) return answer;
    if (request.consume) await this.replies.take(answer.app, answer.notificationId);
    return { replied: true, reply: answer };
  }

  private endingOf(record: HistoryRecord): WaitEnded {
    return endingOf(record, this.designs.template(record.app, record.notification.template));
  }

  private async replyInHistory(id: string, app: string | undefined): Promise<ReplyRecord | undefined> {
    if (app === undefined) return undefined;
    await this.history.load(app);
    const record = this.history.get(app, id);
    if (!record?.reply || !record.repliedAt) return undefined;
    const title = record.notification.title;
    return { notificationId: id, app, ...(title ? { title } : {}), text: record.reply, repliedAt: record.repliedAt };
  }
}
