/**
 * The rows of the route table (functions/routes.ts, which assembles them) whose handlers live in
 * functions/forks/. Plain data: imports no handler.
 */
import { type RouteDefinition, read, write } from '../route-kit.ts';

/** Forks of a project and fork relations. */
export const forkRoutes: readonly RouteDefinition[] = [
  {
    method: 'POST',
    path: '/api/v4/projects/{id}/fork',
    entry: 'functions/forks/create.ts',
    access: { table: 'write', queues: ['repository-fork'] },
  },
  { method: 'GET', path: '/api/v4/projects/{id}/forks', entry: 'functions/forks/list.ts', access: read },
  {
    method: 'POST',
    path: '/api/v4/projects/{id}/fork/{forked_from_id}',
    entry: 'functions/forks/create-relation.ts',
    access: write,
  },
  {
    method: 'DELETE',
    path: '/api/v4/projects/{id}/fork',
    entry: 'functions/forks/delete-relation.ts',
    access: write,
  },
];
