/** Starring and archiving projects (star.ts/unstar.ts and archive.ts/unarchive.ts share their routes). */
import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { shardKey } from '#store/table/counters.ts';
import { keys } from '#store/table/keys.ts';
import { lists } from '#store/table/list-keys.ts';
import { handler as archive } from '../../functions/projects/archive.ts';
import { handler as star } from '../../functions/projects/star.ts';
import { handler as unarchive } from '../../functions/projects/unarchive.ts';
import { handler as unstar } from '../../functions/projects/unstar.ts';
import { invoke } from '../support/events.ts';
import {
  ddb,
  emptyHeaders,
  NOW,
  pad,
  pinCounterShards,
  resetMocks,
  sentCommands,
  TABLE,
  USER_TOKEN,
} from './fixtures.ts';
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
  givenWorld,
  groupMemberItem,
  liveCounterAdd,
  memberKey,
  PROJECT_NOT_FOUND,
  permissions,
  projectCount,
  projectCountItems,
  projectItem,
  projectRead,
  projectView,
  projectWrite,
  store,
  tokenRead,
  transaction,
  writesSent,
} from './resource-fixtures.ts';

/**
 * The star list's total is the project's star_count: one of its counter shards moves. A star of a
 * project marked deleted is refused by that shard (an unstar never is).
 */
const starCount = (delta: number) =>
  delta > 0
    ? liveCounterAdd(keys.project(43).pk, { star_count: delta })
    : projectCount(43, 'star_count', delta);
const starKey = (userId: number) => keys.projectStar(43, userId);
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
        l1: lists.projectStars(43).partition,
        l2: lists.starredByUser(2).partition,
        sid: pad(43),
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  },
  starCount(1),
);
const GUARD = 'updated_at = :previous AND attribute_not_exists(deleting)';

pinCounterShards();

beforeEach(() => {
  resetMocks();
  givenWorld();
});

describe('POST /projects/:id/star and /unstar', () => {
  it('stars: the star item and the counter in one transaction, then the fresh project → 201', async () => {
    ddb.on(TransactWriteCommand).callsFake(() => {
      store(...projectCountItems({ ...dotfiles, star_count: 1 }));
      return {};
    });
    expect(await invoke(star, 'POST', '/api/v4/projects/43/star', { token: USER_TOKEN })).toEqual(
      created(projectView({ ...dotfiles, star_count: 1 }, { extra: { permissions: permissions(0, 0) } })),
    );
    expect(sentCommands()).toEqual([
      tokenRead(USER_TOKEN),
      ...projectRead(43),
      batchGet(memberKey('PROJECT', 43, 2)),
      starTransaction,
      ...projectRead(43),
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
      ...projectRead(43),
      batchGet(memberKey('PROJECT', 43, 2)),
      starTransaction,
    ]);
  });

  it('a project marked deleted meanwhile: its counter shard refuses the star → 404 Project Not Found', async () => {
    ddb.on(TransactWriteCommand).rejects(cancelled('None', 'ConditionalCheckFailed'));
    expect(await invoke(star, 'POST', '/api/v4/projects/43/star', { token: USER_TOKEN })).toEqual(
      PROJECT_NOT_FOUND,
    );
    expect(writesSent()).toEqual([starTransaction]);
  });

  it('unstars: the star item goes and the counter drops → 201 with the owner’s view', async () => {
    const shard = shardKey(keys.project(43).pk, 0);
    ddb.on(TransactWriteCommand).callsFake(() => {
      store({ ...shard, star_count: 0 });
      return {};
    });
    store({ ...shard, star_count: 1 });
    expect(await invoke(unstar, 'POST', '/api/v4/projects/43/unstar', { token: BOB_TOKEN })).toEqual(
      created(projectView(dotfiles, { admin: true, extra: { permissions: permissions(50, 0) } })),
    );
    expect(sentCommands()).toEqual([
      tokenRead(BOB_TOKEN),
      ...projectRead(43),
      batchGet(memberKey('PROJECT', 43, 7)),
      transaction(
        { Delete: { TableName: TABLE, Key: starKey(7), ConditionExpression: 'attribute_exists(pk)' } },
        starCount(-1),
      ),
      ...projectRead(43),
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
      ...projectRead(42),
      batchGet(...apiMemberKeys(2)),
      ...projectRead(42),
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
      ...projectRead(42),
      batchGet(...apiMemberKeys(2)),
      ...projectRead(42),
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
