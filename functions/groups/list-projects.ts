import { ACCESS } from '#domain/access.ts';
import { idOrPath, params, required } from '#domain/params.ts';
import { projectListFilter } from '#domain/project-lists.ts';
import type { Project } from '#domain/projects.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { lookupGroup, readableGroup } from '#store/groups.ts';
import { presentProjects } from '#store/project-views.ts';
import {
  listNamespaceProjects,
  memberProjectsOf,
  membershipLevelsOf,
  readMembershipLists,
  starredProjectIds,
} from '#store/projects.ts';
import { projectListParams } from '../projects/params.ts';

const {
  membership: _m,
  statistics: _s,
  with_issues_enabled: _i,
  with_merge_requests_enabled: _r,
  ...groupProjectParams
} = projectListParams;

/** The group's own projects the caller can see; members read them as one key range. */
export const handler = defineRoute({
  auth: 'optional',
  paginated: true,
  params: params({ id: required(idOrPath()), ...groupProjectParams }),
  prefetch: (input) => lookupGroup(input.id),
  run: async ({ params: input, caller, page, request, prefetched }) => {
    // Read once the group is (beside the access check or the list) so `permissions` cost no
    // extra round trip.
    const levels =
      caller && !input.simple
        ? membershipLevelsOf(
            caller.id,
            prefetched.then(() => readMembershipLists(caller.id)),
          )
        : undefined;
    const { group, access } = await readableGroup(prefetched, caller);
    const narrowing: ((project: Project) => boolean)[] = [];
    if (caller && input.starred) {
      const starred = new Set(await starredProjectIds(caller.id));
      narrowing.push((project) => starred.has(project.id));
    }
    if (caller && input.owned) {
      const mine = await memberProjectsOf(caller.id);
      narrowing.push((project) => (mine.levels.get(project.id) ?? 0) >= ACCESS.owner);
    }
    const seesAll = Boolean(caller?.admin || access >= ACCESS.guest);
    const result = await listNamespaceProjects({
      namespaceId: group.id,
      order: input.order_by ?? 'created_at',
      sort: input.sort ?? 'desc',
      page,
      filter: projectListFilter(input, caller, narrowing),
      caller,
      seesAll,
      levels,
    });
    const items = await presentProjects(result.items, caller, {
      baseUrl: request.baseUrl,
      simple: input.simple || !caller,
      customAttributes: Boolean(input.with_custom_attributes && caller?.admin),
      levels,
    });
    return reply.page(items, result.total, page);
  },
});
