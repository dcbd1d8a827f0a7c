// docs/api/templates.md#t28: an app's Rive files and images (GET/POST/DELETE /v1/assets) and the Rive check
// (POST /v1/rive/check, #t29). Their route sections there (#get-v1-assets, #post-v1-assets, #delete-v1-assets,
// #post-v1-rive-check) give the fields and messages.

import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { type AssetKind, RIVE_EXTENSION, assetKindOf, isPlainFileName } from '../../core/templates/assets.js';
import { sniffImage } from '../../core/media/image-sniff.js';
import type { Core } from '../../core/core.js';
import { fillTokens } from '../../../protocol/fields.js';
import type { Component } from '../../../templates-renderer/model.js';
import { validateTemplate } from '../../../templates-renderer/validate.js';
import { errors } from '../../../protocol/errors.js';
import { ASSET_LIMITS } from '../../../protocol/limits.js';
import { bodyText, optionalBodyText } from '../params.js';
import { APP_QUERY, query, type Route } from '../route.js';
import {
  SIMULATIONS,
  addAssetSchema,
  addedAssetSchema,
  assetsSchema,
  removedAssetSchema,
  riveCheckReplySchema,
  riveCheckSchema,
} from '../../../protocol/schemas/assets.js';
import { expandHome } from '../../paths.js';

type RiveComponent = Extract<Component, { type: 'rive' }>;

/** docs/api/templates.md#t29: an input bound to the pointer (written by hovering and pressing, not by fields). */
const POINTER_VALUES = new Set(['hover', 'pressed']);

type Services = Pick<Core, 'assets' | 'designs'>;

/**
 * POST /v1/assets: exactly one of `path` and `base64` (which needs `name`); the kind from the name's extension. A
 * `kind` may name it for a name without a known extension, which then gets the kind's (`.riv`, or the picture's
 * format); a kind the extension contradicts is refused, so a stored file's name always tells its kind.
 */
export async function addAsset(services: Services, body: Record<string, unknown>) {
  const app = bodyText(body, 'app');
  const source = optionalBodyText(body, 'path');
  const base64 = optionalBodyText(body, 'base64');
  if ((source === undefined) === (base64 === undefined)) throw errors.assetNeedsOneSource();
  const name = optionalBodyText(body, 'name');
  if (base64 !== undefined && !name) throw errors.missingField('name', 'the file name to store the base64 bytes under');
  const given = name || path.basename(source!);
  if (!isPlainFileName(given)) throw errors.notPlainFileName();
  const kind = readKind(optionalBodyText(body, 'kind'), given);
  const bytes = base64 !== undefined ? Buffer.from(base64, 'base64') : await readSourceFile(source!);
  const file = withExtension(given, kind, bytes);
  const stored = await services.assets.add(app, file, bytes, kind);
  if (kind === 'rive') {
    const id = file.slice(0, -RIVE_EXTENSION.length);
    return {
      ok: true,
      kind,
      app,
      id,
      file,
      path: stored.path,
      bytes: bytes.length,
      replaced: stored.replaced,
      component: { type: 'rive', asset: id },
    };
  }
  return {
    ok: true,
    kind,
    app,
    file,
    path: stored.path,
    format: stored.format,
    bytes: bytes.length,
    replaced: stored.replaced,
    usage: { type: 'image', binding: stored.path },
  };
}

function readKind(given: string | undefined, file: string): AssetKind {
  if (given !== undefined && given !== 'rive' && given !== 'image') throw errors.invalidField('kind', 'rive or image');
  const named = assetKindOf(file);
  if (given !== undefined && named !== null && given !== named) {
    throw errors.invalidField(
      'kind',
      `${file} is the name of ${named === 'rive' ? 'a Rive file' : 'an image'}, not ${given === 'rive' ? 'a Rive file' : 'an image'}`,
    );
  }
  const kind = (given as AssetKind | undefined) ?? named;
  if (!kind) throw errors.assetKindUnknown();
  return kind;
}

