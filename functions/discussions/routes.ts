/**
 * The discussion routes of every noteable parent kind, built from the domain's rows (its route and
 * the parameter naming it): seven per kind, and for merge requests an eighth (a thread resolved as
 * a whole), all served by the entries of this folder, each with a function of its own, named as if
 * it had its own file under its parent's area (`functions/issues/discussions/list.ts`). Plain data:
 * imports no handler.
 */
import { NOTEABLE_TYPES, type NoteableType, noteableRouteOf } from '#domain/noteables.ts';
import { type HttpMethod, type RouteDefinition, read, write } from '../route-kit.ts';

const VERBS: readonly { method: HttpMethod; path: string; file: string; only?: NoteableType }[] = [
  { method: 'GET', path: '', file: 'list' },
  { method: 'POST', path: '', file: 'create' },
  { method: 'GET', path: '/{discussion_id}', file: 'get' },
  { method: 'PUT', path: '/{discussion_id}', file: 'resolve', only: 'MergeRequest' },
  { method: 'POST', path: '/{discussion_id}/notes', file: 'reply' },
  { method: 'GET', path: '/{discussion_id}/notes/{note_id}', file: 'get-note' },
  { method: 'PUT', path: '/{discussion_id}/notes/{note_id}', file: 'update-note' },
  { method: 'DELETE', path: '/{discussion_id}/notes/{note_id}', file: 'delete-note' },
];

/** The parent's area under functions/: its route's collection (`merge_requests` → `merge-requests`). */
function parentAreaOf(parentPath: string): string {
  const collection = parentPath.split('/').at(-2);
  if (!collection) throw new Error(`${parentPath}: no collection before the parent's parameter`);
  return collection.replaceAll('_', '-');
}

export const discussionRoutes: readonly RouteDefinition[] = NOTEABLE_TYPES.flatMap((type) => {
  const parentPath = noteableRouteOf(type);
  return VERBS.filter(({ only }) => only === undefined || only === type).map(({ method, path, file }) => ({
    method,
    path: `${parentPath}/discussions${path}`,
    entry: `functions/discussions/${file}.ts`,
    name: `functions/${parentAreaOf(parentPath)}/discussions/${file}.ts`,
    access: method === 'GET' ? read : write,
  }));
});
