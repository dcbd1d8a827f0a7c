// The document `GET /v1/components` returns (docs/api/templates.md#get-v1-components): a JSON-Schema-style
// description of the template format for people and agents designing templates. Everything in it is printed from
// schema.ts, the description the validator reads, so the two cannot disagree; the examples are the built-in layouts
// and a small custom template, all of which validate.

import { builtinTemplateSource } from './builtins.js';
import { LAYOUTS } from '../protocol/types.js';
import {
  ACTION_KINDS,
  ACTION_RULES_DOC,
  BINDINGS,
  COMPONENT_TYPES,
  COMPONENTS,
  DEFINITIONS,
  LIMITS,
  SCHEMA_VERSION,
  TEMPLATE,
  isObjectSpec,
  type ComponentSpec,
  type ObjectSpec,
  type PropertySpec,
} from './schema.js';

type Json = Record<string, unknown>;

/** The app the examples are written for. */
export const EXAMPLE_APP = 'com.example.app';

/** A small custom template: icon, title and a count badge, the body, a progress bar and the actions. */
export const CUSTOM_EXAMPLE: Json = {
  name: 'build-status',
  app: EXAMPLE_APP,
  layoutVersion: 2,
  collapseEmpty: true,
  grid: { rows: 4, cols: 3, rowSizes: ['auto', 'auto', 'auto', 'auto'], colSizes: ['36', 'fill', 'auto'], gap: 8, padding: 14, width: 380 },
  cells: [
    { id: 'icon', row: 0, col: 0, rowSpan: 2, component: { type: 'issuerIcon', size: 28 } },
    { id: 'title', row: 0, col: 1, component: { type: 'text', binding: '{title}', style: 'title', maxLines: 2 } },
    { id: 'count', row: 0, col: 2, align: 'topTrailing', component: { type: 'badge', binding: '{failures}', color: '#FF3B30' } },
    { id: 'body', row: 1, col: 1, colSpan: 2, component: { type: 'text', binding: '{body}', style: 'body', maxLines: 3 } },
    { id: 'progress', row: 2, col: 0, colSpan: 3, component: { type: 'progress', binding: '{percent}' } },
    { id: 'actions', row: 3, col: 0, colSpan: 3, component: { type: 'actions', source: 'merged', layout: 'row' } },
  ],
  actionRules: [
    { match: 'retry', relabel: 'Run again', style: 'default', position: 0 },
    { add: { id: 'open-log', label: 'Open log', kind: 'url', url: 'https://ci.example.com/{buildId}/log' } },
  ],
  extra: { team: 'platform' },
};

/** docs/api/templates.md#get-v1-components. */
export function componentsDocument(): Json {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: 'Notifier banner template, layoutVersion 2',
    schemaVersion: SCHEMA_VERSION,
    description: TEMPLATE.description,
    type: 'object',
    required: requiredOf(TEMPLATE),
    properties: propertiesOf(TEMPLATE),
    definitions: Object.fromEntries(
      Object.entries(DEFINITIONS).map(([name, spec]) => [name, isObjectSpec(spec) ? objectDocument(spec) : propertyDocument(spec, true)]),
    ),
    components: Object.fromEntries(COMPONENT_TYPES.map((type) => [type, componentDocument(type, COMPONENTS[type])])),
    bindings: { ...BINDINGS, standardTokens: [...BINDINGS.standardTokens] },
    actions: {
      description: ACTION_RULES_DOC.description,
      kinds: ACTION_KINDS.map((kind) => ({ kind, description: ACTION_RULES_DOC.kinds[kind] })),
      kindInference: ACTION_RULES_DOC.kindInference,
      ids: ACTION_RULES_DOC.ids,
      styles: ACTION_RULES_DOC.styles,
      rules: [...ACTION_RULES_DOC.rules],
      gates: [...ACTION_RULES_DOC.gates],
      payload: ACTION_RULES_DOC.payload,
      action: { $ref: '#/definitions/action' },
      actionRule: { $ref: '#/definitions/actionRule' },
    },
    limits: {
      rowsAndCols: `${LIMITS.tracks.min} to ${LIMITS.tracks.max}`,
      cells: LIMITS.maxCells,
      sizePoints: `${LIMITS.sizePoints.min} to ${LIMITS.sizePoints.max}`,
      gapAndPadding: `${LIMITS.gap.min} to ${LIMITS.gap.max}`,
      width: `${LIMITS.width.min} to ${LIMITS.width.max}`,
      templateNameBytes: 128,
    },
    examples: [
      {
        name: CUSTOM_EXAMPLE.name,
        note: 'Icon, title and a failure-count badge, the body, a progress bar that collapses when {percent} is absent, and the actions: the app\'s "retry" relabelled and moved first, and a link added.',
        template: structuredClone(CUSTOM_EXAMPLE),
      },
      ...LAYOUTS.map((layout) => ({
        name: `builtin.${layout}`,
        note: BUILTIN_NOTES[layout],
        // The layout as a template of one's own: a built-in name is reserved, so the copy is named after it.
        template: { ...builtinTemplateSource(layout, EXAMPLE_APP), name: `${layout} copy` },
      })),
    ],
    workflow: [
      '1. GET /v1/components: this document (component types, properties, defaults, bindings, actions).',
      '2. GET /v1/manifest?app=<app>: the fields the app sends (their keys are the {tokens}), its actions and sample values; PUT /v1/manifest to declare them if there is none.',
      '3. Draft a template: a grid, cells, one component per cell bound to {tokens}; or start from a copy of a built-in (POST /v1/templates/duplicate with name builtin.imageLeft).',
      '4. PUT /v1/templates: saves it after checking every rule; a 400 "invalid template: ..." lists each problem by path, "cell <id>:" first for a cell.',
      '5. POST /v1/preview with data "sample" (and appearance light and dark, a missing field, stackCount 3): look at the PNG and adjust.',
      '6. PUT /v1/templates/default: make it the app\'s default (needs a manifest); or name it in a notification\'s "template".',
      '7. Optional: PUT /v1/templates/follow-up to run an action when a banner is left unattended; POST /v1/notify to see a real banner.',
    ],
  };
}

