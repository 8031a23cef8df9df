/** A real GitLab client, @gitbeaker/rest, driving the local runtime over HTTP. */
import { Gitlab } from '@gitbeaker/rest';
import { describe, expect, inject, it } from 'vitest';
import { unique } from '../support/api.ts';

const client = (token = inject('rootToken')) => new Gitlab({ host: inject('baseUrl'), token });

describe('@gitbeaker/rest', () => {
  it('reads the current user', async () => {
    const me = await client().Users.showCurrentUser();
    expect(me).toMatchObject({ username: 'root', is_admin: true });
  });

  it('creates, lists with pagination, shows, edits and removes users', async () => {
    const admin = client();
    const prefix = unique('gb');
    const created = [];
    for (let i = 0; i < 3; i++) {
      created.push(
        await admin.Users.create({
          email: `${prefix}-${i}@example.com`,
          username: `${prefix}-${i}`,
          name: `Gitbeaker ${i}`,
          password: 'password123',
        }),
      );
    }
    expect(created.map((user) => user.username)).toEqual([`${prefix}-0`, `${prefix}-1`, `${prefix}-2`]);

    const { data, paginationInfo } = await admin.Users.all({
      search: prefix,
      perPage: 2,
      page: 1,
      showExpanded: true,
    });
    expect(data.map((user) => user.username)).toEqual([`${prefix}-2`, `${prefix}-1`]);
    expect(paginationInfo).toMatchObject({
      total: 3,
      totalPages: 2,
      perPage: 2,
      current: 1,
      next: 2,
      previous: null,
    });

    const walked = await admin.Users.all({ search: prefix, perPage: 1, maxPages: 10 });
    expect(walked.map((user) => user.username).sort()).toEqual(created.map((user) => user.username).sort());

    const shown = await admin.Users.show(created[0]?.id as number);
    expect(shown).toMatchObject({ id: created[0]?.id, email: `${prefix}-0@example.com` });

    const edited = await admin.Users.edit(created[1]?.id as number, { name: 'Renamed' });
    expect(edited).toMatchObject({ id: created[1]?.id, name: 'Renamed' });

    await admin.Users.remove(created[2]?.id as number);
    await expect(admin.Users.show(created[2]?.id as number)).rejects.toMatchObject({
      cause: { response: { status: 404 } },
    });
  });

  it('creates a token for a user and that user signs in with it', async () => {
    const admin = client();
    const username = unique('gbt');
    const user = await admin.Users.create({
      email: `${username}@example.com`,
      username,
      name: username,
      password: 'password123',
    });
    const token = await admin.Users.createPersonalAccessToken(user.id, 'e2e', ['api']);
    expect(token).toMatchObject({ name: 'e2e', scopes: ['api'], user_id: user.id, active: true });
    const asUser = client(token.token as string);
    const me = await asUser.Users.showCurrentUser();
    expect(me).toMatchObject({ id: user.id, username });

    const tokens = await asUser.PersonalAccessTokens.all();
    expect(tokens.map((listed) => listed.id)).toContain(token.id);
    await asUser.PersonalAccessTokens.remove({ tokenId: token.id });
    await expect(asUser.Users.showCurrentUser()).rejects.toMatchObject({
      cause: { response: { status: 401 } },
    });
  });

  it('reports a duplicate username as a 409 with GitLab message', async () => {
    const admin = client();
    const username = unique('dup');
    await admin.Users.create({
      email: `${username}@example.com`,
      username,
      name: username,
      password: 'password123',
    });
    const error = await admin.Users.create({
      email: `${username}-2@example.com`,
      username,
      name: username,
      password: 'password123',
    }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({
      message: 'Username has already been taken',
      cause: { response: { status: 409 } },
    });
  });
});
