/**
 * What a label's rename or removal and a milestone's removal mean for the issues and merge requests
 * of its owner's projects. They keep label titles and a milestone's id (GitLab keeps links by id,
 * so they follow at once): a job after the change rewrites the titles and drops the id.
 */
import type { Label, LabelOwner, NewLabel } from './labels.ts';
import type { Milestone, MilestoneOwner, NewMilestone } from './milestones.ts';

/** A committed change the issuables of the owner's projects must follow. */
export type ReferenceChange =
  /** A label renamed or removed: `title` is the one it had before. */
  | { kind: 'label'; owner: LabelOwner; labelId: number; title: string }
  /** A milestone removed. */
  | { kind: 'milestone'; owner: MilestoneOwner; milestoneId: number }
  /** A project moved out of a group: `fromGroupIds` is the group it left and its ancestors, root first. */
  | { kind: 'project-moved'; owner: { kind: 'project'; id: number }; fromGroupIds: number[] };

/** How a project's issuables follow a label change: `from` becomes `to`, or goes when `to` is absent. */
export interface LabelRewrite {
  from: string;
  to?: string;
}

/** What the change of a label (`after` absent once removed) asks of the issuables; none when its title stayed. */
export function labelReferenceChange(before: Label, after: Label | undefined): ReferenceChange | undefined {
  if (after && after.title === before.title) return undefined;
  return { kind: 'label', owner: before.owner, labelId: before.id, title: before.title };
}

const sameOwner = (a: LabelOwner, b: LabelOwner) => a.kind === b.kind && a.id === b.id;

/**
 * How a project's issuables follow a label change, from the project's label owners and the labels
 * they hold now: none when the label is not the project's (a project moved out of the group), when
 * another of its labels still bears the old title (the issuables then name that one), or when the
 * label bears it again; else the old title becomes the label's title now, or goes with the label.
 * Read afresh by each page of the job, so a rename followed by another ends on the last title.
 */
export function labelRewriteFor(
  owners: readonly LabelOwner[],
  available: readonly Label[],
  change: { owner: LabelOwner; labelId: number; title: string },
): LabelRewrite | undefined {
  if (!owners.some((owner) => sameOwner(owner, change.owner))) return undefined;
  if (available.some((label) => label.id !== change.labelId && label.title === change.title))
    return undefined;
  const label = available.find((known) => known.id === change.labelId);
  if (label?.title === change.title) return undefined;
  return label ? { from: change.title, to: label.title } : { from: change.title };
}

/** The titles after the rewrite, each once and in place; undefined when `labels` lacks `from`. */
export function relabelled(labels: readonly string[], rewrite: LabelRewrite): string[] | undefined {
  if (!labels.includes(rewrite.from)) return undefined;
  const next = labels.flatMap((title) =>
    title !== rewrite.from ? [title] : rewrite.to === undefined ? [] : [rewrite.to],
  );
  return [...new Set(next)];
}

// A project moved out of a group ---------------------------------------------------------------

/** A project item as far as its move tells: its id and its namespace's id and groups (root first). */
export interface PlacedProject {
  id: number;
  namespace: { id: number; group_ids: readonly number[] };
}

/**
 * What a project item's change asks of its issuables: a move into another namespace out of a group
 * carries along the old groups' labels and milestones they use. Only the namespace's id tells a
 * move: a rename or a move of a group above the project changes its paths and groups, never the id,
 * and carries nothing (neither does a group transfer, as in GitLab). Out of a personal namespace,
 * nothing is carried.
 */
export function projectMoveChange(before: PlacedProject, after: PlacedProject): ReferenceChange | undefined {
  if (before.namespace.id === after.namespace.id || before.namespace.group_ids.length === 0) return undefined;
  return {
    kind: 'project-moved',
    owner: { kind: 'project', id: after.id },
    fromGroupIds: [...before.namespace.group_ids],
  };
}

/** What a moved project's issuables take along from the groups it left, decided from the labels and milestones as they are. */
export interface ReferenceCarry {
  projectId: number;
  /** Labels of the groups left whose titles no label of the project has now, by title (the nearest group's). */
  labels: ReadonlyMap<string, Label>;
  /** Milestones of the groups left that are not the project's groups now, by id. */
  milestones: ReadonlyMap<number, Milestone>;
  /** The milestones the project has now (its own and its groups'): a carried milestone's title found here is used. */
  available: readonly Milestone[];
}

/**
 * What a project moved out of the groups `fromGroupIds` (root first) carries: the labels of those
 * groups whose titles none of the labels it has now (`now.labels`: its own and its new groups')
 * bears, the nearest group's for a title several bear; and those groups' milestones, except those
 * of a group it is still in (`now.groupIds`). None when there is nothing to carry.
 */
export function referenceCarryFor(
  projectId: number,
  fromGroupIds: readonly number[],
  now: { groupIds: readonly number[]; labels: readonly Label[]; milestones: readonly Milestone[] },
  left: { labels: readonly Label[]; milestones: readonly Milestone[] },
): ReferenceCarry | undefined {
  const depthOf = (owner: LabelOwner | MilestoneOwner) =>
    owner.kind === 'group' && !now.groupIds.includes(owner.id) ? fromGroupIds.indexOf(owner.id) : -1;
  const taken = new Set(now.labels.map((label) => label.title));
  const labels = new Map<string, Label>();
  for (const label of left.labels
    .filter((candidate) => depthOf(candidate.owner) >= 0 && !taken.has(candidate.title))
    .sort((a, b) => depthOf(a.owner) - depthOf(b.owner))) {
    labels.set(label.title, label);
  }
  const milestones = new Map(
    left.milestones
      .filter((milestone) => depthOf(milestone.owner) >= 0)
      .map((milestone) => [milestone.id, milestone] as const),
  );
  if (labels.size === 0 && milestones.size === 0) return undefined;
  return { projectId, labels, milestones, available: now.milestones };
}

/** The carried labels the issuables of a page name (their label titles), each once. */
export function labelsCarriedBy(carry: ReferenceCarry, titles: readonly (readonly string[])[]): Label[] {
  const named = new Set(titles.flat());
  return [...carry.labels.values()].filter((label) => named.has(label.title));
}

/** The carried milestones the issuables of a page point at (their milestone ids), each once. */
export function milestonesCarriedBy(
  carry: ReferenceCarry,
  milestoneIds: readonly (number | null | undefined)[],
): Milestone[] {
  return [...new Set(milestoneIds)].flatMap((id) => {
    const milestone = typeof id === 'number' ? carry.milestones.get(id) : undefined;
    return milestone ? [milestone] : [];
  });
}

/**
 * The milestone the project has now with a carried milestone's title (its own, or one of its new
 * groups', whose titles its own may not take): its issuables point at that one, none being made.
 */
export const milestoneCarriedTo = (carry: ReferenceCarry, milestone: Milestone): Milestone | undefined =>
  carry.available.find((known) => known.title === milestone.title);

/** The project's own label made for a carried one: its title, colour and description. */
export const projectCopyOfLabel = (label: Label, projectId: number): NewLabel => ({
  title: label.title,
  color: label.color,
  description: label.description,
  priority: null,
  owner: { kind: 'project', id: projectId },
});

/** The project's own milestone made for a carried one: its title, description, dates and state. */
export const projectCopyOfMilestone = (milestone: Milestone, projectId: number): NewMilestone => ({
  title: milestone.title,
  description: milestone.description,
  state: milestone.state,
  start_date: milestone.start_date,
  due_date: milestone.due_date,
  owner: { kind: 'project', id: projectId },
});
