/** Custom attributes of groups (admins only): list, read, set and delete, on the group item. */
import { beforeEach, describe, expect, it } from 'vitest';
import { handler as deleteAttribute } from '../../functions/groups/custom-attributes/delete.ts';
import { handler as getAttribute } from '../../functions/groups/custom-attributes/get.ts';
import { handler as listAttributes } from '../../functions/groups/custom-attributes/list.ts';
import { handler as setAttribute } from '../../functions/groups/custom-attributes/set.ts';
import { invoke } from '../support/events.ts';
import { ADMIN_TOKEN, emptyHeaders, resetMocks, sentCommands, TABLE, USER_TOKEN } from './fixtures.ts';
import {
  FORBIDDEN,
  getCommand,
  givenWorld,
  groupItem,
  groupKey,
  NOT_FOUND,
  ok,
  platform,
  store,
  tokenRead,
  writesSent,
} from './resource-fixtures.ts';

/** The reads of every request: the admin's grant and the group (admins need no membership read). */
const reads = [tokenRead(ADMIN_TOKEN), getCommand(groupKey(3))];

const attributeUpdate = (expression: string, values?: Record<string, string>) => ({
  UpdateCommand: {
    TableName: TABLE,
    Key: groupKey(3),
    UpdateExpression: expression,
    ConditionExpression: 'attribute_exists(pk)',
    ExpressionAttributeNames: { '#key': 'team' },
    ...(values ? { ExpressionAttributeValues: values } : {}),
  },
});

beforeEach(() => {
  resetMocks();
  givenWorld();
  store(groupItem({ ...platform, custom_attributes: { team: 'core', cost_center: '42' } }));
});

describe('group custom attributes', () => {
  it('lists them', async () => {
    expect(
      await invoke(listAttributes, 'GET', '/api/v4/groups/3/custom_attributes', { token: ADMIN_TOKEN }),
    ).toEqual(
      ok([
        { key: 'team', value: 'core' },
        { key: 'cost_center', value: '42' },
      ]),
    );
    expect(sentCommands()).toEqual(reads);
  });

  it('reads one', async () => {
    expect(
      await invoke(getAttribute, 'GET', '/api/v4/groups/3/custom_attributes/team', { token: ADMIN_TOKEN }),
    ).toEqual(ok({ key: 'team', value: 'core' }));
    expect(sentCommands()).toEqual(reads);
  });

  it('an unknown key → 404 Not found', async () => {
    expect(
      await invoke(getAttribute, 'GET', '/api/v4/groups/3/custom_attributes/nope', { token: ADMIN_TOKEN }),
    ).toEqual(NOT_FOUND);
  });

  it('sets one on the group item', async () => {
    expect(
      await invoke(setAttribute, 'PUT', '/api/v4/groups/3/custom_attributes/team', {
        token: ADMIN_TOKEN,
        json: { value: 'platform' },
      }),
    ).toEqual(ok({ key: 'team', value: 'platform' }));
    expect(sentCommands()).toEqual([
      ...reads,
      attributeUpdate('SET custom_attributes.#key = :value', { ':value': 'platform' }),
    ]);
  });

  it('deletes one → 204', async () => {
    expect(
      await invoke(deleteAttribute, 'DELETE', '/api/v4/groups/3/custom_attributes/team', {
        token: ADMIN_TOKEN,
      }),
    ).toEqual({ statusCode: 204, headers: emptyHeaders(), body: undefined });
    expect(sentCommands()).toEqual([...reads, attributeUpdate('REMOVE custom_attributes.#key')]);
  });

  it('deleting an unknown key → 404 Not found, nothing written', async () => {
    expect(
      await invoke(deleteAttribute, 'DELETE', '/api/v4/groups/3/custom_attributes/nope', {
        token: ADMIN_TOKEN,
      }),
    ).toEqual(NOT_FOUND);
    expect(writesSent()).toEqual([]);
  });

  it('an unknown group → 404 Group Not Found', async () => {
    expect(
      await invoke(setAttribute, 'PUT', '/api/v4/groups/77/custom_attributes/team', {
        token: ADMIN_TOKEN,
        json: { value: 'x' },
      }),
    ).toEqual(ok({ message: '404 Group Not Found' }, 404));
    expect(writesSent()).toEqual([]);
  });

  it('non-admins → 403, nothing written', async () => {
    expect(
      await invoke(setAttribute, 'PUT', '/api/v4/groups/3/custom_attributes/team', {
        token: USER_TOKEN,
        json: { value: 'x' },
      }),
    ).toEqual(FORBIDDEN);
    expect(writesSent()).toEqual([]);
  });
});
