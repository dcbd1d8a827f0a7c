// /ready (docs/relay.md, "Health, readiness and draining"): whether this node should be sent traffic. Unlike
// /health (the process is up), it asks the database, and says 503 from the moment the node starts draining.

import { Router } from 'express';
import { unavailable } from '../../protocol/relay/errors.js';
import { READY_QUERY_TIMEOUT_MS, UNAVAILABLE_RETRY_AFTER_S } from '../limits.js';
import { log } from '../log.js';
import type { Backend } from '../store/backend.js';
import { schemaIsCurrent } from '../store/migrate.js';
import { sendJSON, sendRefusal } from './respond.js';

export class Readiness {
  /** Set on SIGTERM and never cleared: a draining node takes no new traffic. */
  private draining = false;

  constructor(private readonly store: Pick<Backend, 'db' | 'dialect'>) {}

  drain(): void {
    this.draining = true;
  }

  get isDraining(): boolean {
    return this.draining;
  }

  /** Undefined when ready, else why not (for the 503's message). */
  async problem(): Promise<string | undefined> {
    if (this.draining) return 'this relay node is shutting down';
    try {
      const current = await withTimeout(schemaIsCurrent(this.store.db, this.store.dialect), READY_QUERY_TIMEOUT_MS);
      return current ? undefined : "the database's schema is not the one this relay node knows";
    } catch (error) {
      log.warn(`/ready: the database did not answer: ${(error as Error).message}`);
      return 'the database does not answer';
    }
  }
}

function withTimeout<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/** Any method, no credential (a probe has none): 200 `{"status":"ready"}` or 503 `unavailable` with Retry-After. */
export function readyRoutes(readiness: Readiness): Router {
  const router = Router();
  router.all(['/ready', '/readyz'], (_req, res, next) => {
    readiness.problem().then((problem) => {
      if (problem === undefined) sendJSON(res, 200, { status: 'ready' });
      else sendRefusal(res, unavailable(problem, UNAVAILABLE_RETRY_AFTER_S));
    }, next);
  });
  return router;
}
