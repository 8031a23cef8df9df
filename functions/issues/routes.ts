/**
 * The rows of the route table (functions/routes.ts, which assembles them) whose handlers live in
 * functions/issues/. Plain data: imports no handler.
 */
import { type RouteDefinition, read, write } from '../route-kit.ts';

/** Issues of a project (their notes: functions/notes/routes.ts). */
export const issueRoutes: readonly RouteDefinition[] = [
  { method: 'GET', path: '/api/v4/projects/{id}/issues', entry: 'functions/issues/list.ts', access: read },
  {
    method: 'POST',
    path: '/api/v4/projects/{id}/issues',
    entry: 'functions/issues/create.ts',
    access: write,
  },
  {
    method: 'GET',
    path: '/api/v4/projects/{id}/issues/{issue_iid}',
    entry: 'functions/issues/get.ts',
    access: read,
  },
  {
    method: 'PUT',
    path: '/api/v4/projects/{id}/issues/{issue_iid}',
    entry: 'functions/issues/update.ts',
    access: write,
  },
  {
    method: 'DELETE',
    path: '/api/v4/projects/{id}/issues/{issue_iid}',
    entry: 'functions/issues/delete.ts',
    access: write,
  },
  {
    method: 'GET',
    path: '/api/v4/projects/{id}/issues/{issue_iid}/participants',
    entry: 'functions/issues/participants.ts',
    access: read,
  },
  {
    method: 'GET',
    path: '/api/v4/projects/{id}/issues/{issue_iid}/closed_by',
    entry: 'functions/issues/closed-by.ts',
    access: read,
  },
  {
    method: 'GET',
    path: '/api/v4/projects/{id}/issues/{issue_iid}/related_merge_requests',
    entry: 'functions/issues/related-merge-requests.ts',
    access: read,
  },
  {
    method: 'GET',
    path: '/api/v4/projects/{id}/issues/{issue_iid}/user_agent_detail',
    entry: 'functions/issues/user-agent-detail.ts',
    access: read,
  },
];
