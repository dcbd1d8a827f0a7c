// The manifest object (docs/api/templates.md#manifests, #t21, #t22): its checks, all problems at once as
// `invalid manifest: <path>: <why>; ...`, and its normalised form (what GET returns: `appName`, `version`, `fields`,
// `actions` with ids and kinds, `assets` always present).

import { fileURLToPath } from 'node:url';
import { ApiError, errors } from '../../../protocol/errors.js';
import { MANIFEST_LIMITS } from '../../../protocol/limits.js';
import { type FollowUpInput, buttonKind, checkFollowUp, normalizeButton } from '../../../protocol/notification-rules.js';
import { FIELD_TYPES, type Manifest, type ManifestAction, type ManifestAsset, type ManifestField } from '../../../protocol/types.js';

const FIELD_KEY = /^[A-Za-z0-9_.-]+$/;
const ASSET_ID = /^[A-Za-z0-9_.-]+$/;
const PNG_DATA_URI = /^data:image\/png;base64,/;

type Problems = string[];

const bytes = (text: string): number => Buffer.byteLength(text, 'utf8');
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Checks a manifest body; throws `invalid manifest: ...` with every problem, or returns the normalised manifest. */
export function validateManifest(body: unknown): Manifest {
  const problems: Problems = [];
  if (!isObject(body)) throw errors.invalidManifest(['the body must be a JSON object']);
  const app = body.app;
  const appProblem = appIdProblem(app);
  // Without an app id the manifest is no one's: refused at once. A long one is one problem among the others.
  if (typeof app !== 'string' || app.trim() === '') throw errors.invalidManifest([`app: ${appProblem}`]);
  if (appProblem) problems.push(`app: ${appProblem}`);

  const manifest: Manifest = { app, appName: app, version: 1, fields: [], actions: [], assets: [] };
  const text = (key: string, limit: number): string | undefined => {
    const value = body[key];
    if (value === undefined || value === null) return undefined;
    if (typeof value !== 'string') return void problems.push(`${key}: must be a string`);
    if (bytes(value) > limit) return void problems.push(`${key}: at most ${limit} bytes`);
    return value;
  };
  const appName = text('appName', MANIFEST_LIMITS.appNameBytes);
  if (appName?.trim()) manifest.appName = appName;
  const icon = text('icon', MANIFEST_LIMITS.iconBytes);
  if (icon !== undefined) {
    if (icon.startsWith('data:') && !PNG_DATA_URI.test(icon)) problems.push('icon: a data URI must be data:image/png;base64,...');
    else manifest.icon = icon;
  }
  const defaultTemplate = text('defaultTemplate', MANIFEST_LIMITS.defaultTemplateBytes);
  if (defaultTemplate) manifest.defaultTemplate = defaultTemplate;
  const family = text('family', MANIFEST_LIMITS.appNameBytes);
  if (family) manifest.family = family;
  for (const key of ['appBundleId', 'appPath'] as const) {
    const value = text(key, MANIFEST_LIMITS.defaultTemplateBytes);
    if (value) manifest[key] = value;
  }
  if (body.version !== undefined) {
    if (!Number.isInteger(body.version) || (body.version as number) < 1) problems.push('version: a whole number of at least 1');
    else manifest.version = body.version as number;
  }

  const fields = list(body, 'fields', MANIFEST_LIMITS.fields, problems, checkField);
  const actions = list(body, 'actions', MANIFEST_LIMITS.actions, problems, checkAction);
  const assets = list(body, 'assets', MANIFEST_LIMITS.assets, problems, checkAsset);
  unique(fields, (field) => field.key, 'fields', 'key', problems);
  unique(actions, (action) => action.id.toLowerCase(), 'actions', 'id', problems);
  unique(assets, (asset) => asset.id, 'assets', 'id', problems);
  manifest.fields = fields.map(({ item }) => item);
  manifest.actions = actions.map(({ item }) => item);
  manifest.assets = assets.map(({ item }) => item);

  if (body.followUp !== undefined && body.followUp !== null) {
    const followUp = checkManifestFollowUp(body.followUp, manifest.actions, problems);
    if (followUp) manifest.followUp = followUp;
  }
  if (problems.length > 0) throw errors.invalidManifest(problems);
  return manifest;
}

/** Why an app id cannot be a manifest's (`required, a non-empty string`, `at most 128 bytes`); undefined if it can. */
export function appIdProblem(app: unknown): string | undefined {
  if (typeof app !== 'string' || app.trim() === '') return 'required, a non-empty string';
  return bytes(app) > MANIFEST_LIMITS.appBytes ? `at most ${MANIFEST_LIMITS.appBytes} bytes` : undefined;
}

/**
 * An array property: each item checked by `check`, which returns the normalised item or undefined. The valid items
 * keep their index in the body, so later problems name the item where it was sent.
 */
function list<T>(
  body: Record<string, unknown>,
  key: string,
  limit: number,
  problems: Problems,
  check: (item: unknown, path: string, problems: Problems) => T | undefined,
): Array<{ item: T; index: number }> {
  const value = body[key];
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) {
    problems.push(`${key}: must be an array`);
    return [];
  }
  if (value.length > limit) problems.push(`${key}: at most ${limit} items (got ${value.length})`);
  return value.slice(0, limit).flatMap((item, index) => {
    const checked = check(item, `${key}[${index}]`, problems);
    return checked === undefined ? [] : [{ item: checked, index }];
  });
}

function unique<T>(
  items: Array<{ item: T; index: number }>,
  valueOf: (item: T) => string,
  key: string,
  property: string,
  problems: Problems,
): void {
  const seen = new Set<string>();
  for (const { item, index } of items) {
    const value = valueOf(item);
    if (seen.has(value)) problems.push(`${key}[${index}].${property}: '${value}' is used twice`);
    seen.add(value);
  }
}

