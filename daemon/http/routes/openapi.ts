import { openApiDocumentSchema } from '../../../protocol/schemas/health.js';
import type { ApiRoute } from '../api-route.js';
import { openApiDocument } from '../openapi.js';

/** GET /v1/openapi.json: this document, made once from every route (`all`, the list it is part of). */
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
        const document = openApiDocument(all());
        return () => document;
      },
    },
  ];
}
