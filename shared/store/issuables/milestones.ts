/**
 * Milestones of projects and groups. A milestone lives in its owner's partition (`PROJECT#<id>` or
 * `GROUP#<id>`, sort `MILESTONE#<id>`), so an owner's milestones are one Query of its own partition
 * and a project's go with its partition when it is purged. Its title is unique in the owner
 * through a title item written in the same transaction (`MILESTONETITLE#<hash>`); its iid comes
 * from the owner's iid counter item (a project's is the one its issues use, another attribute).
 */
import { conflict, notFound } from '#domain/errors.ts';
import {
  type Milestone,
  type MilestoneChanges,
  type MilestoneOwner,
  milestoneInvalid,
  type NewMilestone,
  TITLE_TAKEN,
} from '#domain/milestones.ts';
import { batchGetItems } from '../table/batch.ts';
import { nextId, withNextIid } from '../table/ids.ts';
import { getItem, readPartition } from '../table/items.ts';
import { keys, MILESTONE_PREFIX } from '../table/keys.ts';
import type { Raw } from '../table/raw.ts';
import {
  check,
  commit,
  EXISTING_ITEM,
  LIVE_ITEM,
  NEW_ITEM,
  put,
  refusedReading,
  refusedWith,
  remove,
  update,
  writeAlone,
} from '../table/transaction.ts';
import { decodeMilestone } from './milestone-records.ts';

const ownerPk = (owner: MilestoneOwner) =>
  owner.kind === 'project' ? `PROJECT#${owner.id}` : `GROUP#${owner.id}`;
const ownerKey = (owner: MilestoneOwner) =>
  owner.kind === 'project' ? keys.project(owner.id) : keys.group(owner.id);
const ownerIids = (owner: MilestoneOwner) =>
  owner.kind === 'project' ? keys.projectIids(owner.id) : keys.groupIids(owner.id);
const ownerGone = (owner: MilestoneOwner) => notFound(owner.kind === 'project' ? 'Project' : 'Group');

const milestoneItem = (milestone: Milestone): Raw => ({
  ...keys.milestone(ownerPk(milestone.owner), milestone.id),
  kind: 'milestone',
  id: milestone.id,
  iid: milestone.iid,
  owner_kind: milestone.owner.kind,
  owner_id: milestone.owner.id,
  title: milestone.title,
  description: milestone.description,
  state: milestone.state,
  due_date: milestone.due_date,
  start_date: milestone.start_date,
  created_at: milestone.created_at,
  updated_at: milestone.updated_at,
});

const titleItem = (milestone: Milestone): Raw => ({
  ...keys.milestoneTitle(ownerPk(milestone.owner), milestone.title),
  kind: 'milestone_title',
  milestone_id: milestone.id,
});

// Reads ------------------------------------------------------------------------------------------

/** The milestones of each owner, read side by side (a project and its groups: the tree's depth). */
export async function readMilestones(owners: readonly MilestoneOwner[]): Promise<Milestone[]> {
  const pages = await Promise.all(
    owners.map((owner) => readPartition(ownerPk(owner), { skPrefix: MILESTONE_PREFIX, consistent: true })),
  );
  return pages.flat().map(decodeMilestone);
}

/** One owner's milestone by id, or undefined. */
export async function readMilestone(owner: MilestoneOwner, id: number): Promise<Milestone | undefined> {
  const item = await getItem(keys.milestone(ownerPk(owner), id));
  return item && item.kind === 'milestone' ? decodeMilestone(item) : undefined;
}

/** The milestones with these ids (none: nothing read) among these owners' (one batch), by id. */
export async function readMilestonesById(
  owners: readonly MilestoneOwner[],
  ids: readonly (number | null | undefined)[],
): Promise<Map<number, Milestone>> {
  const wanted = [...new Set(ids.filter((id): id is number => typeof id === 'number'))];
  if (wanted.length === 0 || owners.length === 0) return new Map();
  const items = await batchGetItems(
    owners.flatMap((owner) => wanted.map((id) => keys.milestone(ownerPk(owner), id))),
  );
  return new Map(
    items.filter((item) => item.kind === 'milestone').map((item) => [Number(item.id), decodeMilestone(item)]),
  );
}

