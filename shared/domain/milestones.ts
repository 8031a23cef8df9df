/**
 * Milestones of projects and groups: the rules a milestone's dates and title follow, the changes a
 * request makes, the list filters and the entity GitLab presents.
 */
import { ACCESS } from './access.ts';
import { badRequest, invalidParams, notFound } from './errors.ts';
import type { Group } from './groups.ts';
import { atLeastOneOf } from './params.ts';
import { effectiveAccess, type Project, type ProjectAccess } from './projects.ts';
import type { Caller } from './users.ts';

/** Whose milestone it is: a project's own, or a group's (seen by the group's projects and subgroups). */
export interface MilestoneOwner {
  kind: 'project' | 'group';
  id: number;
}

export type MilestoneState = 'active' | 'closed';

export interface Milestone {
  id: number;
  /** Per owner, from the owner's iid counter. */
  iid: number;
  owner: MilestoneOwner;
  title: string;
  description: string | null;
  state: MilestoneState;
  due_date: string | null;
  start_date: string | null;
  created_at: string;
  updated_at: string;
}

export type NewMilestone = Omit<Milestone, 'id' | 'iid' | 'created_at' | 'updated_at'>;
export type MilestoneChanges = Partial<
  Pick<Milestone, 'title' | 'description' | 'state' | 'due_date' | 'start_date'>
>;

/** GitLab's milestones table: titles of at most 255 characters. */
export const MILESTONE_TITLE_MAX_LENGTH = 255;
/** A description is a text column; this bound keeps a milestone's item small. */
export const MILESTONE_DESCRIPTION_MAX_LENGTH = 100_000;

/** Reporters and up of the project (and admins) manage its milestones. */
export const mayAdminProjectMilestones = ({ caller, access }: { caller: Caller; access: ProjectAccess }) =>
  caller.admin || effectiveAccess(access) >= ACCESS.reporter;

/** Reporters and up of the group (inherited) and admins manage its milestones. */
export const mayAdminGroupMilestones = ({ caller, access }: { caller: Caller; access: number }) =>
  caller.admin || access >= ACCESS.reporter;

/** The owners whose milestones a project lists: its own and, when asked, its group's and their ancestors'. */
export const projectMilestoneOwners = (project: Project, includeAncestors: boolean): MilestoneOwner[] => [
  { kind: 'project', id: project.id },
  ...(includeAncestors ? project.namespace.group_ids.map((id) => ({ kind: 'group' as const, id })) : []),
];

/** The owners whose milestones a group lists: its own and, when asked, its ancestors'. */
export const groupMilestoneOwners = (group: Group, includeAncestors: boolean): MilestoneOwner[] => [
  { kind: 'group', id: group.id },
  ...(includeAncestors ? group.ancestor_ids.map((id) => ({ kind: 'group' as const, id })) : []),
];

/** The other owners whose titles a new or renamed milestone may not take (the owner's own are the database's). */
export const titleSharingOwners = (
  owner: MilestoneOwner,
  ancestorGroupIds: readonly number[],
): MilestoneOwner[] =>
  ancestorGroupIds
    .filter((id) => !(owner.kind === 'group' && owner.id === id))
    .map((id) => ({ kind: 'group', id }));

type Action = 'create' | 'update';

/** GitLab's answer to an invalid milestone: the model's errors, inspected, in one sentence. */
export const milestoneInvalid = (action: Action, field: string, sentence: string) =>
  badRequest(`Failed to ${action} milestone {:${field}=>[${JSON.stringify(sentence)}]}`);

export const TITLE_TAKEN = 'already being used for another group or project milestone.';

/** Refuses a title another milestone of these owners has (exact, as GitLab's lookup by title). */
export function refuseTakenTitle(
  action: Action,
  others: readonly Milestone[],
  title: string,
  self?: number,
): void {
  if (others.some((milestone) => milestone.title === title && milestone.id !== self)) {
    throw milestoneInvalid(action, 'title', TITLE_TAKEN);
  }
}

/** A due date must come after the start date when both are set. */
export function datesError(milestone: Pick<Milestone, 'start_date' | 'due_date'>): string | undefined {
  const { start_date: start, due_date: due } = milestone;
  return start && due && due <= start ? 'must be greater than start date' : undefined;
}

function refuseDatesOutOfOrder(action: Action, milestone: Pick<Milestone, 'start_date' | 'due_date'>): void {
  const error = datesError(milestone);
  if (error) throw milestoneInvalid(action, 'due_date', error);
}

/** GitLab strips a title and keeps a blank one as it was. */
const cleanTitle = (title: string) => title.trim();

export interface MilestoneInput {
  title?: string;
  description?: string;
  due_date?: string;
  start_date?: string;
  state_event?: 'close' | 'activate';
}

