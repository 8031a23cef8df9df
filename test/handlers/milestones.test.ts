/**
 * Project milestones through the handlers (list, create), against the mocked DocumentClient: the
 * whole answer and the commands that matter: one Query of each owner's partition, the iid's atomic
 * add, then one transaction per creation with its title item.
 */

import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { readAhead } from '#store/access/read-ahead.ts';
import { keys } from '#store/table/keys.ts';
import { handler as createMilestone } from '../../functions/milestones/project-create.ts';
import { handler as listMilestones } from '../../functions/milestones/project-list.ts';
import { invoke } from '../support/events.ts';
import {
  CREATED,
  ddb,
  NOW,
  pinCounterShards,
  resetMocks,
  sentCommands,
  sha256,
  TABLE,
  USER_TOKEN,
} from './fixtures.ts';
import {
  BASE_URL,
  cancelled,
  created,
  givenCounter,
  givenNextIid,
  givenWorld,
  type Item,
  iidRelease,
  iidTake,
  projectIidsKey,
  store,
} from './resource-fixtures.ts';

const milestoneItem = (ownerPk: string, id: number, iid: number, title: string, fields: Item = {}): Item => ({
  ...keys.milestone(ownerPk, id),
  kind: 'milestone',
  id,
  iid,
  owner_kind: ownerPk.startsWith('GROUP#') ? 'group' : 'project',
  owner_id: Number(ownerPk.split('#')[1]),
  title,
  description: null,
  state: 'active',
  due_date: null,
  start_date: null,
  created_at: CREATED,
  updated_at: CREATED,
  ...fields,
});

const view = (id: number, iid: number, title: string, owner: Item, fields: Item = {}) => ({
  id,
  iid,
  ...owner,
  title,
  description: null,
  state: 'active',
  created_at: CREATED,
  updated_at: CREATED,
  due_date: null,
  start_date: null,
  expired: false,
  web_url: `${BASE_URL}/platform/backend/api/-/milestones/${iid}`,
  ...fields,
});

const milestonesQuery = (pk: string) => ({
  QueryCommand: {
    TableName: TABLE,
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': pk, ':prefix': 'MILESTONE#' },
    ProjectionExpression: undefined,
    ConsistentRead: true,
    ExclusiveStartKey: undefined,
  },
});

const queries = () => sentCommands().filter((command) => 'QueryCommand' in command);
/** The creation's writes: the iid's add and the transaction (the id block's reservation aside). */
const writes = () =>
  sentCommands().filter(
    (command) =>
      'TransactWriteCommand' in command ||
      ('UpdateCommand' in command &&
        (command.UpdateCommand as { Key: { pk: string } }).Key.pk !== keys.idCounter('milestone').pk),
  );

pinCounterShards();

beforeEach(() => {
  resetMocks();
  givenWorld();
  readAhead.rememberUser(keys.accessTokenHash(sha256(USER_TOKEN)), 2);
  store(
    milestoneItem('PROJECT#42', 7, 1, 'v1', { due_date: '2000-01-01' }),
    milestoneItem('GROUP#3', 8, 1, 'Q1', { state: 'closed' }),
  );
});

const path = '/api/v4/projects/42/milestones';

describe('GET /projects/:id/milestones', () => {
  it("reads the project's partition, and its groups' side by side when asked", async () => {
    const answer = await invoke(listMilestones, 'GET', path, {
      token: USER_TOKEN,
      query: { include_ancestors: true },
    });
    expect(answer.statusCode).toBe(200);
    expect(answer.body).toEqual([
      view(7, 1, 'v1', { project_id: 42 }, { due_date: '2000-01-01', expired: true }),
      view(
        8,
        1,
        'Q1',
        { group_id: 3 },
        { state: 'closed', web_url: `${BASE_URL}/groups/platform/-/milestones/1` },
      ),
    ]);
    expect(queries()).toEqual([
      milestonesQuery('PROJECT#42'),
      milestonesQuery('GROUP#3'),
      milestonesQuery('GROUP#5'),
    ]);
  });
});

describe('POST /projects/:id/milestones', () => {
  const creation = (title: string, id: number, iid: number) => ({
    TransactWriteCommand: {
      TransactItems: [
        {
          ConditionCheck: {
            TableName: TABLE,
            Key: keys.project(42),
            ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(deleting)',
          },
        },
        {
          Put: {
            TableName: TABLE,
            Item: { ...keys.milestoneTitle('PROJECT#42', title), kind: 'milestone_title', milestone_id: id },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        {
          Put: {
            TableName: TABLE,
            Item: milestoneItem('PROJECT#42', id, iid, title, { created_at: NOW, updated_at: NOW }),
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
      ],
    },
  });

  it("checks the groups' titles, takes the next iid, then writes the milestone with its title item → 201", async () => {
    givenCounter('milestone', 600);
    givenNextIid(projectIidsKey(42), 'milestone', 2);
    expect(await invoke(createMilestone, 'POST', path, { token: USER_TOKEN, json: { title: 'v2' } })).toEqual(
      created(view(591, 2, 'v2', { project_id: 42 }, { created_at: NOW, updated_at: NOW })),
    );
    expect(queries()).toEqual([milestonesQuery('GROUP#3'), milestonesQuery('GROUP#5')]);
    expect(writes()).toEqual([iidTake(projectIidsKey(42), 'milestone'), creation('v2', 591, 2)]);
  });

  it("refuses a group's title before anything is written → 400", async () => {
    const answer = await invoke(createMilestone, 'POST', path, { token: USER_TOKEN, json: { title: 'Q1' } });
    expect(answer.statusCode).toBe(400);
    expect(answer.body).toEqual({
      message:
        'Failed to create milestone {:title=>["already being used for another group or project milestone."]}',
    });
    expect(writes()).toEqual([]);
  });

  it("answers a title the project has (the title item's refusal) with 400 and gives the iid back", async () => {
    givenCounter('milestone', 600);
    givenNextIid(projectIidsKey(42), 'milestone', 2);
    ddb.on(TransactWriteCommand).rejects(cancelled('None', 'ConditionalCheckFailed', 'None'));
    const answer = await invoke(createMilestone, 'POST', path, { token: USER_TOKEN, json: { title: 'v1' } });
    expect(answer.statusCode).toBe(400);
    expect(answer.body).toEqual({
      message:
        'Failed to create milestone {:title=>["already being used for another group or project milestone."]}',
    });
    expect(writes()).toEqual([
      iidTake(projectIidsKey(42), 'milestone'),
      creation('v1', 591, 2),
      iidRelease(projectIidsKey(42), 'milestone', 2),
    ]);
  });
});
