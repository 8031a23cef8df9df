/**
 * Project labels through the handlers (list, create, subscribe), against the mocked DocumentClient:
 * the whole answer and the commands that matter, with the labels written out as the table holds
 * them: one Query of each owner's partition, one transaction per creation.
 */

import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { PutCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { readAhead } from '#store/access/read-ahead.ts';
import { keys } from '#store/table/keys.ts';
import { type ListName, lists } from '#store/table/list-keys.ts';
import { handler as createLabel } from '../../functions/labels/project-create.ts';
import { handler as listLabels } from '../../functions/labels/project-list.ts';
import { handler as subscribe } from '../../functions/labels/project-subscribe.ts';
import { invoke } from '../support/events.ts';
import {
  CREATED,
  ddb,
  NOW,
  pad,
  pinCounterShards,
  resetMocks,
  sentCommands,
  sha256,
  TABLE,
  USER_TOKEN,
} from './fixtures.ts';
import {
  cancelled,
  counterReservation,
  created,
  givenCounter,
  givenWorld,
  type Item,
  issueItemOf,
  listQuery,
  store,
} from './resource-fixtures.ts';

const labelItem = (ownerPk: string, id: number, title: string, fields: Item = {}): Item => ({
  ...keys.label(ownerPk, id),
  kind: 'label',
  id,
  title,
  color: '#FF0000',
  description: null,
  priority: null,
  owner_kind: ownerPk.startsWith('GROUP#') ? 'group' : 'project',
  owner_id: Number(ownerPk.split('#')[1]),
  created_at: CREATED,
  updated_at: CREATED,
  ...fields,
});

const view = (id: number, name: string, fields: Item = {}) => ({
  id,
  name,
  color: '#FF0000',
  description: null,
  description_html: '',
  text_color: '#FFFFFF',
  subscribed: false,
  priority: null,
  is_project_label: true,
  ...fields,
});

const labelsQuery = (pk: string, prefix = 'LABEL#', projection?: string) => ({
  QueryCommand: {
    TableName: TABLE,
    KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
    ExpressionAttributeValues: { ':pk': pk, ':prefix': prefix },
    ProjectionExpression: projection,
    ...(projection ? {} : { ConsistentRead: true }),
    ExclusiveStartKey: undefined,
  },
});

const queries = () => sentCommands().filter((command) => 'QueryCommand' in command);
const transactions = () => sentCommands().filter((command) => 'TransactWriteCommand' in command);

pinCounterShards();

beforeEach(() => {
  resetMocks();
  givenWorld();
  readAhead.rememberUser(keys.accessTokenHash(sha256(USER_TOKEN)), 2);
  store(
    labelItem('PROJECT#42', 7, 'bug'),
    labelItem('GROUP#5', 8, 'backend', { color: '#fff' }),
    labelItem('GROUP#3', 9, 'Accepted', { priority: 4 }),
    { ...keys.labelSubscription('GROUP#5', 2, 8), kind: 'label_subscription', label_id: 8 },
  );
});

const path = '/api/v4/projects/42/labels';

describe('GET /projects/:id/labels', () => {
  it("reads the project's and its groups' partitions side by side, with the caller's subscriptions", async () => {
    const answer = await invoke(listLabels, 'GET', path, { token: USER_TOKEN });
    expect(answer.statusCode).toBe(200);
    expect(answer.body).toEqual([
      view(9, 'Accepted', { is_project_label: false, priority: 4 }),
      view(8, 'backend', { color: '#fff', text_color: '#333333', is_project_label: false, subscribed: true }),
      view(7, 'bug'),
    ]);
    expect(queries()).toEqual([
      labelsQuery('PROJECT#42'),
      labelsQuery('GROUP#3'),
      labelsQuery('GROUP#5'),
      labelsQuery('PROJECT#42', 'LABELSUB#000000000002#', 'label_id'),
      labelsQuery('GROUP#3', 'LABELSUB#000000000002#', 'label_id'),
      labelsQuery('GROUP#5', 'LABELSUB#000000000002#', 'label_id'),
    ]);
  });
});

describe('GET /projects/:id/labels?with_counts=true', () => {
  it("counts the project's open and closed issues and open merge requests per label, read from its state lists", async () => {
    const issue = (iid: number, state: string, labels: string[]) =>
      issueItemOf({
        project_id: 42,
        iid,
        id: 100 + iid,
        state,
        labels,
        confidential: false,
        author_id: 2,
        assignee_ids: [],
        created_at: CREATED,
        updated_at: CREATED,
      });
    store(issue(1, 'opened', ['bug', 'backend']), issue(2, 'closed', ['bug']), issue(3, 'opened', ['gone']), {
      ...keys.mergeRequest(42, 1),
      kind: 'merge_request',
      labels: ['backend'],
      l2: lists.projectMergeRequestsInState(42, 'opened').partition,
      sid: pad(201),
    });
    const answer = await invoke(listLabels, 'GET', path, { token: USER_TOKEN, query: 'with_counts=true' });
    expect(answer.statusCode).toBe(200);
    const counts = (open: number, closed: number, mergeRequests: number) => ({
      open_issues_count: open,
      closed_issues_count: closed,
      open_merge_requests_count: mergeRequests,
    });
    expect(answer.body).toEqual([
      view(9, 'Accepted', { is_project_label: false, priority: 4, ...counts(0, 0, 0) }),
      view(8, 'backend', {
        color: '#fff',
        text_color: '#333333',
        is_project_label: false,
        subscribed: true,
        ...counts(1, 0, 1),
      }),
      view(7, 'bug', counts(1, 1, 0)),
    ]);
    const projected = (list: ListName, projection: string, names: Record<string, string> = {}) => {
      const query = listQuery(list);
      return {
        QueryCommand: {
          ...query.QueryCommand,
          ExpressionAttributeNames: { ...query.QueryCommand.ExpressionAttributeNames, ...names },
          ProjectionExpression: projection,
        },
      };
    };
    const onLists = queries().filter(
      (command) => 'IndexName' in (command as { QueryCommand: object }).QueryCommand,
    );
    expect(onLists).toEqual([
      projected(lists.projectIssuesInState(42, 'opened'), 'labels, confidential, author_id, assignee_ids'),
      projected(lists.projectIssuesInState(42, 'closed'), 'labels, confidential, author_id, assignee_ids'),
      projected(lists.projectMergeRequestsInState(42, 'opened'), 'labels'),
    ]);
  });
});

describe('POST /projects/:id/labels', () => {
  it('writes the label with its title item on the condition that the project is live → 201', async () => {
    givenCounter('label', 600);
    expect(
      await invoke(createLabel, 'POST', path, {
        token: USER_TOKEN,
        json: { name: 'regression', color: 'red' },
      }),
    ).toEqual(created(view(591, 'regression')));
    expect(transactions()).toEqual([
      {
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
                Item: { ...keys.labelTitle('PROJECT#42', 'regression'), kind: 'label_title', label_id: 591 },
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
            {
              Put: {
                TableName: TABLE,
                Item: labelItem('PROJECT#42', 591, 'regression', { created_at: NOW, updated_at: NOW }),
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
          ],
        },
      },
    ]);
    expect(sentCommands()).toContainEqual(counterReservation('label'));
  });

  it("a title of the project's group → 409 before anything is written; a lost race on the title item → 409", async () => {
    const taken = await invoke(createLabel, 'POST', path, {
      token: USER_TOKEN,
      json: { name: 'backend', color: '#000' },
    });
    expect(taken).toMatchObject({ statusCode: 409, body: { message: 'Label already exists' } });
    expect(transactions()).toEqual([]);

    givenCounter('label', 700);
    ddb.on(TransactWriteCommand).rejects(cancelled('None', 'ConditionalCheckFailed', 'None'));
    const raced = await invoke(createLabel, 'POST', path, {
      token: USER_TOKEN,
      json: { name: 'new', color: '#000' },
    });
    expect(raced).toMatchObject({ statusCode: 409, body: { message: 'Label already exists' } });
  });
});

describe('POST /projects/:id/labels/:label_id/subscribe', () => {
  it('puts the subscription on the condition that it is new → 201; again → 304', async () => {
    const answer = await invoke(subscribe, 'POST', `${path}/bug/subscribe`, { token: USER_TOKEN });
    expect(answer).toMatchObject({ statusCode: 201, body: view(7, 'bug', { subscribed: true }) });
    expect(sentCommands()).toContainEqual({
      PutCommand: {
        TableName: TABLE,
        Item: { ...keys.labelSubscription('PROJECT#42', 2, 7), kind: 'label_subscription', label_id: 7 },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    });
    ddb
      .on(PutCommand)
      .rejects(
        new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} }),
      );
    const again = await invoke(subscribe, 'POST', `${path}/8/subscribe`, { token: USER_TOKEN });
    expect(again).toMatchObject({ statusCode: 304 });
    expect(sentCommands()).toContainEqual({
      PutCommand: {
        TableName: TABLE,
        Item: { ...keys.labelSubscription('GROUP#5', 2, 8), kind: 'label_subscription', label_id: 8 },
        ConditionExpression: 'attribute_not_exists(pk)',
      },
    });
  });
});
