/**
 * The note-touches stream consumer: a new note moves its parent's updated time (and the sort value
 * its lists read it by) to the note's creation, as GitLab touches a noteable when a note is saved;
 * one conditional update per note, refused (and done with) when a later change moved it further.
 * Note creation itself no longer writes the parent (see issue-notes.test.ts).
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBRecord, DynamoDBStreamEvent } from 'aws-lambda';
import { beforeEach, describe, expect, it } from 'vitest';
import { handler } from '../../functions/workers/note-touches.ts';
import { lambdaContext } from '../support/events.ts';
import { ddb, pad, resetMocks, SEP, sentCommands, TABLE } from './fixtures.ts';

const ARN = 'arn:aws:dynamodb:us-east-1:123456789012:table/gitlab/stream/2026-01-01T00:00:00.000';
const CREATED_AT = '2026-11-22T09:59:58.000Z';

/** A stream record of a note item (its images as DynamoDB sends them). */
function noteRecord(
  sequence: number,
  eventName: 'INSERT' | 'MODIFY' | 'REMOVE',
  note: { pk: string; sk: string; noteableId: number },
): DynamoDBRecord {
  const keys = { pk: { S: note.pk }, sk: { S: note.sk } };
  const image = {
    ...keys,
    id: { N: '71' },
    noteable_id: { N: String(note.noteableId) },
    created_at: { S: CREATED_AT },
    updated_at: { S: CREATED_AT },
    kind: { S: 'note' },
  };
  return {
    eventID: `event-${sequence}`,
    eventName,
    eventVersion: '1.1',
    eventSource: 'aws:dynamodb',
    awsRegion: 'us-east-1',
    dynamodb: {
      ApproximateCreationDateTime: 1_795_341_598,
      Keys: keys,
      ...(eventName === 'REMOVE' ? {} : { NewImage: image }),
      ...(eventName === 'INSERT' ? {} : { OldImage: image }),
      SequenceNumber: String(sequence).padStart(21, '0'),
      SizeBytes: 100,
      StreamViewType: 'NEW_AND_OLD_IMAGES',
    },
    eventSourceARN: ARN,
  };
}

const run = (records: DynamoDBRecord[]) =>
  handler({ Records: records } satisfies DynamoDBStreamEvent, lambdaContext('note-touches'));

/** The touch of a parent: its updated time and sort value, unless it is gone or moved on further. */
const touch = (key: { pk: string; sk: string }, parentId: number) => ({
  UpdateCommand: {
    TableName: TABLE,
    Key: key,
    UpdateExpression: 'SET updated_at = :now, #updatedSort = :sort',
    ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(deleting) AND updated_at < :now',
    ExpressionAttributeNames: { '#updatedSort': 'supdated' },
    ExpressionAttributeValues: { ':now': CREATED_AT, ':sort': `${CREATED_AT}${SEP}${pad(parentId)}` },
  },
});

beforeEach(() => {
  resetMocks();
  ddb.on(UpdateCommand).resolves({});
});

describe('note-touches worker', () => {
  it("touches each new note's parent (issue, merge request, snippet, epic) at the note's creation", async () => {
    const notes = [
      { pk: 'ISSUE#42#4', sk: `NOTE#${pad(71)}`, noteableId: 310 },
      { pk: 'MR#42#3', sk: `NOTE#${pad(72)}`, noteableId: 510 },
      { pk: 'SNIPPET#500', sk: `NOTE#${pad(73)}`, noteableId: 500 },
      { pk: 'EPIC#31', sk: `NOTE#${pad(74)}`, noteableId: 31 },
    ];
    expect(await run(notes.map((note, index) => noteRecord(index + 1, 'INSERT', note)))).toEqual({
      batchItemFailures: [],
    });
    expect(sentCommands()).toEqual([
      touch({ pk: 'ISSUE#42#4', sk: 'ISSUE' }, 310),
      touch({ pk: 'MR#42#3', sk: 'MR' }, 510),
      touch({ pk: 'SNIPPET#500', sk: 'SNIPPET' }, 500),
      touch({ pk: 'EPIC#31', sk: 'EPIC' }, 31),
    ]);
  });

  it('a parent changed later (or gone) refuses the touch: nothing left to do, the record is done', async () => {
    ddb
      .on(UpdateCommand)
      .rejects(
        new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} }),
      );
    expect(
      await run([noteRecord(1, 'INSERT', { pk: 'ISSUE#42#4', sk: `NOTE#${pad(71)}`, noteableId: 310 })]),
    ).toEqual({ batchItemFailures: [] });
    expect(sentCommands()).toEqual([touch({ pk: 'ISSUE#42#4', sk: 'ISSUE' }, 310)]);
  });

  it('edits and removals of notes, and the parts of long bodies, touch nothing', async () => {
    const note = { pk: 'ISSUE#42#4', sk: `NOTE#${pad(71)}`, noteableId: 310 };
    expect(
      await run([
        noteRecord(1, 'MODIFY', note),
        noteRecord(2, 'REMOVE', note),
        noteRecord(3, 'INSERT', { ...note, sk: `NOTE#${pad(71)}#PART#000#a1b2c3d4` }),
      ]),
    ).toEqual({ batchItemFailures: [] });
    expect(sentCommands()).toEqual([]);
  });

  it('a touch that fails otherwise is reported (by its sequence number), so the record is tried again', async () => {
    ddb.on(UpdateCommand).rejects(new Error('network down'));
    expect(
      await run([noteRecord(1, 'INSERT', { pk: 'ISSUE#42#4', sk: `NOTE#${pad(71)}`, noteableId: 310 })]),
    ).toEqual({ batchItemFailures: [{ itemIdentifier: '1'.padStart(21, '0') }] });
  });
});
