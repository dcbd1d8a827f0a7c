import { describe, expect, test } from '@jest/globals';
import {
  BUILTIN_NAMES,
  builtinTemplate,
  builtinTemplateSource,
  builtinTemplates,
  isBuiltinName,
} from '../../templates-renderer/builtins.js';
import { LAYOUTS } from '../../protocol/types.js';
import { isScratchName, templateNameProblem } from '../../templates-renderer/names.js';
import {
  isTemplateLink,
  isValidColor,
  parseSize,
  templateErrorMessage,
  validateFollowUp,
  validateTemplate,
} from '../../templates-renderer/validate.js';
import { tokensIn } from '../../templates-renderer/validate-kit.js';
import { WRITTEN_OUT_CELL_DEFAULTS, WRITTEN_OUT_DEFAULTS } from '../helpers/support.js';

type Json = Record<string, unknown>;

/** A 2 x 2 grid template with the given cells (and any other top-level keys). */
const grid2 = (cells: Json[], more: Json = {}): Json => ({ name: 't', app: 'a', grid: { rows: 2, cols: 2 }, cells, ...more });
/** One cell `c` at (0, 0) holding `component`. */
const one = (component: Json, cell: Json = {}): Json => grid2([{ id: 'c', row: 0, col: 0, ...cell, component }]);
const messageOf = (input: unknown): string => templateErrorMessage(validateTemplate(input).errors);

const TYPES = 'text, image, issuerIcon, timestamp, button, actions, iconButton, badge, stackBadge, progress, rive, spacer, symbol';

