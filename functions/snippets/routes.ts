/**
 * The rows of the route table (functions/routes.ts, which assembles them) whose handlers live in
 * functions/snippets/. Plain data: imports no handler.
 */
import { type RouteDefinition, read, write } from '../route-kit.ts';

/** Snippets of a project and their raw content (their notes: functions/notes/routes.ts). */
export const snippetRoutes: readonly RouteDefinition[] = [
  {
    method: 'GET',
    path: '/api/v4/projects/{id}/snippets',
    entry: 'functions/snippets/list.ts',
    access: read,
  },
  {
    method: 'POST',
    path: '/api/v4/projects/{id}/snippets',
    entry: 'functions/snippets/create.ts',
    access: write,
  },
  {
    method: 'GET',
    path: '/api/v4/projects/{id}/snippets/{snippet_id}',
    entry: 'functions/snippets/get.ts',
    access: read,
  },
  {
    method: 'PUT',
    path: '/api/v4/projects/{id}/snippets/{snippet_id}',
    entry: 'functions/snippets/update.ts',
    access: write,
  },
  {
    method: 'DELETE',
    path: '/api/v4/projects/{id}/snippets/{snippet_id}',
    entry: 'functions/snippets/delete.ts',
    access: write,
  },
  {
    method: 'GET',
    path: '/api/v4/projects/{id}/snippets/{snippet_id}/raw',
    entry: 'functions/snippets/raw.ts',
    access: read,
  },
  {
    method: 'GET',
    path: '/api/v4/projects/{id}/snippets/{snippet_id}/user_agent_detail',
    entry: 'functions/snippets/user-agent-detail.ts',
    access: read,
  },
];
