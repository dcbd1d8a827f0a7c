import { randomUUID } from 'node:crypto';
import type { Presenter, Question } from '../../present/presenter.js';
import type { Document, Store } from '../../store/store.js';
import type { Button } from '../../../protocol/types.js';
import type { ApprovalQuestion } from '../../../protocol/app-api-approvals.js';

/**
 * What the person allowed (`approvals.json`): an app's permission to run commands, scripts and shortcuts (which
 * the app asked for with `allowCommands`), callback hosts per app, and template code by template name. The API
 * can read and revoke these; only the person grants, by answering a question (`answer`), which reaches the
 * daemon through the private channel, never through the bearer-token API. And what the person denied from now on.
 */
interface ApprovalsFile {
  commands: Record<string, { approvedAt: string }>;
  /**
   * Apps whose running of code the person denied from now on: their request to run it (`allowCommands: true` on
   * register) declined, or "Deny from now on" in the person's app. Not asked about again, and its code refused
   * without asking, until the app withdraws its request and makes it anew, or the person asks to be asked again.
   */
  declinedRequests?: Record<string, { declinedAt: string }>;
  callbackHosts: Record<string, Record<string, { approvedAt: string }>>;
  templates: Record<string, Record<string, { commands: string[]; approvedAt: string }>>;
  /** Callback hosts per app, and templates' code by template name (any code), denied from now on, in the same way. */
  deniedHosts?: Record<string, Record<string, { deniedAt: string }>>;
  deniedTemplates?: Record<string, Record<string, { deniedAt: string }>>;
}

/** What a question asks the person to allow. */
export type Grant =
  | { kind: 'commands'; app: string }
  | { kind: 'callbackHost'; app: string; host: string }
  | { kind: 'templateCode'; app: string; template: string; code: string };

/** What the person can deny from now on: a grant without its code (a template's code is denied whatever it is). */
export type Denial =
  | { kind: 'commands'; app: string }
  | { kind: 'callbackHost'; app: string; host: string }
  | { kind: 'templateCode'; app: string; template: string };

/**
 * The code of a template's action as approvals bind it (docs/api/actions.md#x4: approval is bound to the template's name and
 * its code; changing the shortcut asks again): its kind, what it names and its input.
 */
export function codeOf(action: Button): string {
  if (action.command !== undefined) return `command: ${action.command}`;
  const input = action.input === undefined ? '' : ` with input ${action.input}`;
  if (action.script !== undefined) return `script: ${action.script}${input}`;
  return `shortcut: ${action.shortcut ?? ''}${input}`;
}

/** Exactly what a question is about, as data (the person's app shows each part on its own). */
export type QuestionFacts = Omit<NonNullable<ApprovalQuestion['detail']>, 'text'>;

/** Where a question comes from: the notification whose button or follow-up asked, and its facts. */
export interface QuestionContext {
  notificationId?: string;
  facts?: QuestionFacts;
  /**
   * An app's standing request to run code (`allowCommands` on register), not something waiting to run: asked in
   * the person's app and the tray without a banner of its own (the person confirms it in their settings), and a
   * "Deny" there is remembered.
   */
  request?: boolean;
}

/** A question waiting for the person, with what it would grant and where it comes from. */
export interface OpenQuestion extends QuestionContext {
  question: Question;
  grant: Grant;
}

interface Pending extends OpenQuestion {
  answered: Promise<boolean>;
  resolve: (allowed: boolean) => void;
}

const grantKey = (grant: Grant): string =>
  grant.kind === 'commands'
    ? `commands\u0000${grant.app}`
    : grant.kind === 'callbackHost'
      ? `host\u0000${grant.app}\u0000${grant.host}`
      : `template\u0000${grant.app}\u0000${grant.template}\u0000${grant.code}`;

export class Approvals {
  private readonly pending = new Map<string, Pending>();
  private readonly listeners = new Set<() => void>();

