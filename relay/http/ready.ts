// Readiness (docs/relay.md, "Health, readiness and draining"): whether this node should be sent traffic, as /ready
// (routes/ready.ts) and `notifier-relay check` say it. Unlike /health (the process is up), it asks the database,
// and says no from the moment the node starts draining.

import type { RequestHandler } from 'express';
import { READY_QUERY_TIMEOUT_MS } from '../limits.js';
import { log } from '../log.js';
import type { Backend } from '../store/backend.js';
import { schemaIsCurrent } from '../store/migrate.js';

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

/**
 * While draining, every answer says `Connection: close`. A client that keeps its connections alive (fetch, an MCP
 * client) would otherwise go on sending on a connection to this node through a TCP balancer, and be cut when the
 * node closes; this way its next request opens a new connection, which the balancer sends to a ready node.
 */
export function closeConnectionsWhenDraining(readiness: Readiness): RequestHandler {
  return (_req, res, next) => {
    if (readiness.isDraining) res.setHeader('Connection', 'close');
    next();
  };
}
