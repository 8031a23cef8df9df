import { defineFallback } from '#http/fallback.ts';
import document from '../../docs/openapi.json' with { type: 'json' };

/**
 * The OpenAPI 3.1 document of this API, as `npm run openapi` wrote it from the route table and the
 * parameter schemas; served to anyone without reading a token, as it holds nothing private.
 */
export const handler = defineFallback(async () => document);
