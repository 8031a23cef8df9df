/**
 * Award emoji on an issue and on its note through the handlers (list, read, award, remove), against
 * the mocked DocumentClient: the whole answer and every command sent, with the issue, its note and
 * the awards written out as the table holds them.
 */

import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { keys } from '#store/table/keys.ts';
import { handler as createAward } from '../../functions/award-emoji/create.ts';
import { handler as deleteAward } from '../../functions/award-emoji/delete.ts';
import { handler as getAward } from '../../functions/award-emoji/get.ts';
import { handler as listAwards } from '../../functions/award-emoji/list.ts';
import { invoke } from '../support/events.ts';
import {
  CREATED,
  ddb,
  NOW,
  pad,
  pinCounterShards,
  resetMocks,
  sentCommands,
  TABLE,
  USER_TOKEN,
} from './fixtures.ts';
import {
  API_ISSUE_ID,
  API_ISSUE_IID,
  aliceOnApi,
  aliceUser,
  apiIssueRecord,
  basicView,
  batchGet,
  cancelled,
  counterAdd,
  counterReservation,
  created,
  getCommand,
  givenCounter,
  givenWorld,
  type Item,
  issueItemOf,
  liveCounterAdd,
  message,
  NOT_FOUND,
  ok,
  pageHeaders,
  prefixQuery,
  rootUser,
  store,
  threadCountItems,
  threadRead,
  transaction,
  warmContainer,
  writesSent,
} from './resource-fixtures.ts';

const ISSUE_ID = API_ISSUE_ID;
const ISSUE_IID = API_ISSUE_IID;
const ISSUE_PK = keys.issue(42, ISSUE_IID).pk;
const NOTE_ID = 41;

const noteItem = (fields: Item = {}): Item => ({
  ...keys.note(ISSUE_PK, NOTE_ID),
  id: NOTE_ID,
  body: 'Reproduced on Safari 17',
  author_id: 1,
  system: false,
  noteable_type: 'Issue',
  noteable_id: ISSUE_ID,
  noteable_iid: ISSUE_IID,
  project_id: 42,
  created_at: CREATED,
  updated_at: CREATED,
  ...fields,
  kind: 'note',
});

interface AwardRecord {
  id: number;
  name: string;
  user_id: number;
  awardable_id: number;
  awardable_type: string;
  created_at: string;
  updated_at: string;
}

const onIssue = (id: number, name: string, userId: number, at = CREATED): AwardRecord => ({
  name,
  user_id: userId,
  awardable_id: ISSUE_ID,
  awardable_type: 'Issue',
  id,
  created_at: at,
  updated_at: at,
});

/** What names the issue, kept on each award for its webhook event. */
const PARENT_REF = { type: 'Issue', id: ISSUE_ID, iid: ISSUE_IID, project_id: 42 };

const awardItem = (award: AwardRecord, on = 'ITEM'): Item => ({
  ...keys.award(ISSUE_PK, on, award.id),
  ...award,
  parent_ref: PARENT_REF,
  kind: 'award_emoji',
});

const awardView = (award: AwardRecord, user: Parameters<typeof basicView>[0]) => ({
  id: award.id,
  name: award.name,
  user: basicView(user),
  created_at: award.created_at,
  updated_at: award.updated_at,
  awardable_id: award.awardable_id,
  awardable_type: award.awardable_type,
});

const issueRead = threadRead(keys.issue(42, ISSUE_IID));

const awardsQuery = (on = 'ITEM') => prefixQuery(ISSUE_PK, `AWARD#${on}#ID#`);

const rootsTada = onIssue(501, 'tada', 1);
const alicesUp = onIssue(502, 'thumbsup', 2);

pinCounterShards();

beforeEach(() => {
  resetMocks();
  givenWorld();
  warmContainer();
  store(
    issueItemOf(apiIssueRecord),
    ...threadCountItems(ISSUE_PK, { notes_count: 1, user_notes_count: 1 }),
    noteItem(),
    awardItem(rootsTada),
    awardItem(alicesUp),
  );
});

