/** Custom attributes of projects (admins only): list, read, set and delete, through the project item. */
import { beforeEach, describe, expect, it } from 'vitest';
import { handler as deleteAttribute } from '../../functions/projects/custom-attributes/delete.ts';
import { handler as getAttribute } from '../../functions/projects/custom-attributes/get.ts';
import { handler as listAttributes } from '../../functions/projects/custom-attributes/list.ts';
import { handler as setAttribute } from '../../functions/projects/custom-attributes/set.ts';
import { invoke } from '../support/events.ts';
import { ADMIN_TOKEN, emptyHeaders, NOW, resetMocks, sentCommands, USER_TOKEN } from './fixtures.ts';
import {
  api,
  apiMemberKeys,
  batchGet,
  FORBIDDEN,
  givenWorld,
  NOT_FOUND,
  ok,
  PROJECT_NOT_FOUND,
  projectItem,
  projectRead,
  projectWrite,
  store,
  tokenRead,
  transaction,
  writesSent,
} from './resource-fixtures.ts';

const tagged = { ...api, custom_attributes: { tier: 'gold', team: 'core' } };
/** The reads of every request: the admin's grant, the project and the admin's memberships. */
const reads = [tokenRead(ADMIN_TOKEN), ...projectRead(42), batchGet(...apiMemberKeys(1))];
const GUARD = 'updated_at = :previous AND attribute_not_exists(deleting)';

beforeEach(() => {
  resetMocks();
  givenWorld();
  store(projectItem(tagged));
});

describe('project custom attributes', () => {
  it('lists them', async () => {
    expect(
      await invoke(listAttributes, 'GET', '/api/v4/projects/42/custom_attributes', { token: ADMIN_TOKEN }),
    ).toEqual(
      ok([
        { key: 'tier', value: 'gold' },
        { key: 'team', value: 'core' },
      ]),
    );
    expect(sentCommands()).toEqual(reads);
  });

  it('reads one', async () => {
    expect(
      await invoke(getAttribute, 'GET', '/api/v4/projects/42/custom_attributes/tier', { token: ADMIN_TOKEN }),
    ).toEqual(ok({ key: 'tier', value: 'gold' }));
    expect(sentCommands()).toEqual(reads);
  });

  it('an unknown key → 404 Not found', async () => {
    expect(
      await invoke(getAttribute, 'GET', '/api/v4/projects/42/custom_attributes/nope', { token: ADMIN_TOKEN }),
    ).toEqual(NOT_FOUND);
  });

  it('sets one: the project rewritten from a fresh read', async () => {
    const next = { ...tagged, custom_attributes: { tier: 'platinum', team: 'core' }, updated_at: NOW };
    expect(
      await invoke(setAttribute, 'PUT', '/api/v4/projects/42/custom_attributes/tier', {
        token: ADMIN_TOKEN,
        json: { value: 'platinum' },
      }),
    ).toEqual(ok({ key: 'tier', value: 'platinum' }));
    expect(sentCommands()).toEqual([
      ...reads,
      ...projectRead(42),
      transaction(projectWrite(next, GUARD, { ':previous': api.updated_at })),
    ]);
  });

  it('deletes one → 204', async () => {
    const next = { ...tagged, custom_attributes: { team: 'core' }, updated_at: NOW };
    expect(
      await invoke(deleteAttribute, 'DELETE', '/api/v4/projects/42/custom_attributes/tier', {
        token: ADMIN_TOKEN,
      }),
    ).toEqual({ statusCode: 204, headers: emptyHeaders(), body: undefined });
    expect(sentCommands()).toEqual([
      ...reads,
      ...projectRead(42),
      transaction(projectWrite(next, GUARD, { ':previous': api.updated_at })),
    ]);
  });

  it('deleting an unknown key → 404 Not found, nothing written', async () => {
    expect(
      await invoke(deleteAttribute, 'DELETE', '/api/v4/projects/42/custom_attributes/nope', {
        token: ADMIN_TOKEN,
      }),
    ).toEqual(NOT_FOUND);
    expect(writesSent()).toEqual([]);
  });

  it('an unknown project → 404 Project Not Found', async () => {
    expect(
      await invoke(setAttribute, 'PUT', '/api/v4/projects/77/custom_attributes/tier', {
        token: ADMIN_TOKEN,
        json: { value: 'x' },
      }),
    ).toEqual(PROJECT_NOT_FOUND);
    expect(writesSent()).toEqual([]);
  });

  it('non-admins → 403, nothing written', async () => {
    expect(
      await invoke(deleteAttribute, 'DELETE', '/api/v4/projects/42/custom_attributes/tier', {
        token: USER_TOKEN,
      }),
    ).toEqual(FORBIDDEN);
    expect(writesSent()).toEqual([]);
  });
});