describe('invalid templates: each problem with its message (docs/api/templates.md#t6)', () => {
  const spacer = { type: 'spacer' };
  const manyCells = Array.from({ length: 101 }, (_, i) => ({ id: `c${i}`, row: Math.floor(i / 12), col: i % 12, component: spacer }));
  const cases: Array<[string, unknown, string]> = [
    ['not an object', [1, 2], 'a template is a JSON object with at least name and app'],
    ['no name', { app: 'a' }, 'name: name is required'],
    ['blank app', { name: 'n', app: '  ' }, 'app: app is required'],
    ['rows above 12', { name: 'n', app: 'a', grid: { rows: 13 } }, 'grid.rows: rows must be 1 to 12'],
    ['cols of 0', { name: 'n', app: 'a', grid: { cols: 0 } }, 'grid.cols: cols must be 1 to 12'],
    ['rows not whole', { name: 'n', app: 'a', grid: { rows: 2.5 } }, 'grid.rows: rows must be a whole number'],
    [
      '13 row sizes without rows',
      { name: 'n', app: 'a', grid: { rowSizes: Array(13).fill('auto') } },
      'grid.rowSizes: rows must be 1 to 12',
    ],
    [
      'too few row sizes',
      { name: 'n', app: 'a', grid: { rows: 2, rowSizes: ['auto'] } },
      'grid.rowSizes: rowSizes has 1 entries but rows is 2',
    ],
    [
      'too many col sizes',
      { name: 'n', app: 'a', grid: { cols: 1, colSizes: ['fill', 'fill'] } },
      'grid.colSizes: colSizes has 2 entries but cols is 1',
    ],
    ['size above 4000', { name: 'n', app: 'a', grid: { rowSizes: [5000] } }, 'grid.rowSizes[0]: a size in points must be 0 to 4000'],
    ['negative size string', { name: 'n', app: 'a', grid: { rowSizes: ['-3pt'] } }, 'grid.rowSizes[0]: a size in points must be 0 to 4000'],
    [
      'a size that is no size',
      { name: 'n', app: 'a', grid: { colSizes: ['fill', 'big'] } },
      `grid.colSizes[1]: size 'big' must be "auto", "fill" or a number of points`,
    ],
    ['gap above 64', { name: 'n', app: 'a', grid: { gap: 70 } }, 'grid.gap: gap must be 0 to 64'],
    ['negative padding', { name: 'n', app: 'a', grid: { padding: -1 } }, 'grid.padding: padding must be 0 to 64'],
    ['narrow width', { name: 'n', app: 'a', grid: { width: 100 } }, 'grid.width: width must be 160 to 800 points'],
    ['101 cells', { name: 'n', app: 'a', grid: { rows: 12, cols: 12 }, cells: manyCells }, 'cells: too many cells (at most 100)'],
    ['empty cell id', grid2([{ id: '', row: 0, col: 0, component: spacer }]), 'cells[0].id: a cell needs an id'],
    [
      'an id used twice',
      grid2([
        { id: 'x', row: 0, col: 0, component: spacer },
        { id: 'x', row: 1, col: 1, component: spacer },
      ]),
      "cell x: cells[1].id: cell id 'x' is used twice",
    ],
    [
      'a default id used twice',
      grid2([
        { row: 0, col: 1, component: spacer },
        { id: 'r0c1', row: 1, col: 0, component: spacer },
      ]),
      "cell r0c1: cells[1].id: cell id 'r0c1' is used twice",
    ],
    ['negative row', grid2([{ id: 'c', row: -1, col: 0, component: spacer }]), 'cell c: cells[0]: row and col start at 0'],
    ['missing col', grid2([{ id: 'c', row: 0, component: spacer }]), 'cell c: cells[0].col: col is required'],
    [
      'span of 0',
      grid2([{ id: 'c', row: 0, col: 0, rowSpan: 0, component: spacer }]),
      'cell c: cells[0]: rowSpan and colSpan must be at least 1',
    ],
    ['cell padding', one(spacer, { padding: 65 }), 'cell c: cells[0].padding: padding must be 0 to 64'],
    [
      'bad align',
      one(spacer, { align: 'middle' }),
      `cell c: cells[0].align: align must be one of topLeading, top, topTrailing, leading, center, trailing, bottomLeading, bottom, bottomTrailing (got 'middle')`,
    ],
    ['no component', grid2([{ id: 'c', row: 0, col: 0 }]), 'cell c: cells[0].component: a cell needs a component'],
    [
      'a cell out of the grid',
      grid2([{ id: 'wide', row: 1, col: 1, colSpan: 2, component: spacer }]),
      "cell wide: cells[0]: cell 'wide' (row 1, col 1, 1 x 2) does not fit the 2 x 2 grid",
    ],
    [
      'overlapping cells',
      grid2([
        { id: 'a', row: 0, col: 0, colSpan: 2, component: spacer },
        { id: 'b', row: 0, col: 0, rowSpan: 2, component: spacer },
      ]),
      "cell b: cells[1]: cell 'b' overlaps cell 'a' at row 0, col 0",
    ],
    ['layoutVersion 3', { name: 'n', app: 'a', layoutVersion: 3 }, 'layoutVersion: unsupported layoutVersion 3 (1 or 2)'],
    ['layoutVersion as text', { name: 'n', app: 'a', layoutVersion: '2' }, 'layoutVersion: unsupported layoutVersion "2" (1 or 2)'],
    ['layoutVersion 2 without grid', { name: 'n', app: 'a', layoutVersion: 2 }, 'grid: layoutVersion 2 needs a grid'],
    [
      'accentColor not hex',
      { name: 'n', app: 'a', accentColor: 'accent' },
      "accentColor: 'accent' is not a hex colour (#RGB, #RGBA, #RRGGBB or #RRGGBBAA)",
    ],
    [
      'component colour',
      one({ type: 'text', binding: '{title}', color: '#xyz' }),
      "cell c: cells[0].component.color: '#xyz' is not a hex colour (#RGB, #RGBA, #RRGGBB or #RRGGBBAA) or one of accent, primary, secondary",
    ],
    ['text without binding', one({ type: 'text' }), 'cell c: cells[0].component.binding: a binding is required, for example "{title}"'],
    [
      'text with a blank binding',
      one({ type: 'text', binding: '  ' }),
      'cell c: cells[0].component.binding: a binding is required, for example "{title}"',
    ],
    ['badge without binding', one({ type: 'badge' }), 'cell c: cells[0].component.binding: a binding is required, for example "{title}"'],
    [
      'progress without binding',
      one({ type: 'progress' }),
      'cell c: cells[0].component.binding: a binding is required, for example "{title}"',
    ],
    [
      'image with a blank binding',
      one({ type: 'image', binding: '' }),
      'cell c: cells[0].component.binding: a binding is required, for example "{title}"',
    ],
    [
      'fontSize 80',
      one({ type: 'text', binding: '{title}', fontSize: 80 }),
      'cell c: cells[0].component.fontSize: fontSize must be 6 to 72',
    ],
    ['timestamp fontSize 5', one({ type: 'timestamp', fontSize: 5 }), 'cell c: cells[0].component.fontSize: fontSize must be 6 to 72'],
    [
      'maxLines 0',
      one({ type: 'text', binding: '{body}', maxLines: 0 }),
      'cell c: cells[0].component.maxLines: maxLines must be at least 1',
    ],
    [
      'text style',
      one({ type: 'text', binding: '{body}', style: 'huge' }),
      "cell c: cells[0].component.style: style must be one of title, subtitle, body, caption, mono (got 'huge')",
    ],
    ['issuerIcon size 4', one({ type: 'issuerIcon', size: 4 }), 'cell c: cells[0].component.size: size must be 8 to 128'],
    ['symbol size 200', one({ type: 'symbol', name: 'bell', size: 200 }), 'cell c: cells[0].component.size: size must be 8 to 128'],
    ['symbol without name', one({ type: 'symbol' }), 'cell c: cells[0].component.name: a symbol needs a name, for example "bell"'],
    [
      'image aspectRatio 0',
      one({ type: 'image', aspectRatio: 0 }),
      'cell c: cells[0].component.aspectRatio: aspectRatio must be greater than 0',
    ],
    [
      'negative cornerRadius',
      one({ type: 'image', cornerRadius: -2 }),
      'cell c: cells[0].component.cornerRadius: cornerRadius must be 0 or greater',
    ],
    ['actions spacing', one({ type: 'actions', spacing: 65 }), 'cell c: cells[0].component.spacing: spacing must be 0 to 64'],
    [
      'actions include blank',
      one({ type: 'actions', include: ['a', ' '] }),
      'cell c: cells[0].component.include[1]: include lists action ids; one of them is blank',
    ],
    [
      'button without action',
      one({ type: 'button' }),
      "cell c: cells[0].component: a button needs an inline 'action' or an 'actionRef' (also written 'actionId')",
    ],
    [
      'iconButton without action',
      one({ type: 'iconButton', symbol: 'x' }),
      "cell c: cells[0].component: an iconButton needs an inline 'action' or an 'actionRef' (also written 'actionId')",
    ],
    [
      'iconButton without symbol',
      one({ type: 'iconButton', actionRef: 'a' }),
      'cell c: cells[0].component.symbol: an iconButton needs a symbol name, for example "x"',
    ],
    [
      'rive without asset or path',
      one({ type: 'rive', stateMachine: 'Main' }),
      "cell c: cells[0].component: a rive component needs an 'asset' (from the manifest) or a 'path'",
    ],
    [
      'rive input binding blank',
      one({ type: 'rive', asset: 'bell', inputBindings: { count: '' } }),
      'cell c: cells[0].component.inputBindings.count: an input binding is a {token}, a literal value, or hover / pressed',
    ],
    ['unknown component type', one({ type: 'video' }), `cell c: cells[0].component.type: unknown component type 'video' (one of ${TYPES})`],
    ['component without type', one({ binding: '{title}' }), `cell c: cells[0].component.type: a component needs a type (one of ${TYPES})`],
    ['a rule with nothing', { name: 'n', app: 'a', actionRules: [{}] }, "actionRules[0]: a rule needs a 'match' or an 'add'"],
    [
      'a rule with a blank match',
      { name: 'n', app: 'a', actionRules: [{ match: ' ', hide: true }] },
      "actionRules[0]: a rule needs a 'match' or an 'add'",
    ],
    [
      'a rule position',
      { name: 'n', app: 'a', actionRules: [{ match: '*', position: -1 }] },
      'actionRules[0].position: position must be 0 or greater',
    ],
    [
      'snoozeMinutes 0',
      { name: 'n', app: 'a', actionRules: [{ add: { label: 'Later', kind: 'snooze', snoozeMinutes: 0 } }] },
      'actionRules[0].add.snoozeMinutes: snoozeMinutes must be 1 to 10080',
    ],
    [
      'snoozeMinutes above a week',
      { name: 'n', app: 'a', actionRules: [{ add: { label: 'Later', kind: 'snooze', snoozeMinutes: 10081 } }] },
      'actionRules[0].add.snoozeMinutes: snoozeMinutes must be 1 to 10080',
    ],
    [
      'an ftp link',
      { name: 'n', app: 'a', actionRules: [{ add: { label: 'Go', url: 'ftp://example.com' } }] },
      'actionRules[0].add.url: only http, https and mailto URLs can be opened',
    ],
    ['a javascript url', { name: 'n', app: 'a', url: 'javascript:alert(1)' }, 'url: only http, https and mailto URLs can be opened'],
    ['a token after a bad scheme', { name: 'n', app: 'a', url: 'file:///{path}' }, 'url: only http, https and mailto URLs can be opened'],
    [
      'a legacy button link',
      { name: 'n', app: 'a', buttons: [{ label: 'Go', url: 'ssh://host' }] },
      'buttons[0].url: only http, https and mailto URLs can be opened',
    ],
    [
      'an action without label',
      { name: 'n', app: 'a', actionRules: [{ add: { kind: 'dismiss' } }] },
      'actionRules[0].add.label: an action needs a label',
    ],
    [
      'an inline action without label',
      one({ type: 'button', action: { url: 'https://example.com' } }),
      'cell c: cells[0].component.action.label: an action needs a label',
    ],
    [
      'an action without kind',
      { name: 'n', app: 'a', actionRules: [{ add: { label: 'Nothing' } }] },
      "actionRules[0].add.kind: an action needs a 'kind'",
    ],
    [
      'an unknown kind',
      { name: 'n', app: 'a', actionRules: [{ add: { label: 'X', kind: 'teleport' } }] },
      "actionRules[0].add.kind: kind must be one of url, callback, command, script, shortcut, openApp, reply, dismiss, snooze (got 'teleport')",
    ],
    [
      'a script path',
      { name: 'n', app: 'a', actionRules: [{ add: { label: 'Run', script: '../x.sh' } }] },
      'actionRules[0].add.script: a plain file name in the scripts folder, not a path',
    ],
    [
      'two kinds at once',
      { name: 'n', app: 'a', actionRules: [{ add: { label: 'Both', kind: 'url', url: 'https://e.com', command: 'ls' } }] },
      'actionRules[0].add: give exactly one of url, command, script, shortcut, callback, openApp, reply; got url, command',
    ],
    [
      'a command action without command',
      { name: 'n', app: 'a', actionRules: [{ add: { label: 'Run', kind: 'command', command: ' ' } }] },
      'actionRules[0].add.command: a command action needs its command',
    ],
    ['maxBodyLines 31', { name: 'n', app: 'a', maxBodyLines: 31 }, 'maxBodyLines: maxBodyLines must be 1 to 30'],
    [
      'a layout of no kind',
      { name: 'n', app: 'a', layout: 'sideways' },
      "layout: layout must be one of imageLeft, imageRight, hero, compact (got 'sideways')",
    ],
    ['extra not text', { name: 'n', app: 'a', extra: { n: 3 } }, 'extra.n: n must be a text'],
    ['collapseEmpty not boolean', { name: 'n', app: 'a', collapseEmpty: 'yes' }, 'collapseEmpty: collapseEmpty must be true or false'],
    [
      'a follow-up too soon',
      { name: 'n', app: 'a', followUp: { after: 2, action: { kind: 'command', command: 'x' } } },
      'followUp.after: after must be 5 to 604800 seconds, or a duration such as 90s, 10m, 2h',
    ],
    [
      'a follow-up that opens a link',
      { name: 'n', app: 'a', followUp: { after: '10m', action: { label: 'Open', kind: 'url' } } },
      "followUp.action.kind: a follow-up cannot be a 'url' action; use shortcut, script, command or callback",
    ],
    [
      'a follow-up with two actions',
      { name: 'n', app: 'a', followUp: { after: 60, actionRef: 'x', action: { kind: 'command', command: 'ls' } } },
      'followUp: give exactly one of actionRef and action',
    ],
  ];

  test.each(cases)('%s', (_name, input, message) => {
    expect(messageOf(input)).toBe(`invalid template: ${message}`);
    expect(validateTemplate(input).template).toBeUndefined();
  });
});

