import { idOrPath, params, required } from '#domain/params.ts';
import { defineRoute } from '#http/route.ts';
import { lookupGroup, readableGroup } from '#store/groups.ts';

export const handler = defineRoute({
  auth: 'admin',
  params: params({ id: required(idOrPath()) }),
  prefetch: (input) => lookupGroup(input.id),
  run: async ({ caller, prefetched }) => {
    const { group } = await readableGroup(prefetched, caller);
    return Object.entries(group.custom_attributes).map(([key, value]) => ({ key, value }));
  },
});
