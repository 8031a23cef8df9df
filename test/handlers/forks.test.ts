/** The fork routes: a fork's one transaction and its one message, the fork relation's writes, refusals. */
import { SendMessageCommand } from '@aws-sdk/client-sqs';
import { TransactWriteCommand, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { FORK_PREFIX, keys } from '#store/table/keys.ts';
import { lists } from '#store/table/list-keys.ts';
import { handler as createFork } from '../../functions/forks/create.ts';
import { handler as createRelation } from '../../functions/forks/create-relation.ts';
import { handler as deleteRelation } from '../../functions/forks/delete-relation.ts';
import { handler as listForks } from '../../functions/forks/list.ts';
import { invoke } from '../support/events.ts';
import {
  ADMIN_TOKEN,
  ddb,
  emptyHeaders,
  NOW,
  pad,
  pinCounterShards,
  REQUEST_CORRELATION,
  resetMocks,
  sentCommands,
  sqs,
  TABLE,
  USER_TOKEN,
} from './fixtures.ts';
import {
  api,
  apiMemberKeys,
  BOB_TOKEN,
  batchGet,
  bobNamespace,
  cancelled,
  counterReservation,
  created,
  dotfiles,
  FORBIDDEN,
  getCommand,
  givenCounter,
  givenWorld,
  groupNamespace,
  listCount,
  liveCounterAdd,
  memberKey,
  membershipLists,
  message,
  type ProjectRecord,
  pageHeaders,
  permissions,
  projectCount,
  projectItem,
  projectKey,
  projectRead,
  projectRecord,
  projectShardKeys,
  projectView,
  qa,
  routeItem,
  simpleProjectView,
  store,
  tokenRead,
  transaction,
  writesSent,
} from './resource-fixtures.ts';

const FORK_QUEUE_URL = 'https://sqs.us-east-1.amazonaws.com/123456789012/gitlab-repository-fork';
process.env.QUEUE_URL_REPOSITORY_FORK = FORK_QUEUE_URL;

const NEW_ITEM = 'attribute_not_exists(pk)';
const LIVE_ITEM = 'attribute_exists(pk) AND attribute_not_exists(deleting)';
/** Entity fields of an admin's view of a project that is no import and no mirror. */
const importFields = (status = 'none') => ({
  import_status: status,
  import_url: null,
  import_type: null,
  mirror: false,
});
const forkMessages = () => sqs.commandCalls(SendMessageCommand).map((call) => call.args[0].input);

/** A stored project with fields the shared fixture types as never set (a fork, an import state). */
const withFields = (project: ProjectRecord, fields: Record<string, unknown>) =>
  ({ ...project, ...fields }) as unknown as ProjectRecord;
const forkOf = (project: ProjectRecord, sourceId: number) =>
  withFields(project, { forked_from_project_id: sourceId });

/** qa/dotfiles: root's fork of bob/dotfiles into the internal group qa (id 41 from the block 41..50). */
const qaDotfiles = withFields(
  projectRecord({
    id: 41,
    name: 'Dotfiles',
    path: 'dotfiles',
    namespace: groupNamespace(qa),
    visibility: 'internal',
    creator_id: 1,
  }),
  {
    created_at: NOW,
    updated_at: NOW,
    last_activity_at: NOW,
    import_status: 'scheduled',
    forked_from_project_id: 43,
    runners_token: expect.stringMatching(/^[0-9a-f]{20}$/),
  },
);

const forkLink = (sourceId: number, forkId: number, createdAt = NOW) => ({
  Put: {
    TableName: TABLE,
    Item: {
      ...keys.forkLink(sourceId, forkId),
      kind: 'fork_link',
      source_id: sourceId,
      fork_id: forkId,
      created_at: createdAt,
    },
    ConditionExpression: NEW_ITEM,
  },
});
/**
 * The source's forks_count moving on one of its counter shards: a new fork of a source marked
 * deleted is refused by the shard (a fork leaving never is).
 */
const forksCount = (sourceId: number, delta: number) =>
  delta > 0
    ? liveCounterAdd(keys.project(sourceId).pk, { forks_count: delta })
    : projectCount(sourceId, 'forks_count', delta);

/** The one transaction of root's fork into qa. */
const qaForkCreation = transaction(
  { Put: { TableName: TABLE, Item: projectItem(qaDotfiles), ConditionExpression: NEW_ITEM } },
  { Put: { TableName: TABLE, Item: routeItem('qa/dotfiles', 'project', 41), ConditionExpression: NEW_ITEM } },
  {
    Put: {
      TableName: TABLE,
      Item: { ...keys.projectName(9, 'dotfiles'), kind: 'project_name', id: 41 },
      ConditionExpression: NEW_ITEM,
    },
  },
  {
    ConditionCheck: {
      TableName: TABLE,
      Key: keys.group(9),
      ConditionExpression: `${LIVE_ITEM} AND attribute_not_exists(moving) AND full_path = :path AND full_name = :name`,
      ExpressionAttributeValues: { ':path': 'qa', ':name': 'QA' },
      ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
    },
  },
  listCount(lists.projectsWithVisibility('internal'), 1),
  listCount(lists.namespaceProjects(9, 'internal'), 1),
  {
    Put: {
      TableName: TABLE,
      Item: {
        ...keys.searchPending(41),
        kind: 'search_pending',
        project_id: 41,
        version: expect.stringMatching(/^[0-9a-f-]{36}$/),
        l1: lists.searchPending.partition,
        sid: pad(41),
      },
    },
  },
  forkLink(43, 41),
  forksCount(43, 1),
);

pinCounterShards();

beforeEach(() => {
  resetMocks();
  givenWorld();
  sqs.on(SendMessageCommand).resolves({ MessageId: 'm-1' });
});

describe('POST /projects/:id/fork', () => {
  it('one transaction (project, route, name, counters, link, source count), one message → 201 scheduled', async () => {
    givenCounter('project', 50);
    expect(
      await invoke(createFork, 'POST', '/api/v4/projects/43/fork', {
        token: ADMIN_TOKEN,
        json: { namespace: 'qa' },
      }),
    ).toEqual(
      created(
        projectView(qaDotfiles, {
          admin: true,
          extra: {
            ...importFields('scheduled'),
            forked_from_project: simpleProjectView(dotfiles),
            permissions: permissions(0, 0),
          },
        }),
      ),
    );
    expect(sentCommands()).toEqual([
      tokenRead(ADMIN_TOKEN),
      ...projectRead(43),
      batchGet(memberKey('PROJECT', 43, 1)),
      getCommand(keys.route('qa')),
      getCommand(keys.group(9)),
      counterReservation('project'),
      qaForkCreation,
      batchGet(memberKey('PROJECT', 41, 1), memberKey('GROUP', 9, 1)),
    ]);
    expect(forkMessages()).toEqual([
      { QueueUrl: FORK_QUEUE_URL, MessageBody: '{"projectId":41,"sourceId":43}', ...REQUEST_CORRELATION },
    ]);
  });

  it('a name and path taken in the target → 409 with both fields, no message', async () => {
    givenCounter('project', 50);
    ddb
      .on(TransactWriteCommand)
      .rejects(
        cancelled('None', 'ConditionalCheckFailed', 'ConditionalCheckFailed', ...Array(6).fill('None')),
      );
    expect(
      await invoke(createFork, 'POST', '/api/v4/projects/43/fork', {
        token: ADMIN_TOKEN,
        json: { namespace: 9 },
      }),
    ).toEqual(message(409, { name: ['has already been taken'], path: ['has already been taken'] }));
    expect(forkMessages()).toEqual([]);
  });

  it('a namespace the caller may not create projects in → 404 Target Namespace Not Found, nothing written', async () => {
    expect(
      await invoke(createFork, 'POST', '/api/v4/projects/43/fork', {
        token: USER_TOKEN,
        json: { namespace_id: 9 },
      }),
    ).toEqual(message(404, '404 Target Namespace Not Found'));
    expect(writesSent()).toEqual([]);
    expect(forkMessages()).toEqual([]);
  });

  it('a visibility above the source’s → 400 with the model’s sentence', async () => {
    expect(
      await invoke(createFork, 'POST', '/api/v4/projects/42/fork', {
        token: ADMIN_TOKEN,
        json: { namespace: 'qa', visibility: 'public' },
      }),
    ).toEqual(
      message(400, {
        visibility_level: ['public is not allowed since the fork source project has lower visibility.'],
      }),
    );
    expect(writesSent()).toEqual([]);
  });

  it('a private source the caller cannot see → 404 Project Not Found', async () => {
    expect(await invoke(createFork, 'POST', '/api/v4/projects/42/fork', { token: BOB_TOKEN })).toEqual(
      message(404, '404 Project Not Found'),
    );
    expect(writesSent()).toEqual([]);
  });
});

describe('GET /projects/:id/forks', () => {
  it('reads the links in one Query beside the credential and the forks in one batch; shows those the caller sees', async () => {
    const bobsFork = forkOf(
      projectRecord({ id: 44, name: 'Mine', path: 'mine', namespace: bobNamespace() }),
      43,
    );
    const apiFork = forkOf(api, 43);
    store(projectItem(apiFork), projectItem(bobsFork), forkLink(43, 42).Put.Item, forkLink(43, 44).Put.Item);
    const answer = await invoke(listForks, 'GET', '/api/v4/projects/43/forks', { token: USER_TOKEN });
    expect(answer).toEqual({
      statusCode: 200,
      headers: pageHeaders('/api/v4/projects/43/forks', 1),
      body: [
        projectView(apiFork, {
          admin: true,
          extra: {
            ...importFields(),
            forked_from_project: simpleProjectView(dotfiles),
            permissions: permissions(0, 50),
          },
        }),
      ],
    });
    // The links are read beside the credential and the source, the forks beside the access check.
    expect(sentCommands()).toEqual([
      {
        QueryCommand: {
          TableName: TABLE,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
          ExpressionAttributeValues: { ':pk': keys.project(43).pk, ':prefix': FORK_PREFIX },
          ProjectionExpression: 'fork_id',
          ExclusiveStartKey: undefined,
        },
      },
      tokenRead(USER_TOKEN),
      ...projectRead(43),
      batchGet(projectKey(42), projectKey(44), ...projectShardKeys(42), ...projectShardKeys(44)),
      batchGet(memberKey('PROJECT', 43, 2)),
      ...membershipLists(2),
    ]);
  });
});

describe('POST /projects/:id/fork/:forked_from_id', () => {
  it('admins: the attribute (if unset), the link and the source count in one transaction → 201', async () => {
    ddb.on(TransactWriteCommand).callsFake((input: TransactWriteCommandInput) => {
      if (input.TransactItems?.[0]?.Update) store(projectItem(forkOf(api, 43)));
      return {};
    });
    expect(
      await invoke(createRelation, 'POST', '/api/v4/projects/42/fork/43', { token: ADMIN_TOKEN }),
    ).toEqual(
      created(
        projectView(forkOf(api, 43), {
          admin: true,
          extra: {
            ...importFields(),
            forked_from_project: simpleProjectView(dotfiles),
            permissions: permissions(0, 0),
          },
        }),
      ),
    );
    expect(writesSent()).toEqual([
      transaction(
        {
          Update: {
            TableName: TABLE,
            Key: projectKey(42),
            UpdateExpression: 'SET forked_from_project_id = :source',
            ConditionExpression: `${LIVE_ITEM} AND (attribute_not_exists(forked_from_project_id) OR attribute_type(forked_from_project_id, :null))`,
            ExpressionAttributeValues: { ':source': 43, ':null': 'NULL' },
            ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
          },
        },
        forkLink(43, 42),
        forksCount(43, 1),
      ),
    ]);
  });

  it('a project that is a fork already → 409 Project already forked, nothing written', async () => {
    store(projectItem(forkOf(api, 44)));
    expect(
      await invoke(createRelation, 'POST', '/api/v4/projects/42/fork/43', { token: ADMIN_TOKEN }),
    ).toEqual(message(409, 'Project already forked'));
    expect(writesSent()).toEqual([]);
  });

  it('an owner who is no admin → 403; a missing source → 404 Project Not Found', async () => {
    expect(
      await invoke(createRelation, 'POST', '/api/v4/projects/42/fork/43', { token: USER_TOKEN }),
    ).toEqual(FORBIDDEN);
    expect(
      await invoke(createRelation, 'POST', '/api/v4/projects/42/fork/99', { token: ADMIN_TOKEN }),
    ).toEqual(message(404, '404 Project Not Found'));
    expect(writesSent()).toEqual([]);
  });
});

describe('DELETE /projects/:id/fork', () => {
  it('admins: the attribute, the link and the source count in one transaction → 204', async () => {
    store(projectItem(forkOf(api, 43)));
    expect(
      await invoke(deleteRelation, 'DELETE', '/api/v4/projects/42/fork', { token: ADMIN_TOKEN }),
    ).toEqual({
      statusCode: 204,
      headers: emptyHeaders(),
      body: undefined,
    });
    expect(sentCommands()).toEqual([
      tokenRead(ADMIN_TOKEN),
      ...projectRead(42),
      batchGet(...apiMemberKeys(1)),
      ...projectRead(43),
      transaction(
        {
          Update: {
            TableName: TABLE,
            Key: projectKey(42),
            UpdateExpression: 'SET forked_from_project_id = :none',
            ConditionExpression: 'attribute_exists(pk) AND forked_from_project_id = :source',
            ExpressionAttributeValues: { ':none': null, ':source': 43 },
          },
        },
        { Delete: { TableName: TABLE, Key: keys.forkLink(43, 42) } },
        forksCount(43, -1),
      ),
    ]);
  });

  it('a source already gone: no count to move → 204', async () => {
    store(projectItem(forkOf(api, 77)));
    expect(
      (await invoke(deleteRelation, 'DELETE', '/api/v4/projects/42/fork', { token: ADMIN_TOKEN })).statusCode,
    ).toBe(204);
    expect(writesSent()).toEqual([
      transaction(
        {
          Update: {
            TableName: TABLE,
            Key: projectKey(42),
            UpdateExpression: 'SET forked_from_project_id = :none',
            ConditionExpression: 'attribute_exists(pk) AND forked_from_project_id = :source',
            ExpressionAttributeValues: { ':none': null, ':source': 77 },
          },
        },
        { Delete: { TableName: TABLE, Key: keys.forkLink(77, 42) } },
      ),
    ]);
  });

  it('not a fork → 304, nothing written; an owner who is no admin → 403', async () => {
    expect(
      await invoke(deleteRelation, 'DELETE', '/api/v4/projects/43/fork', { token: ADMIN_TOKEN }),
    ).toEqual({
      statusCode: 304,
      headers: emptyHeaders(),
      body: undefined,
    });
    expect(await invoke(deleteRelation, 'DELETE', '/api/v4/projects/43/fork', { token: BOB_TOKEN })).toEqual(
      FORBIDDEN,
    );
    expect(writesSent()).toEqual([]);
  });
});
