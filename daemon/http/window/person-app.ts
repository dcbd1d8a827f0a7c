// The person's app (docs/app.md): everything under `/app`, behind its own door — the sign-in link, the pages, the
// built front end, and the person-only API — and how the private channel opens it on the desktop.

import { randomBytes } from 'node:crypto';
import { readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { escapeHtml } from '../../../common/html-escape.js';
import { APP_API_BASE, APP_BASE, APP_PAGES, appPaths, isWithin, type AppPage } from '../../../protocol/app-api.js';
import { recordKey } from '../../../protocol/record-key.js';
import { errors } from '../../../protocol/errors.js';
import { approvalsView as approvalsOf } from '../../core/approvals/approvals-view.js';
import { codeGate, type DetailSources } from '../../core/history/details.js';
import { HistoryPages } from '../../core/history/history-pages.js';
import { RowMaker } from '../../core/history/rows.js';
import type { Core, OpenResult } from '../../core/core.js';
import type { WindowParts } from './parts.js';
import { outcomesOf } from '../../core/relay/deliveries.js';
import { log } from '../../log.js';
import { hasDesktopSession, openAppWindow } from '../../present/opener.js';
import { sendError } from '../error-handler.js';
import { admitApiRequest, checkHost, setSecurityHeaders } from './door.js';
import type { Session } from './sessions.js';
import { EventHub } from './events.js';
import { isPagePath, SERVER_PAGE_CSS_PATH, sendBuiltFile, sendNotFound, sendPage, sendServerPageCss, signIn } from './pages.js';
import { Sessions, SignInCodes } from './sessions.js';
import { UndoShelf } from './undo.js';
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
  /** The window's own parts, which its routes are given beside the core's. */
  readonly parts: WindowParts;
  private readonly stale: Promise<void>;

  /** The window of this core, with the sessions kept in `sessions.json` (a window stays signed in across restarts). */
  static async open(core: Core, options: PersonAppOptions): Promise<PersonApp> {
    const document = await core.store.open<{ sessions: Record<string, Session> }>('sessions.json', { sessions: {} });
    return new PersonApp(core, options, new Sessions(document, { save: () => core.store.save(document) }));
  }

  private constructor(
    core: Core,
    private readonly options: PersonAppOptions,
    readonly sessions: Sessions,
  ) {
    // The notifications whose questions wait now, kept as the questions change (a waiting filter asks for each row).
    let asking = new Set<string>();
    const questionsChanged = (): void => {
      asking = new Set(core.approvals.openQuestions().map(({ grant, notificationId }) => recordKey(grant.app, notificationId ?? '')));
    };
    questionsChanged();
    core.approvals.onChange(questionsChanged);
    const rows = new RowMaker({
      appName: (app) => core.names.name(app),
      isRead: (record) => core.readState.isRead(record),
      template: (app, name) => core.designs.template(app, name),
      asking: (app, id) => asking.has(recordKey(app, id)),
      now: Date.now,
    });
    const pages = new HistoryPages(core.history, rows, {
      isRead: (record) => core.readState.isRead(record),
      unreadCount: (app) => core.readState.unreadCount(app),
      appName: (app) => core.names.name(app),
      now: Date.now,
    });
    core.readState.onChange(() => pages.readChanged());
    core.approvals.onChange(() => pages.questionsChanged());
    const approvalsView = () =>
      approvalsOf({ approvals: core.approvals, connectors: core.relay.connectors, appName: (app) => core.names.name(app) });
    const details: DetailSources = {
      rows,
      questions: (app, id) => approvalsView().questions.filter((question) => question.app === app && question.notificationId === id),
      hasCard: (record) => core.cards.hasCard(record),
      callbackURL: (app) => core.apps.get(app)?.callbackURL,
      receipts: (record) => (isRelayed(record) ? outcomesOf(record) : undefined),
      codeGate: codeGate({
        asksToRunCode: (app) => core.apps.get(app)?.allowCommands === true,
        commandsAllowed: (app) => core.approvals.commandsAllowed(app),
        requestDeclined: (app) => core.approvals.requestDeclined(app),
        templateCodeApproved: (app, template, code) => core.approvals.templateCodeApproved(app, template, code),
        appName: (app) => core.names.name(app),
      }),
    };
    const events = new EventHub(core, rows, this.sessions, approvalsView);
    this.parts = {
      rows,
      pages,
      details,
      sessions: this.sessions,
      events,
      undo: new UndoShelf(),
      approvalsView,
      place: () => this.options,
      openApp: (page) => this.open(page),
    };
    this.stale = this.removeStaleForwardingFiles();
  }

  /** The door of `/app/api`, run by the router before a window's route is looked for: the session it admits. */
  admit(req: Request, res: Response): Session {
    setSecurityHeaders(res);
    checkHost(req);
    return admitApiRequest(req, this.sessions);
  }

  /** The middleware that answers the window's pages and files under `/app` (its API is the router's). */
  readonly pages: RequestHandler = (req, res, next) => {
    if (!isWithin(req.path, APP_BASE) || isWithin(req.path, APP_API_BASE)) return next();
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
    const link = `http://127.0.0.1:${this.options.port()}${appPaths.signin}?code=${code}`;
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

  /** The daemon stops: event streams end, what Undo kept goes, codes end and their files go. Sessions end with the process. */
  close(): void {
    this.parts.events.close();
    this.parts.undo.close();
    this.codes.clear();
  }

  private async answer(req: Request, res: Response, next: NextFunction): Promise<void> {
    setSecurityHeaders(res);
    try {
      checkHost(req);
      if (req.method !== 'GET' && req.method !== 'HEAD') {
        res.setHeader('Allow', 'GET, HEAD');
        throw errors.methodNotAllowed(req.path, 'GET, HEAD');
      }
      if (req.path === appPaths.signin) return signIn(req, res, this.codes, this.sessions);
      if (req.path === SERVER_PAGE_CSS_PATH) return sendServerPageCss(res);
      if (isPagePath(req.path)) return await sendPage(req, res, this.sessions, this.options.appDir);
      if (!(await sendBuiltFile(req, res, this.options.appDir))) sendNotFound(res);
    } catch (error) {
      if (!res.headersSent) sendError(req, res, error);
      else next(error);
    }
  }

  /** Forwarding files a crash left behind (their codes died with it). */
  private async removeStaleForwardingFiles(): Promise<void> {
    const names = await readdir(this.options.supportDir).catch(() => [] as string[]);
    await Promise.all(
      names.filter((name) => FORWARDING_FILE.test(name)).map((name) => rm(path.join(this.options.supportDir, name), { force: true })),
    );
  }
}
