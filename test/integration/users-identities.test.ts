/**
 * External identities over HTTP: provider and extern_uid on POST/PUT /users, the identities on
 * the user entity, uniqueness of (provider, uid) under races, GET /users by identity, DELETE
 * /users/:id/identities/:provider, and who may do each.
 */
import { describe, expect, it } from 'vitest';
import { api, createUser, unique } from '../support/api.ts';

interface Identity {
  provider: string;
  extern_uid: string;
  saml_provider_id: null;
}
interface UserBody {
  id: number;
  username: string;
  identities?: Identity[];
}

const newUserFields = (extra: Record<string, unknown> = {}) => {
  const username = unique('ident');
  return { username, email: `${username}@example.com`, name: username, password: 'password123', ...extra };
};
const taken = { message: { 'identities.extern_uid': ['has already been taken'] } };

describe('user identities', () => {
  it('created with an identity: shown to admins and to the user, not to others', async () => {
    const uid = unique('uid');
    const created = await api<UserBody>('POST', '/users', {
      json: newUserFields({ provider: 'github', extern_uid: uid }),
    });
    expect(created.status).toBe(201);
    const shown = [{ provider: 'github', extern_uid: uid, saml_provider_id: null }];
    expect(created.body.identities).toEqual(shown);
    expect((await api<UserBody>('GET', `/users/${created.body.id}`)).body.identities).toEqual(shown);

    const token = await api<{ token: string }>('POST', `/users/${created.body.id}/personal_access_tokens`, {
      json: { name: 'self', scopes: ['api'] },
    });
    expect((await api<UserBody>('GET', '/user', { token: token.body.token })).body.identities).toEqual(shown);
    const other = await createUser();
    const seenByOther = await api<UserBody>('GET', `/users/${created.body.id}`, { token: other.token });
    expect(seenByOther.status).toBe(200);
    expect('identities' in seenByOther.body).toBe(false);
  });

  it('(provider, uid) is unique whatever the case of the uid; another provider may use the same uid', async () => {
    const uid = unique('Uid');
    expect(
      (await api('POST', '/users', { json: newUserFields({ provider: 'ldapmain', extern_uid: uid }) }))
        .status,
    ).toBe(201);
    const clash = await api('POST', '/users', {
      json: newUserFields({ provider: 'ldapmain', extern_uid: uid.toUpperCase() }),
    });
    expect([clash.status, clash.body]).toEqual([400, taken]);
    const otherProvider = await api('POST', '/users', {
      json: newUserFields({ provider: 'github', extern_uid: uid }),
    });
    expect(otherProvider.status).toBe(201);
  });

  it('ten parallel creations with one identity: one 201, nine 400, one holder', async () => {
    const uid = unique('race');
    const responses = await Promise.all(
      Array.from({ length: 10 }, () =>
        api('POST', '/users', { json: newUserFields({ provider: 'saml', extern_uid: uid }) }),
      ),
    );
    expect(responses.map((response) => response.status).sort()).toEqual([201, ...Array(9).fill(400)]);
    for (const refused of responses.filter((response) => response.status === 400))
      expect(refused.body).toEqual(taken);
    const found = await api<UserBody[]>('GET', `/users?provider=saml&extern_uid=${uid}`);
    const winner = responses.find((response) => response.status === 201)?.body as UserBody | undefined;
    expect(found.body.map((user) => user.id)).toEqual([winner?.id]);
  });

  it('PUT moves the identity of a provider; the old uid is free for someone else', async () => {
    const [oldUid, newUid] = [unique('old'), unique('new')];
    const user = (
      await api<UserBody>('POST', '/users', {
        json: newUserFields({ provider: 'github', extern_uid: oldUid }),
      })
    ).body;
    const moved = await api<UserBody>('PUT', `/users/${user.id}`, {
      json: { provider: 'github', extern_uid: newUid },
    });
    expect(moved.status).toBe(200);
    expect(moved.body.identities).toEqual([
      { provider: 'github', extern_uid: newUid, saml_provider_id: null },
    ]);
    const added = await api<UserBody>('PUT', `/users/${user.id}`, {
      json: { provider: 'gitlab', extern_uid: oldUid },
    });
    expect(added.body.identities?.map((identity) => identity.provider)).toEqual(['github', 'gitlab']);
    expect(
      (await api('POST', '/users', { json: newUserFields({ provider: 'github', extern_uid: oldUid }) }))
        .status,
    ).toBe(201);
    const half = await api('PUT', `/users/${user.id}`, { json: { provider: 'github' } });
    expect([half.status, half.body]).toEqual([
      400,
      { error: 'extern_uid, provider provide all or none of parameters' },
    ]);
  });

  it('GET /users by identity: admins find the holder; anonymous 401; users 403', async () => {
    const uid = unique('find');
    const user = (
      await api<UserBody>('POST', '/users', { json: newUserFields({ provider: 'github', extern_uid: uid }) })
    ).body;
    const found = await api<UserBody[]>('GET', `/users?provider=github&extern_uid=${uid.toUpperCase()}`);
    expect(found.status).toBe(200);
    expect(found.body.map((u) => u.id)).toEqual([user.id]);
    expect(found.headers.get('x-total')).toBe('1');
    const none = await api<UserBody[]>('GET', `/users?provider=gitlab&extern_uid=${uid}`);
    expect([none.status, none.body]).toEqual([200, []]);
    const anonymous = await api('GET', `/users?provider=github&extern_uid=${uid}`, { token: null });
    expect([anonymous.status, anonymous.body]).toEqual([401, { message: '401 Unauthorized' }]);
    const other = await createUser();
    const byUser = await api('GET', `/users?provider=github&extern_uid=${uid}`, { token: other.token });
    expect([byUser.status, byUser.body]).toEqual([403, { message: '403 Forbidden' }]);
  });

  it('DELETE /users/:id/identities/:provider: 204, then 404; anonymous 401; users 403; frees the uid', async () => {
    const uid = unique('del');
    const user = (
      await api<UserBody>('POST', '/users', { json: newUserFields({ provider: 'github', extern_uid: uid }) })
    ).body;
    const other = await createUser();
    const anonymous = await api('DELETE', `/users/${user.id}/identities/github`, { token: null });
    expect([anonymous.status, anonymous.body]).toEqual([401, { message: '401 Unauthorized' }]);
    const byUser = await api('DELETE', `/users/${user.id}/identities/github`, { token: other.token });
    expect([byUser.status, byUser.body]).toEqual([403, { message: '403 Forbidden' }]);

    const removed = await api('DELETE', `/users/${user.id}/identities/github`);
    expect([removed.status, removed.text]).toEqual([204, '']);
    expect((await api<UserBody>('GET', `/users/${user.id}`)).body.identities).toEqual([]);
    const again = await api('DELETE', `/users/${user.id}/identities/github`);
    expect([again.status, again.body]).toEqual([404, { message: '404 Identity Not Found' }]);
    const unknown = await api('DELETE', '/users/999999999/identities/github');
    expect([unknown.status, unknown.body]).toEqual([404, { message: '404 User Not Found' }]);
    expect(
      (await api('POST', '/users', { json: newUserFields({ provider: 'github', extern_uid: uid }) })).status,
    ).toBe(201);
  });

  it('deleting a user frees their identities', async () => {
    const uid = unique('gone');
    const user = (
      await api<UserBody>('POST', '/users', { json: newUserFields({ provider: 'github', extern_uid: uid }) })
    ).body;
    expect((await api('DELETE', `/users/${user.id}`)).status).toBe(204);
    expect((await api<UserBody[]>('GET', `/users?provider=github&extern_uid=${uid}`)).body).toEqual([]);
    expect(
      (await api('POST', '/users', { json: newUserFields({ provider: 'github', extern_uid: uid }) })).status,
    ).toBe(201);
  });
});
