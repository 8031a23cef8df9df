/**
 * The rows of the route table (functions/routes.ts, which assembles them) whose handlers live in
 * functions/personal-snippets/. Plain data: imports no handler.
 */
import { type RouteDefinition, read, write } from '../route-kit.ts';

/** Personal snippets (of no project), their lists and raw content. */
export const personalSnippetRoutes: readonly RouteDefinition[] = [
  { method: 'GET', path: '/api/v4/snippets', entry: 'functions/personal-snippets/list.ts', access: read },
  { method: 'POST', path: '/api/v4/snippets', entry: 'functions/personal-snippets/create.ts', access: write },
  {
    method: 'GET',
    path: '/api/v4/snippets/public',
    entry: 'functions/personal-snippets/public.ts',
    access: read,
  },
  { method: 'GET', path: '/api/v4/snippets/all', entry: 'functions/personal-snippets/all.ts', access: read },
  { method: 'GET', path: '/api/v4/snippets/{id}', entry: 'functions/personal-snippets/get.ts', access: read },
  {
    method: 'PUT',
    path: '/api/v4/snippets/{id}',
    entry: 'functions/personal-snippets/update.ts',
    access: write,
  },
  {
    method: 'DELETE',
    path: '/api/v4/snippets/{id}',
    entry: 'functions/personal-snippets/delete.ts',
    access: write,
  },
  {
    method: 'GET',
    path: '/api/v4/snippets/{id}/raw',
    entry: 'functions/personal-snippets/raw.ts',
    access: read,
  },
  {
    method: 'GET',
    path: '/api/v4/snippets/{id}/user_agent_detail',
    entry: 'functions/personal-snippets/user-agent-detail.ts',
    access: read,
  },
];
