import { groupDetailEntity } from '#domain/groups.ts';
import { bool, idOrPath, optional, params, required } from '#domain/params.ts';
import { defineRoute } from '#http/route.ts';
import { groupProjects, sharedLinksOf } from '#store/group-projects.ts';
import { lookupGroup, readableGroup } from '#store/groups.ts';
import { membershipLevelsOf, readMembershipLists } from '#store/projects.ts';

/** A group with its projects and shared projects; anonymous callers see public groups. */
export const handler = defineRoute({
  auth: 'optional',
  params: params({ id: required(idOrPath()), with_custom_attributes: optional(bool()) }),
  prefetch: (input) => lookupGroup(input.id),
  run: async ({ params: input, caller, request, prefetched }) => {
    // Once the group is read, its share links and the caller's levels are read beside the
    // caller's memberships of the group (nothing of them can start sooner and be of use).
    const sharedLinks = sharedLinksOf(prefetched);
    const levels = caller
      ? membershipLevelsOf(
          caller.id,
          prefetched.then(() => readMembershipLists(caller.id)),
        )
      : undefined;
    const { group, access } = await readableGroup(prefetched, caller);
    const related = await groupProjects(group, caller, access, request.baseUrl, { levels, sharedLinks });
    return groupDetailEntity(
      group,
      { baseUrl: request.baseUrl, customAttributes: Boolean(input.with_custom_attributes && caller?.admin) },
      related,
    );
  },
});
