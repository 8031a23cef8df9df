import { idOrPath, params, required } from '#domain/params.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { presentProject } from '#store/project-views.ts';
import { getProject, lookupProject, readableProject, setStar } from '#store/projects.ts';

/** Star or unstar: 201 with the refreshed project when it changed, 304 when nothing changed. */
export const starRoute = (star: boolean) =>
  defineRoute({
    auth: 'user',
    params: params({ id: required(idOrPath()) }),
    prefetch: (input) => lookupProject(input.id),
    run: async ({ caller, request, prefetched }) => {
      const { project, access } = await readableProject(prefetched, caller);
      const changed = await setStar(project, caller.id, star);
      if (!changed) return reply.notModified();
      const fresh = (await getProject(project.id)) ?? project;
      return reply.created(await presentProject(fresh, caller, { baseUrl: request.baseUrl, access }));
    },
  });
