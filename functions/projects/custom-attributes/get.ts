import { customAttributeEntity } from '#domain/custom-attributes.ts';
import { projectSchemas } from '#domain/schemas/projects.ts';
import { project } from '#http/load.ts';
import { defineRoute } from '#http/route.ts';

export const handler = defineRoute({
  auth: 'admin',
  params: projectSchemas.customAttribute,
  load: project(),
  run: async ({ params: input, project }) => customAttributeEntity(project.custom_attributes, input.key),
});
