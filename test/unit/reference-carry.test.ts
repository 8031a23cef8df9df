/**
 * A project moved out of a group carries the labels and milestones of the groups it left that its
 * issuables use: which project changes ask for it (a namespace's id changed, not its paths or
 * groups), what is carried (titles it has no label for now, the nearest group's; milestones of
 * groups it is no longer in), which of a page's labels and milestones are carried, and the copies.
 */
import { describe, expect, it } from 'vitest';
import {
  labelsCarriedBy,
  milestoneCarriedTo,
  milestonesCarriedBy,
  projectCopyOfLabel,
  projectCopyOfMilestone,
  projectMoveChange,
  type ReferenceCarry,
  referenceCarryFor,
} from '#domain/issuable-rewrites.ts';
import type { Label, LabelOwner } from '#domain/labels.ts';
import type { Milestone } from '#domain/milestones.ts';
import { referenceChangeOf } from '#store/issuables/reference-changes.ts';

const AT = '2026-01-01T00:00:00.000Z';
const root: LabelOwner = { kind: 'group', id: 2 };
const sub: LabelOwner = { kind: 'group', id: 3 };
const target: LabelOwner = { kind: 'group', id: 7 };
const own: LabelOwner = { kind: 'project', id: 10 };

const label = (id: number, title: string, owner: LabelOwner, color = '#FF0000'): Label => ({
  id,
  title,
  color,
  description: `${title} described`,
  priority: owner.kind === 'project' ? 1 : null,
  owner,
  created_at: AT,
  updated_at: AT,
});

const milestone = (id: number, title: string, owner: LabelOwner): Milestone => ({
  id,
  iid: 1,
  owner,
  title,
  description: `${title} described`,
  state: 'closed',
  due_date: '2026-03-01',
  start_date: '2026-02-01',
  created_at: AT,
  updated_at: AT,
});

const placed = (namespaceId: number, groupIds: number[]) => ({
  id: 10,
  namespace: { id: namespaceId, group_ids: groupIds },
});

describe('which project changes carry labels and milestones', () => {
  it('a move into another namespace out of a group, with the chain it left', () => {
    expect(projectMoveChange(placed(3, [2, 3]), placed(7, [7]))).toEqual({
      kind: 'project-moved',
      owner: { kind: 'project', id: 10 },
      fromGroupIds: [2, 3],
    });
    // Into a personal namespace too.
    expect(projectMoveChange(placed(3, [2, 3]), placed(40, []))).toMatchObject({ fromGroupIds: [2, 3] });
  });

  it('not a group moved above it, a rename, nor a move out of a personal namespace', () => {
    expect(projectMoveChange(placed(3, [2, 3]), placed(3, [9, 3]))).toBeUndefined();
    expect(projectMoveChange(placed(3, [2, 3]), placed(3, [2, 3]))).toBeUndefined();
    expect(projectMoveChange(placed(40, []), placed(7, [7]))).toBeUndefined();
  });

  it("from the project item's stream images, its own item only", () => {
    const item = (namespaceId: number, groupIds: number[], fullPath: string) => ({
      pk: 'PROJECT#10',
      sk: 'PROJECT',
      kind: 'project',
      id: 10,
      namespace: { id: namespaceId, kind: 'group', group_ids: groupIds, full_path: fullPath },
    });
    expect(
      referenceChangeOf({
        eventName: 'MODIFY',
        oldImage: item(3, [2, 3], 'a/b'),
        newImage: item(7, [7], 'c'),
      }),
    ).toEqual({ kind: 'project-moved', owner: { kind: 'project', id: 10 }, fromGroupIds: [2, 3] });
    // The group renamed or moved: paths and groups change, not the namespace's id.
    expect(
      referenceChangeOf({
        eventName: 'MODIFY',
        oldImage: item(3, [2, 3], 'a/b'),
        newImage: item(3, [9, 3], 'z/b'),
      }),
    ).toBeUndefined();
    expect(referenceChangeOf({ eventName: 'REMOVE', oldImage: item(3, [2, 3], 'a/b') })).toBeUndefined();
    expect(referenceChangeOf({ eventName: 'INSERT', newImage: item(3, [2, 3], 'a/b') })).toBeUndefined();
    // A route item (also of kind `project`) names no namespace.
    const route = { pk: 'ROUTE#a/b/p', sk: 'ROUTE', kind: 'project', id: 10, full_path: 'a/b/p' };
    expect(
      referenceChangeOf({ eventName: 'MODIFY', oldImage: route, newImage: { ...route, full_path: 'c/p' } }),
    ).toBeUndefined();
  });
});

