/**
 * The rows of the route table (functions/routes.ts, which assembles them) whose handlers live in
 * functions/meta/. Plain data: imports no handler.
 */
import type { RouteDefinition } from '../route-kit.ts';

/** About the API: its OpenAPI document. */
export const metaRoutes: readonly RouteDefinition[] = [
  { method: 'GET', path: '/api/v4/openapi.json', entry: 'functions/meta/openapi.ts', access: {} },
];
