import { recordNotFound } from '#domain/errors.ts';
import { idOrPath, params, required, str } from '#domain/params.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { lookupGroup, readableGroup, setGroupCustomAttribute } from '#store/groups.ts';

export const handler = defineRoute({
  auth: 'admin',
  params: params({ id: required(idOrPath()), key: required(str()) }),
  prefetch: (input) => lookupGroup(input.id),
  run: async ({ params: input, caller, prefetched }) => {
    const { group } = await readableGroup(prefetched, caller);
    if (group.custom_attributes[input.key] === undefined) throw recordNotFound();
    await setGroupCustomAttribute(group.id, input.key, undefined);
    return reply.noContent();
  },
});
