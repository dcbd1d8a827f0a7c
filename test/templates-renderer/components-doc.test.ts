import { describe, expect, test } from '@jest/globals';
import { componentsDocument, propertyDocument } from '../../templates-renderer/components-doc.js';
import { ALIGNMENTS, TEXT_STYLES } from '../../templates-renderer/model.js';
import { ACTION_KINDS, COMPONENT_TYPES, COMPONENTS, DEFINITIONS, TEMPLATE, isObjectSpec } from '../../templates-renderer/schema.js';
import { validateTemplate } from '../../templates-renderer/validate.js';
import { COMPONENTS_DOCUMENT_KEYS } from '../helpers/components.js';

type Json = Record<string, any>;

const doc = componentsDocument() as Json;

describe('GET /v1/components document', () => {
  test('has every key docs/api/templates.md#get-v1-components lists, and schemaVersion 2', () => {
    for (const key of COMPONENTS_DOCUMENT_KEYS) {
      expect(doc).toHaveProperty([key]);
    }
    expect(doc.schemaVersion).toBe(2);
    expect(doc.type).toBe('object');
    expect(doc.required).toEqual(['name', 'app']);
    expect(typeof doc.description).toBe('string');
  });

  test('is plain JSON', () => {
    expect(JSON.parse(JSON.stringify(doc))).toEqual(doc);
  });

  test('every template property, with its default and allowed values', () => {
    expect(Object.keys(doc.properties)).toEqual(Object.keys(TEMPLATE.properties));
    expect(doc.properties.collapseEmpty).toMatchObject({ type: 'boolean', default: true });
    expect(doc.properties.layoutVersion).toMatchObject({
      type: 'integer',
      default: 2,
      defaultDescription: '2 when there is a grid, else 1',
    });
    expect(doc.properties.layout.enum).toEqual(['imageLeft', 'imageRight', 'hero', 'compact']);
    expect(doc.properties.maxBodyLines).toMatchObject({ minimum: 1, maximum: 30, default: 8 });
    expect(doc.properties.grid.$ref).toBe('#/definitions/grid');
    expect(doc.properties.cells.items.$ref).toBe('#/definitions/cell');
  });

  test('definitions: grid, cell, size, alignment (and every other shared piece)', () => {
    for (const name of ['grid', 'cell', 'size', 'alignment']) expect(doc.definitions).toHaveProperty([name]);
    expect(Object.keys(doc.definitions)).toEqual(Object.keys(DEFINITIONS));
    const grid = doc.definitions.grid;
    expect(grid.properties.rows).toMatchObject({ type: 'integer', minimum: 1, maximum: 12, default: 3 });
    expect(grid.properties.gap).toMatchObject({ minimum: 0, maximum: 64, default: 8 });
    expect(grid.properties.padding).toMatchObject({ default: 14 });
    expect(grid.properties.width).toMatchObject({ minimum: 160, maximum: 800, default: 400 });
    expect(grid.properties.rowSizes.items.$ref).toBe('#/definitions/size');
    expect(doc.definitions.size).toMatchObject({ type: ['string', 'number'], minimum: 0, maximum: 4000 });
    expect(doc.definitions.size.$ref).toBeUndefined();
    expect(doc.definitions.alignment).toMatchObject({ enum: [...ALIGNMENTS], default: 'topLeading' });
    expect(doc.definitions.cell.required).toEqual(['row', 'col', 'component']);
    expect(doc.definitions.cell.properties.id.defaultDescription).toBe('r<row>c<col>');
  });

  test('every component type of schema.ts, each with every property of schema.ts', () => {
    expect(Object.keys(doc.components)).toEqual([...COMPONENT_TYPES]);
    expect(COMPONENT_TYPES).toHaveLength(13);
    for (const type of COMPONENT_TYPES) {
      const component = doc.components[type];
      expect(component.properties.type).toEqual({ const: type, description: 'The component type.' });
      expect(Object.keys(component.properties)).toEqual(['type', ...Object.keys(COMPONENTS[type].properties)]);
      for (const [name, spec] of Object.entries(COMPONENTS[type].properties)) {
        expect(component.properties[name]).toEqual(propertyDocument(spec));
        expect(typeof component.properties[name].description).toBe('string');
        if (spec.enum) expect(component.properties[name].enum).toEqual(expect.arrayContaining([...spec.enum]));
        if (spec.default !== undefined) expect(component.properties[name].default).toEqual(spec.default);
      }
      expect(component.required[0]).toBe('type');
      expect(typeof component.description).toBe('string');
      expect(typeof component.emptyWhen).toBe('string');
    }
    expect(doc.components.text.required).toEqual(['type', 'binding']);
    expect(doc.components.text.properties.style).toMatchObject({ enum: [...TEXT_STYLES], default: 'body' });
    expect(doc.components.issuerIcon.properties.size).toMatchObject({ minimum: 8, maximum: 128, default: 22 });
    expect(doc.components.symbol.required).toEqual(['type', 'name']);
    expect(doc.components.symbol.properties.size).toMatchObject({ minimum: 8, maximum: 128, default: 20 });
    expect(doc.components.button.aliases).toEqual({ actionId: 'actionRef' });
    expect(doc.components.rive.rules).toEqual([
      { oneOf: ['asset', 'path'], message: "a rive component needs an 'asset' (from the manifest) or a 'path'" },
    ]);
  });

  test('every component example is a valid component', () => {
    for (const type of COMPONENT_TYPES) {
      const template = {
        name: 'n',
        app: 'a',
        grid: { rows: 1, cols: 1 },
        cells: [{ id: 'c', row: 0, col: 0, component: doc.components[type].example }],
      };
      const { errors, warnings } = validateTemplate(template);
      expect({ type, errors, warnings }).toEqual({ type, errors: [], warnings: [] });
    }
  });

  test('bindings: token syntax, sources and formatting', () => {
    expect(doc.bindings.tokenPattern).toBe('\\{[A-Za-z0-9_.-]+\\}');
    expect(doc.bindings.standardTokens).toEqual(expect.arrayContaining(['title', 'body', 'appName', 'deliveredAt', 'stack.count']));
    for (const key of ['syntax', 'tokenSources', 'formatting', 'empty']) expect(doc.bindings).toHaveProperty([key]);
  });

  test('actions: every kind and the rules', () => {
    expect(doc.actions.kinds.map((kind: Json) => kind.kind)).toEqual([...ACTION_KINDS]);
    for (const kind of doc.actions.kinds) expect(typeof kind.description).toBe('string');
    expect(doc.actions.rules.join(' ')).toContain("a rule needs a 'match' or an 'add'");
    expect(doc.definitions.action.properties.kind.enum).toEqual([...ACTION_KINDS]);
    expect(doc.definitions.actionRule.rules).toEqual([{ oneOf: ['match', 'add'], message: "a rule needs a 'match' or an 'add'" }]);
  });

  test('every example validates with no errors (the built-ins and a custom one)', () => {
    expect(doc.examples.map((example: Json) => example.name)).toEqual([
      'build-status',
      'builtin.imageLeft',
      'builtin.imageRight',
      'builtin.hero',
      'builtin.compact',
    ]);
    for (const example of doc.examples) {
      const { template, errors, warnings } = validateTemplate(example.template);
      expect({ name: example.name, errors, warnings }).toEqual({ name: example.name, errors: [], warnings: [] });
      expect(template!.layoutVersion).toBe(2);
      expect(typeof example.note).toBe('string');
    }
    const custom = validateTemplate(doc.examples[0].template).template!;
    expect(custom.grid!.colSizes).toEqual([36, 'fill', 'auto']);
  });

  test('every definition example that is a whole object validates as its part', () => {
    for (const [name, spec] of Object.entries(DEFINITIONS)) {
      if (!isObjectSpec(spec) || spec.example === undefined) continue;
      expect(doc.definitions[name].example).toEqual(spec.example);
    }
    const grid = validateTemplate({ name: 'n', app: 'a', grid: doc.definitions.grid.example });
    expect(grid.errors).toEqual([]);
    const rule = validateTemplate({
      name: 'n',
      app: 'a',
      actionRules: [doc.definitions.actionRule.example, { add: doc.definitions.action.example }],
    });
    expect(rule.errors).toEqual([]);
  });

  test('workflow: the calls in order', () => {
    const text = (doc.workflow as string[]).join('\n');
    const order = ['GET /v1/components', 'PUT /v1/manifest', 'PUT /v1/templates', 'POST /v1/preview', 'PUT /v1/templates/default'];
    const positions = order.map((call) => text.indexOf(call));
    expect(positions.every((position) => position >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });
});
