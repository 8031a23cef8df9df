/**
 * The rows of the route table (functions/routes.ts, which assembles them) whose handlers live in
 * functions/namespaces/. Plain data: imports no handler.
 */
import { type RouteDefinition, read } from '../route-kit.ts';

/** Namespaces. */
export const namespaceRoutes: readonly RouteDefinition[] = [
  { method: 'GET', path: '/api/v4/namespaces', entry: 'functions/namespaces/list.ts', access: read },
  { method: 'GET', path: '/api/v4/namespaces/{id}', entry: 'functions/namespaces/get.ts', access: read },
  {
    method: 'GET',
    path: '/api/v4/namespaces/{id}/exists',
    entry: 'functions/namespaces/exists.ts',
    access: read,
  },
];
