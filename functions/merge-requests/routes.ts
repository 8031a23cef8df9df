/**
 * The rows of the route table (functions/routes.ts, which assembles them) whose handlers live in
 * functions/merge-requests/. Plain data: imports no handler.
 */
import { type RouteDefinition, read, write } from '../route-kit.ts';

/** Merge requests of a project (their notes: functions/notes/routes.ts). */
export const mergeRequestRoutes: readonly RouteDefinition[] = [
  {
    method: 'GET',
    path: '/api/v4/projects/{id}/merge_requests',
    entry: 'functions/merge-requests/list.ts',
    access: read,
  },
  {
    method: 'POST',
    path: '/api/v4/projects/{id}/merge_requests',
    entry: 'functions/merge-requests/create.ts',
    access: write,
  },
  {
    method: 'GET',
    path: '/api/v4/projects/{id}/merge_requests/{merge_request_iid}',
    entry: 'functions/merge-requests/get.ts',
    access: read,
  },
  {
    method: 'PUT',
    path: '/api/v4/projects/{id}/merge_requests/{merge_request_iid}',
    entry: 'functions/merge-requests/update.ts',
    access: write,
  },
  {
    method: 'DELETE',
    path: '/api/v4/projects/{id}/merge_requests/{merge_request_iid}',
    entry: 'functions/merge-requests/delete.ts',
    access: write,
  },
];
