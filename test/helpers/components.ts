/** The top-level keys of the GET /v1/components document (docs/api/templates.md#get-v1-components). */
export const COMPONENTS_DOCUMENT_KEYS = [
  '$schema',
  'title',
  'schemaVersion',
  'description',
  'type',
  'required',
  'properties',
  'definitions',
  'components',
  'bindings',
  'actions',
  'examples',
  'workflow',
] as const;