/** A name without its kind's extension gets it: `.riv`, or the picture's own format (`.png`, `.jpg`, ...). */
function withExtension(file: string, kind: AssetKind, bytes: Buffer): string {
  if (assetKindOf(file) === kind) return file;
  const format = kind === 'image' ? sniffImage(bytes) : null;
  if (kind === 'image' && !format) return file; // not a picture: the store refuses it by its bytes, naming it as sent
  const named = `${file}${kind === 'rive' ? RIVE_EXTENSION : `.${format}`}`;
  if (!isPlainFileName(named)) throw errors.notPlainFileName();
  return named;
}

async function readSourceFile(given: string): Promise<Buffer> {
  const file = expandHome(given);
  const info = await stat(file).catch(() => null);
  if (!info?.isFile()) throw errors.noSuchFile(given);
  if (info.size > ASSET_LIMITS.bytes) throw errors.sourceFileTooLarge(given);
  return readFile(file);
}

/** GET /v1/assets (the Designer's too): an app's files, each with the templates that name it. */
export async function assetList(services: Services, app: string) {
  const manifest = services.designs.manifest(app);
  const assets = await services.assets.list(app, manifest, services.designs.templatesOf(app));
  return {
    app,
    folder: services.assets.folder(app),
    limits: ASSET_LIMITS,
    assets: assets.map((asset) => (asset.kind === 'rive' ? { ...asset, component: { type: 'rive', asset: asset.id } } : asset)),
  };
}

/** DELETE /v1/assets (the Designer's too): the answer names the templates that still use it. */
export async function removeAsset(services: Services, app: string, file: string) {
  if (!isPlainFileName(file) || !assetKindOf(file)) throw errors.notAnAssetName(file);
  const stillReferencedBy = services.assets.usedBy(app, file, services.designs.templatesOf(app));
  if (!(await services.assets.remove(app, file))) throw errors.noSuchAsset(file);
  return { ok: true, deleted: file, stillReferencedBy };
}

/** POST /v1/rive/check: the component's file and header, and what its bindings would write. */
async function checkRive(services: Services, body: Record<string, unknown>) {
  const app = bodyText(body, 'app');
  const rive = readRiveComponent(body.component, app);
  const fields = readFields(body.fields);
  const simulate = readSimulate(body.simulate);
  const header = await services.assets.checkRive(app, rive, services.designs.manifest(app));
  const applied: Record<string, string> = {};
  const pointerWrites: string[] = [];
  for (const [input, binding] of Object.entries(rive.inputBindings ?? {})) {
    if (POINTER_VALUES.has(binding)) pointerWrites.push(input);
    else applied[input] = fillTokens(binding, fields);
  }
  const takesClicks = rive.action !== undefined || rive.actionRef !== undefined;
  const clickedAction = typeof rive.action === 'object' ? rive.action.id : (rive.actionRef ?? rive.action);
  return {
    ...header,
    inputs: {},
    applied,
    artboards: [],
    takesClicks,
    pointerWrites,
    clickedActions: takesClicks && clickedAction ? Array.from({ length: clicks(simulate) }, () => clickedAction) : [],
    note: 'There is no Rive runtime on this computer: the check reads the file header only; artboards, state machines and inputs are not listed, and banners draw a labelled placeholder.',
  };
}

/**
 * The component checked as a template cell would be (types of its properties, its action normalised with an id),
 * except that a missing asset and path is the check's answer (`loaded: false`), not a 400.
 */
function readRiveComponent(value: unknown, app: string): RiveComponent {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || (value as { type?: unknown }).type !== 'rive') {
    throw errors.invalidField('component', 'a rive component object');
  }
  const cell = { id: 'rive', row: 0, col: 0, component: value };
  const { template, errors: issues } = validateTemplate({ app, name: '_rive-check', grid: { rows: 1, cols: 1 }, cells: [cell] });
  if (template) return template.cells[0]!.component as RiveComponent;
  const problems = issues.filter((issue) => !(issue.path === 'cells[0].component' && /needs an 'asset'/.test(issue.message)));
  if (problems.length > 0) {
    throw errors.invalidField(
      'component',
      problems.map((issue) => `${issue.path.replace(/^cells\[0\]\./, '')}: ${issue.message}`).join('; '),
    );
  }
  return { type: 'rive' }; // neither asset nor path: the check says so
}

