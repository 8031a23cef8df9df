/**
 * The rows of the route table (functions/routes.ts, which assembles them) whose handlers live in
 * functions/labels/. Plain data: imports no handler.
 */
import { type RouteDefinition, read, write } from '../route-kit.ts';

/** Labels of projects and groups, and the callers' subscriptions to them. */
export const labelRoutes: readonly RouteDefinition[] = [
  {
    method: 'GET',
    path: '/api/v4/projects/{id}/labels',
    entry: 'functions/labels/project-list.ts',
    access: read,
  },
  {
    method: 'POST',
    path: '/api/v4/projects/{id}/labels',
    entry: 'functions/labels/project-create.ts',
    access: write,
  },
  {
    method: 'PUT',
    path: '/api/v4/projects/{id}/labels',
    entry: 'functions/labels/project-update-by-name.ts',
    access: write,
  },
  {
    method: 'DELETE',
    path: '/api/v4/projects/{id}/labels',
    entry: 'functions/labels/project-delete-by-name.ts',
    access: write,
  },
  {
    method: 'PUT',
    path: '/api/v4/projects/{id}/labels/promote',
    entry: 'functions/labels/project-promote.ts',
    access: write,
  },
  {
    method: 'GET',
    path: '/api/v4/projects/{id}/labels/{label_id}',
    entry: 'functions/labels/project-get.ts',
    access: read,
  },
  {
    method: 'PUT',
    path: '/api/v4/projects/{id}/labels/{label_id}',
    entry: 'functions/labels/project-update.ts',
    access: write,
  },
  {
    method: 'DELETE',
    path: '/api/v4/projects/{id}/labels/{label_id}',
    entry: 'functions/labels/project-delete.ts',
    access: write,
  },
  {
    method: 'PUT',
    path: '/api/v4/projects/{id}/labels/{label_id}/promote',
    entry: 'functions/labels/project-promote-by-id.ts',
    access: write,
  },
  {
    method: 'POST',
    path: '/api/v4/projects/{id}/labels/{label_id}/subscribe',
    entry: 'functions/labels/project-subscribe.ts',
    access: write,
  },
  {
    method: 'POST',
    path: '/api/v4/projects/{id}/labels/{label_id}/unsubscribe',
    entry: 'functions/labels/project-unsubscribe.ts',
    access: write,
  },
  {
    method: 'GET',
    path: '/api/v4/groups/{id}/labels',
    entry: 'functions/labels/group-list.ts',
    access: read,
  },
  {
    method: 'POST',
    path: '/api/v4/groups/{id}/labels',
    entry: 'functions/labels/group-create.ts',
    access: write,
  },
  {
    method: 'PUT',
    path: '/api/v4/groups/{id}/labels',
    entry: 'functions/labels/group-update-by-name.ts',
    access: write,
  },
  {
    method: 'DELETE',
    path: '/api/v4/groups/{id}/labels',
    entry: 'functions/labels/group-delete-by-name.ts',
    access: write,
  },
  {
    method: 'GET',
    path: '/api/v4/groups/{id}/labels/{label_id}',
    entry: 'functions/labels/group-get.ts',
    access: read,
  },
  {
    method: 'PUT',
    path: '/api/v4/groups/{id}/labels/{label_id}',
    entry: 'functions/labels/group-update.ts',
    access: write,
  },
  {
    method: 'DELETE',
    path: '/api/v4/groups/{id}/labels/{label_id}',
    entry: 'functions/labels/group-delete.ts',
    access: write,
  },
  {
    method: 'POST',
    path: '/api/v4/groups/{id}/labels/{label_id}/subscribe',
    entry: 'functions/labels/group-subscribe.ts',
    access: write,
  },
  {
    method: 'POST',
    path: '/api/v4/groups/{id}/labels/{label_id}/unsubscribe',
    entry: 'functions/labels/group-unsubscribe.ts',
    access: write,
  },
];
