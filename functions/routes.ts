/**
 * THE route table: plain data that drives both the CDK stack and the local gateway. Imports no
 * handler. `access` declares what the function may touch; the stack grants exactly that.
 */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'ANY';

export interface Access {
  table?: 'read' | 'write';
  bucket?: 'read' | 'write';
  /** Queues the function sends to (by worker-table queue name). */
  queues?: readonly string[];
}

export interface RouteDefinition {
  method: HttpMethod;
  /** API Gateway syntax: `/api/v4/users/{id}`; `$default` is the catch-all. */
  path: string;
  /** Handler file, relative to the project root; it exports `handler`. */
  entry: string;
  access: Access;
}

const read: Access = { table: 'read' };
const write: Access = { table: 'write' };

export const routes: readonly RouteDefinition[] = [
  { method: 'GET', path: '/api/v4/user', entry: 'functions/users/get-current.ts', access: read },
  { method: 'GET', path: '/api/v4/users', entry: 'functions/users/list.ts', access: read },
  { method: 'POST', path: '/api/v4/users', entry: 'functions/users/create.ts', access: write },
  { method: 'GET', path: '/api/v4/users/{id}', entry: 'functions/users/get.ts', access: read },
  { method: 'PUT', path: '/api/v4/users/{id}', entry: 'functions/users/update.ts', access: write },
  {
    method: 'DELETE',
    path: '/api/v4/users/{id}',
    entry: 'functions/users/delete.ts',
    access: { table: 'write', queues: ['user-cleanup'] },
  },
  { method: 'POST', path: '/api/v4/users/{id}/block', entry: 'functions/users/block.ts', access: write },
  { method: 'POST', path: '/api/v4/users/{id}/unblock', entry: 'functions/users/unblock.ts', access: write },
  {
    method: 'POST',
    path: '/api/v4/users/{user_id}/personal_access_tokens',
    entry: 'functions/personal-access-tokens/create.ts',
    access: write,
  },
  {
    method: 'GET',
    path: '/api/v4/personal_access_tokens',
    entry: 'functions/personal-access-tokens/list.ts',
    access: read,
  },
  {
    method: 'DELETE',
    path: '/api/v4/personal_access_tokens/{id}',
    entry: 'functions/personal-access-tokens/revoke.ts',
    access: write,
  },
  { method: 'GET', path: '/api/v4/groups', entry: 'functions/groups/list.ts', access: read },
  { method: 'POST', path: '/api/v4/groups', entry: 'functions/groups/create.ts', access: write },
  { method: 'GET', path: '/api/v4/groups/{id}', entry: 'functions/groups/get.ts', access: read },
  { method: 'PUT', path: '/api/v4/groups/{id}', entry: 'functions/groups/update.ts', access: write },
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
  { method: 'ANY', path: '$default', entry: 'functions/not-found.ts', access: {} },
];