const path = `/api/v4/projects/42/issues/${ISSUE_IID}/award_emoji`;
const notePath = `/api/v4/projects/42/issues/${ISSUE_IID}/notes/${NOTE_ID}/award_emoji`;

describe('GET …/award_emoji', () => {
  it('reads the issue and its awards beside authentication, oldest first, with their users', async () => {
    expect(await invoke(listAwards, 'GET', path, { token: USER_TOKEN })).toEqual({
      statusCode: 200,
      headers: pageHeaders(path, 2),
      body: [awardView(rootsTada, rootUser), awardView(alicesUp, aliceUser)],
    });
    expect(sentCommands()).toEqual([
      aliceOnApi,
      ...issueRead,
      awardsQuery(),
      batchGet(keys.user(1), keys.user(2)),
    ]);
  });

  it('a note’s awards are its own; a note the issue does not have → 404 Not found', async () => {
    const noteAward = { ...onIssue(503, 'eyes', 2), awardable_id: NOTE_ID, awardable_type: 'Note' };
    store(awardItem(noteAward, `NOTE#${pad(NOTE_ID)}`));
    expect(await invoke(listAwards, 'GET', notePath, { token: USER_TOKEN })).toEqual({
      statusCode: 200,
      headers: pageHeaders(notePath, 1),
      body: [awardView(noteAward, aliceUser)],
    });
    expect(sentCommands()).toContainEqual(awardsQuery(`NOTE#${pad(NOTE_ID)}`));
    expect(
      await invoke(listAwards, 'GET', `/api/v4/projects/42/issues/${ISSUE_IID}/notes/99/award_emoji`, {
        token: USER_TOKEN,
      }),
    ).toEqual(NOT_FOUND);
  });

  it('an unknown issue → 404 Not found; anonymous → 401', async () => {
    expect(
      await invoke(listAwards, 'GET', '/api/v4/projects/42/issues/99/award_emoji', { token: USER_TOKEN }),
    ).toEqual(NOT_FOUND);
    expect(await invoke(listAwards, 'GET', path)).toEqual(message(401, '401 Unauthorized'));
  });
});

describe('GET …/award_emoji/:award_id', () => {
  it('reads the award by key → 200; one the issue does not have → 404 Not found', async () => {
    expect(await invoke(getAward, 'GET', `${path}/501`, { token: USER_TOKEN })).toEqual(
      ok(awardView(rootsTada, rootUser)),
    );
    expect(sentCommands()).toEqual([
      aliceOnApi,
      ...issueRead,
      getCommand(keys.award(ISSUE_PK, 'ITEM', 501)),
      batchGet(keys.user(1)),
    ]);
    expect(await invoke(getAward, 'GET', `${path}/999`, { token: USER_TOKEN })).toEqual(NOT_FOUND);
  });
});

