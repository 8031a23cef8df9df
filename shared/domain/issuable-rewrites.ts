/**
 * What a label's rename or removal and a milestone's removal mean for the issues and merge requests
 * of its owner's projects. They keep label titles and a milestone's id (GitLab keeps links by id,
 * so they follow at once): a job after the change rewrites the titles and drops the id.
 */
import type { Label, LabelOwner } from './labels.ts';
import type { MilestoneOwner } from './milestones.ts';

/** A committed change the issuables of the owner's projects must follow. */
export type ReferenceChange =
  /** A label renamed or removed: `title` is the one it had before. */
  | { kind: 'label'; owner: LabelOwner; labelId: number; title: string }
  /** A milestone removed. */
  | { kind: 'milestone'; owner: MilestoneOwner; milestoneId: number };

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
