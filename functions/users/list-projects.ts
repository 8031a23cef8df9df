import { notFound } from '#domain/errors.ts';
import { params, reference, required } from '#domain/params.ts';
import { projectListFilter } from '#domain/project-lists.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { presentProjects } from '#store/project-views.ts';
import { listNamespaceProjects, membershipLevelsOf } from '#store/projects.ts';
import { findUserByUsername, getUser } from '#store/users.ts';
import { projectListParams } from '../projects/params.ts';

/** Projects in a user's personal namespace (by id or username) that the caller can see. */
export const handler = defineRoute({
  auth: 'optional',
  paginated: true,
  params: params({ user_id: required(reference()), ...projectListParams }),
  // The user is read while the caller is authenticated.
  prefetch: (input) =>
    /^\d+$/.test(input.user_id) ? getUser(Number(input.user_id)) : findUserByUsername(input.user_id),
  run: async ({ params: input, caller, page, request, prefetched }) => {
    // Read beside the list so `permissions` cost no extra round trip.
    const levels = caller && !input.simple ? membershipLevelsOf(caller.id) : undefined;
    const user = await prefetched;
    if (!user) throw notFound('User');
    const namespaceId = (user as { namespace_id?: number }).namespace_id;
    const seesAll = Boolean(caller && (caller.admin || caller.id === user.id));
    const result =
      namespaceId === undefined
        ? { items: [], total: 0 }
        : await listNamespaceProjects({
            namespaceId,
            order: input.order_by ?? 'created_at',
            sort: input.sort ?? 'desc',
            page,
            filter: projectListFilter(input, caller),
            caller,
            seesAll,
            levels,
          });
    const items = await presentProjects(result.items, caller, {
      baseUrl: request.baseUrl,
      simple: input.simple || !caller,
      statistics: input.statistics,
      customAttributes: Boolean(input.with_custom_attributes && caller?.admin),
      levels,
    });
    return reply.page(items, result.total, page);
  },
});
