// `node dist/daemon/http/write-openapi.js <file>`: writes the OpenAPI document of the routes (the build runs it to
// refresh docs/api/openapi.json).

import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { V1_ROUTES } from './api.js';
import { openApiText } from './openapi.js';

const target = process.argv[2];
if (!target) {
  process.stderr.write('usage: node dist/daemon/http/write-openapi.js <file>\n');
  process.exit(2);
}
mkdirSync(path.dirname(target), { recursive: true });
writeFileSync(target, openApiText(V1_ROUTES));
