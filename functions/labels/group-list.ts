import { groupLabelOwners, labelList } from '#domain/labels.ts';
import { labelSchemas } from '#domain/schemas/labels.ts';
import { group } from '#http/load.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { readLabelsFor } from '#store/labels/labels.ts';

/** A group's labels with its ancestors' (unless `include_ancestor_groups=false`), by title, for its readers. */
export const handler = defineRoute({
  auth: 'user',
  paginated: true,
  params: labelSchemas.list,
  load: group(),
  run: async ({ params: input, caller, page, group }) => {
    const owners = groupLabelOwners(group, input.include_ancestor_groups ?? true);
    const { labels, subscribed } = await readLabelsFor(owners, caller?.id);
    return reply.pageOf(labelList(labels, subscribed, input.search), page);
  },
});
