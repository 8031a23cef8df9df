/**
 * The rows of the route table (functions/routes.ts, which assembles them) whose handlers live in
 * functions/users/. Plain data: imports no handler.
 */
import { type RouteDefinition, read, write, writeWithAvatar } from '../route-kit.ts';

/** Users: the current user, the list, and one user created, read, changed, deleted, blocked and unblocked. */
export const userRoutes: readonly RouteDefinition[] = [
  { method: 'GET', path: '/api/v4/user', entry: 'functions/users/get-current.ts', access: read },
  { method: 'GET', path: '/api/v4/users', entry: 'functions/users/list.ts', access: read },
  { method: 'POST', path: '/api/v4/users', entry: 'functions/users/create.ts', access: writeWithAvatar },
  { method: 'GET', path: '/api/v4/users/{id}', entry: 'functions/users/get.ts', access: read },
  { method: 'PUT', path: '/api/v4/users/{id}', entry: 'functions/users/update.ts', access: writeWithAvatar },
  {
    method: 'DELETE',
    path: '/api/v4/users/{id}',
    entry: 'functions/users/delete.ts',
    access: { table: 'write', queues: ['user-cleanup'] },
  },
  { method: 'POST', path: '/api/v4/users/{id}/block', entry: 'functions/users/block.ts', access: write },
  { method: 'POST', path: '/api/v4/users/{id}/unblock', entry: 'functions/users/unblock.ts', access: write },
];

/** A user's projects. */
export const userProjectRoutes: readonly RouteDefinition[] = [
  {
    method: 'GET',
    path: '/api/v4/users/{user_id}/projects',
    entry: 'functions/users/list-projects.ts',
    access: read,
  },
];

/** Users: states, identities, custom attributes, memberships. */
export const userStateRoutes: readonly RouteDefinition[] = [
  { method: 'POST', path: '/api/v4/users/{id}/ban', entry: 'functions/users/ban.ts', access: write },
  { method: 'POST', path: '/api/v4/users/{id}/unban', entry: 'functions/users/unban.ts', access: write },
  {
    method: 'POST',
    path: '/api/v4/users/{id}/deactivate',
    entry: 'functions/users/deactivate.ts',
    access: write,
  },
  {
    method: 'POST',
    path: '/api/v4/users/{id}/activate',
    entry: 'functions/users/activate.ts',
    access: write,
  },
  {
    method: 'DELETE',
    path: '/api/v4/users/{id}/identities/{provider}',
    entry: 'functions/users/delete-identity.ts',
    access: write,
  },
  {
    method: 'GET',
    path: '/api/v4/users/{id}/custom_attributes',
    entry: 'functions/users/custom-attributes/list.ts',
    access: read,
  },
  {
    method: 'GET',
    path: '/api/v4/users/{id}/custom_attributes/{key}',
    entry: 'functions/users/custom-attributes/get.ts',
    access: read,
  },
  {
    method: 'PUT',
    path: '/api/v4/users/{id}/custom_attributes/{key}',
    entry: 'functions/users/custom-attributes/set.ts',
    access: write,
  },
  {
    method: 'DELETE',
    path: '/api/v4/users/{id}/custom_attributes/{key}',
    entry: 'functions/users/custom-attributes/delete.ts',
    access: write,
  },
  {
    method: 'GET',
    path: '/api/v4/users/{id}/memberships',
    entry: 'functions/users/memberships.ts',
    access: read,
  },
];