/** The milestone a create request describes (400 for dates out of order). */
export function newMilestoneFrom(
  input: MilestoneInput & { title: string },
  owner: MilestoneOwner,
): NewMilestone {
  if (cleanTitle(input.title) === '') throw milestoneInvalid('create', 'title', "can't be blank");
  const milestone: NewMilestone = {
    owner,
    title: cleanTitle(input.title),
    description: input.description ?? null,
    state: 'active',
    due_date: input.due_date ?? null,
    start_date: input.start_date ?? null,
  };
  refuseDatesOutOfOrder('create', milestone);
  return milestone;
}

/** The parameters an update names; GitLab wants at least one. */
const MILESTONE_UPDATE_FIELDS = ['title', 'description', 'start_date', 'due_date', 'state_event'] as const;

/** Grape's answer to an update naming none of them (before the milestone is looked up). */
export function refuseEmptyMilestoneUpdate(input: MilestoneInput): void {
  const missing = atLeastOneOf(input, MILESTONE_UPDATE_FIELDS);
  if (missing) throw invalidParams(missing);
}

/** The changes an update request makes to a milestone (400 for dates out of order). */
export function milestoneChanges(input: MilestoneInput, milestone: Milestone): MilestoneChanges {
  const changes: MilestoneChanges = {};
  const title = input.title === undefined ? '' : cleanTitle(input.title);
  if (title !== '') changes.title = title;
  if (input.description !== undefined) changes.description = input.description;
  if (input.due_date !== undefined) changes.due_date = input.due_date;
  if (input.start_date !== undefined) changes.start_date = input.start_date;
  if (input.state_event === 'close') changes.state = 'closed';
  if (input.state_event === 'activate') changes.state = 'active';
  refuseDatesOutOfOrder('update', { ...milestone, ...changes });
  return changes;
}

/** The milestone of this owner with this id, or GitLab's 404 `Milestone Not Found`. */
export function ownMilestone(milestone: Milestone | undefined, owner: MilestoneOwner): Milestone {
  if (!milestone || milestone.owner.kind !== owner.kind || milestone.owner.id !== owner.id) {
    throw notFound('Milestone');
  }
  return milestone;
}

export interface MilestoneFilter {
  state?: 'active' | 'closed' | 'all';
  iids?: readonly number[];
  title?: string;
  search?: string;
  updated_before?: string;
  updated_after?: string;
}

/** Whether a milestone passes a list's filters (search: title or description, without regard to case). */
export function matchesMilestoneFilter(milestone: Milestone, filter: MilestoneFilter): boolean {
  if (filter.state && filter.state !== 'all' && milestone.state !== filter.state) return false;
  if (filter.iids && filter.iids.length > 0 && !filter.iids.includes(milestone.iid)) return false;
  if (filter.title !== undefined && milestone.title !== filter.title) return false;
  if (filter.updated_before && milestone.updated_at >= filter.updated_before) return false;
  if (filter.updated_after && milestone.updated_at <= filter.updated_after) return false;
  if (filter.search) {
    const needle = filter.search.toLowerCase();
    const inTitle = milestone.title.toLowerCase().includes(needle);
    if (!inTitle && !(milestone.description ?? '').toLowerCase().includes(needle)) return false;
  }
  return true;
}

/** GitLab's order: due date first (none last), then title, then newest. */
export function compareMilestones(a: Milestone, b: Milestone): number {
  if (a.due_date !== b.due_date) {
    if (a.due_date === null) return 1;
    if (b.due_date === null) return -1;
    return a.due_date < b.due_date ? -1 : 1;
  }
  if (a.title !== b.title) return a.title < b.title ? -1 : 1;
  return b.id - a.id;
}

/** The milestones of a list, filtered and in GitLab's order. */
export const milestoneList = (milestones: readonly Milestone[], filter: MilestoneFilter): Milestone[] =>
  milestones.filter((milestone) => matchesMilestoneFilter(milestone, filter)).sort(compareMilestones);

/** Whether a milestone's due date has passed (today, UTC, is not past). */
export const isExpired = (milestone: Milestone, today = new Date().toISOString().slice(0, 10)) =>
  milestone.due_date !== null && milestone.due_date < today;

/** How a milestone's owner is named in its URL: the project's path with namespace or the group's full path. */
export type OwnerPath = (owner: MilestoneOwner) => string;

/** A group's full path from the path below it: a group of the chain (top first) owns that many leading segments. */
function chainPaths(groupIds: readonly number[], fullPath: string): Map<number, string> {
  const segments = fullPath.split('/');
  return new Map(groupIds.map((id, index) => [id, segments.slice(0, index + 1).join('/')]));
}

