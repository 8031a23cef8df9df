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
import { keys } from '#store/table/keys.ts';
import { handler } from '../../functions/workers/note-touches.ts';
import { lambdaContext, streamImage, streamRecord } from '../support/events.ts';
import { ddb, pad, resetMocks, SEP, sentCommands, TABLE } from './fixtures.ts';

const CREATED_AT = '2026-11-22T09:59:58.000Z';

/** A stream record of a note item (the same image before and after, where the event has each). */
function noteRecord(
  sequence: number,
  eventName: 'INSERT' | 'MODIFY' | 'REMOVE',
  note: { pk: string; sk: string; noteableId: number },
): DynamoDBRecord {
  const image = streamImage({
    pk: note.pk,
    sk: note.sk,
    id: 71,
    noteable_id: note.noteableId,
    created_at: CREATED_AT,
    updated_at: CREATED_AT,
    kind: 'note',
  });
  return streamRecord(sequence, eventName, {
    keys: streamImage({ pk: note.pk, sk: note.sk }),
    ...(eventName === 'REMOVE' ? {} : { newImage: image }),
    ...(eventName === 'INSERT' ? {} : { oldImage: image }),
  });
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
      { ...keys.note(keys.issue(42, 4).pk, 71), noteableId: 310 },
      { ...keys.note(keys.mergeRequest(42, 3).pk, 72), noteableId: 510 },
      { ...keys.note(keys.snippet(500).pk, 73), noteableId: 500 },
      { ...keys.note(keys.epic(31).pk, 74), noteableId: 31 },
    ];
    expect(await run(notes.map((note, index) => noteRecord(index + 1, 'INSERT', note)))).toEqual({
      batchItemFailures: [],
    });
    expect(sentCommands()).toEqual([
      touch(keys.issue(42, 4), 310),
      touch(keys.mergeRequest(42, 3), 510),
      touch(keys.snippet(500), 500),
      touch(keys.epic(31), 31),
    ]);
  });

  it('a parent changed later (or gone) refuses the touch: nothing left to do, the record is done', async () => {
    ddb
      .on(UpdateCommand)
      .rejects(
        new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} }),
      );
    expect(
      await run([noteRecord(1, 'INSERT', { ...keys.note(keys.issue(42, 4).pk, 71), noteableId: 310 })]),
    ).toEqual({ batchItemFailures: [] });
    expect(sentCommands()).toEqual([touch(keys.issue(42, 4), 310)]);
  });

  it('edits and removals of notes, and the parts of long bodies, touch nothing', async () => {
    const note = { ...keys.note(keys.issue(42, 4).pk, 71), noteableId: 310 };
    expect(
      await run([
        noteRecord(1, 'MODIFY', note),
        noteRecord(2, 'REMOVE', note),
        noteRecord(3, 'INSERT', {
          ...note,
          sk: keys.notePart(keys.note(keys.issue(42, 4).pk, 71), 'a1b2c3d4', 0).sk,
        }),
      ]),
    ).toEqual({ batchItemFailures: [] });
    expect(sentCommands()).toEqual([]);
  });

  it('a touch that fails otherwise is reported (by its sequence number), so the record is tried again', async () => {
    ddb.on(UpdateCommand).rejects(new Error('network down'));
    expect(
      await run([noteRecord(1, 'INSERT', { ...keys.note(keys.issue(42, 4).pk, 71), noteableId: 310 })]),
    ).toEqual({ batchItemFailures: [{ itemIdentifier: '1'.padStart(21, '0') }] });
  });
});
