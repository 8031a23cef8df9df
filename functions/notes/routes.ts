/**
 * The note routes of every noteable parent kind, built from the domain's rows (its route and the
 * parameter naming it): five per kind, all served by the five entries of this folder, each with a
 * function of its own, named as if it had its own file under its parent's area
 * (`functions/issues/notes/list.ts`, as before the entries were shared: construct ids, nested stack
 * and logical ids stay). Plain data: imports no handler.
 */
import { NOTEABLE_TYPES, noteableRouteOf } from '#domain/noteables.ts';
import { type HttpMethod, type RouteDefinition, read, write } from '../route-kit.ts';

const VERBS: readonly { method: HttpMethod; note?: true; file: string }[] = [
  { method: 'GET', file: 'list' },
  { method: 'POST', file: 'create' },
  { method: 'GET', note: true, file: 'get' },
  { method: 'PUT', note: true, file: 'update' },
  { method: 'DELETE', note: true, file: 'delete' },
];

/** The parent's area under functions/: its route's collection (`merge_requests` → `merge-requests`). */
function parentAreaOf(parentPath: string): string {
  const collection = parentPath.split('/').at(-2);
  if (!collection) throw new Error(`${parentPath}: no collection before the parent's parameter`);
  return collection.replaceAll('_', '-');
}

export const noteRoutes: readonly RouteDefinition[] = NOTEABLE_TYPES.flatMap((type) => {
  const parentPath = noteableRouteOf(type);
  return VERBS.map(({ method, note, file }) => ({
    method,
    path: `${parentPath}/notes${note ? '/{note_id}' : ''}`,
    entry: `functions/notes/${file}.ts`,
    name: `functions/${parentAreaOf(parentPath)}/notes/${file}.ts`,
    access: method === 'GET' ? read : write,
  }));
});
