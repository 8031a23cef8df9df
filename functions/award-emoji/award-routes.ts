/**
 * The four award emoji routes (list, get, create, delete) of an awardable kind, on the item itself
 * or on one of its notes (`AwardableRoute`, #http/award-loaders.ts). Each entry of this folder serves
 * its route for every kind through `perAwardable`: `export const handler = perAwardable(awardRoutes.list)`.
 */
import { awardEmojiEntity, checkedAwardName, checkMayRemoveAward } from '#domain/award-emoji.ts';
import { awardSchemas } from '#domain/schemas/award-emoji.ts';
import { type AwardableRoute, awardOf, awardsOf, toAward } from '#http/award-loaders.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { addAward, removeAward } from '#store/issuables/award-emoji.ts';
import { getUsers } from '#store/users/users.ts';

export const awardRoutes = {
  /** A page of the awardable's awards, oldest first. */
  list: (route: AwardableRoute) =>
    defineRoute({
      auth: 'user',
      paginated: true,
      params: route.onNote ? awardSchemas.noteList(route.kind.param) : awardSchemas.list(route.kind.param),
      load: awardsOf(route),
      run: async ({ page, request, awards, users }) =>
        reply.pageOf(
          awards.map((award) => awardEmojiEntity(award, users, request.baseUrl)),
          page,
        ),
    }),

  /** One award of the awardable. */
  get: (route: AwardableRoute) =>
    defineRoute({
      auth: 'user',
      params: route.onNote ? awardSchemas.noteOne(route.kind.param) : awardSchemas.one(route.kind.param),
      load: awardOf(route, true),
      run: async ({ request, award, users }) => awardEmojiEntity(award, users, request.baseUrl),
    }),

  /** An emoji awarded by the caller: once per user, emoji and awardable. */
  create: (route: AwardableRoute) =>
    defineRoute({
      auth: 'user',
      params: route.onNote
        ? awardSchemas.noteCreate(route.kind.param)
        : awardSchemas.create(route.kind.param),
      load: toAward(route),
      run: async ({ params: input, caller, request, awardable, place }) => {
        const name = checkedAwardName(input.name);
        const [award, users] = await Promise.all([
          addAward(place, { ...awardable, name, user_id: caller.id }),
          getUsers([caller.id]),
        ]);
        return reply.created(awardEmojiEntity(award, users, request.baseUrl));
      },
    }),

  /** An award removed, by its owner or an admin. */
  delete: (route: AwardableRoute) =>
    defineRoute({
      auth: 'user',
      params: route.onNote ? awardSchemas.noteOne(route.kind.param) : awardSchemas.one(route.kind.param),
      load: awardOf(route, false),
      run: async ({ caller, award, place }) => {
        checkMayRemoveAward(caller, award);
        await removeAward(place, award);
        return reply.noContent();
      },
    }),
};
