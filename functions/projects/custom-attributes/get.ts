import { recordNotFound } from '#domain/errors.ts';
import { idOrPath, params, required, str } from '#domain/params.ts';
import { defineRoute } from '#http/route.ts';
import { readableProject } from '#store/projects.ts';

export const handler = defineRoute({
  auth: 'admin',
  params: params({ id: required(idOrPath()), key: required(str()) }),
  run: async ({ params: input, caller }) => {
    const { project } = await readableProject(input.id, caller);
    const value = project.custom_attributes[input.key];
    if (value === undefined) throw recordNotFound();
    return { key: input.key, value };
  },
});
