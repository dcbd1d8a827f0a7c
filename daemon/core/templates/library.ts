// The template routes' work beyond a plain save (docs/api/templates.md#t13 to #t16): duplicate, rename,
// the default template and the follow-up route. Files go through Designs; approvals are only read here (only the
// person grants one).

import { builtinTemplate } from '../../../templates-renderer/builtins.js';
import type { Template, TemplateAction } from '../../../templates-renderer/model.js';
import { BUILTIN_PREFIX, isBuiltinName, templateNameProblem } from '../../../templates-renderer/names.js';
import { ApiError, errors } from '../../../protocol/errors.js';
import { FOLLOW_UP_AFTER_SECONDS, MAX_APPS } from '../../../protocol/limits.js';
import type { AppRegistry } from '../apps/app-registry.js';
import type { Assets } from './assets.js';
import { type Approvals, codeOf } from '../approvals/approvals.js';
import type { Designs } from './designs.js';
import { appIdProblem, validateManifest } from './manifest-rules.js';
import { buttonKind, normalizeButton, parseDuration } from '../../../protocol/notification-rules.js';
import { FOLLOW_UP_KINDS, type Button, type FollowUp, type Manifest } from '../../../protocol/types.js';

/** docs/api/templates.md#t17. `app-needs-approval` is our word for the value first published cut short as "app-" (docs/templates.md). */
export type FollowUpApproval = 'approved' | 'needs-approval' | 'app-needs-approval' | 'app-not-allowed' | 'none';

/** The body of PUT /v1/templates/follow-up, types checked by the route. */
export interface FollowUpRequest {
  app: string;
  template?: string;
  after?: number | string;
  shortcut?: string;
  script?: string;
  command?: string;
  actionRef?: string;
  input?: string;
  label?: string;
  enabled?: boolean;
}

const ACTION_FIELDS = ['shortcut', 'script', 'command', 'actionRef'] as const;

export class TemplateLibrary {
  constructor(
    private readonly designs: Designs,
    private readonly apps: AppRegistry,
    private readonly approvals: Approvals,
    private readonly assets: Assets,
  ) {}

  /**
   * PUT /v1/manifest (docs/api/templates.md#t22, #t23): 429 for a new app when 200 manifests or apps exist; the declared Rive files are copied
   * into the app's folder (copies the manifest no longer declares are removed).
   */
  async saveManifest(manifest: Manifest): Promise<void> {
    const { app } = manifest;
    this.checkRoomForManifest(app);
    const before = this.designs.manifestFile(app)?.installed ?? [];
    const installed = await this.assets.installDeclared(manifest, before);
    await this.designs.putManifest({ manifest, installed });
    await this.assets.removeInstalled(
      app,
      before.filter((file) => !installed.includes(file)),
    );
  }

  /** docs/api/templates.md#t22: 429 for a new app when 200 manifests or apps exist (a manifest the follow-up route makes too). */
  private checkRoomForManifest(app: string): void {
    const known = this.designs.manifest(app) !== undefined;
    this.designs.checkRoomFor(app);
    if (!known && !this.apps.get(app) && this.apps.count() >= MAX_APPS) throw errors.tooManyApps();
  }

  /** DELETE /v1/manifest (docs/api/templates.md#t23): the copies of its Rive files go; the app, its templates and History stay. */
  async removeManifest(app: string): Promise<void> {
    const removed = await this.designs.deleteManifest(app);
    if (!removed) throw errors.noManifest(app);
    await this.assets.removeInstalled(app, removed.installed);
  }

  /** A saved template or a built-in layout (for the app); 404 `template not found` otherwise. */
  find(app: string, name: string): Template {
    const template = this.designs.templateOrBuiltin(app, name);
    if (!template) throw errors.templateNotFound();
    return template;
  }

  /**
   * Duplicate (docs/api/templates.md#t13): `<name> copy`, then `<name> copy 2`...; a built-in's base drops `builtin.`. A scratch
   * template's base drops its leading `_` too: the default name must itself be a valid name, or duplicating
   * `_draft` without a newName would be refused as `invalid newName` although no newName was sent.
   */
  async duplicate(app: string, name: string, newName: string | undefined, toApp: string): Promise<{ app: string; name: string }> {
    const source = this.find(app, name);
    const base = name.startsWith(BUILTIN_PREFIX) ? name.slice(BUILTIN_PREFIX.length) : name.replace(/^[_.]+/, '');
    const target = newName ?? this.freeName(toApp, base === '' ? 'copy' : `${base} copy`, ' ');
    checkNewName(target, 'newName');
    if (this.designs.template(toApp, target)) throw errors.templateExists(target, toApp);
    await this.designs.putTemplate({ ...structuredClone(source), app: toApp, name: target });
    return { app: toApp, name: target };
  }

