import { projectSchemas } from '#domain/schemas/projects.ts';
import { project } from '#http/load.ts';
import { defineRoute } from '#http/route.ts';
import { setProjectCustomAttribute } from '#store/projects/project-writes.ts';

export const handler = defineRoute({
  auth: 'admin',
  params: projectSchemas.setCustomAttribute,
  load: project(),
  run: async ({ params: input, project }) => {
    await setProjectCustomAttribute(project, input.key, input.value);
    return { key: input.key, value: input.value };
  },
});
