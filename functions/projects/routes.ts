/**
 * The rows of the route table (functions/routes.ts, which assembles them) whose handlers live in
 * functions/projects/. Plain data: imports no handler.
 */
import { type RouteDefinition, read, write } from '../route-kit.ts';

/** Projects: listed, created (for the caller or a user), read, changed, deleted. */
export const projectRoutes: readonly RouteDefinition[] = [
  { method: 'GET', path: '/api/v4/projects', entry: 'functions/projects/list.ts', access: read },
  {
    method: 'POST',
    path: '/api/v4/projects',
    entry: 'functions/projects/create.ts',
    access: { table: 'write', bucket: 'write', queues: ['search-index', 'repository-import'] },
  },
  {
    method: 'POST',
    path: '/api/v4/projects/user/{user_id}',
    entry: 'functions/projects/create-for-user.ts',
    access: { table: 'write', bucket: 'write', queues: ['search-index', 'repository-import'] },
  },
  { method: 'GET', path: '/api/v4/projects/{id}', entry: 'functions/projects/get.ts', access: read },
  {
    method: 'PUT',
    path: '/api/v4/projects/{id}',
    entry: 'functions/projects/update.ts',
    access: { table: 'write', bucket: 'write', queues: ['search-index', 'repository-import'] },
  },
  {
    method: 'DELETE',
    path: '/api/v4/projects/{id}',
    entry: 'functions/projects/delete.ts',
    access: { table: 'write', queues: ['project-delete'] },
  },
];

/** What hangs off a project: its users, stars, archiving, sharing, uploads, members and custom attributes. */
export const projectSubresourceRoutes: readonly RouteDefinition[] = [
  {
    method: 'GET',
    path: '/api/v4/projects/{id}/users',
    entry: 'functions/projects/list-users.ts',
    access: read,
  },
  { method: 'POST', path: '/api/v4/projects/{id}/star', entry: 'functions/projects/star.ts', access: write },
  {
    method: 'POST',
    path: '/api/v4/projects/{id}/unstar',
    entry: 'functions/projects/unstar.ts',
    access: write,
  },
  {
    method: 'POST',
    path: '/api/v4/projects/{id}/archive',
    entry: 'functions/projects/archive.ts',
    access: write,
  },
  {
    method: 'POST',
    path: '/api/v4/projects/{id}/unarchive',
    entry: 'functions/projects/unarchive.ts',
    access: write,
  },
  {
    method: 'POST',
    path: '/api/v4/projects/{id}/share',
    entry: 'functions/projects/share.ts',
    access: write,
  },
  {
    method: 'DELETE',
    path: '/api/v4/projects/{id}/share/{group_id}',
    entry: 'functions/projects/unshare.ts',
    access: write,
  },
  {
    method: 'POST',
    path: '/api/v4/projects/{id}/uploads',
    entry: 'functions/projects/upload.ts',
    access: { table: 'read', bucket: 'write' },
  },
  {
    method: 'GET',
    path: '/api/v4/projects/{id}/uploads/{secret}/{filename}',
    entry: 'functions/projects/get-upload.ts',
    access: { table: 'read', bucket: 'read' },
  },
  {
    method: 'GET',
    path: '/api/v4/projects/{id}/members',
    entry: 'functions/projects/members/list.ts',
    access: read,
  },
  {
    method: 'POST',
    path: '/api/v4/projects/{id}/members',
    entry: 'functions/projects/members/add.ts',
    access: write,
  },
  {
    method: 'GET',
    path: '/api/v4/projects/{id}/members/{user_id}',
    entry: 'functions/projects/members/get.ts',
    access: read,
  },
  {
    method: 'PUT',
    path: '/api/v4/projects/{id}/members/{user_id}',
    entry: 'functions/projects/members/update.ts',
    access: write,
  },
  {
    method: 'DELETE',
    path: '/api/v4/projects/{id}/members/{user_id}',
    entry: 'functions/projects/members/remove.ts',
    access: write,
  },
  {
    method: 'GET',
    path: '/api/v4/projects/{id}/custom_attributes',
    entry: 'functions/projects/custom-attributes/list.ts',
    access: read,
  },
  {
    method: 'GET',
    path: '/api/v4/projects/{id}/custom_attributes/{key}',
    entry: 'functions/projects/custom-attributes/get.ts',
    access: read,
  },
  {
    method: 'PUT',
    path: '/api/v4/projects/{id}/custom_attributes/{key}',
    entry: 'functions/projects/custom-attributes/set.ts',
    access: write,
  },
  {
    method: 'DELETE',
    path: '/api/v4/projects/{id}/custom_attributes/{key}',
    entry: 'functions/projects/custom-attributes/delete.ts',
    access: write,
  },
];

/** A project's members with their inherited level, and the groups its members may come from. */
export const projectInheritedMemberRoutes: readonly RouteDefinition[] = [
  {
    method: 'GET',
    path: '/api/v4/projects/{id}/members/all',
    entry: 'functions/projects/members/list-all.ts',
    access: read,
  },
  {
    method: 'GET',
    path: '/api/v4/projects/{id}/members/all/{user_id}',
    entry: 'functions/projects/members/get-all.ts',
    access: read,
  },
  {
    method: 'GET',
    path: '/api/v4/projects/{id}/groups',
    entry: 'functions/projects/list-groups.ts',
    access: read,
  },
];

/** Projects: transfer to another namespace. */
export const projectTransferRoutes: readonly RouteDefinition[] = [
  {
    method: 'PUT',
    path: '/api/v4/projects/{id}/transfer',
    entry: 'functions/projects/transfer.ts',
    access: write,
  },
];
