/**
 * The rows of the route table (functions/routes.ts, which assembles them) whose handlers live in
 * functions/repository/. Plain data: imports no handler.
 */
import { type RouteDefinition, read } from '../route-kit.ts';

/** A project's repository: housekeeping and pull mirroring. */
export const repositoryRoutes: readonly RouteDefinition[] = [
  {
    method: 'POST',
    path: '/api/v4/projects/{id}/housekeeping',
    entry: 'functions/repository/housekeeping.ts',
    access: { table: 'write', queues: ['housekeeping'] },
  },
  {
    method: 'POST',
    path: '/api/v4/projects/{id}/mirror/pull',
    entry: 'functions/repository/mirror-pull.ts',
    access: { table: 'write', queues: ['repository-import'] },
  },
  {
    method: 'GET',
    path: '/api/v4/projects/{id}/mirror/pull',
    entry: 'functions/repository/mirror-status.ts',
    access: read,
  },
];
