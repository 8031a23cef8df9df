/** Starring and archiving projects (star.ts/unstar.ts and archive.ts/unarchive.ts share their routes). */
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { handler as archive } from '../../functions/projects/archive.ts';
import { handler as star } from '../../functions/projects/star.ts';
import { handler as unarchive } from '../../functions/projects/unarchive.ts';
import { handler as unstar } from '../../functions/projects/unstar.ts';
import { invoke } from '../support/events.ts';
import { ddb, emptyHeaders, NOW, pad, resetMocks, sentCommands, TABLE, USER_TOKEN } from './fixtures.ts';
import {
  api,
  apiMemberKeys,
  BOB_TOKEN,
  backend,
  batchGet,
  cancelled,
  created,
  dotfiles,
  FORBIDDEN,
  getCommand,
  givenWorld,
  groupMemberItem,
  memberKey,
  PROJECT_NOT_FOUND,
  permissions,
  projectItem,
  projectKey,
  projectView,
  projectWrite,
  store,
  tokenRead,
  transaction,
  writesSent,
} from './resource-fixtures.ts';

const starCount = (delta: number, condition: string) => ({
  Update: {
    TableName: TABLE,
    Key: projectKey(43),
    UpdateExpression: 'ADD star_count :delta',
    ConditionExpression: condition,
    ExpressionAttributeValues: { ':delta': delta },
  },
});
const starKey = (userId: number) => ({ pk: 'PROJECT#43', sk: `STAR#${userId}` });
/** Alice stars dotfiles. */
const starTransaction = transaction(
  {
    Put: {
      TableName: TABLE,
      Item: {
        ...starKey(2),
        kind: 'star',
        project_id: 43,
        user_id: 2,
        created_at: NOW,
        l1: 'STARS#PROJECT#43',
        l2: 'STARRED#USER#2',
        sid: pad(43),
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  },
  starCount(1, 'attribute_exists(pk) AND attribute_not_exists(deleting)'),
);
const GUARD = 'updated_at = :previous AND attribute_not_exists(deleting)';

beforeEach(() => {
  resetMocks();
  givenWorld();
});

describe('POST /projects/:id/star and /unstar', () => {
  it('stars: the star item and the counter in one transaction, then the fresh project → 201', async () => {
    ddb.on(TransactWriteCommand).callsFake(() => {
      store(projectItem({ ...dotfiles, star_count: 1 }));
      return {};
    });
    expect(await invoke(star, 'POST', '/api/v4/projects/43/star', { token: USER_TOKEN })).toEqual(
      created(projectView({ ...dotfiles, star_count: 1 }, { extra: { permissions: permissions(0, 0) } })),
    );
    expect(sentCommands()).toEqual([
      tokenRead(USER_TOKEN),
      getCommand(projectKey(43)),
      batchGet(memberKey('PROJECT', 43, 2)),
      starTransaction,
      getCommand(projectKey(43)),
    ]);
  });

  it('starring again changes nothing → 304', async () => {
    ddb.on(TransactWriteCommand).rejects(cancelled('ConditionalCheckFailed', 'None'));
    expect(await invoke(star, 'POST', '/api/v4/projects/43/star', { token: USER_TOKEN })).toEqual({
      statusCode: 304,
      headers: emptyHeaders(),
      body: undefined,
    });
    expect(sentCommands()).toEqual([
      tokenRead(USER_TOKEN),
      getCommand(projectKey(43)),
      batchGet(memberKey('PROJECT', 43, 2)),
      starTransaction,
    ]);
  });

  it('unstars: the star item goes and the counter drops → 201 with the owner’s view', async () => {
    ddb.on(TransactWriteCommand).callsFake(() => {
      store(projectItem({ ...dotfiles, star_count: 0 }));
      return {};
    });
    store(projectItem({ ...dotfiles, star_count: 1 }));
    expect(await invoke(unstar, 'POST', '/api/v4/projects/43/unstar', { token: BOB_TOKEN })).toEqual(
      created(projectView(dotfiles, { admin: true, extra: { permissions: permissions(50, 0) } })),
    );
    expect(sentCommands()).toEqual([
      tokenRead(BOB_TOKEN),
      getCommand(projectKey(43)),
      batchGet(memberKey('PROJECT', 43, 7)),
      transaction(
        { Delete: { TableName: TABLE, Key: starKey(7), ConditionExpression: 'attribute_exists(pk)' } },
        starCount(-1, 'attribute_exists(pk)'),
      ),
      getCommand(projectKey(43)),
    ]);
  });

  it('a private project the caller cannot see → 404 Project Not Found, nothing written', async () => {
    expect(await invoke(star, 'POST', '/api/v4/projects/42/star', { token: BOB_TOKEN })).toEqual(
      PROJECT_NOT_FOUND,
    );
    expect(writesSent()).toEqual([]);
  });
});

describe('POST /projects/:id/archive and /unarchive', () => {
  it('archives: the project item rewritten, guarded by its updated_at → 201', async () => {
    const archived = { ...api, archived: true, updated_at: NOW };
    const view = projectView(archived, { admin: true, extra: { permissions: permissions(0, 50) } });
    expect(await invoke(archive, 'POST', '/api/v4/projects/42/archive', { token: USER_TOKEN })).toEqual(
      created(view),
    );
    expect(sentCommands()).toEqual([
      tokenRead(USER_TOKEN),
      getCommand(projectKey(42)),
      batchGet(...apiMemberKeys(2)),
      getCommand(projectKey(42)),
      transaction(projectWrite(archived, GUARD, { ':previous': api.updated_at })),
    ]);
  });

  it('archiving an archived project writes nothing → 201', async () => {
    const archived = { ...api, archived: true };
    store(projectItem(archived));
    expect(await invoke(archive, 'POST', '/api/v4/projects/42/archive', { token: USER_TOKEN })).toEqual(
      created(projectView(archived, { admin: true, extra: { permissions: permissions(0, 50) } })),
    );
    expect(writesSent()).toEqual([]);
  });

  it('unarchives an archived project → 201', async () => {
    store(projectItem({ ...api, archived: true }));
    const restored = { ...api, updated_at: NOW };
    expect(await invoke(unarchive, 'POST', '/api/v4/projects/42/unarchive', { token: USER_TOKEN })).toEqual(
      created(projectView(restored, { admin: true, extra: { permissions: permissions(0, 50) } })),
    );
    expect(sentCommands()).toEqual([
      tokenRead(USER_TOKEN),
      getCommand(projectKey(42)),
      batchGet(...apiMemberKeys(2)),
      getCommand(projectKey(42)),
      transaction(projectWrite(restored, GUARD, { ':previous': api.updated_at })),
    ]);
  });

  it('a maintainer → 403, nothing written', async () => {
    store(groupMemberItem(backend, { userId: 7, level: 40 }));
    expect(await invoke(archive, 'POST', '/api/v4/projects/42/archive', { token: BOB_TOKEN })).toEqual(
      FORBIDDEN,
    );
    expect(await invoke(unarchive, 'POST', '/api/v4/projects/42/unarchive', { token: BOB_TOKEN })).toEqual(
      FORBIDDEN,
    );
    expect(writesSent()).toEqual([]);
  });
});
