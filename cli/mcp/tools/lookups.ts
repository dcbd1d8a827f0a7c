// Read-only references for designing templates: the component schema, symbols, shortcuts
// (daemon/http/routes/lookups.ts).

import { inputs, route, text, whole } from './common.js';

export const componentSchema = route('component_schema', 'Component schema', 'GET /v1/components', {
  description: 'The template format: components, properties, bindings, actions, examples and the design workflow (GET /v1/components).',
  kind: 'read',
});

export const listSymbols = route('list_symbols', 'Search symbols', 'GET /v1/symbols', {
  description: 'Symbol names for symbol components (GET /v1/symbols).',
  inputSchema: inputs({
    q: text('Words; each must match the name, a search term or a synonym.'),
    category: text("A key from the reply's categories."),
    limit: whole('Up to 1000. Default 100.'),
    offset: whole('Default 0.'),
  }),
  kind: 'read',
});

export const listShortcuts = route('list_shortcuts', 'List shortcuts', 'GET /v1/shortcuts', {
  description: 'Installed automation shortcuts (GET /v1/shortcuts); 502 where the computer has no shortcuts tool.',
  kind: 'read',
});
