/**
 * What the users, groups, projects, notes and hooks routes answer with, by function name (the
 * handler file, or the route's `name` where routes share one, as the note routes do): the entity
 * (one, or a page of them) and the success statuses where they differ from the method's. Other
 * routes are documented with their status and GitLab's error shape only.
 */
import type { EntityName } from './entities.ts';

export interface EntityResponse {
  entity: EntityName;
  list?: boolean;
  /** Success statuses when not the method's own (GET/PUT 200, POST 201, DELETE 204). */
  statuses?: readonly number[];
}

const one = (entity: EntityName, statuses?: readonly number[]): EntityResponse => ({ entity, statuses });
const page = (entity: EntityName): EntityResponse => ({ entity, list: true });

const noteRoutes = (folder: string): Record<string, EntityResponse> => ({
  [`functions/${folder}/notes/list.ts`]: page('note'),
  [`functions/${folder}/notes/create.ts`]: one('note'),
  [`functions/${folder}/notes/get.ts`]: one('note'),
  [`functions/${folder}/notes/update.ts`]: one('note'),
});

export const entityResponses: Readonly<Record<string, EntityResponse>> = {
  'functions/users/get-current.ts': one('user'),
  'functions/users/list.ts': page('user'),
  'functions/users/create.ts': one('user'),
  'functions/users/get.ts': one('user'),
  'functions/users/update.ts': one('user'),
  'functions/groups/list.ts': page('group'),
  'functions/groups/create.ts': one('group'),
  'functions/groups/get.ts': one('group'),
  'functions/groups/update.ts': one('group'),
  'functions/groups/list-subgroups.ts': page('group'),
  'functions/groups/list-descendants.ts': page('group'),
  'functions/groups/list-projects.ts': page('project'),
  'functions/projects/list.ts': page('project'),
  'functions/projects/create.ts': one('project'),
  'functions/projects/create-for-user.ts': one('project'),
  'functions/projects/get.ts': one('project'),
  'functions/projects/update.ts': one('project'),
  'functions/projects/star.ts': one('project', [201, 304]),
  'functions/projects/unstar.ts': one('project', [201, 304]),
  'functions/projects/archive.ts': one('project'),
  'functions/projects/unarchive.ts': one('project'),
  'functions/users/list-projects.ts': page('project'),
  ...noteRoutes('issues'),
  ...noteRoutes('merge-requests'),
  ...noteRoutes('snippets'),
  ...noteRoutes('epics'),
  'functions/hooks/list.ts': page('hook'),
  'functions/hooks/create.ts': one('hook'),
  'functions/hooks/get.ts': one('hook'),
  'functions/hooks/update.ts': one('hook'),
  'functions/hooks/delete.ts': one('hook', [200, 204]),
};

/** Routes whose success is not the method's own and that answer no entity. */
export const otherStatuses: Readonly<Record<string, readonly number[]>> = {
  'functions/groups/delete.ts': [202],
  'functions/projects/delete.ts': [202],
  'functions/groups/ldap-sync.ts': [202],
  'functions/repository/mirror-pull.ts': [200],
  'functions/merge-requests/rebase.ts': [202],
  // Files over a Lambda response's size redirect to a presigned S3 URL (shared/blob/downloads.ts).
  'functions/projects/get-upload.ts': [200, 302],
  'functions/avatars/get.ts': [200, 302],
  'functions/avatars/group.ts': [200, 302],
  'functions/avatars/project.ts': [200, 302],
};
