// The person's app (docs/app.md): everything under `/app`, behind its own door — the sign-in link, the pages, the
// built front end, and the person-only API — and how the private channel opens it on the desktop.

import { randomBytes } from 'node:crypto';
import { readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { APP_PAGES, type AppPage } from '../../../protocol/app-api.js';
import { errors } from '../../../protocol/errors.js';
import { approvalsView } from '../../core/approvals/approvals-view.js';
import { type DetailSources } from '../../core/history/details.js';
import { HistoryPages } from '../../core/history/history-pages.js';
import { RowMaker } from '../../core/history/rows.js';
import type { NotifierCore, OpenResult } from '../../core/notifier.js';
import { outcomesOf } from '../../core/relay/deliveries.js';
import { log } from '../../log.js';
import { hasDesktopSession, openAppWindow } from '../../present/opener.js';
import { jsonBody } from '../body.js';
import { approvalRoutes } from './approval-routes.js';
import { type AppContext, routeFinder } from './api-route.js';
import { composeRoutes } from './compose-routes.js';
import { firstRunRoutes } from './first-run-routes.js';
import { designerRoutes } from './designer-routes.js';
import { sendError } from '../error-handler.js';
import { admitApiRequest, checkHost, setSecurityHeaders } from './door.js';
import { EventHub } from './events.js';
import { historyRoutes } from './history-routes.js';
import { relayRoutes } from './relay-routes.js';
import { escapeHtml, isPagePath, SERVER_PAGE_CSS_PATH, sendBuiltFile, sendNotFound, sendPage, sendServerPageCss, signIn } from './pages.js';
import { sessionRoutes } from './session-routes.js';
import { settingsRoutes } from './settings-routes.js';
import { Sessions, SignInCodes } from './sessions.js';
import { isRelayed } from '../../core/history/rows.js';

/** The forwarding files of sign-in links in the support folder: `signin-<random>.html`. */
const FORWARDING_FILE = /^signin-[A-Za-z0-9_-]+\.html$/;

export interface PersonAppOptions {
  /** The built front end (`dist/app`): its `index.html` and `assets/`. */
  appDir: string;
  /** Where the forwarding files of sign-in links are written (0600, in the 0700 support folder). */
  supportDir: string;
  /** The port the daemon listens on now (a setting can move it). */
  port: () => number;
  /** The environment the browser is found and started with (PATH, DISPLAY). Default: the daemon's. */
  env?: NodeJS.ProcessEnv;
}

/** The forwarding file: a page that goes on to the sign-in link at once, with a link to click if it does not. */
function forwardingPage(link: string): string {
  const href = escapeHtml(link);
  return (
    '<!doctype html>\n<html lang="en"><head><meta charset="utf-8">' +
    `<meta http-equiv="refresh" content="0;url=${href}"><title>Opening Notifier</title></head>\n` +
    `<body><p><a href="${href}">Open Notifier</a></p></body></html>\n`
  );
}

export class PersonApp {
  readonly codes = new SignInCodes();
  readonly sessions = new Sessions();
  private readonly context: AppContext;
  private readonly findRoute = routeFinder([
    ...sessionRoutes(),
    ...historyRoutes(),
    ...approvalRoutes(),
    ...composeRoutes(),
    ...firstRunRoutes(() => this.options),
    ...settingsRoutes(),
    ...relayRoutes(),
    ...designerRoutes(),
    { method: 'GET', path: '/app/api/events', handle: ({ req, res, session, context }) => context.events.subscribe(req, res, session) },
  ]);
  private readonly stale: Promise<void>;

  constructor(
    private readonly core: NotifierCore,
    private readonly options: PersonAppOptions,
  ) {
    // The notifications whose questions wait now, kept as the questions change (a waiting filter asks for each row).
    let asking = new Set<string>();
    const questionsChanged = (): void => {
      asking = new Set(core.approvals.openQuestions().map(({ grant, notificationId }) => `${grant.app}\u0000${notificationId}`));
    };
    questionsChanged();
    core.approvals.onChange(questionsChanged);
    const rows = new RowMaker({
      appName: (app) => core.appName(app),
      isRead: (record) => core.readState.isRead(record),
      template: (app, name) => core.designs.template(app, name),
      asking: (app, id) => asking.has(`${app}\u0000${id}`),
      now: Date.now,
    });
    const pages = new HistoryPages(core.history, rows, {
      isRead: (record) => core.readState.isRead(record),
      unreadCount: (app) => core.readState.unreadCount(app),
      appName: (app) => core.appName(app),
      now: Date.now,
    });
    core.readState.onChange(() => pages.readChanged());
    core.approvals.onChange(() => pages.questionsChanged());
    const approvals = () =>
      approvalsView({ approvals: core.approvals, connectors: core.relay.connectors, appName: (app) => core.appName(app) });
    const details: DetailSources = {
      rows,
      questions: (app, id) => approvals().questions.filter((question) => question.app === app && question.notificationId === id),
      hasCard: (record) => core.cards.hasCard(record),
      callbackURL: (app) => core.apps.get(app)?.callbackURL,
      receipts: (record) => (isRelayed(record) ? outcomesOf(record) : undefined),
    };
    const events = new EventHub(core, rows, this.sessions, approvals);
    this.context = { core, rows, pages, details, sessions: this.sessions, events, approvals };
    this.stale = this.removeStaleForwardingFiles();
  }

  /** The middleware that answers every `/app` path (and leaves the rest to `/v1`'s guard). */
  readonly handler: RequestHandler = (req, res, next) => {
    if (req.path !== '/app' && !req.path.startsWith('/app/')) return next();
    void this.answer(req, res, next);
  };

  /**
   * Opens the app on the desktop at a page (the private channel's `open`): a one-time code, a 0600 forwarding
   * file that goes on to the sign-in link, and a browser window given the file's path (never the code).
   */
  async open(page: AppPage): Promise<OpenResult> {
    const env = this.options.env ?? process.env;
    if (!(APP_PAGES as readonly string[]).includes(page)) return { ok: false, error: `unknown page: ${page} (${APP_PAGES.join(', ')})` };
    if (!hasDesktopSession(env)) return { ok: false, error: 'no desktop session (DISPLAY or WAYLAND_DISPLAY)' };
    await this.stale;
    const file = path.join(this.options.supportDir, `signin-${randomBytes(12).toString('base64url')}.html`);
    const code = this.codes.mint(page, () => void rm(file, { force: true }));
    const link = `http://127.0.0.1:${this.options.port()}/app/signin?code=${code}`;
    try {
      await writeFile(file, forwardingPage(link), { mode: 0o600, flag: 'wx' });
      await openAppWindow(file, env);
      log.info(`opening the app (${page})`);
      return { ok: true };
    } catch (error) {
      this.codes.consume(code); // the code ends, and its file goes
      return { ok: false, error: (error as Error).message };
    }
  }

  /** The daemon stops: event streams end, codes end and their files go. Sessions end with the process. */
  close(): void {
    this.context.events.close();
    this.codes.clear();
  }

  private async answer(req: Request, res: Response, next: NextFunction): Promise<void> {
    setSecurityHeaders(res);
    const api = req.path === '/app/api' || req.path.startsWith('/app/api/');
    try {
      checkHost(req);
      if (api) return await this.answerApi(req, res);
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        res.setHeader('Allow', 'GET, HEAD');
        throw errors.methodNotAllowed(req.path, 'GET, HEAD');
      }
      if (req.path === '/app/signin') return signIn(req, res, this.codes, this.sessions);
      if (req.path === SERVER_PAGE_CSS_PATH) return sendServerPageCss(res);
      if (isPagePath(req.path)) return await sendPage(req, res, this.sessions, this.options.appDir);
      if (!(await sendBuiltFile(req, res, this.options.appDir))) sendNotFound(res);
    } catch (error) {
      if (api || !res.headersSent) sendError(req, res, error);
      else next(error);
    }
  }

  /** Admitted (session, same origin, CSRF), its body read, its route found and answered. */
  private async answerApi(req: Request, res: Response): Promise<void> {
    const session = admitApiRequest(req, this.sessions);
    const { route, params } = this.findRoute(req, res);
    await new Promise<void>((resolve, reject) => jsonBody(req, res, (error?: unknown) => (error ? reject(error) : resolve())));
    const reply = await route.handle({ req, res, params, session, context: this.context });
    if (res.headersSent) return;
    const body = JSON.stringify(reply);
    res.writeHead(200, {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': Buffer.byteLength(body),
      'Cache-Control': 'no-store',
    });
    res.end(body);
  }

  /** Forwarding files a crash left behind (their codes died with it). */
  private async removeStaleForwardingFiles(): Promise<void> {
    const names = await readdir(this.options.supportDir).catch(() => [] as string[]);
    await Promise.all(
      names.filter((name) => FORWARDING_FILE.test(name)).map((name) => rm(path.join(this.options.supportDir, name), { force: true })),
    );
  }
}