describe('several problems are reported at once', () => {
  test('in document order, joined with "; ", cell problems prefixed cell <id>:', () => {
    const input = {
      name: 'n',
      app: 'a',
      grid: { rows: 2, rowSizes: ['auto'], gap: 70, width: 1000 },
      cells: [
        { id: 'title', row: 0, col: 0, component: { type: 'text', binding: '', fontSize: 100 } },
        { id: 'title', row: 0, col: 3, colSpan: 2, component: { type: 'button' } },
        { row: 1, col: 1, component: { type: 'rive' } },
      ],
      accentColor: '#12',
      actionRules: [{ relabel: 'x' }],
    };
    const { template, errors, warnings } = validateTemplate(input);
    expect(template).toBeUndefined();
    expect(warnings).toEqual([]);
    expect(templateErrorMessage(errors)).toBe(
      'invalid template: ' +
        [
          'grid.rowSizes: rowSizes has 1 entries but rows is 2',
          'grid.gap: gap must be 0 to 64',
          'grid.width: width must be 160 to 800 points',
          'cell title: cells[0].component.binding: a binding is required, for example "{title}"',
          'cell title: cells[0].component.fontSize: fontSize must be 6 to 72',
          "cell title: cells[1].id: cell id 'title' is used twice",
          "cell title: cells[1]: cell 'title' (row 0, col 3, 1 x 2) does not fit the 2 x 4 grid",
          "cell title: cells[1].component: a button needs an inline 'action' or an 'actionRef' (also written 'actionId')",
          "cell r1c1: cells[2].component: a rive component needs an 'asset' (from the manifest) or a 'path'",
          "actionRules[0]: a rule needs a 'match' or an 'add'",
          "accentColor: '#12' is not a hex colour (#RGB, #RGBA, #RRGGBB or #RRGGBBAA)",
        ].join('; '),
    );
    expect(errors.every((issue) => issue.severity === 'error')).toBe(true);
    expect(errors.filter((issue) => issue.cellId === 'title')).toHaveLength(5);
  });

  test('an overlap is reported once per pair of cells', () => {
    const input = grid2([
      { id: 'a', row: 0, col: 0, rowSpan: 2, colSpan: 2, component: { type: 'spacer' } },
      { id: 'b', row: 0, col: 0, rowSpan: 2, colSpan: 2, component: { type: 'spacer' } },
      { id: 'c', row: 1, col: 1, component: { type: 'spacer' } },
    ]);
    expect(messageOf(input)).toBe(
      "invalid template: cell b: cells[1]: cell 'b' overlaps cell 'a' at row 0, col 0; cell c: cells[2]: cell 'c' overlaps cell 'a' at row 1, col 1",
    );
  });

  test('templateErrorMessage with no errors', () => {
    expect(templateErrorMessage([])).toBe('invalid template');
  });
});

