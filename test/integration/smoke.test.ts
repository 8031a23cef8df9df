import { describe, expect, it } from 'vitest';
import { api } from '../support/api.ts';

describe('local runtime', () => {
  it('answers GET /user for the admin token', async () => {
    const response = await api<{ username: string; is_admin: boolean }>('GET', '/user');
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ username: 'root', is_admin: true });
  });
});
