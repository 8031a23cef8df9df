import { recordNotFound } from '#domain/errors.ts';
import { idOrPath, params, required, str } from '#domain/params.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { readableGroup, setGroupCustomAttribute } from '#store/groups.ts';

export const handler = defineRoute({
  auth: 'admin',
  params: params({ id: required(idOrPath()), key: required(str()) }),
  run: async ({ params: input, caller }) => {
    const { group } = await readableGroup(input.id, caller);
    if (group.custom_attributes[input.key] === undefined) throw recordNotFound();
    await setGroupCustomAttribute(group.id, input.key, undefined);
    return reply.noContent();
  },
});
