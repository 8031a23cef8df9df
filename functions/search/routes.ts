/**
 * The rows of the route table (functions/routes.ts, which assembles them) whose handlers live in
 * functions/search/. Plain data: imports no handler.
 */
import { type RouteDefinition, read } from '../route-kit.ts';

/** Search: global, in a group, in a project. */
export const searchRoutes: readonly RouteDefinition[] = [
  { method: 'GET', path: '/api/v4/search', entry: 'functions/search/global.ts', access: read },
  { method: 'GET', path: '/api/v4/groups/{id}/search', entry: 'functions/search/group.ts', access: read },
  { method: 'GET', path: '/api/v4/projects/{id}/search', entry: 'functions/search/project.ts', access: read },
];