describe('normalisation', () => {
  test('a minimal template gets every default written out', () => {
    const { template, errors, warnings } = validateTemplate({ name: 'n', app: 'a' });
    expect(errors).toEqual([]);
    expect(warnings).toEqual([]);
    expect(template).toEqual({
      name: 'n',
      app: 'a',
      layoutVersion: 1,
      cells: [],
      ...WRITTEN_OUT_DEFAULTS,
    });
  });

  test('a minimal grid template: layoutVersion 2, grid, cell and component defaults', () => {
    const { template, errors } = validateTemplate({
      name: 'n',
      app: 'a',
      grid: {},
      cells: [{ row: 0, col: 1, component: { type: 'text', binding: '{title}' } }],
    });
    expect(errors).toEqual([]);
    expect(template).toEqual({
      name: 'n',
      app: 'a',
      layoutVersion: 2,
      grid: {
        rows: 3,
        cols: 4,
        rowSizes: ['auto', 'auto', 'auto'],
        colSizes: ['fill', 'fill', 'fill', 'fill'],
        gap: 8,
        padding: 14,
        width: 400,
      },
      cells: [
        {
          id: 'r0c1',
          row: 0,
          col: 1,
          ...WRITTEN_OUT_CELL_DEFAULTS,
          component: { type: 'text', binding: '{title}', style: 'body' },
        },
      ],
      ...WRITTEN_OUT_DEFAULTS,
    });
  });

  test('keys are written in the order of the description', () => {
    const template = validateTemplate({
      cells: [{ component: { type: 'spacer' }, col: 0, row: 0 }],
      grid: { colSizes: ['fill'] },
      app: 'a',
      name: 'n',
    }).template!;
    expect(Object.keys(template)).toEqual([
      'name',
      'app',
      'layoutVersion',
      'grid',
      'cells',
      'collapseEmpty',
      'actionRules',
      'extra',
      'buttons',
      'layout',
      'showSubtitle',
      'showBody',
      'showTimestamp',
      'maxBodyLines',
    ]);
    expect(Object.keys(template.grid!)).toEqual(['rows', 'cols', 'rowSizes', 'colSizes', 'gap', 'padding', 'width']);
    expect(Object.keys(template.cells[0]!)).toEqual(['id', 'row', 'col', 'rowSpan', 'colSpan', 'align', 'padding', 'component']);
  });

  test('rows and cols default to the number of sizes', () => {
    const grid = validateTemplate({ name: 'n', app: 'a', grid: { rowSizes: ['auto', 40], colSizes: ['fill'] } }).template!.grid;
    expect(grid).toEqual({ rows: 2, cols: 1, rowSizes: ['auto', 40], colSizes: ['fill'], gap: 8, padding: 14, width: 400 });
  });

  test.each<[string, Json, Json]>([
    ['image', { type: 'image' }, { type: 'image', binding: '{image}', fit: 'cover', cornerRadius: 0 }],
    ['issuerIcon', { type: 'issuerIcon' }, { type: 'issuerIcon', size: 22, shape: 'rounded' }],
    ['timestamp', { type: 'timestamp' }, { type: 'timestamp', relative: false, style: 'caption' }],
    ['actions', { type: 'actions' }, { type: 'actions', source: 'merged', layout: 'wrap', spacing: 8 }],
    ['badge', { type: 'badge', binding: '{n}' }, { type: 'badge', binding: '{n}', color: 'accent' }],
    ['stackBadge', { type: 'stackBadge' }, { type: 'stackBadge' }],
    ['progress', { type: 'progress', binding: '{p}' }, { type: 'progress', binding: '{p}', color: 'accent', height: 4 }],
    ['spacer', { type: 'spacer' }, { type: 'spacer' }],
    ['symbol', { type: 'symbol', name: 'bell' }, { type: 'symbol', name: 'bell', size: 20 }],
    ['rive', { type: 'rive', path: '~/a.riv', actionId: 'go' }, { type: 'rive', path: '~/a.riv', actionRef: 'go' }],
    ['button by id', { type: 'button', action: 'archive' }, { type: 'button', action: 'archive' }],
  ])('%s component defaults', (_name, component, expected) => {
    const { template, errors } = validateTemplate(one(component));
    expect(errors).toEqual([]);
    expect(template!.cells[0]!.component).toEqual(expected);
  });

  test('an inline action gets its id, kind and style; aliases move into place', () => {
    const { template, errors } = validateTemplate(
      grid2(
        [
          {
            id: 'read',
            row: 0,
            col: 0,
            component: { type: 'button', action: { label: 'Mark as Read', url: 'https://mail.example.com/{id}', style: 'normal' } },
          },
          {
            id: 'open',
            row: 0,
            col: 1,
            component: { type: 'iconButton', symbol: 'app-window', action: { label: 'Open', bundleId: 'org.example.Mail' } },
          },
          { id: 'answer', row: 1, col: 0, component: { type: 'button', actionId: 'reply-now' } },
        ],
        { actionRules: [{ add: { label: 'Later', kind: 'snooze', snoozeMinutes: 30 } }, { match: 'archive', hide: true }] },
      ),
    );
    expect(errors).toEqual([]);
    expect(template!.cells.map((cell) => cell.component)).toEqual([
      {
        type: 'button',
        action: { label: 'Mark as Read', url: 'https://mail.example.com/{id}', style: 'default', id: 'mark-as-read', kind: 'url' },
      },
      {
        type: 'iconButton',
        symbol: 'app-window',
        action: { label: 'Open', openApp: { bundleId: 'org.example.Mail' }, id: 'open', kind: 'openApp' },
      },
      { type: 'button', actionRef: 'reply-now' },
    ]);
    expect(template!.actionRules).toEqual([
      { add: { label: 'Later', id: 'later', kind: 'snooze', snoozeMinutes: 30 } },
      { match: 'archive', hide: true },
    ]);
  });

  test('a template that is already normalised comes back the same', () => {
    const first = validateTemplate(one({ type: 'text', binding: '{title}', style: 'title' }, { align: 'center' })).template!;
    const second = validateTemplate(first);
    expect(second.errors).toEqual([]);
    expect(second.template).toEqual(first);
  });

  test('options.app names the app of a template that has none', () => {
    expect(validateTemplate({ name: 'n' }, { app: 'com.example' }).template!.app).toBe('com.example');
    expect(validateTemplate({ name: 'n', app: 'own' }, { app: 'com.example' }).template!.app).toBe('own');
  });
});

