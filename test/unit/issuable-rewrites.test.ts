/**
 * How issues and merge requests follow a label's rename or removal and a milestone's removal: which
 * changes ask for it, what a project's issuables become, and which projects are left alone.
 */
import { describe, expect, it } from 'vitest';
import { labelReferenceChange, labelRewriteFor, relabelled } from '#domain/issuable-rewrites.ts';
import type { Label, LabelOwner } from '#domain/labels.ts';
import { referenceChangeOf } from '#store/issuables/reference-changes.ts';

const project: LabelOwner = { kind: 'project', id: 10 };
const group: LabelOwner = { kind: 'group', id: 2 };
const subgroup: LabelOwner = { kind: 'group', id: 3 };
const owners = [project, group, subgroup];

const label = (id: number, title: string, owner: LabelOwner = group): Label => ({
  id,
  title,
  color: '#FF0000',
  description: null,
  priority: null,
  owner,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
});

describe('which label changes the issuables follow', () => {
  it('a new title or a removal, not a change that keeps the title', () => {
    const before = label(5, 'bug');
    expect(labelReferenceChange(before, { ...before, title: 'defect' })).toEqual({
      kind: 'label',
      owner: group,
      labelId: 5,
      title: 'bug',
    });
    expect(labelReferenceChange(before, undefined)).toEqual({
      kind: 'label',
      owner: group,
      labelId: 5,
      title: 'bug',
    });
    expect(labelReferenceChange(before, { ...before, color: '#00FF00', description: 'x' })).toBeUndefined();
  });

  it('a stream record: a label modified or removed, a milestone removed; nothing else', () => {
    const item = { kind: 'label', id: 5, title: 'bug', color: '#FF0000', owner_kind: 'group', owner_id: 2 };
    expect(
      referenceChangeOf({ eventName: 'MODIFY', oldImage: item, newImage: { ...item, title: 'defect' } }),
    ).toEqual({ kind: 'label', owner: group, labelId: 5, title: 'bug' });
    expect(referenceChangeOf({ eventName: 'REMOVE', oldImage: item })).toEqual({
      kind: 'label',
      owner: group,
      labelId: 5,
      title: 'bug',
    });
    expect(
      referenceChangeOf({ eventName: 'MODIFY', oldImage: item, newImage: { ...item, color: '#000' } }),
    ).toBe(undefined);
    expect(referenceChangeOf({ eventName: 'INSERT', newImage: item })).toBeUndefined();
    const milestone = { kind: 'milestone', id: 8, iid: 1, title: 'v1', owner_kind: 'project', owner_id: 10 };
    expect(referenceChangeOf({ eventName: 'REMOVE', oldImage: milestone })).toEqual({
      kind: 'milestone',
      owner: project,
      milestoneId: 8,
    });
    expect(
      referenceChangeOf({
        eventName: 'MODIFY',
        oldImage: milestone,
        newImage: { ...milestone, title: 'v2' },
      }),
    ).toBeUndefined();
    expect(referenceChangeOf({ eventName: 'REMOVE', oldImage: { kind: 'label_title', label_id: 5 } })).toBe(
      undefined,
    );
  });
});

describe("what a project's issuables become", () => {
  const renamed = { owner: group, labelId: 5, title: 'bug' };

  it("a renamed label's old title becomes its title now; a removed label's goes", () => {
    expect(labelRewriteFor(owners, [label(5, 'defect')], renamed)).toEqual({ from: 'bug', to: 'defect' });
    expect(labelRewriteFor(owners, [], renamed)).toEqual({ from: 'bug' });
  });

  it('renamed twice, the issuables end on the last title whichever page runs first', () => {
    // bug → defect → fault: both messages rewrite to the label's title now.
    expect(labelRewriteFor(owners, [label(5, 'fault')], renamed)).toEqual({ from: 'bug', to: 'fault' });
    expect(labelRewriteFor(owners, [label(5, 'fault')], { ...renamed, title: 'defect' })).toEqual({
      from: 'defect',
      to: 'fault',
    });
    // Renamed back: nothing to do.
    expect(labelRewriteFor(owners, [label(5, 'bug')], renamed)).toBeUndefined();
  });

  it("leaves a project whose own label (or another group's above it) still bears the old title", () => {
    expect(labelRewriteFor(owners, [label(5, 'defect'), label(9, 'bug', project)], renamed)).toBeUndefined();
    expect(labelRewriteFor(owners, [label(5, 'defect'), label(7, 'bug', subgroup)], renamed)).toBeUndefined();
    // A project label promoted to the group: the group's label of its title is there, nothing goes.
    expect(
      labelRewriteFor(owners, [label(11, 'bug', group)], { owner: project, labelId: 9, title: 'bug' }),
    ).toBeUndefined();
  });

  it('leaves a project whose labels the label is not among (moved out of the group)', () => {
    expect(labelRewriteFor([project], [], renamed)).toBeUndefined();
  });

  it('rewrites the title in place, each title once, others kept', () => {
    expect(relabelled(['ui', 'bug', 'api'], { from: 'bug', to: 'defect' })).toEqual(['ui', 'defect', 'api']);
    expect(relabelled(['ui', 'bug', 'defect'], { from: 'bug', to: 'defect' })).toEqual(['ui', 'defect']);
    expect(relabelled(['ui', 'bug'], { from: 'bug' })).toEqual(['ui']);
    expect(relabelled(['ui'], { from: 'bug', to: 'defect' })).toBeUndefined();
    // Titles are exact: another case is another label.
    expect(relabelled(['Bug'], { from: 'bug' })).toBeUndefined();
  });
});
