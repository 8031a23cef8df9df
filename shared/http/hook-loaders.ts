/**
 * The hook a route acts on, read beside authentication: maintainers and up only (403 below, 401
 * anonymous, 404 for a project the caller cannot see), then 404 `Not found` for a hook that is not
 * the project's.
 */
import { forbidden, recordNotFound, unauthorized } from '#domain/errors.ts';
import type { Hook } from '#domain/hooks.ts';
import { canAdminProject } from '#domain/projects.ts';
import { readHook } from '#store/hooks.ts';
import { inProject } from './load.ts';

export const projectHook = <P extends { id: string | number; hook_id: number }>() =>
  inProject({
    read: (projectId, params: P) => readHook(projectId, params.hook_id),
    decide: ({ found, caller, access }): { hook: Hook } => {
      if (!caller) throw unauthorized();
      if (!canAdminProject(caller, access)) throw forbidden();
      if (!found) throw recordNotFound();
      return { hook: found };
    },
  });
