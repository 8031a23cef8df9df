import { requestedAvatar } from '#domain/avatars.ts';
import { mayUpdateProject } from '#domain/project-policy.ts';
import { presentProject } from '#domain/project-views.ts';
import { type ProjectUpdateInput, projectSchemas } from '#domain/schemas/projects.ts';
import { touchesSearchText } from '#domain/search.ts';
import { project } from '#http/load.ts';
import { defineRoute } from '#http/route.ts';
import { applyAvatar } from '#jobs/avatars.ts';
import { changeProjectSettings } from '#jobs/import.ts';
import { publish } from '#queue/publish.ts';

/**
 * Maintainers change settings and the path; renaming and visibility need an owner or admin.
 * Turning a pull mirror on (or giving a mirror another import_url) schedules its update. An
 * `avatar` file replaces the avatar and a blank `avatar` removes it, once the settings are saved.
 */
export const handler = defineRoute({
  auth: 'user',
  params: projectSchemas.update,
  load: project<ProjectUpdateInput>({ allow: mayUpdateProject }),
  run: async ({ params: { id: _id, avatar, ...input }, caller, request, files, project, access }) => {
    const avatarRequest = requestedAvatar(files.avatar, avatar);
    // Applied to a fresh read when someone else saved in between: the last write wins, as in GitLab.
    const saved = await changeProjectSettings(project, input, caller);
    const shown = { ...saved, ...(await applyAvatar('project', saved.id, avatarRequest)) };
    // The save marked the project for the search index when its searchable text may have changed.
    if (touchesSearchText(input)) await publish('search-index', { projectId: saved.id });
    return presentProject(shown, caller, { baseUrl: request.baseUrl }, access);
  },
});