  /** Rename (docs/api/templates.md#t14): the default follows; approvals belong to the old name, so the person is asked again. */
  async rename(app: string, name: string, newName: string) {
    if (isBuiltinName(name)) throw errors.builtinNotRenamable();
    checkNewName(newName, 'newName');
    if (!this.designs.template(app, name)) throw errors.templateNotFound();
    if (newName === name) return { ok: true, app, name, unchanged: true };
    if (this.designs.template(app, newName)) throw errors.templateExists(newName, app);
    const { isDefault } = await this.designs.renameTemplate(app, name, newName);
    const note =
      'Approvals of commands, scripts and shortcuts stay with the old name: the person will be asked again before this template runs code.';
    return { ok: true, app, name: newName, renamedFrom: name, isDefault, note };
  }

  /** The default (docs/api/templates.md#t15): needs a manifest; a saved or built-in template; none clears it. */
  async setDefault(app: string, name: string | undefined): Promise<string | null> {
    if (!this.designs.manifest(app)) throw errors.defaultNeedsManifest(app);
    if (name !== undefined && !this.designs.templateOrBuiltin(app, name)) throw errors.templateNotFound(name);
    await this.designs.setDefaultTemplate(app, name);
    return name ?? null;
  }

  /**
   * PUT /v1/templates/follow-up (docs/api/templates.md#t16). Checks everything before changing anything; when the app has no template
   * of its own, a copy of its built-in layout is saved as `default` (then `default-2`...) and becomes the
   * manifest's default, a manifest being created when there is none. Nothing is approved here.
   */
  async setFollowUp(request: FollowUpRequest) {
    const { app } = request;
    const given = ACTION_FIELDS.filter((field) => request[field] !== undefined);
    if (request.enabled === false) {
      const extra = [...given, ...(['after', 'input', 'label'] as const).filter((field) => request[field] !== undefined)];
      if (extra.length > 0) throw errors.followUpOffTakesNothing();
    }
    const followUp = request.enabled === false ? ({ enabled: false } satisfies FollowUp) : this.checkFollowUp(request, given);

    const named = request.template ?? this.designs.manifest(app)?.defaultTemplate;
    if (named !== undefined && isBuiltinName(named) && request.template !== undefined) {
      throw errors.builtinNeedsDuplicate(named);
    }
    if (request.template !== undefined && !this.designs.template(app, request.template)) throw errors.templateNotFound(request.template);

    const issuerAction = followUp.actionRef ? this.issuerAction(app, followUp.actionRef) : undefined;
    const saved = named !== undefined && !isBuiltinName(named) ? this.designs.template(app, named) : undefined;
    let template: Template;
    let createdTemplate = false;
    let manifestCreated = false;
    let manifest: Manifest | undefined;
    if (saved) template = saved;
    else {
      manifest = this.designs.manifest(app) ? undefined : this.manifestFor(app); // before anything is written
      // The app draws with a built-in layout (its default, or imageLeft): it becomes a template of its own.
      const base = builtinTemplate(named && isBuiltinName(named) ? named : `${BUILTIN_PREFIX}imageLeft`, app)!;
      template = { ...base, name: this.freeName(app, 'default', '-') };
      createdTemplate = true;
      manifestCreated = manifest !== undefined;
    }
    const updated: Template = { ...template, followUp };
    await this.designs.putTemplate(updated);
    if (createdTemplate) {
      if (manifest) await this.designs.putManifest({ manifest, installed: [] });
      await this.designs.setDefaultTemplate(app, updated.name);
    }
    return {
      saved: true,
      app,
      template: updated.name,
      createdTemplate,
      ...(createdTemplate ? { manifestCreated, defaultTemplate: updated.name } : {}),
      ...this.describe(app, updated.name, followUp, issuerAction),
    };
  }

  /**
   * The manifest the follow-up route makes for an app that has none. The manifest rules (and limits) apply to it as
   * to a put one: a manifest they refuse (an app id over 128 bytes) would be dropped when the daemon next starts.
   */
  private manifestFor(app: string): Manifest {
    this.checkRoomForManifest(app);
    const problem = appIdProblem(app);
    if (problem) throw errors.invalidField('app', problem);
    return validateManifest(newManifest(app));
  }

  /** The follow-up fields of the reply: what runs, whose it is, and whether the person must approve it first. */
  private describe(app: string, template: string, followUp: FollowUp, issuerAction: Button | undefined) {
    if (followUp.enabled === false) {
      return {
        followUp: { enabled: false },
        action: null,
        origin: null,
        approval: 'none' as FollowUpApproval,
        needsApproval: false,
        note: 'The follow-up is off.',
      };
    }
    const action = followUp.action ?? issuerAction!;
    const kind = followUp.action ? followUp.action.kind : buttonKind(issuerAction!);
    const origin = followUp.action ? 'template' : 'issuer';
    const approval = this.approvalOf(app, template, origin, kind, action as Button);
    const notes: Record<FollowUpApproval, string> = {
      approved: 'The person already approved this code; the follow-up runs.',
      'needs-approval': "The first time it runs, the banner asks the person to approve this template's code. Nothing runs until they do.",
      'app-needs-approval': `The app asked to run commands, scripts and shortcuts; the person has not allowed it yet and is asked when the follow-up runs.`,
      'app-not-allowed': 'The app did not register with allowCommands, so this action cannot run.',
      none: 'This action runs no code on the computer; it needs no approval.',
    };
    return {
      followUp: { after: followUp.after },
      action,
      origin,
      approval,
      needsApproval: approval === 'needs-approval' || approval === 'app-needs-approval',
      note: notes[approval],
    };
  }