  private constructor(
    private readonly store: Store,
    private readonly document: Document<ApprovalsFile>,
    private readonly presenter: Presenter,
  ) {
    document.data.commands ??= {};
    document.data.declinedRequests ??= {};
    document.data.callbackHosts ??= {};
    document.data.templates ??= {};
    document.data.deniedHosts ??= {};
    document.data.deniedTemplates ??= {};
  }

  static async open(store: Store, presenter: Presenter): Promise<Approvals> {
    const document = await store.open<ApprovalsFile>('approvals.json', { commands: {}, callbackHosts: {}, templates: {} });
    return new Approvals(store, document, presenter);
  }

  commandsAllowed(app: string): boolean {
    return this.document.data.commands[app] !== undefined;
  }

  /** The person denied the app's standing request to run code (it is not asked again until made anew). */
  requestDeclined(app: string): boolean {
    return this.document.data.declinedRequests![app] !== undefined;
  }

  hostAllowed(app: string, host: string): boolean {
    return this.document.data.callbackHosts[app]?.[host] !== undefined;
  }

  /** A template's code the person approved (under this template name, this exact code). */
  templateCodeApproved(app: string, template: string, code: string): boolean {
    return this.document.data.templates[app]?.[template]?.commands.includes(code) ?? false;
  }

  /** Whether the person denied this from now on (it is refused without asking). */
  denied(grant: Denial): boolean {
    const { declinedRequests, deniedHosts, deniedTemplates } = this.document.data;
    if (grant.kind === 'commands') return declinedRequests![grant.app] !== undefined;
    if (grant.kind === 'callbackHost') return deniedHosts![grant.app]?.[grant.host] !== undefined;
    return deniedTemplates![grant.app]?.[grant.template] !== undefined;
  }

  /**
   * Asks the person (once: the same open question is shared by everyone waiting for it) and resolves with the
   * answer; what the person denied from now on is answered "no" at once. An allowed grant is on disk before this
   * resolves.
   */
  ask(grant: Grant, text: string, detail?: string, context: QuestionContext = {}): Promise<boolean> {
    if (this.denied(grant)) return Promise.resolve(false);
    const key = grantKey(grant);
    const open = [...this.pending.values()].find((pending) => grantKey(pending.grant) === key);
    if (open) {
      // A button needs what an app's standing request asks: the question becomes the button's, with its banner.
      if (open.request && !context.request) {
        Object.assign(open, { ...context, request: false });
        open.question = { ...open.question, kind: grant.kind, text, ...(detail ? { detail } : {}) };
        this.presenter.ask(open.question);
        this.changed();
      }
      return open.answered;
    }
    let resolve!: (allowed: boolean) => void;
    const answered = new Promise<boolean>((done) => (resolve = done));
    const kind = context.request ? 'allowCommands' : grant.kind;
    const question: Question = { id: randomUUID(), app: grant.app, kind, text, ...(detail ? { detail } : {}) };
    this.pending.set(question.id, { question, grant, answered, resolve, ...context });
    if (!context.request) this.presenter.ask(question);
    this.changed();
    return answered;
  }

  /**
   * An app asks to run code (`allowCommands: true` on register; docs/app.md#approvals): unless the person allowed it
   * already or declined it, the question waits in the person's app and the tray. Nothing runs because of it.
   */
  requestCommands(app: string, appName: string): void {
    if (this.commandsAllowed(app) || this.document.data.declinedRequests![app]) return;
    void this.ask({ kind: 'commands', app }, `${appName} asks to run commands, scripts and shortcuts on this computer.`, undefined, {
      request: true,
    });
  }

