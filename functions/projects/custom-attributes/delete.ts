import { customAttributeEntity } from '#domain/custom-attributes.ts';
import { projectSchemas } from '#domain/schemas/projects.ts';
import { project } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { setProjectCustomAttribute } from '#store/projects/project-writes.ts';

export const handler = defineRoute({
  auth: 'admin',
  params: projectSchemas.customAttribute,
  load: project(),
  run: async ({ params: input, project }) => {
    customAttributeEntity(project.custom_attributes, input.key);
    await setProjectCustomAttribute(project, input.key, undefined);
    return reply.noContent();
  },
});
