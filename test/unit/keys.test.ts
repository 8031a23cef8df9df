import { describe, expect, it } from 'vitest';
import { keys, padId, storageAttributes, stripStorage } from '#store/table/keys.ts';
import { listCounter } from '#store/table/list-counters.ts';
import { inLists, lists, sortAttributes } from '#store/table/list-keys.ts';
import { createTableInput, indexes, indexName } from '#store/table/table.ts';
import { tree } from '#store/table/tree-keys.ts';

describe('padId()', () => {
  it('pads ids to 12 digits so string order is numeric order', () => {
    expect(padId(7)).toBe('000000000007');
    expect(padId(123456789012)).toBe('123456789012');
    const ids = [10, 9, 100, 1, 99, 1000];
    expect(ids.map(padId).sort()).toEqual([1, 9, 10, 99, 100, 1000].map(padId));
  });
});

describe('keys', () => {
  it('address items by immutable ids, lookups by lower-cased names', () => {
    expect(keys.user(42)).toEqual({ pk: 'USER#42', sk: 'USER' });
    expect(keys.route('Group/Sub')).toEqual({ pk: 'ROUTE#group/sub', sk: 'ROUTE' });
    expect(keys.email('John.Doe@Example.COM')).toEqual({ pk: 'EMAIL#john.doe@example.com', sk: 'EMAIL' });
    expect(keys.accessToken(3)).toEqual({ pk: 'PAT#3', sk: 'PAT' });
    expect(keys.accessTokenHash('abc')).toEqual({ pk: 'TOKENHASH#abc', sk: 'TOKENHASH' });
    expect(keys.idCounter('user')).toEqual({ pk: 'COUNTER#user', sk: 'COUNTER' });
    expect(keys.projectIids(7)).toEqual({ pk: 'PROJECT#7', sk: 'IIDS' });
  });

  it('keep a list’s total in its own shards, a wide list’s in more, and some in the item they hang on', () => {
    expect(listCounter(lists.users)).toEqual({ pk: 'LISTCOUNT#USERS', attribute: 'count', shards: 16 });
    expect(listCounter(lists.projectsWithVisibility('public'))).toMatchObject({ shards: 16 });
    expect(listCounter(lists.groupMembers(3))).toEqual({
      pk: 'LISTCOUNT#MEMBERS#GROUP#3',
      attribute: 'count',
      shards: 4,
    });
    expect(listCounter(lists.projectStars(9))).toEqual({
      pk: 'PROJECT#9',
      attribute: 'star_count',
      shards: 4,
      live: true,
    });
    expect(listCounter(lists.projectIssuesInState(9, 'opened'))).toEqual({
      pk: 'PROJECT#9',
      attribute: 'open_issues_count',
      shards: 4,
      live: true,
    });
    expect(listCounter(lists.projectIssuesInState(9, 'closed')).pk).toBe('LISTCOUNT#ISSUES#PROJECT#9#closed');
  });

  it('put the parts of a long text in its owner’s partition, by version and index (as stored so far)', () => {
    expect(keys.notePart(keys.note('ISSUE#42#4', 41), 'a1b2c3d4', 2)).toEqual({
      pk: 'ISSUE#42#4',
      sk: 'NOTE#000000000041#PART#002#a1b2c3d4',
    });
    expect(keys.snippetContentPart(keys.snippet(500), 'a1b2c3d4e5f6', 0)).toEqual({
      pk: 'SNIPPET#500',
      sk: 'CONTENT#a1b2c3d4e5f6#000',
    });
    expect(keys.mergeRequestDescriptionPart(keys.mergeRequest(42, 5), 'a1b2c3d4', 11)).toEqual({
      pk: 'MR#42#5',
      sk: 'DESCRIPTION#a1b2c3d4#011',
    });
  });

  it('name the hold of an open merge request on two branches by their digest, in the project', () => {
    const key = keys.openMergeRequestBranches(42, 'feature', 'master');
    expect(key.pk).toBe('PROJECT#42');
    expect(key.sk).toMatch(/^MROPEN#[0-9a-f]{64}$/);
    expect(keys.openMergeRequestBranches(42, 'feature', 'master')).toEqual(key);
    // The pair is encoded whole: no two pairs of names share a key.
    expect(keys.openMergeRequestBranches(42, 'a#b', 'c').sk).not.toBe(
      keys.openMergeRequestBranches(42, 'a', 'b#c').sk,
    );
  });

  it('name lists', () => {
    const named = ['id', 'name', 'path', 'created_at'];
    const dated = ['id', 'created_at'];
    expect(lists.users).toEqual({ attribute: 'l1', partition: 'USERS', orders: named });
    expect(lists.usersInState('blocked')).toEqual({
      attribute: 'l2',
      partition: 'USERS#blocked',
      orders: named,
    });
    expect(lists.accessTokens).toEqual({ attribute: 'l1', partition: 'PATS', orders: dated });
    expect(lists.accessTokensOfUser(5)).toEqual({ attribute: 'l2', partition: 'PATS#USER#5', orders: dated });
    expect(lists.projectStars(3)).toEqual({ attribute: 'l1', partition: 'STARS#PROJECT#3', orders: ['id'] });
  });

  it('give each item its lists on their own attributes, and refuse two lists on one', () => {
    expect(inLists(lists.groupMembers(3), lists.groupMembershipsOfUser(7))).toEqual({
      l1: 'MEMBERS#GROUP#3',
      l2: 'MEMBERSHIPS#GROUP#USER#7',
    });
    expect(() => inLists(lists.users, lists.accessTokens)).toThrow('two lists on l1');
  });
});

/** What separates a sort value from the padded id: below every printable character. */
const SEP = '\u0000';

describe('sortAttributes()', () => {
  it('gives every present order a value ending with the padded id', () => {
    expect(
      sortAttributes({
        id: 7,
        name: 'Alice Smith',
        path: 'Alice',
        created_at: '2026-11-22T10:00:00.000Z',
        updated_at: '2026-11-23T10:00:00.000Z',
        last_activity_at: '2026-11-24T10:00:00.000Z',
      }),
    ).toEqual({
      sid: '000000000007',
      sname: `alice smith${SEP}000000000007`,
      spath: `alice${SEP}000000000007`,
      screated: `2026-11-22T10:00:00.000Z${SEP}000000000007`,
      supdated: `2026-11-23T10:00:00.000Z${SEP}000000000007`,
      sactivity: `2026-11-24T10:00:00.000Z${SEP}000000000007`,
    });
  });

  it('leaves absent orders out', () => {
    expect(sortAttributes({ id: 12 })).toEqual({ sid: '000000000012' });
    expect(sortAttributes({ id: 12, created_at: '2026-01-01T00:00:00.000Z' })).toEqual({
      sid: '000000000012',
      screated: `2026-01-01T00:00:00.000Z${SEP}000000000012`,
    });
  });

  const order = (
    attribute: 'sname' | 'spath' | 'screated',
    rows: { id: number; name?: string; path?: string; created_at?: string }[],
  ) =>
    rows
      .map((row) => ({ row, key: sortAttributes(row)[attribute] as string }))
      .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
      .map(({ row }) => row.id);

  it('orders ids numerically', () => {
    const rows = [{ id: 100 }, { id: 9 }, { id: 10 }, { id: 1 }];
    const sorted = rows.map((row) => sortAttributes(row).sid as string).sort();
    expect(sorted).toEqual(['000000000001', '000000000009', '000000000010', '000000000100']);
  });

  it('orders paths case-insensitively, a prefix before its extensions, ties by id', () => {
    expect(
      order('spath', [
        { id: 1, path: 'beta' },
        { id: 2, path: 'Alpha' },
        { id: 3, path: 'alpha-2' },
        { id: 4, path: 'alpha.x' },
        { id: 5, path: 'alpha_b' },
        { id: 6, path: 'ALPHA' },
      ]),
    ).toEqual([2, 6, 3, 4, 5, 1]);
  });

  it('orders names as strings: "John" before "John Smith", ties by id', () => {
    expect(
      order('sname', [
        { id: 1, name: 'John Smith' },
        { id: 2, name: 'John' },
        { id: 3, name: 'john' },
        { id: 4, name: 'Johnny' },
        { id: 5, name: 'John!' },
        { id: 6, name: 'Adam' },
      ]),
    ).toEqual([6, 2, 3, 1, 5, 4]);
  });

  it('orders timestamps chronologically, ties by id', () => {
    expect(
      order('screated', [
        { id: 3, created_at: '2026-11-22T10:00:00.000Z' },
        { id: 1, created_at: '2026-11-22T10:00:00.001Z' },
        { id: 2, created_at: '2026-11-22T10:00:00.000Z' },
        { id: 4, created_at: '2025-12-31T23:59:59.999Z' },
      ]),
    ).toEqual([4, 2, 3, 1]);
  });
});

describe('stripStorage()', () => {
  it('removes keys, list and sort attributes, keeps the entity', () => {
    const item = {
      pk: 'USER#1',
      sk: 'USER',
      l1: 'USERS',
      l2: 'USERS#active',
      sid: '000000000001',
      sname: 'a#000000000001',
      spath: 'a#000000000001',
      screated: 'x',
      supdated: 'y',
      sactivity: 'z',
      tree: 'TREE#1#GROUPS',
      tpath: '000000000001/',
      id: 1,
      name: 'A',
      kind: 'user',
    };
    expect(stripStorage(item)).toEqual({ id: 1, name: 'A', kind: 'user' });
    expect([...storageAttributes].sort()).toEqual(
      [
        'l1',
        'l2',
        'pk',
        'sactivity',
        'screated',
        'sid',
        'sk',
        'sname',
        'spath',
        'supdated',
        'tpath',
        'tree',
      ].sort(),
    );
  });
});

describe('table definition', () => {
  it('has one GSI per list attribute and order, named list-order, and the tree index', () => {
    expect(indexName('l2', 'id')).toBe('l2-id');
    expect(indexes.map((index) => `${index.name}:${index.partitionKey}/${index.sortKey}`)).toEqual([
      'l1-id:l1/sid',
      'l1-name:l1/sname',
      'l1-path:l1/spath',
      'l1-created_at:l1/screated',
      'l1-updated_at:l1/supdated',
      'l1-last_activity_at:l1/sactivity',
      'l2-id:l2/sid',
      'l2-name:l2/sname',
      'l2-path:l2/spath',
      'l2-created_at:l2/screated',
      'l2-updated_at:l2/supdated',
      'l2-last_activity_at:l2/sactivity',
      'tree:tree/tpath',
    ]);
    const input = createTableInput('t');
    expect(input.KeySchema).toEqual([
      { AttributeName: 'pk', KeyType: 'HASH' },
      { AttributeName: 'sk', KeyType: 'RANGE' },
    ]);
    expect(input.AttributeDefinitions.every((definition) => definition.AttributeType === 'S')).toBe(true);
    expect(input.GlobalSecondaryIndexes).toHaveLength(13);
  });
});

describe('tree', () => {
  it('gives every descendant a path that begins with its ancestors’ paths', () => {
    expect(tree.path([1, 5])).toBe('000000000001/000000000005/');
    expect(tree.group([1, 5, 9])).toEqual({
      tree: 'TREE#1#GROUPS',
      tpath: '000000000001/000000000005/000000000009/',
    });
    expect(tree.project([1, 5], 42, 'private')).toEqual({
      tree: 'TREE#1#PROJECTS#private',
      tpath: '000000000001/000000000005/P000000000042',
    });
    expect(tree.project([1], 42)).toEqual({ tree: 'TREE#1#SHARES', tpath: '000000000001/S000000000042' });
    // A sibling whose id shares a prefix is not inside the subtree.
    expect(tree.path([1, 50]).startsWith(tree.path([1, 5]))).toBe(false);
  });

  it('leaves personal namespaces out of the tree (removed on update)', () => {
    expect(tree.project([], 42)).toEqual({ tree: undefined, tpath: undefined });
  });
});

describe('list reads', () => {
  it('refuse an order the list’s items carry no sort attribute for, before anything is sent', async () => {
    const { readListHead } = await import('#store/table/lists.ts');
    const members = lists.groupMembers(3) as ReturnType<typeof lists.projectsWithVisibility>;
    await expect(readListHead(members, 'name', 'asc', 20)).rejects.toThrow(
      'list MEMBERS#GROUP#3 has no order name',
    );
  });
});
