import { idOrPath, params, required } from '#domain/params.ts';
import { defineRoute } from '#http/route.ts';
import { readableGroup } from '#store/groups.ts';

export const handler = defineRoute({
  auth: 'admin',
  params: params({ id: required(idOrPath()) }),
  run: async ({ params: input, caller }) => {
    const { group } = await readableGroup(input.id, caller);
    return Object.entries(group.custom_attributes).map(([key, value]) => ({ key, value }));
  },
});