const BUILTIN_NOTES: Record<(typeof LAYOUTS)[number], string> = {
  imageLeft:
    'Header (app icon, app name, time); a 64-point square picture on the left of title, subtitle and body; the actions. Without an image the picture column collapses.',
  imageRight: 'The same with the picture on the right.',
  hero: 'A wide 16:9 picture across the top (collapses without an image), the header, title, subtitle, body and the actions.',
  compact: 'One line (icon, title, time), the body on one line under it, and the actions.',
};

function requiredOf(spec: ObjectSpec): string[] {
  return Object.entries(spec.properties)
    .filter(([, property]) => property.required)
    .map(([name]) => name);
}

function propertiesOf(spec: ObjectSpec): Json {
  return Object.fromEntries(Object.entries(spec.properties).map(([name, property]) => [name, propertyDocument(property)]));
}

function objectDocument(spec: ObjectSpec): Json {
  const required = requiredOf(spec);
  return {
    type: 'object',
    description: spec.description,
    ...(required.length > 0 ? { required } : {}),
    properties: propertiesOf(spec),
    ...(spec.aliases ? { aliases: { ...spec.aliases } } : {}),
    ...(spec.needsOneOf ? { rules: spec.needsOneOf.map((rule) => ({ oneOf: [...rule.keys], message: rule.message })) } : {}),
    ...(spec.example !== undefined ? { example: structuredClone(spec.example) } : {}),
  };
}

function componentDocument(type: string, spec: ComponentSpec): Json {
  const document = objectDocument(spec);
  return {
    ...document,
    required: ['type', ...requiredOf(spec)],
    properties: { type: { const: type, description: 'The component type.' }, ...(document.properties as Json) },
    emptyWhen: spec.emptyWhen,
    example: structuredClone(spec.example),
  };
}

/**
 * One property: JSON-Schema words (type, enum, default, minimum...) plus what the validator adds. A property that is
 * a shared definition points at it with `$ref` (not the definition itself).
 */
export function propertyDocument(spec: PropertySpec, isDefinition = false): Json {
  const out: Json = {};
  if (spec.ref && !isDefinition) out.$ref = `#/definitions/${spec.ref}`;
  if (spec.type !== 'any') out.type = typeof spec.type === 'string' ? spec.type : [...spec.type];
  out.description = spec.description;
  if (spec.enum) out.enum = spec.allowEmpty ? [...spec.enum, ''] : [...spec.enum];
  if (spec.enumAliases) out.aliases = { ...spec.enumAliases };
  if (spec.default !== undefined) out.default = structuredClone(spec.default);
  if (spec.defaultDescription !== undefined) out.defaultDescription = spec.defaultDescription;
  if (spec.minimum !== undefined) out.minimum = spec.minimum;
  if (spec.maximum !== undefined) out.maximum = spec.maximum;
  if (spec.exclusiveMinimum !== undefined) out.exclusiveMinimum = spec.exclusiveMinimum;
  if (spec.unit !== undefined) out.unit = spec.unit;
  if (spec.maxItems !== undefined) out.maxItems = spec.maxItems;
  if (spec.nonBlank) out.minLength = 1;
  if (spec.items) out.items = propertyDocument(spec.items);
  if (spec.values) out.additionalProperties = propertyDocument(spec.values);
  return out;
}
