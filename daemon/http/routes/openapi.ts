import { openApiDocumentSchema } from '../../../protocol/schemas/health.js';
import type { Contract, Route } from '../route.js';
import { openApiDocument } from '../openapi.js';

/**
 * GET /v1/openapi.json: this document, made from every route (`all`, the list it is part of) when first asked for,
 * not at start-up, where it would delay the first answer for a route few callers use.
 */
export function openApiRoutes(all: () => readonly Contract[]): Route<unknown>[] {
  let document: ReturnType<typeof openApiDocument> | undefined;
  return [
    {
      method: 'GET',
      path: '/v1/openapi.json',
      door: 'token',
      summary: 'This API as an OpenAPI 3.1 document',
      tag: 'Health',
      reply: openApiDocumentSchema,
      errors: {},
      examples: [{ summary: 'The document' }],
      handle: () => (document ??= openApiDocument(all())),
    },
  ];
}
