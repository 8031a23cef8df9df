import { mayUpdateProject } from '#domain/project-policy.ts';
import { presentProject } from '#domain/project-views.ts';
import { type ProjectUpdateInput, projectSchemas } from '#domain/schemas/projects.ts';
import { touchesSearchText } from '#domain/search.ts';
import { project } from '#http/load.ts';
import { defineRoute } from '#http/route.ts';
import { changeProjectSettings } from '#jobs/import.ts';
import { publish } from '#queue/publish.ts';

/**
 * Maintainers change settings and the path; renaming and visibility need an owner or admin.
 * Turning a pull mirror on (or giving a mirror another import_url) schedules its update.
 */
export const handler = defineRoute({
  auth: 'user',
  params: projectSchemas.update,
  load: project<ProjectUpdateInput>({ allow: mayUpdateProject }),
  run: async ({ params: { id: _id, ...input }, caller, request, project, access }) => {
    // Applied to a fresh read when someone else saved in between: the last write wins, as in GitLab.
    const saved = await changeProjectSettings(project, input, caller);
    // The save marked the project for the search index when its searchable text may have changed.
    if (touchesSearchText(input)) await publish('search-index', { projectId: saved.id });
    return presentProject(saved, caller, { baseUrl: request.baseUrl }, access);
  },
});