describe('sizes', () => {
  test.each<[unknown, unknown]>([
    [72, 72],
    ['72', 72],
    ['72pt', 72],
    ['72px', 72],
    [' 72 PT ', 72],
    ['10.5', 10.5],
    ['auto', 'auto'],
    [' Fill ', 'fill'],
    ['AUTO', 'auto'],
    ['72em', null],
    ['', null],
    [true, null],
    [Number.NaN, null],
  ])('%j -> %j', (input, expected) => expect(parseSize(input)).toBe(expected));

  test('size strings become numbers in the normalised grid', () => {
    const { template, errors } = validateTemplate({
      name: 'n',
      app: 'a',
      grid: { rowSizes: ['72', '72pt', '72px', 'auto', 'fill'], colSizes: ['48', 'fill'] },
    });
    expect(errors).toEqual([]);
    expect(template!.grid!.rowSizes).toEqual([72, 72, 72, 'auto', 'fill']);
    expect(template!.grid!.colSizes).toEqual([48, 'fill']);
  });

  test('narrow fixed columns are raised to 24 points, with a warning', () => {
    const { template, errors, warnings } = validateTemplate({ name: 'n', app: 'a', grid: { colSizes: [10, 'fill'] } });
    expect(errors).toEqual([]);
    expect(template!.grid!.colSizes).toEqual([24, 'fill']);
    expect(warnings).toEqual([
      {
        severity: 'warning',
        path: 'grid.colSizes',
        message: 'column 1 was 10 points; fixed columns are at least 24 points, so it was raised',
      },
    ]);
  });

  test('an all-fixed column set is fitted on its last column, with a warning', () => {
    // 400 wide, padding 14, gap 8: 364 points for two columns.
    const stretched = validateTemplate({ name: 'n', app: 'a', grid: { colSizes: [100, 100] } });
    expect(stretched.template!.grid!.colSizes).toEqual([100, 264]);
    expect(stretched.warnings.map((w) => w.message)).toEqual([
      'the columns add up to 200 points but the grid is 364 points wide inside its padding and gaps; the last column takes the 164 points left over',
    ]);
    const trimmed = validateTemplate({ name: 'n', app: 'a', grid: { colSizes: [300, 300] } });
    expect(trimmed.template!.grid!.colSizes).toEqual([300, 64]);
    expect(trimmed.warnings).toHaveLength(1);
  });
});