function checkField(item: unknown, path: string, problems: Problems): ManifestField | undefined {
  if (!isObject(item)) return void problems.push(`${path}: must be an object`);
  const { key, type = 'text', required = false, sample } = item;
  const before = problems.length;
  if (typeof key !== 'string' || !FIELD_KEY.test(key)) problems.push(`${path}.key: letters, digits, _ . - only`);
  else if (bytes(key) > MANIFEST_LIMITS.fieldKeyBytes) problems.push(`${path}.key: at most ${MANIFEST_LIMITS.fieldKeyBytes} bytes`);
  if (typeof type !== 'string' || !(FIELD_TYPES as readonly string[]).includes(type))
    problems.push(`${path}.type: one of ${FIELD_TYPES.join(', ')}`);
  if (typeof required !== 'boolean') problems.push(`${path}.required: true or false`);
  if (sample !== undefined) checkSample(sample, `${path}.sample`, problems);
  if (problems.length > before) return undefined;
  return {
    key: key as string,
    type: type as ManifestField['type'],
    required: required as boolean,
    ...(sample !== undefined ? { sample: sample as ManifestField['sample'] } : {}),
  };
}

function checkSample(sample: unknown, path: string, problems: Problems): void {
  if (typeof sample === 'string') {
    if (bytes(sample) > MANIFEST_LIMITS.sampleBytes) problems.push(`${path}: at most ${MANIFEST_LIMITS.sampleBytes} bytes`);
  } else if (Array.isArray(sample)) {
    if (sample.length > MANIFEST_LIMITS.sampleItems) problems.push(`${path}: at most ${MANIFEST_LIMITS.sampleItems} items`);
    if (!sample.every((item) => typeof item === 'string')) problems.push(`${path}: a list holds strings only`);
  } else if (!(typeof sample === 'number' && Number.isFinite(sample)) && typeof sample !== 'boolean') {
    problems.push(`${path}: a string, number, true/false or a list of strings`);
  }
}

/** A manifest action is a button with an id and a kind (docs/api/templates.md#t21). */
function checkAction(item: unknown, path: string, problems: Problems): ManifestAction | undefined {
  if (!isObject(item)) return void problems.push(`${path}: must be an object`);
  if (typeof item.label !== 'string' || item.label.trim() === '') return void problems.push(`${path}.label: an action needs a label`);
  try {
    const button = normalizeButton(item as unknown as ManifestAction, path);
    return { ...button, id: button.id!, kind: buttonKind(button) };
  } catch (error) {
    problems.push(fieldProblem(error));
    return undefined;
  }
}

function checkAsset(item: unknown, path: string, problems: Problems): ManifestAsset | undefined {
  if (!isObject(item)) return void problems.push(`${path}: must be an object`);
  const before = problems.length;
  const { id, type = 'rive', path: file, stateMachine, inputs } = item;
  if (typeof id !== 'string' || !ASSET_ID.test(id)) problems.push(`${path}.id: letters, digits, _ . - only`);
  else if (id.startsWith('.')) problems.push(`${path}.id: cannot start with . (the file <id>.riv would be hidden)`);
  if (type !== 'rive') problems.push(`${path}.type: asset type "${String(type)}" is not supported (only rive)`);
  if (typeof file !== 'string' || file === '') problems.push(`${path}.path: required`);
  else if (bytes(file) > MANIFEST_LIMITS.assetPathBytes) problems.push(`${path}.path: at most ${MANIFEST_LIMITS.assetPathBytes} bytes`);
  else if (/^[a-z][a-z0-9+.-]*:\/\//i.test(file) && !file.startsWith('file://'))
    problems.push(`${path}.path: remote assets are not supported: ${file}`);
  else if (file.startsWith('file://') && !isLocalFileURL(file))
    problems.push(`${path}.path: a file:// URL must name a file on this computer: ${file}`);
  else if (!file.startsWith('/') && !file.startsWith('~/') && !file.startsWith('file://') && /[/\\]/.test(file)) {
    problems.push(`${path}.path: an absolute path, ~/..., file://..., or a plain name in the app's assets folder`);
  }
  if (stateMachine !== undefined && typeof stateMachine !== 'string') problems.push(`${path}.stateMachine: must be a string`);
  if (inputs !== undefined && !isObject(inputs) && !Array.isArray(inputs)) problems.push(`${path}.inputs: an object or a list`);
  if (problems.length > before) return undefined;
  return {
    id: id as string,
    type: 'rive',
    path: file as string,
    ...(typeof stateMachine === 'string' ? { stateMachine } : {}),
    ...(inputs !== undefined ? { inputs: inputs as ManifestAsset['inputs'] } : {}),
  };
}

function isLocalFileURL(url: string): boolean {
  try {
    fileURLToPath(url);
    return true;
  } catch {
    return false;
  }
}

/** docs/api/templates.md#t21: `after` 5-604800 s; one action; `actionRef` names a manifest action; kind shortcut, script, command, callback. */
function checkManifestFollowUp(value: unknown, actions: ManifestAction[], problems: Problems): Manifest['followUp'] {
  if (!isObject(value)) return void problems.push('followUp: must be an object');
  try {
    return checkFollowUp(value as FollowUpInput, actions);
  } catch (error) {
    problems.push(fieldProblem(error));
    return undefined;
  }
}

/** `invalid field: a.b (why)` from the shared rules, as `a.b: why`. */
function fieldProblem(error: unknown): string {
  if (!(error instanceof ApiError) || error.code !== 'invalid_field') return (error as Error).message;
  return error.reason ? `${error.field}: ${error.reason}` : error.field!;
}
