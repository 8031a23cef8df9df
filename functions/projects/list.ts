import { ACCESS } from '#domain/access.ts';
import { params } from '#domain/params.ts';
import { projectListFilter } from '#domain/project-lists.ts';
import type { Project } from '#domain/projects.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { presentProjects } from '#store/project-views.ts';
import {
  getProjectsRaw,
  listProjects,
  listReachableProjects,
  memberProjectsOf,
  membershipLevelsOf,
  starredProjectIds,
} from '#store/projects.ts';
import { projectListParams } from './params.ts';

/**
 * Anonymous: public projects (simple entities). Users: public, internal and every project they
 * reach through membership. Admins: all. `owned`, `membership` and `starred` narrow to the
 * caller's own sets.
 */
export const handler = defineRoute({
  auth: 'optional',
  paginated: true,
  params: params(projectListParams),
  run: async ({ params: input, caller, page, request }) => {
    // Read beside the list so `permissions` cost no extra round trip.
    const levels = caller && !input.simple ? membershipLevelsOf(caller.id) : undefined;
    const present = async (result: { items: Project[]; total: number | undefined }) =>
      reply.page(
        await presentProjects(result.items, caller, {
          baseUrl: request.baseUrl,
          simple: input.simple || !caller,
          statistics: input.statistics,
          customAttributes: Boolean(input.with_custom_attributes && caller?.admin),
          levels,
        }),
        result.total,
        page,
      );
    const narrowed = input.owned || input.membership || input.starred || input.min_access_level !== undefined;
    if (caller && !caller.admin && !narrowed && !projectListFilter(input, caller)) {
      // The common case reads every list only to the end of the page.
      return present(
        await listReachableProjects({
          caller,
          order: input.order_by ?? 'created_at',
          sort: input.sort ?? 'desc',
          page,
        }),
      );
    }
    let visibilities: ('public' | 'internal' | 'private')[] = ['public'];
    let extra: Record<string, unknown>[] = [];
    const narrowing: ((project: Project) => boolean)[] = [];
    if (caller) {
      const mine =
        caller.admin && !input.owned && !input.membership ? undefined : await memberProjectsOf(caller.id);
      const levels = mine?.levels ?? new Map<number, number>();
      if (input.starred) {
        const starred = await starredProjectIds(caller.id);
        const ids = new Set(starred);
        extra = await getProjectsRaw(starred);
        visibilities = [];
        narrowing.push((project) => ids.has(project.id));
      }
      if (input.owned || input.membership) {
        extra = input.starred ? extra : (mine?.raw ?? []);
        visibilities = [];
        const minimum = input.owned ? ACCESS.owner : (input.min_access_level ?? ACCESS.guest);
        narrowing.push((project) => (levels.get(project.id) ?? 0) >= minimum);
      } else if (input.min_access_level !== undefined) {
        extra = mine?.raw ?? [];
        visibilities = [];
        narrowing.push((project) => (levels.get(project.id) ?? 0) >= (input.min_access_level ?? 0));
      } else if (!input.starred) {
        visibilities = caller.admin
          ? ['public', 'internal', 'private']
          : caller.external
            ? ['public']
            : ['public', 'internal'];
        extra = mine?.raw ?? [];
      }
      if (input.starred && !caller.admin) {
        narrowing.push(
          (project) =>
            project.visibility === 'public' ||
            (project.visibility === 'internal' && !caller.external) ||
            levels.has(project.id),
        );
      }
    }
    const result = await listProjects({
      visibilities,
      extra,
      order: input.order_by ?? 'created_at',
      sort: input.sort ?? 'desc',
      page,
      filter: projectListFilter(input, caller, narrowing),
    });
    return present(result);
  },
});