  private approvalOf(app: string, template: string, origin: 'template' | 'issuer', kind: string, action: Button): FollowUpApproval {
    if (!['command', 'script', 'shortcut'].includes(kind)) return 'none';
    if (origin === 'template') return this.approvals.templateCodeApproved(app, template, codeOf(action)) ? 'approved' : 'needs-approval';
    if (this.apps.get(app)?.allowCommands !== true) return 'app-not-allowed';
    return this.approvals.commandsAllowed(app) ? 'approved' : 'app-needs-approval';
  }

  private checkFollowUp(request: FollowUpRequest, given: Array<(typeof ACTION_FIELDS)[number]>): FollowUp {
    if (request.after === undefined) throw errors.missingField('after', afterRange());
    const after = parseDuration(request.after);
    if (after === null || after < FOLLOW_UP_AFTER_SECONDS.min || after > FOLLOW_UP_AFTER_SECONDS.max)
      throw errors.invalidField('after', afterRange());
    if (given.length === 0) throw errors.followUpNeedsAction();
    if (given.length > 1) throw errors.followUpActionTwice(given);
    const field = given[0]!;
    // A blank command, script, shortcut or label names nothing to run or show: refused rather than saved.
    for (const key of [field, 'label'] as const) {
      if (request[key] !== undefined && request[key]!.trim() === '') throw errors.invalidField(key, 'must not be empty');
    }
    if (request.input !== undefined && (field === 'command' || field === 'actionRef')) throw errors.inputNeedsShortcutOrScript();
    if (field === 'actionRef') return { after, actionRef: request.actionRef! };
    const value = request[field]!;
    // The same rule as a script button's (notification-rules.ts), with the route's own message.
    // eslint-disable-next-line no-control-regex
    if (field === 'script' && (/[/\\\u0000-\u001f]/.test(value) || value === '.' || value === '..' || value.startsWith('~'))) {
      throw errors.scriptNotPlainName();
    }
    const label = request.label ?? (field === 'command' ? 'Follow-up' : value);
    const action: TemplateAction = {
      id: 'follow-up',
      label,
      kind: field,
      [field]: value,
      ...(request.input !== undefined ? { input: request.input } : {}),
    };
    try {
      normalizeButton({ ...action } as Button & { kind: string }, 'action'); // the same checks as a button's
    } catch (error) {
      // The button rules name the field inside the action (`action.shortcut`); here it is a field of the body.
      if (error instanceof ApiError && error.code === 'invalid_field' && error.field!.startsWith('action.')) {
        throw errors.invalidField(error.field!.slice('action.'.length), error.reason);
      }
      throw error;
    }
    return { after, action: action as FollowUp['action'] };
  }

  /** An action the app offers (its manifest's), which may follow up (its messages: docs/api/templates.md#put-v1-templates-follow-up). */
  private issuerAction(app: string, actionRef: string): Button {
    const offered = this.designs.manifest(app)?.actions ?? [];
    const found = offered.find((action) => action.id.toLowerCase() === actionRef.toLowerCase());
    if (!found) {
      const known = offered.map((action) => action.id).join(', ') || 'the app declares no actions in its manifest';
      throw errors.unknownActionRef(actionRef, known);
    }
    const kind = buttonKind(found);
    if (!(FOLLOW_UP_KINDS as readonly string[]).includes(kind)) {
      throw errors.actionRefNotRunnable(actionRef, kind);
    }
    return found;
  }

  /** `<base>`, else `<base><sep>2`, `<base><sep>3`... free for the app (`copy` names start numbering at 2 too). */
  freeName(app: string, base: string, separator: string): string {
    return numberedName(base, separator, (candidate) => this.designs.template(app, candidate) !== undefined);
  }
}

const afterRange = (): string => `${FOLLOW_UP_AFTER_SECONDS.min} to ${FOLLOW_UP_AFTER_SECONDS.max} seconds, or 90s, 10m, 2h`;

/** Duplicate and rename take names that can be listed: not scratch names (only PUT accepts those). */
function checkNewName(name: string, field: string): void {
  const problem = templateNameProblem(name);
  if (problem) throw errors.invalidNewName(field, problem);
}

const newManifest = (app: string): Manifest => ({ app, appName: app, version: 1, fields: [], actions: [], assets: [] });

/** `<base><suffix>` if it is free, else `<base><separator>2<suffix>`, `...3`...: the first free one. */
export function numberedName(base: string, separator: string, taken: (candidate: string) => boolean, suffix = ''): string {
  if (!taken(`${base}${suffix}`)) return `${base}${suffix}`;
  for (let n = 2; ; n++) if (!taken(`${base}${separator}${n}${suffix}`)) return `${base}${separator}${n}${suffix}`;
}