describe('warnings never block', () => {
  test('unknown keys are dropped with a warning', () => {
    const { template, errors, warnings } = validateTemplate({
      name: 'n',
      app: 'a',
      colour: 'red',
      grid: { rows: 1, cols: 1, depth: 3 },
      cells: [{ id: 'c', row: 0, col: 0, component: { type: 'text', binding: '{title}', lines: 2 } }],
    });
    expect(errors).toEqual([]);
    expect(warnings).toEqual([
      { severity: 'warning', path: 'colour', message: "unknown key 'colour' is ignored" },
      { severity: 'warning', path: 'grid.depth', message: "unknown key 'depth' is ignored" },
      { severity: 'warning', path: 'cells[0].component.lines', cellId: 'c', message: "unknown key 'lines' is ignored" },
    ]);
    expect(template).not.toHaveProperty('colour');
    expect(template!.grid).not.toHaveProperty('depth');
  });

  test('undeclared tokens, when the known fields are given; {extra.k} without k always', () => {
    const input = grid2(
      [
        { id: 'title', row: 0, col: 0, component: { type: 'text', binding: '{title} from {sender}' } },
        { id: 'team', row: 0, col: 1, component: { type: 'badge', binding: '{extra.team}{extra.queue}' } },
        { id: 'count', row: 1, col: 0, component: { type: 'badge', binding: '{count}' } },
      ],
      { extra: { team: 'ops' } },
    );
    const withoutFields = validateTemplate(input);
    expect(withoutFields.errors).toEqual([]);
    expect(withoutFields.warnings.map((w) => `${w.cellId}: ${w.message}`)).toEqual([
      "team: token {extra.queue} has no matching key in the template's extra",
    ]);
    const withFields = validateTemplate(input, { knownFields: ['count'] });
    expect(withFields.template).toBeDefined();
    expect(withFields.warnings.map((w) => `${w.cellId}: ${w.message}`)).toEqual([
      'title: token {sender} is not declared in the manifest (it only resolves if the app sends it)',
      "team: token {extra.queue} has no matching key in the template's extra",
    ]);
  });

  test('rules that do nothing or contradict themselves, an action drawn twice, a v1 template with a grid', () => {
    const rules = validateTemplate({ name: 'n', app: 'a', actionRules: [{ match: 'x' }, { match: 'y', hide: true, relabel: 'z' }] });
    expect(rules.errors).toEqual([]);
    expect(rules.warnings.map((w) => w.message)).toEqual([
      "the rule matches 'x' but changes nothing (set hide, relabel, style, symbol, position or add)",
      'hide: true removes the action, so relabel, style and position have no effect',
    ]);
    const twice = validateTemplate(
      grid2([
        { id: 'a', row: 0, col: 0, component: { type: 'button', actionRef: 'Archive' } },
        { id: 'b', row: 0, col: 1, component: { type: 'iconButton', symbol: 'archive', actionRef: 'archive' } },
      ]),
    );
    expect(twice.warnings).toEqual([
      {
        severity: 'warning',
        path: 'cells',
        cellId: 'b',
        message: "action 'archive' is asked for by cells 'a' and 'b': it is drawn once, in 'a'",
      },
    ]);
    const v1 = validateTemplate({ name: 'n', app: 'a', layoutVersion: 1, grid: { rows: 1, cols: 1 } });
    expect(v1.template!.layoutVersion).toBe(1);
    expect(v1.warnings.map((w) => w.message)).toEqual([
      'grid and cells are ignored while layoutVersion is 1; set layoutVersion to 2 to use them',
    ]);
  });

  test('keys named like Object properties are plain keys', () => {
    const input = JSON.parse(
      '{"name":"n","app":"a","constructor":1,"extra":{"__proto__":"x","toString":"y"},"actionRules":[{"match":"*","style":"constructor"}]}',
    );
    const { template, errors, warnings } = validateTemplate(input);
    expect(templateErrorMessage(errors)).toBe(
      "invalid template: actionRules[0].style: style must be one of default, destructive, cancel (got 'constructor')",
    );
    expect(warnings.map((w) => w.path)).toContain('constructor');
    expect(template).toBeUndefined();
    const extra = validateTemplate(JSON.parse('{"name":"n","app":"a","extra":{"__proto__":"x"}}')).template!.extra;
    expect(Object.getPrototypeOf(extra)).toBe(Object.prototype);
    expect(Object.keys(extra)).toEqual(['__proto__']);
  });

  test('a default button that runs a command', () => {
    const { template, warnings } = validateTemplate({ name: 'n', app: 'a', buttons: [{ label: 'Deploy', command: 'make deploy' }] });
    expect(template!.buttons).toEqual([{ label: 'Deploy', command: 'make deploy', id: 'deploy' }]);
    expect(warnings.map((w) => w.path)).toEqual(['buttons[0].command']);
  });
});

