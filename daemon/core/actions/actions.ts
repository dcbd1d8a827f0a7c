import { NO_APPLICATION } from '../../present/opener.js';
import type { Presenter } from '../../present/presenter.js';
import type { ActionRunner, RunContext } from './action-runner.js';
import type { AppRegistry } from '../apps/app-registry.js';
import { type Approvals, codeOf, type QuestionFacts } from '../approvals/approvals.js';
import { type CallbackBody, type Outcome, isLoopback, sendCallback } from './callbacks.js';
import { fillTokens } from '../../../protocol/fields.js';
import { buttonKind, isOpenableLink } from '../../../protocol/notification-rules.js';
import type { Button, CallbackTarget, HistoryRecord } from '../../../protocol/types.js';

export interface Performance {
  record: HistoryRecord;
  button: Button;
  /** The text the person typed, for a reply button. */
  replyText?: string;
  /** Set when a follow-up performs the action. */
  followUp?: { unattendedSeconds: number };
  /** Set when the action is a template's own code (its follow-up): the template's approval gates it. */
  template?: string;
  /** Called when the action has to wait for the person's approval (a question is open). */
  waiting?: () => void;
}

/**
 * Does what a button (or a follow-up) says, with the gates of docs/api/actions.md#x3 and #x5 in front: a callback to another
 * computer needs the person's approval of that host for that app; a command, script or shortcut needs the app to
 * have asked (`allowCommands` on register) and the person to have allowed it. Nothing runs on delivery.
 */
export class Actions {
  constructor(
    private readonly presenter: Presenter,
    private readonly apps: AppRegistry,
    private readonly approvals: Approvals,
    private readonly runner: ActionRunner,
    private readonly appName: (app: string) => string,
  ) {}

  async perform(request: Performance): Promise<Outcome> {
    const { button } = request;
    switch (buttonKind(button)) {
      case 'dismiss':
      case 'reply':
        return { ok: true };
      case 'url':
        return this.open({ url: button.url! }, button.url!);
      case 'openApp':
        return this.openApp(request);
      case 'callback':
        return this.callback(request, button.callback!);
      default:
        return this.runCode(request);
    }
  }

  /** A reply typed into a reply button: posted to its callback, when it has one. */
  async postReply(request: Performance): Promise<Outcome | null> {
    const target = request.button.reply?.callback;
    return target ? this.callback(request, target) : null;
  }

  private async open(target: Parameters<Presenter['open']>[0], link?: string): Promise<Outcome> {
    if (link !== undefined && !isOpenableLink(link)) return { ok: false, reason: 'this link type is not allowed' };
    try {
      await this.presenter.open(target);
      return { ok: true };
    } catch (error) {
      return { ok: false, reason: (error as Error).message };
    }
  }

  /** docs/api/actions.md#x9: `openApp` with `bundleId` or `path`; empty means the sender (its registered bundle id). */
  private openApp({ record, button }: Performance): Promise<Outcome> {
    const { bundleId, path } = button.openApp ?? {};
    const sender = this.apps.get(record.app)?.bundleId;
    const target = bundleId || path ? { bundleId, path } : sender ? { bundleId: sender } : null;
    if (!target) return Promise.resolve({ ok: false, reason: NO_APPLICATION });
    return this.open({ app: target });
  }

  /** docs/api/replies.md#r9: the button's callback URL, else the app's registered `callbackURL`. */
  private async callback(request: Performance, target: CallbackTarget): Promise<Outcome> {
    const { record, button, replyText, followUp } = request;
    const url = target.url ?? this.apps.get(record.app)?.callbackURL;
    if (!url) return { ok: false, reason: 'no callback URL' };
    const parsed = new URL(url);
    if (!isLoopback(parsed) && !this.approvals.hostAllowed(record.app, parsed.host)) {
      request.waiting?.();
      const allowed = await this.approvals.ask(
        { kind: 'callbackHost', app: record.app, host: parsed.host },
        `Let ${this.appName(record.app)} send notification answers to ${parsed.host}?`,
        url,
        { notificationId: record.id, facts: { url, host: parsed.host } },
      );
      if (!allowed) return { ok: false, reason: `the person did not allow ${parsed.host}` };
    }
    if (target.method !== undefined || target.headers !== undefined || target.body !== undefined) {
      // docs/api/replies.md#r10a: the sender wrote the request out (ntfy's http action); it goes as written.
      const { method = 'POST', headers = {}, body } = target;
      return sendCallback(url, { method, headers, ...(body !== undefined ? { body } : {}) });
    }
    const body: CallbackBody = { notificationId: record.id, app: record.app, action: button.label };
    const payload = withAdditions(target.payload, { reply: replyText, extra: extraOf(record) });
    if (payload !== undefined) body.payload = payload;
    if (followUp) Object.assign(body, { event: 'unattended', unattendedSeconds: followUp.unattendedSeconds });
    return sendCallback(url, body);
  }

