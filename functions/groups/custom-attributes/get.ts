import { recordNotFound } from '#domain/errors.ts';
import { idOrPath, params, required, str } from '#domain/params.ts';
import { defineRoute } from '#http/route.ts';
import { lookupGroup, readableGroup } from '#store/groups.ts';

export const handler = defineRoute({
  auth: 'admin',
  params: params({ id: required(idOrPath()), key: required(str()) }),
  prefetch: (input) => lookupGroup(input.id),
  run: async ({ params: input, caller, prefetched }) => {
    const { group } = await readableGroup(prefetched, caller);
    const value = group.custom_attributes[input.key];
    if (value === undefined) throw recordNotFound();
    return { key: input.key, value };
  },
});
