/**
 * npm run openapi: writes docs/openapi.json, the OpenAPI 3.1 document that GET /api/v4/openapi.json
 * serves, from the route table and each handler's declared parameters. Run it after changing a
 * route or a parameter schema; a unit test fails while the committed document is stale.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { routes } from '../functions/routes.ts';
import { withContracts } from '../shared/openapi/contracts.ts';
import { openApiDocument } from '../shared/openapi/document.ts';
import { DOCUMENT_PATH, serializeDocument } from '../shared/openapi/serialize.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const { version } = JSON.parse(await readFile(`${root}package.json`, 'utf8')) as { version: string };
const document = openApiDocument(await withContracts(routes, root), version);
await writeFile(`${root}${DOCUMENT_PATH}`, serializeDocument(document));
console.log(`${DOCUMENT_PATH}: ${Object.keys(document.paths).length} paths`);