describe("an action's kind (docs/api/templates.md#t11, #t35)", () => {
  const KINDED = [
    { id: 'open', label: 'Open', kind: 'url', url: 'https://example.com/{id}' },
    { id: 'tell', label: 'Tell', kind: 'callback', callback: {} },
    { id: 'app', label: 'App', kind: 'openApp', bundleId: 'org.example.app' },
    { id: 'answer', label: 'Answer', kind: 'reply', placeholder: 'Your answer' },
    { id: 'done', label: 'Done', kind: 'dismiss' },
    { id: 'later', label: 'Later', kind: 'snooze', snoozeMinutes: 30 },
  ];

  test.each(KINDED)("a template action written with kind '$kind' saves without a warning, its kind kept", (action) => {
    const where = {
      'a button cell': one({ type: 'button', action }),
      'an iconButton cell': one({ type: 'iconButton', symbol: 'star', action }),
      'an actionRules add': grid2([], { actionRules: [{ add: action }] }),
    };
    for (const [place, input] of Object.entries(where)) {
      const { template, errors, warnings } = validateTemplate(input);
      expect({ place, errors, warnings }).toEqual({ place, errors: [], warnings: [] });
      const saved = template!.cells[0]?.component ?? template!.actionRules![0];
      expect(JSON.stringify(saved)).toContain(`"kind":"${action.kind}"`);
    }
  });

  test("a template's default button takes no kind: the warning says where an action with a kind goes", () => {
    const { template, errors, warnings } = validateTemplate(
      grid2([], {
        buttons: [
          { label: 'Open', kind: 'url', url: 'https://example.com' },
          { label: 'Later', kind: 'snooze', snoozeMinutes: 30 },
        ],
      }),
    );
    expect(errors).toEqual([]);
    expect(template!.buttons).toEqual([
      { label: 'Open', url: 'https://example.com', id: 'open' },
      { label: 'Later', id: 'later' },
    ]);
    const kindHint =
      "'kind' is ignored: a default button's kind is the field it gives (url, command, script, shortcut, callback, " +
      'openApp, reply; none: it closes the banner); an action with a kind goes in actionRules as {"add": {...}}';
    expect(warnings).toEqual([
      { severity: 'warning', path: 'buttons[0].kind', message: kindHint },
      { severity: 'warning', path: 'buttons[1].kind', message: kindHint },
      {
        severity: 'warning',
        path: 'buttons[1].snoozeMinutes',
        message: '\'snoozeMinutes\' is ignored: a default button cannot snooze; add one with actionRules {"add": {"kind": "snooze", ...}}',
      },
    ]);
  });
});

describe('follow-ups', () => {
  test("a follow-up naming the template's own action, or (not knowing the manifest) any action", () => {
    const own = validateTemplate({
      name: 'n',
      app: 'a',
      followUp: { after: '10m', actionRef: 'escalate' },
      actionRules: [{ add: { label: 'Escalate', kind: 'command', command: 'page-oncall' } }],
    });
    expect(own.errors).toEqual([]);
    expect(own.template!.followUp).toEqual({ after: 600, actionRef: 'escalate' });
    expect(validateTemplate({ name: 'n', app: 'a', followUp: { after: 90, actionRef: 'from-manifest' } }).errors).toEqual([]);
  });

  test("with the app's actions given, an actionRef must name one", () => {
    const offeredActions = [{ id: 'retry', label: 'Retry', callback: {} }];
    expect(validateTemplate({ name: 'n', app: 'a', followUp: { after: 90, actionRef: 'retry' } }, { offeredActions }).errors).toEqual([]);
    const { errors } = validateTemplate({ name: 'n', app: 'a', followUp: { after: 90, actionRef: 'nope' } }, { offeredActions });
    expect(templateErrorMessage(errors)).toBe("invalid template: followUp.actionRef: no button or manifest action is named 'nope'");
  });

  test('validateFollowUp alone: inline action defaults and the timeout warning', () => {
    const checked = validateFollowUp({ after: '2m', action: { shortcut: 'Page me' } }, { timeout: 60 });
    expect(checked.errors).toEqual([]);
    expect(checked.followUp).toEqual({ after: 120, action: { shortcut: 'Page me', kind: 'shortcut', label: 'Page me', id: 'page-me' } });
    expect(checked.warnings.map((w) => w.message)).toEqual([
      'the banner closes after 60 s, not later than after (120 s), so the follow-up may never run',
    ]);
    expect(validateFollowUp({ enabled: false }).followUp).toEqual({ enabled: false });
    expect(validateFollowUp('soon').errors.map((e) => e.message)).toEqual([
      'followUp must be an object with after and actionRef or action',
    ]);
    expect(validateFollowUp({ after: 'soon', actionRef: 'x' }, { offered: [] }).errors.map((e) => `${e.path}: ${e.message}`)).toEqual([
      'followUp.after: not a duration; after must be 5 to 604800 seconds, or a duration such as 90s, 10m, 2h',
    ]);
  });
});

