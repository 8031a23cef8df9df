/**
 * Counter rollups (store/table/counters.ts): a counted item's counters summed from its shards into one
 * `<pk>` / `COUNTS` item by the `counter-rollups` stream consumer, and merged into a page's items
 * from there. The pure parts: which partitions hold counted items, the rollup of shards as read
 * (or the mark of a deleted item), stream positions that compare as strings, and the merge.
 */
import { describe, expect, it } from 'vitest';
import {
  COUNTED_PARTITION_PREFIXES,
  countedItemOf,
  isCounterItem,
  mergeRollups,
  ROLLUP_SK,
  rollupKey,
  rollupKeysOf,
  rollupOf,
  shardKeysOf,
  streamPosition,
} from '#store/table/counters.ts';

const PROJECT = { pk: 'PROJECT#42', sk: 'PROJECT' };
const ISSUE = { pk: 'ISSUE#42#4', sk: 'ISSUE' };
const POSITION = streamPosition('100000000000000000123');
const LAST = '9'.repeat(40);

describe('rollup keys', () => {
  it('puts the rollup in the counted item’s partition, sort key COUNTS', () => {
    expect(ROLLUP_SK).toBe('COUNTS');
    expect(rollupKey('PROJECT#42')).toStrictEqual({ pk: 'PROJECT#42', sk: 'COUNTS' });
  });

  it('asks for the rollups of counted items only, in page order', () => {
    expect(
      rollupKeysOf([
        PROJECT,
        { pk: 'USER#7', sk: 'USER' },
        ISSUE,
        { pk: 'ISSUE#42#4', sk: 'NOTE#000000000071' },
        { pk: 'MR#42#3', sk: 'MR' },
      ]),
    ).toStrictEqual([
      { pk: 'PROJECT#42', sk: 'COUNTS' },
      { pk: 'ISSUE#42#4', sk: 'COUNTS' },
      { pk: 'MR#42#3', sk: 'COUNTS' },
    ]);
    expect(rollupKeysOf([])).toStrictEqual([]);
  });
});

describe('isCounterItem', () => {
  it('is true of counter shards and rollups, false of everything else', () => {
    expect(isCounterItem({ pk: 'PROJECT#42', sk: 'COUNT#0' })).toBe(true);
    expect(isCounterItem({ pk: 'ISSUE#42#4', sk: 'COUNT#1' })).toBe(true);
    expect(isCounterItem({ pk: 'LISTCOUNT#USERS', sk: 'COUNT#15' })).toBe(true);
    expect(isCounterItem({ pk: 'PROJECT#42', sk: 'COUNTS' })).toBe(true);
    expect(isCounterItem({ pk: 'PROJECT#42', sk: 'PROJECT' })).toBe(false);
    expect(isCounterItem({ pk: 'COUNTER#PROJECT', sk: 'COUNTER' })).toBe(false);
    expect(isCounterItem({ pk: 'ISSUE#42#4', sk: 'NOTE#000000000071' })).toBe(false);
    expect(isCounterItem({ pk: 'PROJECT#42', sk: 'COUNT' })).toBe(false);
    expect(isCounterItem({ pk: 'PROJECT#42', sk: 'counts' })).toBe(false);
    expect(isCounterItem({ pk: 'PROJECT#42' })).toBe(false);
  });
});

