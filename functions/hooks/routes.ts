/**
 * The rows of the route table (functions/routes.ts, which assembles them) whose handlers live in
 * functions/hooks/. Plain data: imports no handler.
 */
import { type RouteDefinition, read, write } from '../route-kit.ts';

/** A project's webhooks, their events, resends and tests. */
export const hookRoutes: readonly RouteDefinition[] = [
  {
    method: 'GET',
    path: '/api/v4/projects/{id}/hooks/{hook_id}/events',
    entry: 'functions/hooks/events.ts',
    access: read,
  },
  {
    method: 'POST',
    path: '/api/v4/projects/{id}/hooks/{hook_id}/events/{hook_log_id}/resend',
    entry: 'functions/hooks/resend.ts',
    access: { table: 'write', bucket: 'read' },
  },
  {
    method: 'POST',
    path: '/api/v4/projects/{id}/hooks/{hook_id}/test/{trigger}',
    entry: 'functions/hooks/test.ts',
    access: write,
  },
  { method: 'GET', path: '/api/v4/projects/{id}/hooks', entry: 'functions/hooks/list.ts', access: read },
  { method: 'POST', path: '/api/v4/projects/{id}/hooks', entry: 'functions/hooks/create.ts', access: write },
  {
    method: 'GET',
    path: '/api/v4/projects/{id}/hooks/{hook_id}',
    entry: 'functions/hooks/get.ts',
    access: read,
  },
  {
    method: 'PUT',
    path: '/api/v4/projects/{id}/hooks/{hook_id}',
    entry: 'functions/hooks/update.ts',
    access: write,
  },
  {
    method: 'DELETE',
    path: '/api/v4/projects/{id}/hooks/{hook_id}',
    entry: 'functions/hooks/delete.ts',
    access: write,
  },
];
