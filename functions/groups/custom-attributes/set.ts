import { idOrPath, params, required, str } from '#domain/params.ts';
import { defineRoute } from '#http/route.ts';
import { lookupGroup, readableGroup, setGroupCustomAttribute } from '#store/groups.ts';

export const handler = defineRoute({
  auth: 'admin',
  params: params({ id: required(idOrPath()), key: required(str()), value: required(str()) }),
  prefetch: (input) => lookupGroup(input.id),
  run: async ({ params: input, caller, prefetched }) => {
    const { group } = await readableGroup(prefetched, caller);
    await setGroupCustomAttribute(group.id, input.key, input.value);
    return { key: input.key, value: input.value };
  },
});