describe('countedItemOf', () => {
  it('names the counted item of each counted partition, by its key prefix', () => {
    expect(COUNTED_PARTITION_PREFIXES).toStrictEqual(['PROJECT#', 'ISSUE#', 'MR#', 'SNIPPET#', 'EPIC#']);
    expect(countedItemOf('PROJECT#42')).toStrictEqual({ pk: 'PROJECT#42', sk: 'PROJECT' });
    expect(countedItemOf('ISSUE#42#4')).toStrictEqual({ pk: 'ISSUE#42#4', sk: 'ISSUE' });
    expect(countedItemOf('MR#42#3')).toStrictEqual({ pk: 'MR#42#3', sk: 'MR' });
    expect(countedItemOf('SNIPPET#500')).toStrictEqual({ pk: 'SNIPPET#500', sk: 'SNIPPET' });
    expect(countedItemOf('EPIC#31')).toStrictEqual({ pk: 'EPIC#31', sk: 'EPIC' });
  });

  it('is undefined for every other partition (list totals, users, iid marks, …)', () => {
    for (const pk of [
      'LISTCOUNT#PROJECTS#public',
      'LISTCOUNT#ISSUES#PROJECT#42',
      'USER#7',
      'GROUP#3',
      'EPICIID#3#1',
      'COUNTER#PROJECT',
      'project#42',
      'PROJECT',
      '',
    ]) {
      expect(countedItemOf(pk), pk).toBeUndefined();
    }
  });
});

describe('shardKeysOf', () => {
  it('lists 4 shards of a project, 2 of a note parent, none of an item without counters', () => {
    expect(shardKeysOf(PROJECT)).toStrictEqual(
      [0, 1, 2, 3].map((n) => ({ pk: 'PROJECT#42', sk: `COUNT#${n}` })),
    );
    for (const item of [ISSUE, { pk: 'MR#42#3', sk: 'MR' }, { pk: 'SNIPPET#5', sk: 'SNIPPET' }]) {
      expect(shardKeysOf(item)).toStrictEqual([
        { pk: item.pk, sk: 'COUNT#0' },
        { pk: item.pk, sk: 'COUNT#1' },
      ]);
    }
    expect(shardKeysOf({ pk: 'EPIC#31', sk: 'EPIC' })).toHaveLength(2);
    expect(shardKeysOf({ pk: 'USER#7', sk: 'USER' })).toStrictEqual([]);
    expect(shardKeysOf({ pk: 'PROJECT#42', sk: 'IIDS' })).toStrictEqual([]);
  });
});

