import { countedProject, groupLabelOwners, labelCounts, labelList } from '#domain/labels.ts';
import { labelSchemas } from '#domain/schemas/labels.ts';
import { group } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { readGroupLabelledWork } from '#store/labels/label-counts.ts';
import { labelOwnersBelow } from '#store/labels/label-owners.ts';
import { readLabelsFor } from '#store/labels/labels.ts';

/**
 * A group's labels with its ancestors' (unless `include_ancestor_groups=false`), its descendant
 * groups' (`include_descendant_groups`) and its projects' (`only_group_labels=false`), by title,
 * for its readers; with `with_counts`, each with the counts of the issues and merge requests of
 * the group's projects (subgroups' included) carrying it that the caller sees.
 */
export const handler = defineRoute({
  auth: 'user',
  paginated: true,
  params: labelSchemas.list,
  load: group(),
  run: async ({ params: input, caller, readScope, page, group, access }) => {
    const descendants = input.include_descendant_groups ?? false;
    const projects = !(input.only_group_labels ?? true);
    const below =
      descendants || projects
        ? await labelOwnersBelow(group, access, readScope, { descendants, projects })
        : [];
    const owners = [...groupLabelOwners(group, input.include_ancestor_groups ?? true), ...below];
    const [{ labels, subscribed }, counting] = await Promise.all([
      readLabelsFor(owners, caller.id),
      input.with_counts
        ? readGroupLabelledWork(group, access, readScope, (project, projectAccess) =>
            countedProject({ project, caller, access: projectAccess }),
          )
        : undefined,
    ]);
    const counts = counting && labelCounts([...labels, ...counting.labels], counting.work);
    return reply.pageOf(labelList(labels, subscribed, input.search, counts), page);
  },
});