describe('value rules', () => {
  test.each<[string, boolean]>([
    ['#abc', true],
    ['#abcd', true],
    ['#A1B2C3', true],
    ['#a1b2c3d4', true],
    ['accent', true],
    ['primary', true],
    ['secondary', true],
    ['#abcde', false],
    ['red', false],
    ['#xyz', false],
    ['', false],
  ])('colour %s: %s', (text, ok) => expect(isValidColor(text)).toBe(ok));

  test('hex only', () => expect(isValidColor('accent', true)).toBe(false));

  test.each<[string, boolean]>([
    ['https://example.com/x', true],
    ['mailto:someone@example.com', true],
    ['{url}', true],
    ['https://example.com/{id}?q={query}', true],
    ['https://{host}/x', true],
    ['ftp://example.com', false],
    ['ftp://{host}', false],
    ['example.com/{id}', false],
    ['http://', false],
  ])('link %s: %s', (link, ok) => expect(isTemplateLink(link)).toBe(ok));

  test('tokens', () => {
    expect(tokensIn('{title} - {count} {title} {not a token} {} {stack.count}')).toEqual(['title', 'count', 'stack.count']);
  });
});

describe('template names', () => {
  test.each<[string, string | null]>([
    ['weekly report', null],
    ['Café ✓', null],
    ['', 'the name is empty'],
    ['   ', 'the name is empty'],
    ['a/b', 'the name cannot contain / or :'],
    ['a:b', 'the name cannot contain / or :'],
    ['.hidden', 'the name cannot start with . or _ (those are reserved)'],
    ['_scratch', 'the name cannot start with . or _ (those are reserved)'],
    ['builtin.hero', 'names starting with builtin. are reserved for the built-in layouts'],
    ['builtin.mine', 'names starting with builtin. are reserved for the built-in layouts'],
    ['x'.repeat(128), null],
    ['x'.repeat(129), 'the name is longer than 128 bytes'],
    ['é'.repeat(64), null],
    ['é'.repeat(65), 'the name is longer than 128 bytes'],
  ])('%j -> %j', (name, problem) => expect(templateNameProblem(name)).toBe(problem));

  test('scratch names only with allowScratch', () => {
    expect(templateNameProblem('_designer-test', { allowScratch: true })).toBeNull();
    expect(templateNameProblem('.x', { allowScratch: true })).toBe('the name cannot start with . or _ (those are reserved)');
    expect(isScratchName('_x')).toBe(true);
    expect(isScratchName('x_')).toBe(false);
  });

  test('built-in names', () => {
    expect(BUILTIN_NAMES).toEqual(['builtin.imageLeft', 'builtin.imageRight', 'builtin.hero', 'builtin.compact']);
    for (const name of BUILTIN_NAMES) expect(isBuiltinName(name)).toBe(true);
    expect(isBuiltinName('builtin.other')).toBe(false);
    expect(isBuiltinName('imageLeft')).toBe(false);
  });
});

describe('built-in layouts', () => {
  test.each(BUILTIN_NAMES.map((name) => [name]))('%s is a valid version-2 template, 380 wide, and validates unchanged', (name) => {
    const template = builtinTemplate(name, 'com.example')!;
    expect(template.name).toBe(name);
    expect(template.app).toBe('com.example');
    expect(template.layoutVersion).toBe(2);
    expect(template.grid!.width).toBe(380);
    const again = validateTemplate(template);
    expect(again.errors).toEqual([]);
    expect(again.warnings).toEqual([]);
    expect(again.template).toEqual(template);
  });

  test.each(LAYOUTS.map((layout) => [layout]))('the %s source validates with no problem', (layout) => {
    const { errors, warnings } = validateTemplate(builtinTemplateSource(layout, 'com.example'));
    expect(errors).toEqual([]);
    expect(warnings).toEqual([]);
  });

  test('their parts', () => {
    const components = (name: string) => builtinTemplate(name, 'a')!.cells.map((cell) => `${cell.id}:${cell.component.type}`);
    expect(components('builtin.imageLeft')).toEqual([
      'icon:issuerIcon',
      'app:text',
      'time:timestamp',
      'image:image',
      'title:text',
      'subtitle:text',
      'body:text',
      'actions:actions',
    ]);
    const left = builtinTemplate('builtin.imageLeft', 'a')!;
    const image = left.cells.find((cell) => cell.id === 'image')!;
    expect(image).toMatchObject({
      row: 1,
      col: 0,
      rowSpan: 3,
      component: { binding: '{image}', height: 64, aspectRatio: 1, emptyBehavior: 'collapse' },
    });
    const right = builtinTemplate('builtin.imageRight', 'a')!;
    expect(right.cells.find((cell) => cell.id === 'image')).toMatchObject({ col: 2, rowSpan: 3 });
    const hero = builtinTemplate('builtin.hero', 'a')!;
    expect(hero.cells[0]).toMatchObject({
      id: 'image',
      row: 0,
      col: 0,
      colSpan: 3,
      component: { type: 'image', fit: 'cover', emptyBehavior: 'collapse' },
    });
    expect(components('builtin.compact')).toEqual(['icon:issuerIcon', 'title:text', 'time:timestamp', 'body:text', 'actions:actions']);
    expect(builtinTemplate('builtin.compact', 'a')!.cells.find((cell) => cell.id === 'body')!.component).toMatchObject({ maxLines: 1 });
  });

  test('each call is a copy; unknown names give undefined', () => {
    const first = builtinTemplate('builtin.hero', 'a')!;
    first.cells.length = 0;
    expect(builtinTemplate('builtin.hero', 'a')!.cells.length).toBeGreaterThan(0);
    expect(builtinTemplate('builtin.nope', 'a')).toBeUndefined();
    expect(builtinTemplates('b').map((t) => `${t.app}/${t.name}`)).toEqual(BUILTIN_NAMES.map((name) => `b/${name}`));
  });
});