describe('rollupOf', () => {
  it('sums a project’s four shards and takes what jobs recorded from shard 0 alone', () => {
    const shards = [
      {
        pk: 'PROJECT#42',
        sk: 'COUNT#0',
        star_count: 2,
        forks_count: 1,
        open_issues_count: 3,
        uploads_size: 100,
        import_status: 'finished',
        commit_count: 12,
        repository_size: 2048,
        last_update_at: '2026-11-01T09:30:00.000Z',
      },
      // A decrease that landed on another shard, and a recorded attribute where none is read.
      { pk: 'PROJECT#42', sk: 'COUNT#1', star_count: 1, open_issues_count: -1, import_status: 'failed' },
      { pk: 'PROJECT#42', sk: 'COUNT#2', forks_count: 2, uploads_size: 50 },
      { pk: 'PROJECT#42', sk: 'COUNT#3', star_count: 4 },
      // Items of other partitions, or not shards, are not counted.
      { pk: 'PROJECT#43', sk: 'COUNT#0', star_count: 100, import_status: 'none' },
      { pk: 'PROJECT#42', sk: 'PROJECT', star_count: 1000 },
    ];
    expect(rollupOf(PROJECT, shards, POSITION)).toStrictEqual({
      pk: 'PROJECT#42',
      sk: 'COUNTS',
      star_count: 7,
      forks_count: 3,
      open_issues_count: 2,
      uploads_size: 150,
      import_status: 'finished',
      commit_count: 12,
      repository_size: 2048,
      last_update_at: '2026-11-01T09:30:00.000Z',
      position: POSITION,
    });
  });

  it('counts zero for shards not there, and never below zero; records nothing without shard 0', () => {
    const shards = [
      { pk: 'PROJECT#42', sk: 'COUNT#1', star_count: -3, open_issues_count: 1 },
      { pk: 'PROJECT#42', sk: 'COUNT#3', star_count: 1, commit_count: 5 },
    ];
    expect(rollupOf(PROJECT, shards, POSITION)).toStrictEqual({
      pk: 'PROJECT#42',
      sk: 'COUNTS',
      star_count: 0,
      forks_count: 0,
      open_issues_count: 1,
      uploads_size: 0,
      position: POSITION,
    });
    expect(rollupOf(PROJECT, [], POSITION)).toStrictEqual({
      pk: 'PROJECT#42',
      sk: 'COUNTS',
      star_count: 0,
      forks_count: 0,
      open_issues_count: 0,
      uploads_size: 0,
      position: POSITION,
    });
  });

  it('sums an issue’s two shards', () => {
    const shards = [
      { pk: 'ISSUE#42#4', sk: 'COUNT#0', notes_count: 3, user_notes_count: 2 },
      { pk: 'ISSUE#42#4', sk: 'COUNT#1', notes_count: 2, user_notes_count: 1 },
    ];
    expect(rollupOf(ISSUE, shards, POSITION)).toStrictEqual({
      pk: 'ISSUE#42#4',
      sk: 'COUNTS',
      notes_count: 5,
      user_notes_count: 3,
      upvotes: 0,
      downvotes: 0,
      position: POSITION,
    });
  });

  it('once any shard is marked deleted, is a mark at the last position that expires with the shards', () => {
    const shards = [
      { pk: 'ISSUE#42#4', sk: 'COUNT#0', notes_count: 3, user_notes_count: 2 },
      { pk: 'ISSUE#42#4', sk: 'COUNT#1', notes_count: 2, deleting: true, expires: 1_795_946_400 },
    ];
    expect(rollupOf(ISSUE, shards, POSITION)).toStrictEqual({
      pk: 'ISSUE#42#4',
      sk: 'COUNTS',
      deleting: true,
      expires: 1_795_946_400,
      position: LAST,
    });
    // A project's marks (a purge rewrites the shards as bare marks).
    const marks = [0, 1, 2, 3].map((n) => ({
      pk: 'PROJECT#42',
      sk: `COUNT#${n}`,
      deleting: true,
      expires: 1_795_946_400,
    }));
    expect(rollupOf(PROJECT, marks, POSITION)).toStrictEqual({
      pk: 'PROJECT#42',
      sk: 'COUNTS',
      deleting: true,
      expires: 1_795_946_400,
      position: LAST,
    });
    // Only `deleting: true` marks an item.
    expect(
      rollupOf(ISSUE, [{ pk: 'ISSUE#42#4', sk: 'COUNT#0', notes_count: 1, deleting: 'true' }], POSITION),
    ).toStrictEqual({
      pk: 'ISSUE#42#4',
      sk: 'COUNTS',
      notes_count: 1,
      user_notes_count: 0,
      upvotes: 0,
      downvotes: 0,
      position: POSITION,
    });
  });

  it('refuses an item that carries no counters', () => {
    expect(() => rollupOf({ pk: 'USER#7', sk: 'USER' }, [], POSITION)).toThrow('USER carries no counters');
  });
});

describe('streamPosition', () => {
  it('pads sequence numbers to 40 digits so that they compare as strings as they do as numbers', () => {
    expect(streamPosition('1')).toBe(`${'0'.repeat(39)}1`);
    expect(streamPosition('100000000000000000123')).toHaveLength(40);
    expect(streamPosition('1'.repeat(40))).toBe('1'.repeat(40));
    // Raw, '9' sorts after '10'; padded, a shorter number never sorts after a longer one.
    expect(streamPosition('9') < streamPosition('10')).toBe(true);
    expect(streamPosition('99999999999999999999') < streamPosition('100000000000000000000')).toBe(true);
    expect(streamPosition('100000000000000000122') < streamPosition('100000000000000000123')).toBe(true);
    const sequence = ['1', '9', '10', '99', '100', '99999999999999999999', '100000000000000000001'];
    expect([...sequence].reverse().map(streamPosition).sort()).toStrictEqual(sequence.map(streamPosition));
  });

  it('puts every real position before a deleted item’s mark', () => {
    expect(streamPosition('9'.repeat(39)) < LAST).toBe(true);
    expect(streamPosition('100000000000000000123') < LAST).toBe(true);
  });
});

