/**
 * What an issue or merge request write needs of its project's labels and milestones before it is
 * written: the milestone it names, read beside the labels its titles need, and the labels GitLab
 * creates for titles none of the project's or its groups' labels has.
 */
import { projectLabelOwners } from '#domain/labels.ts';
import { type Milestone, projectMilestoneOwners } from '#domain/milestones.ts';
import type { Project } from '#domain/projects.ts';
import { createLabelsMissingFrom, readLabels } from '../labels/labels.ts';
import { readMilestonesById } from './milestones.ts';

/**
 * Reads the milestone `milestoneId` among those the project may use (its own and its groups')
 * and, when titles are named, the labels available to the project, side by side (one round trip);
 * then creates the project labels the titles lack. Answers the usable milestones by id: the named
 * one when the project may use it, which is also what the entity shows.
 */
export async function prepareIssuableMetadata(
  project: Project,
  milestoneId: number | null | undefined,
  labelTitles: readonly string[] | undefined,
): Promise<Map<number, Milestone>> {
  const titles = labelTitles ?? [];
  const [usable, available] = await Promise.all([
    readMilestonesById(projectMilestoneOwners(project, true), [milestoneId]),
    titles.length ? readLabels(projectLabelOwners(project)) : [],
  ]);
  if (titles.length) await createLabelsMissingFrom(available, titles, project.id);
  return usable;
}
