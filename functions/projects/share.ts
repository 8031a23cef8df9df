import type * as v from 'valibot';
import { projectSchemas } from '#domain/schemas/projects.ts';
import { groupNamedBy, project, withAlso } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { shareProjectWith } from '#store/projects/project-shares.ts';

type Params = v.InferOutput<typeof projectSchemas.share>;

/** Maintainers share a project with a group they can see; that group's members gain access. */
export const handler = defineRoute({
  auth: 'user',
  params: projectSchemas.share,
  load: withAlso(project<Params>({ allow: 'maintainer' }), { group: groupNamedBy<Params>('group_id') }),
  run: async ({ params: input, project, group }) =>
    reply.created(await shareProjectWith(project, group, input)),
});
