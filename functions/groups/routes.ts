/**
 * The rows of the route table (functions/routes.ts, which assembles them) whose handlers live in
 * functions/groups/. Plain data: imports no handler.
 */
import { type RouteDefinition, read, write, writeWithAvatar } from '../route-kit.ts';

/** Groups, their subgroups, members, custom attributes, projects and LDAP links. */
export const groupRoutes: readonly RouteDefinition[] = [
  { method: 'GET', path: '/api/v4/groups', entry: 'functions/groups/list.ts', access: read },
  {
    method: 'POST',
    path: '/api/v4/groups',
    entry: 'functions/groups/create.ts',
    access: { ...writeWithAvatar, queues: ['search-index'] },
  },
  { method: 'GET', path: '/api/v4/groups/{id}', entry: 'functions/groups/get.ts', access: read },
  {
    method: 'PUT',
    path: '/api/v4/groups/{id}',
    entry: 'functions/groups/update.ts',
    access: { ...writeWithAvatar, queues: ['search-index'] },
  },
  {
    method: 'DELETE',
    path: '/api/v4/groups/{id}',
    entry: 'functions/groups/delete.ts',
    access: { table: 'write', queues: ['group-delete'] },
  },
  {
    method: 'GET',
    path: '/api/v4/groups/{id}/subgroups',
    entry: 'functions/groups/list-subgroups.ts',
    access: read,
  },
  {
    method: 'GET',
    path: '/api/v4/groups/{id}/members',
    entry: 'functions/groups/members/list.ts',
    access: read,
  },
  {
    method: 'POST',
    path: '/api/v4/groups/{id}/members',
    entry: 'functions/groups/members/add.ts',
    access: write,
  },
  {
    method: 'GET',
    path: '/api/v4/groups/{id}/members/{user_id}',
    entry: 'functions/groups/members/get.ts',
    access: read,
  },
  {
    method: 'PUT',
    path: '/api/v4/groups/{id}/members/{user_id}',
    entry: 'functions/groups/members/update.ts',
    access: write,
  },
  {
    method: 'DELETE',
    path: '/api/v4/groups/{id}/members/{user_id}',
    entry: 'functions/groups/members/remove.ts',
    access: write,
  },
  {
    method: 'GET',
    path: '/api/v4/groups/{id}/custom_attributes',
    entry: 'functions/groups/custom-attributes/list.ts',
    access: read,
  },
  {
    method: 'GET',
    path: '/api/v4/groups/{id}/custom_attributes/{key}',
    entry: 'functions/groups/custom-attributes/get.ts',
    access: read,
  },
  {
    method: 'PUT',
    path: '/api/v4/groups/{id}/custom_attributes/{key}',
    entry: 'functions/groups/custom-attributes/set.ts',
    access: write,
  },
  {
    method: 'DELETE',
    path: '/api/v4/groups/{id}/custom_attributes/{key}',
    entry: 'functions/groups/custom-attributes/delete.ts',
    access: write,
  },
  {
    method: 'GET',
    path: '/api/v4/groups/{id}/projects',
    entry: 'functions/groups/list-projects.ts',
    access: read,
  },
  {
    method: 'POST',
    path: '/api/v4/groups/{id}/projects/{project_id}',
    entry: 'functions/groups/transfer-project.ts',
    access: write,
  },
  {
    method: 'POST',
    path: '/api/v4/groups/{id}/ldap_sync',
    entry: 'functions/groups/ldap-sync.ts',
    access: { table: 'write', queues: ['ldap-sync'], ldap: true },
  },
  {
    method: 'GET',
    path: '/api/v4/groups/{id}/ldap_group_links',
    entry: 'functions/groups/ldap-group-links/list.ts',
    access: read,
  },
  {
    method: 'POST',
    path: '/api/v4/groups/{id}/ldap_group_links',
    entry: 'functions/groups/ldap-group-links/create.ts',
    access: write,
  },
  {
    method: 'DELETE',
    path: '/api/v4/groups/{id}/ldap_group_links',
    entry: 'functions/groups/ldap-group-links/delete-by-name.ts',
    access: write,
  },
  {
    method: 'DELETE',
    path: '/api/v4/groups/{id}/ldap_group_links/{cn}',
    entry: 'functions/groups/ldap-group-links/delete.ts',
    access: write,
  },
  {
    method: 'DELETE',
    path: '/api/v4/groups/{id}/ldap_group_links/{provider}/{cn}',
    entry: 'functions/groups/ldap-group-links/delete-for-provider.ts',
    access: write,
  },
];

/** Groups: descendants, transfer, sharing. */
export const groupTreeRoutes: readonly RouteDefinition[] = [
  {
    method: 'GET',
    path: '/api/v4/groups/{id}/descendant_groups',
    entry: 'functions/groups/list-descendants.ts',
    access: read,
  },
  {
    method: 'POST',
    path: '/api/v4/groups/{id}/transfer',
    entry: 'functions/groups/transfer.ts',
    access: { table: 'write', queues: ['group-transfer'] },
  },
  { method: 'POST', path: '/api/v4/groups/{id}/share', entry: 'functions/groups/share.ts', access: write },
  {
    method: 'DELETE',
    path: '/api/v4/groups/{id}/share/{group_id}',
    entry: 'functions/groups/unshare.ts',
    access: write,
  },
];

/** A group's members with their inherited level. */
export const groupInheritedMemberRoutes: readonly RouteDefinition[] = [
  {
    method: 'GET',
    path: '/api/v4/groups/{id}/members/all',
    entry: 'functions/groups/members/list-all.ts',
    access: read,
  },
  {
    method: 'GET',
    path: '/api/v4/groups/{id}/members/all/{user_id}',
    entry: 'functions/groups/members/get-all.ts',
    access: read,
  },
];
