// Lookups: the component reference, the symbol catalogue and the installed shortcuts.

import { integer, list, object, text } from './json-schema.js';

export const componentsSchema = object(
  { title: text(), schemaVersion: integer(), description: text() },
  ['schemaVersion'],
  'a JSON Schema document of templates: every component, property, default and range, with a workflow and examples',
);

export const symbolsSchema = object(
  {
    total: integer('how many match'),
    offset: integer(),
    limit: integer(),
    symbols: list(object({ name: text(), categories: list(text()) }, ['name', 'categories'])),
    categories: list(object({ key: text(), title: text(), icon: text(), count: integer() }, ['key', 'title', 'count'])),
  },
  ['total', 'offset', 'symbols', 'categories'],
);

export const shortcutsSchema = object({ items: list(text(), 'the names `shortcuts list` prints') }, ['items']);
