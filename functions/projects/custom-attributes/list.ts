import { idOrPath, params, required } from '#domain/params.ts';
import { defineRoute } from '#http/route.ts';
import { readableProject } from '#store/projects.ts';

export const handler = defineRoute({
  auth: 'admin',
  params: params({ id: required(idOrPath()) }),
  run: async ({ params: input, caller }) => {
    const { project } = await readableProject(input.id, caller);
    return Object.entries(project.custom_attributes).map(([key, value]) => ({ key, value }));
  },
});
