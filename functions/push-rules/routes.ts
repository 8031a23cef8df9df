/**
 * The rows of the route table (functions/routes.ts, which assembles them) whose handlers live in
 * functions/push-rules/. Plain data: imports no handler.
 */
import { type RouteDefinition, read, write } from '../route-kit.ts';

/** A project's push rule. */
export const pushRuleRoutes: readonly RouteDefinition[] = [
  {
    method: 'GET',
    path: '/api/v4/projects/{id}/push_rule',
    entry: 'functions/push-rules/get.ts',
    access: read,
  },
  {
    method: 'POST',
    path: '/api/v4/projects/{id}/push_rule',
    entry: 'functions/push-rules/create.ts',
    access: write,
  },
  {
    method: 'PUT',
    path: '/api/v4/projects/{id}/push_rule',
    entry: 'functions/push-rules/update.ts',
    access: write,
  },
  {
    method: 'DELETE',
    path: '/api/v4/projects/{id}/push_rule',
    entry: 'functions/push-rules/delete.ts',
    access: write,
  },
];
