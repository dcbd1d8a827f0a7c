// An app's Rive files and images, and the Rive check.

import { appId, okWith } from './common.js';
import { flag, integer, list, map, object, oneOfText, text } from './json-schema.js';

/** The pointer events POST /v1/rive/check can play on the animation. */
export const SIMULATIONS = ['hoverIn', 'hoverOut', 'pressDown', 'pressUp'] as const;

const kind = oneOfText(['rive', 'image']);

export const assetsSchema = object(
  {
    app: appId,
    folder: text(),
    limits: object({ bytes: integer(), riveFiles: integer(), images: integer() }, ['bytes', 'riveFiles', 'images']),
    assets: list(
      object(
        {
          kind,
          file: text(),
          path: text(),
          bytes: integer(),
          id: text("a Rive file's asset id"),
          declared: flag(),
          format: text(),
          usedBy: list(text(), 'templates that name it'),
          component: object({}),
        },
        ['kind', 'file', 'path', 'bytes', 'usedBy'],
      ),
    ),
  },
  ['app', 'folder', 'limits', 'assets'],
);

export const addAssetSchema = object(
  {
    app: appId,
    path: text('a file on this computer (give path or base64)'),
    base64: text('the bytes (needs name)'),
    name: text('a plain file name; its extension tells the kind'),
    kind: oneOfText(['rive', 'image'], 'for a name without a known extension'),
  },
  ['app'],
);

export const addedAssetSchema = okWith(
  {
    kind,
    app: appId,
    file: text(),
    path: text(),
    bytes: integer(),
    replaced: flag(),
    id: text("a Rive file's asset id"),
    format: text("an image's format"),
    component: object({}, [], 'a rive component that shows it'),
    usage: object({}, [], 'how an image cell binds it'),
  },
  ['kind', 'app', 'file', 'path', 'bytes', 'replaced'],
);

export const removedAssetSchema = okWith({ deleted: text(), stillReferencedBy: list(text(), 'templates that still name it') }, [
  'deleted',
  'stillReferencedBy',
]);

export const riveCheckSchema = object(
  {
    app: appId,
    component: object(
      { type: { const: 'rive' }, asset: text(), path: text(), inputBindings: map(text()) },
      ['type'],
      'a rive component, as in a template cell',
    ),
    fields: map({}, "values for the bindings' {tokens}"),
    simulate: list(oneOfText(SIMULATIONS), 'pointer events to play'),
  },
  ['app', 'component'],
);

export const riveCheckReplySchema = object(
  {
    loaded: flag('a Rive file of a format this service reads'),
    error: text('why not'),
    version: text(),
    inputs: object({}),
    applied: map(text(), 'what each input binding would write'),
    artboards: list(text()),
    takesClicks: flag(),
    pointerWrites: list(text(), 'inputs that follow the pointer'),
    clickedActions: list(text(), 'the action each simulated click runs'),
    note: text(),
  },
  ['loaded', 'inputs', 'applied', 'artboards', 'takesClicks', 'pointerWrites', 'clickedActions', 'note'],
);
