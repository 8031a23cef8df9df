import { ApiError, routeNotFound } from '#domain/errors.ts';
import { defineFallback } from '#http/fallback.ts';

/** Every request no route matches: GitLab's catch-all 404, and 410 for the retired v3 API. */
export const handler = defineFallback(async ({ path }) => {
  if (path === '/api/v3' || path.startsWith('/api/v3/')) {
    throw new ApiError(410, { error: 'API V3 is no longer supported. Use API V4 instead.' });
  }
  throw routeNotFound();
});