  private async runCode(request: Performance): Promise<Outcome> {
    const { record, button, followUp } = request;
    const kind = buttonKind(button) as 'command' | 'script' | 'shortcut';
    const refusal =
      request.template === undefined ? await this.appMayRun(request, kind) : await this.templateMayRun(request, request.template, kind);
    if (refusal) return refusal;
    const context: RunContext = {
      record,
      action: { id: button.id ?? button.label, label: button.label, kind },
      ...(followUp ? { followUp } : {}),
    };
    const input = button.input === undefined ? undefined : fillTokens(button.input, record.fields ?? {});
    if (kind === 'command') return this.runner.command(button.command!, context);
    if (kind === 'script') return this.runner.script(button.script!, input, context);
    return this.runner.shortcut(button.shortcut!, input, context);
  }

  /** An app's own code: the app asked (`allowCommands`) and the person allowed it. */
  private async appMayRun(request: Performance, kind: 'command' | 'script' | 'shortcut'): Promise<Outcome | null> {
    const { record, button } = request;
    const name = this.appName(record.app);
    if (this.apps.get(record.app)?.allowCommands !== true) {
      return { ok: false, reason: `${name} is not allowed to run commands, scripts and shortcuts` };
    }
    if (this.approvals.commandsAllowed(record.app)) return null;
    request.waiting?.();
    const facts = await this.codeFacts(button, kind);
    const allowed = await this.approvals.ask(
      { kind: 'commands', app: record.app },
      `Let ${name} run commands, scripts and shortcuts?`,
      describeCode(button, kind, facts),
      { notificationId: record.id, facts },
    );
    return allowed ? null : { ok: false, reason: `the person did not allow ${name} to run commands` };
  }

  /** A template's own code (docs/api/actions.md#x4): the person approves this code under this template's name. */
  private async templateMayRun(request: Performance, template: string, kind: 'command' | 'script' | 'shortcut'): Promise<Outcome | null> {
    const { record, button } = request;
    const code = codeOf(button);
    if (this.approvals.templateCodeApproved(record.app, template, code)) return null;
    request.waiting?.();
    const facts = await this.codeFacts(button, kind);
    const allowed = await this.approvals.ask(
      { kind: 'templateCode', app: record.app, template, code },
      `Let the template ${template} of ${this.appName(record.app)} run this ${kind}?`,
      describeCode(button, kind, facts),
      { notificationId: record.id, facts: { ...facts, template, code } },
    );
    return allowed ? null : { ok: false, reason: `the person did not approve the code of template ${template}` };
  }

  /** What would run, as data: the command, the script and its SHA-256, or the shortcut and its input. */
  private async codeFacts(button: Button, kind: 'command' | 'script' | 'shortcut'): Promise<QuestionFacts> {
    if (kind === 'command') return { command: button.command! };
    const input = button.input === undefined ? {} : { input: button.input };
    if (kind === 'shortcut') return { shortcut: button.shortcut!, ...input };
    const digest = await this.runner.scriptDigest(button.script!);
    return { script: button.script!, ...(digest ? { sha256: digest } : {}), ...input };
  }
}

/** What the person is shown: the command itself, a script by its SHA-256, a shortcut by its name and input. */
function describeCode(button: Button, kind: 'command' | 'script' | 'shortcut', facts: QuestionFacts): string {
  if (kind === 'command') return `command: ${button.command}`;
  if (kind === 'script') return `script ${button.script} (SHA-256 ${facts.sha256 ?? 'missing: the file is not in the scripts folder'})`;
  return `shortcut ${button.shortcut}${button.input ? ` with input ${button.input}` : ''}`;
}

/**
 * docs/api/replies.md#r10: the payload gains `reply` when a reply is sent and `extra` when the notification's template
 * has `extra` values; a payload that is absent becomes an object, one of another type than an object is sent as it is.
 */
function withAdditions(payload: unknown, additions: { reply: string | undefined; extra: Record<string, string> | undefined }): unknown {
  const added = Object.fromEntries(Object.entries(additions).filter(([, value]) => value !== undefined));
  if (Object.keys(added).length === 0) return payload;
  if (payload === undefined || payload === null) return added;
  if (typeof payload === 'object' && !Array.isArray(payload)) return { ...(payload as Record<string, unknown>), ...added };
  return payload;
}

/**
 * The template's `extra` values as the notification was drawn with them: History `fields` hold them as `extra.<key>`
 * (docs/api/templates.md#t10), so a later change of the template does not change what an older banner sends.
 */
function extraOf(record: HistoryRecord): Record<string, string> | undefined {
  const entries = Object.entries(record.fields ?? {}).filter(([key]) => key.startsWith(EXTRA_PREFIX));
  return entries.length === 0 ? undefined : Object.fromEntries(entries.map(([key, value]) => [key.slice(EXTRA_PREFIX.length), value]));
}
const EXTRA_PREFIX = 'extra.';
