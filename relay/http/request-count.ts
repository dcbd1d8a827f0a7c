// relay_http_requests_total and relay_http_request_duration_seconds (docs/relay.md, "Metrics"): every request
// counted by the pattern of the route that answered it, as its log line names it (request-log.ts).

import type { NextFunction, Request, Response } from 'express';
import { httpDuration, httpRequests } from '../metrics.js';
import { routePattern } from './request-log.js';

/** The `route` label of a request no route took. */
const UNMATCHED = 'unmatched';

/** Methods as they are only when they are ones HTTP defines: a made-up method must not become a label value. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
const knownMethod = (method: string): string => (METHODS.has(method) ? method : 'other');

/**
 * Express middleware: counts every request by the pattern of the route that answered it (`/v1/receipts/:id`,
 * never the path itself); requests no route took count as `unmatched`.
 */
export function countRequests(req: Request, res: Response, next: NextFunction): void {
  const end = httpDuration.startTimer();
  res.once('finish', () => {
    const route = routePattern(req) ?? UNMATCHED;
    httpRequests.inc({ route, method: knownMethod(req.method), status: String(res.statusCode) });
    end({ route });
  });
  next();
}
