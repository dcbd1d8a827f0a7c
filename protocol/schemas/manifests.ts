// An app's manifest: its fields (the {tokens} of its templates), reusable actions, Rive files and default template.

import { FIELD_TYPES } from '../types.js';
import { appId } from './common.js';
import { flag, integer, list, object, oneOfText, text } from './json-schema.js';
import { followUpSchema } from './notification.js';

export const manifestSchema = object(
  {
    app: appId,
    appName: text('default: the app id'),
    version: integer('default 1'),
    icon: text(),
    fields: list(
      object(
        {
          key: text(),
          type: oneOfText(FIELD_TYPES, 'default text'),
          required: flag(),
          sample: { type: ['string', 'number', 'boolean', 'array'], description: 'the value previews show' },
        },
        ['key'],
      ),
    ),
    actions: list(object({ id: text(), label: text(), kind: text() }, ['label']), 'buttons notifications and templates can name by id'),
    assets: list(object({ id: text(), type: { const: 'rive' }, path: text(), stateMachine: text() }, ['id', 'type', 'path']), 'Rive files'),
    defaultTemplate: text(),
    family: text('groups apps for byApp stacking'),
    followUp: followUpSchema,
    appBundleId: text(),
    appPath: text(),
  },
  ['app'],
);

export const manifestsSchema = object({ items: list(manifestSchema) }, ['items']);