  /** The app withdrew its request (`allowCommands: false`): its question goes, and so do the grant and a refusal. */
  async withdrawRequest(app: string): Promise<void> {
    for (const [id, pending] of this.pending) {
      if (!pending.request || pending.grant.app !== app) continue;
      this.pending.delete(id);
      pending.resolve(false);
    }
    const declined = this.document.data.declinedRequests!;
    const hadRefusal = declined[app] !== undefined;
    delete declined[app];
    const revoked = await this.revokeCommands(app);
    if (hadRefusal && !revoked) await this.saveAndTell();
    else this.changed();
  }

  /** The questions waiting for the person. */
  questions(): Question[] {
    return [...this.pending.values()].map((pending) => pending.question);
  }

  /** The questions waiting, with their grants and where they come from (the person's app). */
  openQuestions(): OpenQuestion[] {
    return [...this.pending.values()].map(({ question, grant, notificationId, facts, request }) => ({
      question,
      grant,
      ...(notificationId ? { notificationId } : {}),
      ...(facts ? { facts } : {}),
      ...(request ? { request } : {}),
    }));
  }

  /** The person's answer (from the private channel). False when there is no such question. */
  async answer(questionId: string, allow: boolean): Promise<boolean> {
    const pending = this.pending.get(questionId);
    if (!pending) return false;
    this.pending.delete(questionId);
    if (!pending.request) this.presenter.withdraw(questionId);
    if (allow) await this.grant(pending.grant);
    else if (pending.request) await this.decline(pending.grant.app);
    pending.resolve(allow);
    this.changed();
    return true;
  }