/** A click is a press released over the animation: a pressUp after a pressDown, the pointer not having left between. */
function clicks(simulate: string[]): number {
  let pressed = false;
  let count = 0;
  for (const step of simulate) {
    if (step === 'pressDown') pressed = true;
    else if (step === 'hoverOut') pressed = false;
    else if (step === 'pressUp' && pressed) {
      count++;
      pressed = false;
    }
  }
  return count;
}

function readFields(value: unknown): Record<string, string> {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw errors.invalidField('fields', 'an object of field values');
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, String(item)]));
}

function readSimulate(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || !value.every((step) => (SIMULATIONS as readonly unknown[]).includes(step))) {
    throw errors.invalidField('simulate', `a list of ${SIMULATIONS.join(', ')}`);
  }
  return value as string[];
}

/** A picture of one orange pixel, as PNG. */
const PIXEL_PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP438AAAAQBAYDFKhhdAAAAAElFTkSuQmCC';

export function assetRoutes(): Route<Services>[] {
  return [
    {
      method: 'GET',
      door: 'token',
      path: '/v1/assets',
      summary: "An app's Rive files and images",
      description: 'Each with the templates that name it; a Rive file also with the component that shows it.',
      tag: 'Assets',
      query: [APP_QUERY],
      reply: assetsSchema,
      errors: { 400: 'app is missing' },
      examples: [{ summary: 'The build app', query: { app: 'com.example.build' } }],
      handle: ({ services, query }) => assetList(services, query.app as string),
    },
    {
      method: 'POST',
      door: 'token',
      path: '/v1/assets',
      summary: 'Add a Rive file or an image',
      description:
        "From a file on this computer or as base64; the kind comes from the name's extension, images are checked by their bytes.",
      tag: 'Assets',
      body: addAssetSchema,
      reply: addedAssetSchema,
      errors: {
        400: 'app is missing, neither or both of path and base64, the name is not a plain file name, the kind cannot be told, or the bytes are not a picture of a known format',
        413: 'the file is larger than 10 MB, or the app has as many files of the kind as it may',
      },
      examples: [{ summary: 'A logo as base64', body: { app: 'com.example.build', name: 'logo.png', base64: PIXEL_PNG } }],
      handle: ({ services, body }) => addAsset(services, body),
    },
    {
      method: 'DELETE',
      door: 'token',
      path: '/v1/assets',
      summary: 'Remove a Rive file or an image',
      description: 'The reply names the templates that still use it.',
      tag: 'Assets',
      query: [APP_QUERY, query.text('file', 'the file name', { required: true })],
      reply: removedAssetSchema,
      errors: { 400: 'app or file is missing, or file is not a Rive file or an image name', 404: 'no such asset' },
      examples: [{ summary: 'The logo', query: { app: 'com.example.build', file: 'logo.png' } }],
      handle: ({ services, query }) => removeAsset(services, query.app as string, query.file as string),
    },
    {
      method: 'POST',
      door: 'token',
      path: '/v1/rive/check',
      summary: 'Check a rive component',
      description:
        "Reads the Rive file's header (there is no Rive runtime here), and shows what the component's input bindings would write and which action simulated clicks would run.",
      tag: 'Assets',
      body: riveCheckSchema,
      reply: riveCheckReplySchema,
      errors: { 400: 'app is missing, or the component, fields or simulate are invalid' },
      examples: [
        {
          summary: 'Bindings and a click',
          body: {
            app: 'com.example.build',
            component: { type: 'rive', asset: 'spinner', inputBindings: { progress: '{percent}', hovered: 'hover' } },
            fields: { percent: '40' },
            simulate: ['pressDown', 'pressUp'],
          },
        },
      ],
      handle: ({ services, body }) => checkRive(services, body),
    },
  ];
}
