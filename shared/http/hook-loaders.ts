/**
 * What the hook and push rule routes act on, read beside authentication: maintainers and up only
 * (GitLab's admin_project: 403 below, 401 anonymous, 404 for a project the caller cannot see).
 */
import { forbidden, recordNotFound, unauthorized } from '#domain/errors.ts';
import { type Hook, mayAdminHooks } from '#domain/hooks.ts';
import type { ProjectAccess } from '#domain/projects.ts';
import type { Caller } from '#domain/users.ts';
import { readHook, readProjectHooks } from '#store/hooks/hooks.ts';
import { readPushRule } from '#store/projects/push-rules.ts';
import { inProject } from './load.ts';

function mustAdminProject(caller: Caller | undefined, access: ProjectAccess): void {
  if (!caller) throw unauthorized();
  if (!mayAdminHooks({ caller, access })) throw forbidden();
}

/** The project's hooks in id order. */
export const projectHooks = () =>
  inProject({
    read: (projectId) => readProjectHooks(projectId),
    decide: ({ found, caller, access }) => {
      mustAdminProject(caller, access);
      return { hooks: found };
    },
  });

/** One hook of the project: 404 `Not found` for a hook that is not the project's. */
export const projectHook = <P extends { id: string | number; hook_id: number }>() =>
  inProject({
    read: (projectId, params: P) => readHook(projectId, params.hook_id),
    decide: ({ found, caller, access }): { hook: Hook } => {
      mustAdminProject(caller, access);
      if (!found) throw recordNotFound();
      return { hook: found };
    },
  });

/** One hook of the project, or undefined when it has none of that id (its removal answers 204). */
export const projectHookIfAny = <P extends { id: string | number; hook_id: number }>() =>
  inProject({
    read: (projectId, params: P) => readHook(projectId, params.hook_id),
    decide: ({ found, caller, access }): { hook: Hook | undefined } => {
      mustAdminProject(caller, access);
      return { hook: found };
    },
  });

/** The project's push rule, or undefined when it has none. */
export const projectPushRule = () =>
  inProject({
    read: (projectId) => readPushRule(projectId),
    decide: ({ found, caller, access }) => {
      mustAdminProject(caller, access);
      return { pushRule: found };
    },
  });
