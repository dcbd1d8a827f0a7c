// The routes about the service itself: health and its OpenAPI document.

import { integer, object, text } from './json-schema.js';

export const healthSchema = object({ ok: { const: true }, version: text(), pid: integer() }, ['ok', 'version', 'pid']);

export const openApiDocumentSchema = object(
  { openapi: text(), info: object({ title: text(), version: text() }, ['title', 'version']), paths: object({}) },
  ['openapi', 'info', 'paths'],
);