describe('what a moved project carries', () => {
  const left = {
    labels: [
      label(1, 'bug', root, '#111111'),
      label(2, 'bug', sub, '#222222'),
      label(3, 'ui', root),
      label(4, 'mine', sub),
      label(5, 'shared', root),
    ],
    milestones: [milestone(20, 'v1', root), milestone(21, 'v2', sub)],
  };

  it("the left groups' labels whose titles it has none for now (the nearest group's), their milestones", () => {
    const carry = referenceCarryFor(
      10,
      [2, 3],
      {
        groupIds: [7],
        labels: [label(8, 'mine', own), label(9, 'shared', target)],
        milestones: [milestone(30, 'v2', target)],
      },
      left,
    );
    expect(carry && [...carry.labels.entries()]).toEqual([
      ['bug', left.labels[1]],
      ['ui', left.labels[2]],
    ]);
    expect(carry && [...carry.milestones.keys()]).toEqual([20, 21]);
  });

  it('nothing of a group it is still in; none at all when nothing is left to carry', () => {
    // From 2/3 to 2: the root's labels and milestones stay its own.
    const carry = referenceCarryFor(
      10,
      [2, 3],
      { groupIds: [2], labels: left.labels.filter((known) => known.owner.id === 2), milestones: [] },
      left,
    );
    expect(carry && [...carry.labels.keys()]).toEqual(['mine']);
    expect(carry && [...carry.milestones.keys()]).toEqual([21]);
    expect(
      referenceCarryFor(
        10,
        [2],
        { groupIds: [7], labels: [label(9, 'x', target)], milestones: [] },
        {
          labels: [label(5, 'x', root)],
          milestones: [],
        },
      ),
    ).toBeUndefined();
  });
});

describe("a page's share of the carry", () => {
  const carry: ReferenceCarry = {
    projectId: 10,
    labels: new Map([
      ['bug', label(2, 'bug', sub)],
      ['ui', label(3, 'ui', root)],
    ]),
    milestones: new Map([
      [20, milestone(20, 'v1', root)],
      [21, milestone(21, 'v2', sub)],
    ]),
    available: [milestone(30, 'v2', target)],
  };

  it('the carried labels and milestones its issuables name, each once', () => {
    expect(labelsCarriedBy(carry, [['bug', 'other'], ['bug'], []]).map((found) => found.id)).toEqual([2]);
    expect(labelsCarriedBy(carry, [['other']])).toEqual([]);
    expect(milestonesCarriedBy(carry, [20, null, 20, 99, undefined]).map((found) => found.id)).toEqual([20]);
  });

  it("a milestone whose title the project has now becomes that one; else the project's copy", () => {
    expect(milestoneCarriedTo(carry, milestone(21, 'v2', sub))?.id).toBe(30);
    expect(milestoneCarriedTo(carry, milestone(20, 'v1', root))).toBeUndefined();
    expect(projectCopyOfMilestone(milestone(20, 'v1', root), 10)).toEqual({
      title: 'v1',
      description: 'v1 described',
      state: 'closed',
      start_date: '2026-02-01',
      due_date: '2026-03-01',
      owner: { kind: 'project', id: 10 },
    });
    expect(projectCopyOfLabel(label(2, 'bug', sub, '#222222'), 10)).toEqual({
      title: 'bug',
      color: '#222222',
      description: 'bug described',
      priority: null,
      owner: { kind: 'project', id: 10 },
    });
  });
});