describe('mergeRollups', () => {
  it('merges each counted item’s rollup; a missing one counts zero; other items come back untouched', () => {
    const project42 = { ...PROJECT, id: 42, star_count: 99, import_status: 'none' };
    const project43 = {
      pk: 'PROJECT#43',
      sk: 'PROJECT',
      id: 43,
      import_status: 'scheduled',
      commit_count: 3,
    };
    const issue = { ...ISSUE, iid: 4 };
    const user = { pk: 'USER#7', sk: 'USER', id: 7, star_count: 5 };
    const note = { pk: 'ISSUE#42#4', sk: 'NOTE#000000000071', id: 71 };
    const rollups = [
      {
        pk: 'PROJECT#42',
        sk: 'COUNTS',
        star_count: 7,
        forks_count: 3,
        open_issues_count: 2,
        uploads_size: 150,
        import_status: 'finished',
        commit_count: 12,
        position: POSITION,
      },
      { pk: 'ISSUE#42#4', sk: 'COUNTS', notes_count: 5, user_notes_count: 3, position: POSITION },
      // The rollup of an item not on the page changes nothing.
      { pk: 'PROJECT#44', sk: 'COUNTS', star_count: 1, position: POSITION },
    ];
    const merged = mergeRollups([project42, user, project43, issue, note], rollups);
    expect(merged).toStrictEqual([
      {
        ...PROJECT,
        id: 42,
        star_count: 7,
        forks_count: 3,
        open_issues_count: 2,
        uploads_size: 150,
        import_status: 'finished',
        commit_count: 12,
      },
      user,
      {
        pk: 'PROJECT#43',
        sk: 'PROJECT',
        id: 43,
        star_count: 0,
        forks_count: 0,
        open_issues_count: 0,
        uploads_size: 0,
        // Nothing recorded in a rollup: the item's own values stay.
        import_status: 'scheduled',
        commit_count: 3,
      },
      { ...ISSUE, iid: 4, notes_count: 5, user_notes_count: 3, upvotes: 0, downvotes: 0 },
      note,
    ]);
    // Items without counters are the same objects; counted ones are copies (the page's are not changed).
    expect(merged[1]).toBe(user);
    expect(merged[4]).toBe(note);
    expect(project42.star_count).toBe(99);
    expect(project42).not.toHaveProperty('position');
  });

  it('reads a negative or non-numeric count as zero, and a deleted item’s mark as no counts', () => {
    const items = [
      { ...ISSUE, iid: 4 },
      { pk: 'MR#42#3', sk: 'MR', iid: 3 },
      { pk: 'EPIC#31', sk: 'EPIC', iid: 1 },
    ];
    const rollups = [
      { pk: 'ISSUE#42#4', sk: 'COUNTS', notes_count: -2, user_notes_count: 'many', position: POSITION },
      { pk: 'MR#42#3', sk: 'COUNTS', notes_count: Number.POSITIVE_INFINITY, user_notes_count: '4' },
      { pk: 'EPIC#31', sk: 'COUNTS', deleting: true, expires: 1_795_946_400, position: LAST },
    ];
    expect(mergeRollups(items, rollups)).toStrictEqual([
      { ...ISSUE, iid: 4, notes_count: 0, user_notes_count: 0, upvotes: 0, downvotes: 0 },
      { pk: 'MR#42#3', sk: 'MR', iid: 3, notes_count: 0, user_notes_count: 4, upvotes: 0, downvotes: 0 },
      { pk: 'EPIC#31', sk: 'EPIC', iid: 1, notes_count: 0, user_notes_count: 0, upvotes: 0, downvotes: 0 },
    ]);
  });

  it('returns an empty page as it is', () => {
    expect(mergeRollups([], [{ pk: 'PROJECT#42', sk: 'COUNTS', star_count: 1 }])).toStrictEqual([]);
  });
});
