/**
 * The rows of the route table (functions/routes.ts, which assembles them) whose handlers live in
 * functions/protected-branches/. Plain data: imports no handler.
 */
import { type RouteDefinition, read, write } from '../route-kit.ts';

/** A project's protected branches. */
export const protectedBranchRoutes: readonly RouteDefinition[] = [
  {
    method: 'GET',
    path: '/api/v4/projects/{id}/protected_branches',
    entry: 'functions/protected-branches/list.ts',
    access: read,
  },
  {
    method: 'POST',
    path: '/api/v4/projects/{id}/protected_branches',
    entry: 'functions/protected-branches/create.ts',
    access: write,
  },
  {
    method: 'GET',
    path: '/api/v4/projects/{id}/protected_branches/{name}',
    entry: 'functions/protected-branches/get.ts',
    access: read,
  },
  {
    method: 'PATCH',
    path: '/api/v4/projects/{id}/protected_branches/{name}',
    entry: 'functions/protected-branches/update.ts',
    access: write,
  },
  {
    method: 'DELETE',
    path: '/api/v4/projects/{id}/protected_branches/{name}',
    entry: 'functions/protected-branches/delete.ts',
    access: write,
  },
];
