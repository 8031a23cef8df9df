import { bool, idOrPath, optional, params, required } from '#domain/params.ts';
import { defineRoute } from '#http/route.ts';
import { presentProject } from '#store/project-views.ts';
import { lookupProjectAhead, readableProjectAhead } from '#store/projects.ts';

export const handler = defineRoute({
  auth: 'optional',
  params: params({
    id: required(idOrPath()),
    statistics: optional(bool()),
    with_custom_attributes: optional(bool()),
  }),
  // The project (and, when warm, the caller's memberships) in one read with the credential.
  prefetch: (input, ahead) => lookupProjectAhead(input.id, ahead),
  run: async ({ params: input, caller, request, prefetched }) => {
    const { project, access } = await readableProjectAhead(prefetched, caller);
    return presentProject(project, caller, {
      baseUrl: request.baseUrl,
      access: caller ? access : undefined,
      statistics: input.statistics,
      customAttributes: Boolean(input.with_custom_attributes && caller?.admin),
    });
  },
});
