// A route of the person-only API `/app/api` (docs/app.md#the-api): its method, its path with named parts
// (`/app/api/history/:app/:id/read`), and its handler, which answers JSON (or writes the answer itself).

import type { Request, Response } from 'express';
import type { ApprovalsAnswer } from '../../../protocol/app-api.js';
import { errors } from '../../../protocol/errors.js';
import type { NotifierCore } from '../../core/notifier.js';
import type { HistoryPages } from '../../core/history/history-pages.js';
import type { DetailSources } from '../../core/history/details.js';
import type { RowMaker } from '../../core/history/rows.js';
import type { EventHub } from './events.js';
import type { Session, Sessions } from './sessions.js';

/** What every handler may use: the core and the app's own parts. */
export interface AppContext {
  core: NotifierCore;
  rows: RowMaker;
  pages: HistoryPages;
  details: DetailSources;
  sessions: Sessions;
  events: EventHub;
  /** What waits for the person's approval, what they granted, and the connector requests (docs/app.md#approvals). */
  approvals: () => ApprovalsAnswer;
}

export interface ApiCall {
  req: Request;
  res: Response;
  /** The named parts of the path, percent-decoded. */
  params: Record<string, string>;
  session: Session;
  context: AppContext;
}

export interface AppRoute {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  handle(call: ApiCall): unknown;
}

interface Compiled {
  route: AppRoute;
  parts: string[];
}

/** Finds the route of a path (404 for no path, 405 with `Allow` for a path without that method). */
export function routeFinder(routes: AppRoute[]): (req: Request, res: Response) => { route: AppRoute; params: Record<string, string> } {
  const compiled: Compiled[] = routes.map((route) => ({ route, parts: route.path.split('/') }));
  return (req, res) => {
    const pathname = req.path.length > 1 && req.path.endsWith('/') ? req.path.slice(0, -1) : req.path;
    const given = pathname.split('/');
    const methods: string[] = [];
    for (const { route, parts } of compiled) {
      const params = match(parts, given);
      if (!params) continue;
      if (route.method === req.method) return { route, params };
      methods.push(route.method);
    }
    if (methods.length === 0) throw errors.routeNotFound(req.method, req.path);
    res.setHeader('Allow', methods.join(', '));
    throw errors.methodNotAllowed(req.path, methods.join(', '));
  };
}

function match(parts: string[], given: string[]): Record<string, string> | null {
  if (parts.length !== given.length) return null;
  const params: Record<string, string> = {};
  for (let index = 0; index < parts.length; index++) {
    const part = parts[index]!;
    if (part.startsWith(':')) {
      if (given[index] === '') return null;
      params[part.slice(1)] = decodePart(part.slice(1), given[index]!);
    } else if (part !== given[index]) return null;
  }
  return params;
}

/** A path parameter (`app`, `id`), percent-decoded; a broken escape is 400 naming it. */
function decodePart(name: string, text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    throw errors.invalidField(name, 'bad percent-encoding in the path');
  }
}
