import { recordNotFound } from '#domain/errors.ts';
import { idOrPath, params, required, str } from '#domain/params.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { lookupProject, readableProject, updateProject } from '#store/projects.ts';

export const handler = defineRoute({
  auth: 'admin',
  params: params({ id: required(idOrPath()), key: required(str()) }),
  prefetch: (input) => lookupProject(input.id),
  run: async ({ params: input, caller, prefetched }) => {
    const { project } = await readableProject(prefetched, caller);
    if (project.custom_attributes[input.key] === undefined) throw recordNotFound();
    await updateProject(project.id, (current) => {
      const { [input.key]: _removed, ...rest } = current.custom_attributes;
      return { ...current, custom_attributes: rest, updated_at: new Date().toISOString() };
    });
    return reply.noContent();
  },
});