describe('POST …/award_emoji', () => {
  it('writes the award, its uniqueness item and the vote on a shard of the issue in one transaction → 201', async () => {
    givenCounter('award_emoji', 600);
    const award = onIssue(591, 'thumbsdown', 2, NOW);
    expect(await invoke(createAward, 'POST', path, { token: USER_TOKEN, json: { name: '-1' } })).toEqual(
      created(awardView(award, aliceUser)),
    );
    expect(sentCommands()).toEqual([
      aliceOnApi,
      ...issueRead,
      counterReservation('award_emoji'),
      batchGet(keys.user(2)),
      transaction(
        {
          Put: {
            TableName: TABLE,
            Item: { ...keys.awardByUser(ISSUE_PK, 'ITEM', 2, 'thumbsdown'), award_id: 591 },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        {
          Put: {
            TableName: TABLE,
            // An award on the issue itself joins its user's awards in the project (`my_reaction_emoji`).
            Item: { ...awardItem(award), l1: 'AWARDS#PROJECT#42#USER#2', sid: pad(591) },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        liveCounterAdd(ISSUE_PK, { downvotes: 1 }),
      ),
    ]);
  });

  it('an award that counts no vote checks that the issue is not marked deleted; on a note, that the note is there', async () => {
    givenCounter('award_emoji', 600);
    const award = { ...onIssue(591, 'eyes', 2, NOW), awardable_id: NOTE_ID, awardable_type: 'Note' };
    const on = `NOTE#${pad(NOTE_ID)}`;
    expect(
      await invoke(createAward, 'POST', notePath, { token: USER_TOKEN, json: { name: 'eyes' } }),
    ).toEqual(created(awardView(award, aliceUser)));
    expect(writesSent().at(-1)).toEqual(
      transaction(
        {
          Put: {
            TableName: TABLE,
            Item: { ...keys.awardByUser(ISSUE_PK, on, 2, 'eyes'), award_id: 591 },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        {
          Put: {
            TableName: TABLE,
            Item: awardItem(award, on),
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
        {
          ConditionCheck: {
            TableName: TABLE,
            Key: { pk: ISSUE_PK, sk: 'COUNT#0' },
            ConditionExpression: 'attribute_not_exists(deleting)',
          },
        },
        {
          ConditionCheck: {
            TableName: TABLE,
            Key: keys.note(ISSUE_PK, NOTE_ID),
            ConditionExpression: 'attribute_exists(pk)',
          },
        },
      ),
    );
  });

  it('the same emoji twice by one user → 404 with the model’s error; no emoji → 404 before any write', async () => {
    givenCounter('award_emoji', 600);
    ddb.on(TransactWriteCommand).rejects(cancelled('ConditionalCheckFailed', 'None', 'None'));
    expect(
      await invoke(createAward, 'POST', path, { token: USER_TOKEN, json: { name: 'thumbsup' } }),
    ).toEqual(message(404, '404 Award Emoji {:name=>["has already been taken"]} Not Found'));
    const before = writesSent().length;
    expect(await invoke(createAward, 'POST', path, { token: USER_TOKEN, json: { name: 'nope' } })).toEqual(
      message(404, '404 Award Emoji {:name=>["is not included in the list"]} Not Found'),
    );
    expect(writesSent()).toHaveLength(before);
    expect(await invoke(createAward, 'POST', path, { token: USER_TOKEN, json: {} })).toEqual(
      ok({ error: 'name is missing' }, 400),
    );
  });

  it('a system note takes no award → 404 Award Emoji Not Found', async () => {
    store(noteItem({ system: true }));
    expect(
      await invoke(createAward, 'POST', notePath, { token: USER_TOKEN, json: { name: 'eyes' } }),
    ).toEqual(message(404, '404 Award Emoji Not Found'));
  });
});

describe('DELETE …/award_emoji/:award_id', () => {
  it('the owner removes it with its uniqueness item and the vote, leaving its revocation for the stream, in one transaction → 204', async () => {
    expect(await invoke(deleteAward, 'DELETE', `${path}/502`, { token: USER_TOKEN })).toEqual({
      statusCode: 204,
      headers: expect.any(Object),
      body: undefined,
    });
    expect(writesSent()).toEqual([
      transaction(
        {
          Delete: {
            TableName: TABLE,
            Key: keys.award(ISSUE_PK, 'ITEM', 502),
            ConditionExpression: 'attribute_exists(pk)',
          },
        },
        { Delete: { TableName: TABLE, Key: keys.awardByUser(ISSUE_PK, 'ITEM', 2, 'thumbsup') } },
        counterAdd(ISSUE_PK, { upvotes: -1 }),
        {
          Put: {
            TableName: TABLE,
            Item: {
              ...keys.awardRevoked(ISSUE_PK, 'ITEM', 502),
              ...alicesUp,
              parent_ref: PARENT_REF,
              kind: 'award_emoji_revoked',
              expires: Math.ceil(Date.parse(NOW) / 1000) + 86_400,
            },
          },
        },
      ),
    ]);
  });

  it('someone else’s → 401 Unauthorized, and nothing written', async () => {
    expect(await invoke(deleteAward, 'DELETE', `${path}/501`, { token: USER_TOKEN })).toEqual(
      message(401, '401 Unauthorized'),
    );
    expect(writesSent()).toEqual([]);
  });
});
