/**
 * The rows of the route table (functions/routes.ts, which assembles them) whose handlers live in
 * functions/repository/. Plain data: imports no handler.
 */
import { type Access, type RouteDefinition, read } from '../route-kit.ts';

/** Reading the repository's refs document and packs from the bucket, beside the project's item. */
const readCode: Access = { table: 'read', bucket: 'read' };

/** Writing a branch or tag: a new refs document (and a tag's pack) in the bucket, the pointer in the table. */
const writeRefs: Access = { table: 'write', bucket: 'write' };

/** Making a commit: its packs and a refs document in the bucket; the pointer, statistics and push rule in the table. */
const writeCommits: Access = { table: 'write', bucket: 'write' };

/** A project's repository: housekeeping, pull mirroring, reading it (branches, tags, tree, files, blobs, commits, compare, contributors, archives) and writing branches and tags. */
export const repositoryRoutes: readonly RouteDefinition[] = [
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
    path: '/api/v4/projects/{id}/repository/branches',
    entry: 'functions/repository/list-branches.ts',
    access: readCode,
  },
  {
    method: 'GET',
    path: '/api/v4/projects/{id}/repository/branches/{branch}',
    entry: 'functions/repository/get-branch.ts',
    access: readCode,
  },
  {
    method: 'POST',
    path: '/api/v4/projects/{id}/repository/branches',
    entry: 'functions/repository/create-branch.ts',
    access: writeRefs,
  },
  {
    method: 'DELETE',
    path: '/api/v4/projects/{id}/repository/branches/{branch}',
    entry: 'functions/repository/delete-branch.ts',
    access: writeRefs,
  },
  {
    method: 'POST',
    path: '/api/v4/projects/{id}/repository/tags',
    entry: 'functions/repository/create-tag.ts',
    access: writeRefs,
  },
  {
    method: 'DELETE',
    path: '/api/v4/projects/{id}/repository/tags/{tag_name}',
    entry: 'functions/repository/delete-tag.ts',
    access: writeRefs,
  },
  {
    method: 'GET',
    path: '/api/v4/projects/{id}/repository/tags',
    entry: 'functions/repository/list-tags.ts',
    access: readCode,
  },
  {
    method: 'GET',
    path: '/api/v4/projects/{id}/repository/tags/{tag_name}',
    entry: 'functions/repository/get-tag.ts',
    access: readCode,
  },
  {
    method: 'GET',
    path: '/api/v4/projects/{id}/repository/tree',
    entry: 'functions/repository/tree.ts',
    access: readCode,
  },
  {
    method: 'GET',
    path: '/api/v4/projects/{id}/repository/files/{file_path}',
    entry: 'functions/repository/get-file.ts',
    access: readCode,
  },
  {
    method: 'GET',
    path: '/api/v4/projects/{id}/repository/files/{file_path}/raw',
    entry: 'functions/repository/get-file-raw.ts',
    access: readCode,
  },
  {
    method: 'GET',
    path: '/api/v4/projects/{id}/repository/blobs/{sha}',
    entry: 'functions/repository/get-blob.ts',
    access: readCode,
  },
  {
    method: 'GET',
    path: '/api/v4/projects/{id}/repository/blobs/{sha}/raw',
    entry: 'functions/repository/get-blob-raw.ts',
    access: readCode,
  },
  {
    method: 'GET',
    path: '/api/v4/projects/{id}/repository/commits',
    entry: 'functions/repository/list-commits.ts',
    access: readCode,
  },
  {
    method: 'GET',
    path: '/api/v4/projects/{id}/repository/commits/{sha}',
    entry: 'functions/repository/get-commit.ts',
    access: readCode,
  },
  {
    method: 'GET',
    path: '/api/v4/projects/{id}/repository/commits/{sha}/diff',
    entry: 'functions/repository/get-commit-diff.ts',
    access: readCode,
  },
  {
    method: 'GET',
    path: '/api/v4/projects/{id}/repository/commits/{sha}/refs',
    entry: 'functions/repository/get-commit-refs.ts',
    access: readCode,
  },
  {
    method: 'GET',
    path: '/api/v4/projects/{id}/repository/compare',
    entry: 'functions/repository/compare.ts',
    access: readCode,
  },
  {
    method: 'GET',
    path: '/api/v4/projects/{id}/repository/contributors',
    entry: 'functions/repository/contributors.ts',
    access: readCode,
  },
  {
    method: 'GET',
    path: '/api/v4/projects/{id}/repository/archive',
    entry: 'functions/repository/archive.ts',
    access: readCode,
  },
  // API Gateway takes no parameter inside a path segment: one row per suffix the archive route
  // takes (GitLab's archive formats), all served by the one archive function.
  ...['zip', 'tar', 'tar.gz', 'tgz', 'gz', 'tar.bz2', 'tbz', 'tbz2', 'tb2', 'bz2'].map(
    (suffix): RouteDefinition => ({
      method: 'GET',
      path: `/api/v4/projects/{id}/repository/archive.${suffix}`,
      entry: 'functions/repository/archive.ts',
      access: readCode,
    }),
  ),
  {
    method: 'POST',
    path: '/api/v4/projects/{id}/repository/files/{file_path}',
    entry: 'functions/repository/create-file.ts',
    access: writeCommits,
  },
  {
    method: 'PUT',
    path: '/api/v4/projects/{id}/repository/files/{file_path}',
    entry: 'functions/repository/update-file.ts',
    access: writeCommits,
  },
  {
    method: 'DELETE',
    path: '/api/v4/projects/{id}/repository/files/{file_path}',
    entry: 'functions/repository/delete-file.ts',
    access: writeCommits,
  },
  {
    method: 'POST',
    path: '/api/v4/projects/{id}/repository/commits',
    entry: 'functions/repository/create-commit.ts',
    access: writeCommits,
  },
  {
    // git's dumb HTTP protocol under each project's http_url_to_repo (`/<namespace>/<project>.git/…`):
    // API Gateway takes no parameter inside a segment, so the row is greedy and its handler hands
    // every path that names no repository file to the catch-all's answer.
    method: 'GET',
    path: '/{proxy+}',
    entry: 'functions/repository/git-http.ts',
    access: readCode,
  },
];
