// Read-only references for designing templates: the component schema, symbols, shortcuts
// (daemon/http/routes/lookups.ts).

import { inputs, route, text, whole } from './common.js';

export const componentSchema = route({
  name: 'component_schema',
  title: 'Component schema',
  description: 'The template format: components, properties, bindings, actions, examples and the design workflow (GET /v1/components).',
  method: 'GET',
  path: '/v1/components',
  inputSchema: inputs({}),
  kind: 'read',
});

export const listSymbols = route({
  name: 'list_symbols',
  title: 'Search symbols',
  description: 'Symbol names for symbol components (GET /v1/symbols).',
  method: 'GET',
  path: '/v1/symbols',
  inputSchema: inputs({
    q: text('Words; each must match the name, a search term or a synonym.'),
    category: text("A key from the reply's categories."),
    limit: whole('Up to 1000. Default 100.'),
    offset: whole('Default 0.'),
  }),
  kind: 'read',
});

export const listShortcuts = route({
  name: 'list_shortcuts',
  title: 'List shortcuts',
  description: 'Installed automation shortcuts (GET /v1/shortcuts); 502 where the computer has no shortcuts tool.',
  method: 'GET',
  path: '/v1/shortcuts',
  inputSchema: inputs({}),
  kind: 'read',
});
