import { openApiDocumentSchema } from '../../../protocol/schemas/health.js';
import type { ApiRoute } from '../api-route.js';
import { openApiDocument } from '../openapi.js';

/**
 * GET /v1/openapi.json: this document, made from every route (`all`, the list it is part of) when first asked for,
 * not at start-up, where it would delay the first answer for a route few callers use.
 */
export function openApiRoutes(all: () => readonly ApiRoute[]): ApiRoute[] {
  return [
    {
      method: 'GET',
      path: '/v1/openapi.json',
      summary: 'This API as an OpenAPI 3.1 document',
      tag: 'Health',
      reply: openApiDocumentSchema,
      errors: {},
      examples: [{ summary: 'The document' }],
      handler: () => {
        let document: ReturnType<typeof openApiDocument> | undefined;
        return () => (document ??= openApiDocument(all()));
      },
    },
  ];
}
