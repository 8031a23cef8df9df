/**
 * The rows of the route table (functions/routes.ts, which assembles them) whose handlers live in
 * functions/merge-requests/. Plain data: imports no handler.
 */
import { type Access, type RouteDefinition, write } from '../route-kit.ts';

/** Reads that also read the repository's refs document and packs (what the branches hold). */
const readCode: Access = { table: 'read', bucket: 'read' };

/** Reads of what the branches hold that keep a merge check's verdict on the merge request. */
const readCodeKeepingCheck: Access = { table: 'write', bucket: 'read' };

/** Writes that check the branches in the repository. */
const writeCheckingCode: Access = { table: 'write', bucket: 'read' };

/** A merge or rebase: new packs and refs documents in the bucket, the pointer and the merge request in the table. */
const writeCode: Access = { table: 'write', bucket: 'write' };

/** Merge requests of a project, their diffs, commits, merge and rebase (their notes: functions/notes/routes.ts). */
export const mergeRequestRoutes: readonly RouteDefinition[] = [
  {
    method: 'GET',
    path: '/api/v4/projects/{id}/merge_requests',
    entry: 'functions/merge-requests/list.ts',
    access: readCode,
  },
  {
    method: 'POST',
    path: '/api/v4/projects/{id}/merge_requests',
    entry: 'functions/merge-requests/create.ts',
    // A new merge request's head ref is committed in its project's repository.
    access: writeCode,
  },
  {
    method: 'GET',
    path: '/api/v4/projects/{id}/merge_requests/{merge_request_iid}',
    entry: 'functions/merge-requests/get.ts',
    access: readCodeKeepingCheck,
  },
  {
    method: 'PUT',
    path: '/api/v4/projects/{id}/merge_requests/{merge_request_iid}',
    entry: 'functions/merge-requests/update.ts',
    access: writeCheckingCode,
  },
  {
    method: 'DELETE',
    path: '/api/v4/projects/{id}/merge_requests/{merge_request_iid}',
    entry: 'functions/merge-requests/delete.ts',
    access: write,
  },
  {
    method: 'GET',
    path: '/api/v4/projects/{id}/merge_requests/{merge_request_iid}/changes',
    entry: 'functions/merge-requests/changes.ts',
    access: readCodeKeepingCheck,
  },
  {
    method: 'GET',
    path: '/api/v4/projects/{id}/merge_requests/{merge_request_iid}/diffs',
    entry: 'functions/merge-requests/diffs.ts',
    access: readCode,
  },
  {
    method: 'GET',
    path: '/api/v4/projects/{id}/merge_requests/{merge_request_iid}/commits',
    entry: 'functions/merge-requests/commits.ts',
    access: readCode,
  },
  {
    method: 'PUT',
    path: '/api/v4/projects/{id}/merge_requests/{merge_request_iid}/merge',
    entry: 'functions/merge-requests/merge.ts',
    access: writeCode,
  },
  {
    method: 'PUT',
    path: '/api/v4/projects/{id}/merge_requests/{merge_request_iid}/rebase',
    entry: 'functions/merge-requests/rebase.ts',
    access: writeCode,
  },
  // A read for GitLab, but it commits the merge ref when the branches moved since the last one.
  {
    method: 'GET',
    path: '/api/v4/projects/{id}/merge_requests/{merge_request_iid}/merge_ref',
    entry: 'functions/merge-requests/merge-ref.ts',
    access: writeCode,
  },
];
