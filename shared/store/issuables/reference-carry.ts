/**
 * A project moved out of a group keeps the labels and milestones of the groups it left that its
 * issues and merge requests use (the issuable-rewrite job's `project-moved` change, page by page):
 * each such label becomes a label of the project (same title, colour, description) unless one it
 * has now bears the title; each such milestone becomes one of the project's (same title,
 * description, dates, state), or the one of that title it has now, and the issuables point at it.
 *
 * Safe twice: a label or milestone made already is found (its title is taken) and used, and an
 * issuable is re-pointed only while it still points at the old milestone, by one conditional
 * update of `milestone_id` alone (`updated_at` and the lists stay; a later edit wins). Titles need
 * no rewrite: an issuable keeps naming the title, which the project's own label now bears.
 */
import { ApiError } from '#domain/errors.ts';
import {
  labelsCarriedBy,
  milestoneCarriedTo,
  milestonesCarriedBy,
  projectCopyOfLabel,
  projectCopyOfMilestone,
  type ReferenceCarry,
  referenceCarryFor,
} from '#domain/issuable-rewrites.ts';
import { projectLabelOwners } from '#domain/labels.ts';
import { type Milestone, projectMilestoneOwners } from '#domain/milestones.ts';
import type { Project } from '#domain/projects.ts';
import { createLabel, readLabels } from '../labels/labels.ts';
import type { Raw } from '../table/raw.ts';
import { update, writeAlone } from '../table/transaction.ts';
import { createMilestone, readMilestones } from './milestones.ts';

/**
 * What the project's issuables carry from the groups it left (`fromGroupIds`, root first), from
 * the labels and milestones as they are now (see referenceCarryFor); none when nothing is to be
 * carried. The groups it is still in are not read.
 */
export async function readReferenceCarry(
  project: Project,
  fromGroupIds: readonly number[],
): Promise<ReferenceCarry | undefined> {
  const groupIds = project.namespace.group_ids;
  const left = fromGroupIds
    .filter((id) => !groupIds.includes(id))
    .map((id) => ({ kind: 'group' as const, id }));
  if (left.length === 0) return undefined;
  const [labels, milestones, leftLabels, leftMilestones] = await Promise.all([
    readLabels(projectLabelOwners(project)),
    readMilestones(projectMilestoneOwners(project, true)),
    readLabels(left),
    readMilestones(left),
  ]);
  return referenceCarryFor(
    project.id,
    fromGroupIds,
    { groupIds, labels, milestones },
    { labels: leftLabels, milestones: leftMilestones },
  );
}

const labelsOf = (item: Raw): string[] => (Array.isArray(item.labels) ? item.labels.map(String) : []);

const refusedWith = (error: unknown, status: number) => error instanceof ApiError && error.status === status;

/**
 * Carries what a page of the project's issues or merge requests (as read: key, `labels`,
 * `milestone_id`, `deleting`) uses: the labels first, then the milestones, then each issuable
 * re-pointed.
 */
export async function carryReferences(carry: ReferenceCarry, items: readonly Raw[]): Promise<void> {
  const live = items.filter((item) => !item.deleting);
  await Promise.all(
    labelsCarriedBy(carry, live.map(labelsOf)).map((label) =>
      // 409: the project has a label of that title already (an earlier run's, or a user's): it is used.
      createLabel(projectCopyOfLabel(label, carry.projectId)).catch((error: unknown) => {
        if (!refusedWith(error, 409)) throw error;
      }),
    ),
  );
  const carried = milestonesCarriedBy(
    carry,
    live.map((item) => (typeof item.milestone_id === 'number' ? item.milestone_id : null)),
  );
  const targets = new Map(
    await Promise.all(
      carried.map(async (milestone) => [milestone.id, await projectMilestoneFor(carry, milestone)] as const),
    ),
  );
  for (const item of live) {
    const from = item.milestone_id;
    const to = typeof from === 'number' ? targets.get(from) : undefined;
    if (typeof from !== 'number' || to === undefined || to === from) continue;
    await writeAlone(
      update({ pk: String(item.pk), sk: String(item.sk) }, 'SET #milestone = :to', {
        condition: 'attribute_exists(pk) AND attribute_not_exists(#deleting) AND #milestone = :from',
        names: { '#milestone': 'milestone_id', '#deleting': 'deleting' },
        values: { ':to': to, ':from': from },
      }),
    );
  }
}

/**
 * The id of the project's milestone a carried one becomes: the one of its title it has now, else
 * a new one of its own; a title taken meanwhile (a run before this one) names the one to use.
 */
async function projectMilestoneFor(carry: ReferenceCarry, milestone: Milestone): Promise<number> {
  const known = milestoneCarriedTo(carry, milestone);
  if (known) return known.id;
  try {
    return (await createMilestone(projectCopyOfMilestone(milestone, carry.projectId))).id;
  } catch (error) {
    if (!refusedWith(error, 400)) throw error;
    const own = await readMilestones([{ kind: 'project', id: carry.projectId }]);
    const made = own.find((found) => found.title === milestone.title);
    if (!made) throw error;
    return made.id;
  }
}
