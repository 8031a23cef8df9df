import { recordNotFound } from '#domain/errors.ts';
import { idOrPath, params, required, str } from '#domain/params.ts';
import { defineRoute } from '#http/route.ts';
import { lookupProject, readableProject } from '#store/projects.ts';

export const handler = defineRoute({
  auth: 'admin',
  params: params({ id: required(idOrPath()), key: required(str()) }),
  prefetch: (input) => lookupProject(input.id),
  run: async ({ params: input, caller, prefetched }) => {
    const { project } = await readableProject(prefetched, caller);
    const value = project.custom_attributes[input.key];
    if (value === undefined) throw recordNotFound();
    return { key: input.key, value };
  },
});