/**
 * One owner's milestone by id with the milestones of the owners that share its titles (read side
 * by side, for a rename's check).
 */
export async function readMilestoneWithSharers(
  owner: MilestoneOwner,
  id: number,
  sharers: readonly MilestoneOwner[],
): Promise<{ milestone: Milestone | undefined; shared: Milestone[] }> {
  const [milestone, shared] = await Promise.all([readMilestone(owner, id), readMilestones(sharers)]);
  return { milestone, shared };
}

// Writes -----------------------------------------------------------------------------------------

const takenTitle = (action: 'create' | 'update') => milestoneInvalid(action, 'title', TITLE_TAKEN);

/**
 * Creates a milestone with its owner's next iid (400 when the owner has its title; 404 when the
 * owner went away meanwhile).
 */
export async function createMilestone(fields: NewMilestone): Promise<Milestone> {
  return withNextIid(ownerIids(fields.owner), 'milestone', async (iid) => {
    const now = new Date().toISOString();
    const milestone: Milestone = {
      ...fields,
      iid,
      id: await nextId('milestone'),
      created_at: now,
      updated_at: now,
    };
    await commit([
      refusedWith(check(ownerKey(milestone.owner), LIVE_ITEM), ownerGone(milestone.owner)),
      refusedWith(put(titleItem(milestone), NEW_ITEM), takenTitle('create')),
      put(milestoneItem(milestone), NEW_ITEM),
    ]);
    return milestone;
  });
}

/**
 * Changes a milestone on the condition that it is still as read (its `updated_at`): a new title
 * takes its title item (400 when the owner has it) and frees the old one in the same transaction.
 */
export async function changeMilestone(milestone: Milestone, changes: MilestoneChanges): Promise<Milestone> {
  const changed: Milestone = { ...milestone, ...changes, updated_at: new Date().toISOString() };
  const pk = ownerPk(milestone.owner);
  const renamed = changed.title !== milestone.title;
  await commit([
    refusedReading(
      update(
        keys.milestone(pk, milestone.id),
        'SET title = :title, description = :description, #state = :state, due_date = :due, start_date = :start, updated_at = :now',
        {
          condition: 'attribute_exists(pk) AND updated_at = :read',
          names: { '#state': 'state' },
          values: {
            ':title': changed.title,
            ':description': changed.description,
            ':state': changed.state,
            ':due': changed.due_date,
            ':start': changed.start_date,
            ':now': changed.updated_at,
            ':read': milestone.updated_at,
          },
        },
      ),
      (stored) => (stored ? conflict('Milestone was changed meanwhile, try again') : notFound('Milestone')),
    ),
    ...(renamed
      ? [
          remove(keys.milestoneTitle(pk, milestone.title), EXISTING_ITEM),
          refusedWith(put(titleItem(changed), NEW_ITEM), takenTitle('update')),
        ]
      : []),
  ]);
  return changed;
}

/** Removes a milestone and its title (404 when it went meanwhile). */
export async function deleteMilestone(milestone: Milestone): Promise<void> {
  const pk = ownerPk(milestone.owner);
  await commit([
    refusedWith(remove(keys.milestone(pk, milestone.id), EXISTING_ITEM), notFound('Milestone')),
    remove(keys.milestoneTitle(pk, milestone.title)),
  ]);
}

/** Removes a group's milestones, their titles and its iid counter (the group purge; a project's go with its partition). */
export async function purgeGroupMilestones(groupId: number): Promise<void> {
  const pk = ownerPk({ kind: 'group', id: groupId });
  // Milestones and their titles both sort under `MILESTONE`.
  const items = await readPartition(pk, { skPrefix: 'MILESTONE', projection: 'pk, sk', consistent: true });
  await Promise.all(items.map((item) => writeAlone(remove({ pk, sk: String(item.sk) }))));
  await writeAlone(remove(keys.groupIids(groupId)));
}
