import { customAttributeEntities } from '#domain/custom-attributes.ts';
import { projectSchemas } from '#domain/schemas/projects.ts';
import { project } from '#http/load.ts';
import { defineRoute } from '#http/route.ts';

export const handler = defineRoute({
  auth: 'admin',
  params: projectSchemas.byId,
  load: project(),
  run: async ({ project }) => customAttributeEntities(project.custom_attributes),
});
