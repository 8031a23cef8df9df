import { idOrPath, params, required, str } from '#domain/params.ts';
import { defineRoute } from '#http/route.ts';
import { lookupProject, readableProject, updateProject } from '#store/projects.ts';

export const handler = defineRoute({
  auth: 'admin',
  params: params({ id: required(idOrPath()), key: required(str()), value: required(str()) }),
  prefetch: (input) => lookupProject(input.id),
  run: async ({ params: input, caller, prefetched }) => {
    const { project } = await readableProject(prefetched, caller);
    await updateProject(project.id, (current) => ({
      ...current,
      custom_attributes: { ...current.custom_attributes, [input.key]: input.value },
      updated_at: new Date().toISOString(),
    }));
    return { key: input.key, value: input.value };
  },
});
