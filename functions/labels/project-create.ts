import {
  labelEntity,
  mayAdminProjectLabels,
  newLabelFrom,
  projectLabelOwners,
  refuseTakenTitle,
} from '#domain/labels.ts';
import { labelSchemas } from '#domain/schemas/labels.ts';
import { project } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { createLabel, readLabels } from '#store/labels/labels.ts';

/**
 * Reporters and up create a project label; a title the project or one of its groups has is 409
 * `Label already exists` (checked before the model's rules, as GitLab does; the project's own
 * titles are kept unique by the database).
 */
export const handler = defineRoute({
  auth: 'user',
  params: labelSchemas.createInProject,
  load: project({ allow: mayAdminProjectLabels }),
  run: async ({ params: input, project }) => {
    refuseTakenTitle(await readLabels(projectLabelOwners(project)), input.name);
    const label = await createLabel(newLabelFrom(input, { kind: 'project', id: project.id }));
    return reply.created(labelEntity(label, false));
  },
});
