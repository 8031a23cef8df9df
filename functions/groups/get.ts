import { groupDetailEntity } from '#domain/groups.ts';
import { bool, idOrPath, optional, params, required } from '#domain/params.ts';
import { defineRoute } from '#http/route.ts';
import { groupProjects } from '#store/group-projects.ts';
import { readableGroup } from '#store/groups.ts';

/** A group with its projects and shared projects; anonymous callers see public groups. */
export const handler = defineRoute({
  auth: 'optional',
  params: params({ id: required(idOrPath()), with_custom_attributes: optional(bool()) }),
  run: async ({ params: input, caller, request }) => {
    const { group, access } = await readableGroup(input.id, caller);
    const related = await groupProjects(group, caller, access, request.baseUrl);
    return groupDetailEntity(
      group,
      { baseUrl: request.baseUrl, customAttributes: Boolean(input.with_custom_attributes && caller?.admin) },
      related,
    );
  },
});
