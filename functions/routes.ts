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
  /** Reads the LDAP providers' configuration (LDAP_PROVIDERS) and their bind passwords' secrets. */
  ldap?: boolean;
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
/** Creates and updates that may carry an `avatar` file (stored in the bucket). */
const writeWithAvatar: Access = { table: 'write', bucket: 'write' };

export const routes: readonly RouteDefinition[] = [
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
  {
    method: 'POST',
    path: '/api/v4/projects/{id}/fork',
    entry: 'functions/forks/create.ts',
    access: { table: 'write', queues: ['repository-fork'] },
  },
  { method: 'GET', path: '/api/v4/projects/{id}/forks', entry: 'functions/forks/list.ts', access: read },
  {
    method: 'POST',
    path: '/api/v4/projects/{id}/fork/{forked_from_id}',
    entry: 'functions/forks/create-relation.ts',
    access: write,
  },
  {
    method: 'DELETE',
    path: '/api/v4/projects/{id}/fork',
    entry: 'functions/forks/delete-relation.ts',
    access: write,
  },
  {
    method: 'POST',
    path: '/api/v4/projects/{id}/housekeeping',
    entry: 'functions/repository/housekeeping.ts',
    access: { table: 'write', queues: ['housekeeping'] },
  },
  {
    method: 'POST',
    path: '/api/v4/projects/{id}/mirror/pull',
    entry: 'functions/repository/mirror-pull.ts',
    access: { table: 'write', queues: ['repository-import'] },
  },
  {
    method: 'GET',
    path: '/api/v4/projects/{id}/mirror/pull',
    entry: 'functions/repository/mirror-status.ts',
    access: read,
  },
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
  {
    method: 'GET',
    path: '/api/v4/users/{user_id}/projects',
    entry: 'functions/users/list-projects.ts',
    access: read,
  },
  // Issues, merge requests, snippets and epics, and the notes on each.
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
    path: '/api/v4/projects/{id}/issues/{issue_iid}/notes',
    entry: 'functions/issues/notes/list.ts',
    access: read,
  },
  {
    method: 'POST',
    path: '/api/v4/projects/{id}/issues/{issue_iid}/notes',
    entry: 'functions/issues/notes/create.ts',
    access: write,
  },
  {
    method: 'GET',
    path: '/api/v4/projects/{id}/issues/{issue_iid}/notes/{note_id}',
    entry: 'functions/issues/notes/get.ts',
    access: read,
  },
  {
    method: 'PUT',
    path: '/api/v4/projects/{id}/issues/{issue_iid}/notes/{note_id}',
    entry: 'functions/issues/notes/update.ts',
    access: write,
  },
  {
    method: 'DELETE',
    path: '/api/v4/projects/{id}/issues/{issue_iid}/notes/{note_id}',
    entry: 'functions/issues/notes/delete.ts',
    access: write,
  },
  {
    method: 'GET',
    path: '/api/v4/projects/{id}/merge_requests',
    entry: 'functions/merge-requests/list.ts',
    access: read,
  },
  {
    method: 'POST',
    path: '/api/v4/projects/{id}/merge_requests',
    entry: 'functions/merge-requests/create.ts',
    access: write,
  },
  {
    method: 'GET',
    path: '/api/v4/projects/{id}/merge_requests/{merge_request_iid}',
    entry: 'functions/merge-requests/get.ts',
    access: read,
  },
  {
    method: 'PUT',
    path: '/api/v4/projects/{id}/merge_requests/{merge_request_iid}',
    entry: 'functions/merge-requests/update.ts',
    access: write,
  },
  {
    method: 'DELETE',
    path: '/api/v4/projects/{id}/merge_requests/{merge_request_iid}',
    entry: 'functions/merge-requests/delete.ts',
    access: write,
  },
  {
    method: 'GET',
    path: '/api/v4/projects/{id}/merge_requests/{merge_request_iid}/notes',
    entry: 'functions/merge-requests/notes/list.ts',
    access: read,
  },
  {
    method: 'POST',
    path: '/api/v4/projects/{id}/merge_requests/{merge_request_iid}/notes',
    entry: 'functions/merge-requests/notes/create.ts',
    access: write,
  },
  {
    method: 'GET',
    path: '/api/v4/projects/{id}/merge_requests/{merge_request_iid}/notes/{note_id}',
    entry: 'functions/merge-requests/notes/get.ts',
    access: read,
  },
  {
    method: 'PUT',
    path: '/api/v4/projects/{id}/merge_requests/{merge_request_iid}/notes/{note_id}',
    entry: 'functions/merge-requests/notes/update.ts',
    access: write,
  },
  {
    method: 'DELETE',
    path: '/api/v4/projects/{id}/merge_requests/{merge_request_iid}/notes/{note_id}',
    entry: 'functions/merge-requests/notes/delete.ts',
    access: write,
  },
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
    path: '/api/v4/projects/{id}/snippets/{snippet_id}/notes',
    entry: 'functions/snippets/notes/list.ts',
    access: read,
  },
  {
    method: 'POST',
    path: '/api/v4/projects/{id}/snippets/{snippet_id}/notes',
    entry: 'functions/snippets/notes/create.ts',
    access: write,
  },
  {
    method: 'GET',
    path: '/api/v4/projects/{id}/snippets/{snippet_id}/notes/{note_id}',
    entry: 'functions/snippets/notes/get.ts',
    access: read,
  },
  {
    method: 'PUT',
    path: '/api/v4/projects/{id}/snippets/{snippet_id}/notes/{note_id}',
    entry: 'functions/snippets/notes/update.ts',
    access: write,
  },
  {
    method: 'DELETE',
    path: '/api/v4/projects/{id}/snippets/{snippet_id}/notes/{note_id}',
    entry: 'functions/snippets/notes/delete.ts',
    access: write,
  },
  { method: 'GET', path: '/api/v4/groups/{id}/epics', entry: 'functions/epics/list.ts', access: read },
  { method: 'POST', path: '/api/v4/groups/{id}/epics', entry: 'functions/epics/create.ts', access: write },
  {
    method: 'GET',
    path: '/api/v4/groups/{id}/epics/{epic_iid}',
    entry: 'functions/epics/get.ts',
    access: read,
  },
  {
    method: 'PUT',
    path: '/api/v4/groups/{id}/epics/{epic_iid}',
    entry: 'functions/epics/update.ts',
    access: write,
  },
  {
    method: 'DELETE',
    path: '/api/v4/groups/{id}/epics/{epic_iid}',
    entry: 'functions/epics/delete.ts',
    access: write,
  },
  {
    method: 'GET',
    path: '/api/v4/groups/{id}/epics/{epic_id}/notes',
    entry: 'functions/epics/notes/list.ts',
    access: read,
  },
  {
    method: 'POST',
    path: '/api/v4/groups/{id}/epics/{epic_id}/notes',
    entry: 'functions/epics/notes/create.ts',
    access: write,
  },
  {
    method: 'GET',
    path: '/api/v4/groups/{id}/epics/{epic_id}/notes/{note_id}',
    entry: 'functions/epics/notes/get.ts',
    access: read,
  },
  {
    method: 'PUT',
    path: '/api/v4/groups/{id}/epics/{epic_id}/notes/{note_id}',
    entry: 'functions/epics/notes/update.ts',
    access: write,
  },
  {
    method: 'DELETE',
    path: '/api/v4/groups/{id}/epics/{epic_id}/notes/{note_id}',
    entry: 'functions/epics/notes/delete.ts',
    access: write,
  },
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
  // Users: states, identities, custom attributes, memberships ------------------------------------
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
  {
    method: 'DELETE',
    path: '/api/v4/personal_access_tokens/self',
    entry: 'functions/personal-access-tokens/revoke-self.ts',
    access: write,
  },
  // Avatars ----------------------------------------------------------------------------------------
  {
    method: 'GET',
    path: '/uploads/-/system/{model}/avatar/{id}/{filename}',
    entry: 'functions/avatars/get.ts',
    access: { table: 'read', bucket: 'read' },
  },
  {
    method: 'GET',
    path: '/api/v4/groups/{id}/avatar',
    entry: 'functions/avatars/group.ts',
    access: { table: 'read', bucket: 'read' },
  },
  {
    method: 'GET',
    path: '/api/v4/projects/{id}/avatar',
    entry: 'functions/avatars/project.ts',
    access: { table: 'read', bucket: 'read' },
  },
  // Groups: descendants, transfer, sharing -------------------------------------------------------
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
  // Members with their inherited level -----------------------------------------------------------
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
  // Projects: transfer; namespaces --------------------------------------------------------------
  {
    method: 'PUT',
    path: '/api/v4/projects/{id}/transfer',
    entry: 'functions/projects/transfer.ts',
    access: write,
  },
  { method: 'GET', path: '/api/v4/namespaces', entry: 'functions/namespaces/list.ts', access: read },
  { method: 'GET', path: '/api/v4/namespaces/{id}', entry: 'functions/namespaces/get.ts', access: read },
  {
    method: 'GET',
    path: '/api/v4/namespaces/{id}/exists',
    entry: 'functions/namespaces/exists.ts',
    access: read,
  },
  // Search ---------------------------------------------------------------------------------------
  { method: 'GET', path: '/api/v4/search', entry: 'functions/search/global.ts', access: read },
  { method: 'GET', path: '/api/v4/groups/{id}/search', entry: 'functions/search/group.ts', access: read },
  { method: 'GET', path: '/api/v4/projects/{id}/search', entry: 'functions/search/project.ts', access: read },
  // About the API --------------------------------------------------------------------------------
  { method: 'GET', path: '/api/v4/openapi.json', entry: 'functions/meta/openapi.ts', access: {} },
  { method: 'ANY', path: '$default', entry: 'functions/not-found.ts', access: {} },
];