/** The paths of a project and of the groups above it. */
export function projectOwnerPaths(project: Project): OwnerPath {
  const groups = chainPaths(project.namespace.group_ids, project.namespace.full_path);
  return (owner) =>
    owner.kind === 'project' ? project.path_with_namespace : (groups.get(owner.id) ?? String(owner.id));
}

/** The paths of a group and of its ancestors. */
export function groupOwnerPaths(group: Group): OwnerPath {
  const groups = chainPaths([...group.ancestor_ids, group.id], group.full_path);
  return (owner) => groups.get(owner.id) ?? String(owner.id);
}

/** GitLab's Milestone entity. */
export function milestoneEntity(milestone: Milestone, pathOf: OwnerPath, baseUrl: string) {
  const ownerPath = pathOf(milestone.owner);
  const ownerUrl =
    milestone.owner.kind === 'project' ? `${baseUrl}/${ownerPath}` : `${baseUrl}/groups/${ownerPath}`;
  return {
    id: milestone.id,
    iid: milestone.iid,
    ...(milestone.owner.kind === 'project'
      ? { project_id: milestone.owner.id }
      : { group_id: milestone.owner.id }),
    title: milestone.title,
    description: milestone.description,
    state: milestone.state,
    created_at: milestone.created_at,
    updated_at: milestone.updated_at,
    due_date: milestone.due_date,
    start_date: milestone.start_date,
    expired: isExpired(milestone),
    web_url: `${ownerUrl}/-/milestones/${milestone.iid}`,
  };
}

/**
 * The milestone an issue or merge request shows: the one it carries when it was read with it (one
 * deleted meanwhile shows as none).
 */
export function issuableMilestone(
  milestoneId: number | null | undefined,
  project: Project,
  milestones: ReadonlyMap<number, Milestone>,
  baseUrl: string,
) {
  const milestone = milestoneId == null ? undefined : milestones.get(milestoneId);
  return milestone ? milestoneEntity(milestone, projectOwnerPaths(project), baseUrl) : null;
}

/**
 * The milestone a create or update attaches: none for 0 or empty, and none for one the project
 * may not use (another project's, a group's outside its ancestors), as GitLab drops it.
 */
export function attachedMilestoneId(
  sent: number | null | undefined,
  usable: ReadonlyMap<number, Milestone>,
): number | null | undefined {
  if (sent === undefined) return undefined;
  return sent !== null && usable.has(sent) ? sent : null;
}

/** Which milestones an issue or merge request list keeps: those named (or, negated, all others and none). */
export interface MilestoneMatch {
  ids: ReadonlySet<number>;
  negate: boolean;
}

/**
 * The `milestone` filter of issue and merge request lists among the milestones the project may use:
 * a title, `None` (no milestone), `Any`, `Upcoming` (of each owner, the active one due next) or
 * `Started` (active, started, not yet past due).
 */
export function milestoneMatch(
  filter: string | undefined,
  usable: readonly Milestone[],
  today = new Date().toISOString().slice(0, 10),
): MilestoneMatch | undefined {
  if (filter === undefined) return undefined;
  const all = new Set(usable.map((milestone) => milestone.id));
  const named = filter.toLowerCase();
  if (named === 'none') return { ids: all, negate: true };
  if (named === 'any') return { ids: all, negate: false };
  const active = usable.filter((milestone) => milestone.state === 'active');
  if (named === 'upcoming') {
    const next = new Map<string, Milestone>();
    for (const milestone of active) {
      if (milestone.due_date === null || milestone.due_date <= today) continue;
      const owner = `${milestone.owner.kind}#${milestone.owner.id}`;
      const known = next.get(owner);
      if (!known || (known.due_date ?? '') > milestone.due_date) next.set(owner, milestone);
    }
    return { ids: new Set([...next.values()].map((milestone) => milestone.id)), negate: false };
  }
  if (named === 'started') {
    const started = active.filter(
      (milestone) =>
        milestone.start_date !== null &&
        milestone.start_date <= today &&
        (milestone.due_date === null || milestone.due_date >= today),
    );
    return { ids: new Set(started.map((milestone) => milestone.id)), negate: false };
  }
  const titled = usable.filter((milestone) => milestone.title === filter);
  return { ids: new Set(titled.map((milestone) => milestone.id)), negate: false };
}

/** Whether an issue or merge request carrying this milestone (or none) passes the filter. */
export function carriesMatchingMilestone(
  milestoneId: number | null | undefined,
  match: MilestoneMatch,
): boolean {
  const carried = milestoneId != null && match.ids.has(milestoneId);
  return match.negate ? !carried : carried;
}
