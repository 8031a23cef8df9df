/** User custom attributes over HTTP (admins only), like the group and project ones. */
import { describe, expect, it } from 'vitest';
import { api, createUser } from '../support/api.ts';

describe('user custom attributes', () => {
  it('sets, reads, lists, replaces and deletes', async () => {
    const user = await createUser();
    const base = `/users/${user.id}/custom_attributes`;
    expect((await api('GET', base)).body).toEqual([]);
    const set = await api('PUT', `${base}/color`, { json: { value: 'red' } });
    expect([set.status, set.body]).toEqual([200, { key: 'color', value: 'red' }]);
    await api('PUT', `${base}/size`, { form: { value: 'L' } });
    await api('PUT', `${base}/color`, { json: { value: 'blue' } });
    const listed = await api<{ key: string; value: string }[]>('GET', base);
    expect([...listed.body].sort((a, b) => a.key.localeCompare(b.key))).toEqual([
      { key: 'color', value: 'blue' },
      { key: 'size', value: 'L' },
    ]);
    const one = await api('GET', `${base}/size`);
    expect([one.status, one.body]).toEqual([200, { key: 'size', value: 'L' }]);
    const removed = await api('DELETE', `${base}/size`);
    expect([removed.status, removed.text]).toEqual([204, '']);
    const gone = await api('GET', `${base}/size`);
    expect([gone.status, gone.body]).toEqual([404, { message: '404 Not found' }]);
    const again = await api('DELETE', `${base}/size`);
    expect([again.status, again.body]).toEqual([404, { message: '404 Not found' }]);
    const missingValue = await api('PUT', `${base}/size`, { json: {} });
    expect([missingValue.status, missingValue.body]).toEqual([400, { error: 'value is missing' }]);
    const unknown = await api('GET', '/users/999999999/custom_attributes');
    expect([unknown.status, unknown.body]).toEqual([404, { message: '404 Not Found' }]);
    // Only the attribute that is left.
    expect((await api('GET', base)).body).toEqual([{ key: 'color', value: 'blue' }]);
  });

  it('ten parallel sets of different keys: every one kept', async () => {
    const user = await createUser();
    const base = `/users/${user.id}/custom_attributes`;
    const responses = await Promise.all(
      Array.from({ length: 10 }, (_, i) => api('PUT', `${base}/k${i}`, { json: { value: `v${i}` } })),
    );
    expect(responses.map((response) => response.status)).toEqual(Array(10).fill(200));
    const listed = await api<{ key: string }[]>('GET', base);
    expect(listed.body.map((attribute) => attribute.key).sort()).toEqual(
      Array.from({ length: 10 }, (_, i) => `k${i}`).sort(),
    );
  });

  it.each([
    ['GET', ''],
    ['GET', '/color'],
    ['PUT', '/color'],
    ['DELETE', '/color'],
  ])('%s /users/:id/custom_attributes%s: anonymous 401, the user themself 403', async (method, suffix) => {
    const user = await createUser();
    await api('PUT', `/users/${user.id}/custom_attributes/color`, { json: { value: 'red' } });
    const path = `/users/${user.id}/custom_attributes${suffix}`;
    const json = method === 'PUT' ? { value: 'green' } : undefined;
    const anonymous = await api(method, path, { token: null, json });
    expect([anonymous.status, anonymous.body]).toEqual([401, { message: '401 Unauthorized' }]);
    const self = await api(method, path, { token: user.token, json });
    expect([self.status, self.body]).toEqual([403, { message: '403 Forbidden' }]);
    expect((await api('GET', `/users/${user.id}/custom_attributes/color`)).body).toEqual({
      key: 'color',
      value: 'red',
    });
  });
});