  /** Called whenever the open questions or the grants change (the private channel tells its listeners). */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * The person denies something from now on (after revoking it, in the person's app): a grant of it goes, a question
   * waiting for it is answered "no", and it is refused without asking until `askAgain`.
   */
  async deny(denial: Denial): Promise<void> {
    const at = new Date().toISOString();
    const data = this.document.data;
    if (denial.kind === 'commands') {
      data.declinedRequests![denial.app] = { declinedAt: at };
      delete data.commands[denial.app];
    } else if (denial.kind === 'callbackHost') {
      (data.deniedHosts![denial.app] ??= {})[denial.host] = { deniedAt: at };
      delete data.callbackHosts[denial.app]?.[denial.host];
    } else {
      (data.deniedTemplates![denial.app] ??= {})[denial.template] = { deniedAt: at };
      delete data.templates[denial.app]?.[denial.template];
    }
    for (const [id, pending] of this.pending) {
      if (!this.denied(pending.grant)) continue;
      this.pending.delete(id);
      if (!pending.request) this.presenter.withdraw(id);
      pending.resolve(false);
    }
    await this.saveAndTell();
  }

  /** Forgets a denial: the person is asked again next time. False when it was not denied. */
  async askAgain(denial: Denial): Promise<boolean> {
    if (!this.denied(denial)) return false;
    const { declinedRequests, deniedHosts, deniedTemplates } = this.document.data;
    if (denial.kind === 'commands') delete declinedRequests![denial.app];
    else if (denial.kind === 'callbackHost') delete deniedHosts![denial.app]![denial.host];
    else delete deniedTemplates![denial.app]![denial.template];
    await this.saveAndTell();
    return true;
  }

  /** Everything denied from now on, with when (the person's app lists it). */
  denials(): Array<Denial & { deniedAt: string }> {
    const { declinedRequests, deniedHosts, deniedTemplates } = this.document.data;
    return [
      ...Object.entries(declinedRequests!).map(([app, { declinedAt }]) => ({ kind: 'commands' as const, app, deniedAt: declinedAt })),
      ...Object.entries(deniedHosts!).flatMap(([app, hosts]) =>
        Object.entries(hosts).map(([host, { deniedAt }]) => ({ kind: 'callbackHost' as const, app, host, deniedAt })),
      ),
      ...Object.entries(deniedTemplates!).flatMap(([app, names]) =>
        Object.entries(names).map(([template, { deniedAt }]) => ({ kind: 'templateCode' as const, app, template, deniedAt })),
      ),
    ];
  }

  /** Everything granted, for `GET /v1/actions/approvals`. */
  list() {
    const { commands, callbackHosts, templates } = this.document.data;
    const items = Object.entries(templates).flatMap(([app, byName]) =>
      Object.entries(byName).map(([template, approval]) => ({ app, template, ...approval })),
    );
    const apps = [...new Set([...Object.keys(commands), ...Object.keys(callbackHosts)])].sort().map((app) => ({
      app,
      commandsAllowed: commands[app] !== undefined,
      ...(commands[app] ? { commandsApprovedAt: commands[app].approvedAt } : {}),
      callbackHosts: Object.entries(callbackHosts[app] ?? {}).map(([host, { approvedAt }]) => ({ host, approvedAt })),
    }));
    return { items, apps };
  }

  /** Revokes one template's approval; false when there was none. */
  revokeTemplate(app: string, template: string): Promise<boolean> {
    const byName = this.document.data.templates[app];
    if (!byName?.[template]) return Promise.resolve(false);
    delete byName[template];
    return this.saveAndTell().then(() => true);
  }

  revokeHost(app: string, host: string): Promise<boolean> {
    const hosts = this.document.data.callbackHosts[app];
    if (!hosts?.[host]) return Promise.resolve(false);
    delete hosts[host];
    return this.saveAndTell().then(() => true);
  }

  /** Withdraws an app's command permission (revoked, or the app withdrew its request). */
  revokeCommands(app: string): Promise<boolean> {
    if (!this.document.data.commands[app]) return Promise.resolve(false);
    delete this.document.data.commands[app];
    return this.saveAndTell().then(() => true);
  }

  /** Withdraws every callback host the person approved for an app; the number withdrawn. */
  async revokeHosts(app: string): Promise<number> {
    const count = Object.keys(this.document.data.callbackHosts[app] ?? {}).length;
    if (count === 0) return 0;
    delete this.document.data.callbackHosts[app];
    await this.saveAndTell();
    return count;
  }

  /** An app removed (DELETE /v1/apps/{id}): its approvals go, and its open questions are answered "no". */
  async forgetApp(app: string): Promise<void> {
    for (const [id, pending] of this.pending) {
      if (pending.grant.app !== app) continue;
      this.pending.delete(id);
      if (!pending.request) this.presenter.withdraw(id);
      pending.resolve(false);
    }
    this.changed();
    const { commands, callbackHosts, templates, declinedRequests, deniedHosts, deniedTemplates } = this.document.data;
    const kept = [commands, callbackHosts, templates, declinedRequests!, deniedHosts!, deniedTemplates!];
    if (kept.every((byApp) => byApp[app] === undefined)) return;
    for (const byApp of kept) delete byApp[app];
    await this.save();
  }

  private grant(grant: Grant): Promise<void> {
    const approvedAt = new Date().toISOString();
    if (grant.kind === 'commands') {
      this.document.data.commands[grant.app] = { approvedAt };
      delete this.document.data.declinedRequests![grant.app];
    } else if (grant.kind === 'callbackHost') (this.document.data.callbackHosts[grant.app] ??= {})[grant.host] = { approvedAt };
    else {
      const byName = (this.document.data.templates[grant.app] ??= {});
      const commands = byName[grant.template]?.commands ?? [];
      byName[grant.template] = { commands: commands.includes(grant.code) ? commands : [...commands, grant.code], approvedAt };
    }
    return this.save();
  }

  /** The person said no to an app's standing request: remembered, so it is not asked again at every start. */
  private decline(app: string): Promise<void> {
    this.document.data.declinedRequests![app] = { declinedAt: new Date().toISOString() };
    return this.save();
  }

  private save(): Promise<void> {
    return this.store.save(this.document);
  }

  /** A grant withdrawn: saved, and the person's views (the app) hear of it. */
  private saveAndTell(): Promise<void> {
    const saved = this.save();
    this.changed();
    return saved;
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }
}
