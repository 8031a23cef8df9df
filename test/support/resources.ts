/**
 * What integration tests set up over HTTP, as a client would: groups, projects, members and
 * milestones, each required to be created (`must`), and GitLab's Milestone entity as the API answers it.
 */
import { api, baseUrl, must, type TestUser, unique } from './api.ts';

export interface GroupBody {
  id: number;
  full_path: string;
}

export interface ProjectBody {
  id: number;
  path_with_namespace: string;
}

export interface MilestoneBody {
  id: number;
  iid: number;
  title: string;
  created_at: string;
  updated_at: string;
}

/** A top-level group of the owner's (private unless `json` says otherwise), its name its path. */
export const newGroup = (owner: TestUser, json: Record<string, unknown> = {}) => {
  const path = unique('group');
  return must(
    api<GroupBody>('POST', '/groups', {
      token: owner.token,
      json: { name: path, path, visibility: 'private', ...json },
    }),
    201,
    'group create',
  );
};

/** A project of the owner's (in their namespace unless `json` says otherwise), of a name of its own. */
export const newProject = (owner: TestUser, json: Record<string, unknown> = {}) =>
  must(
    api<ProjectBody>('POST', '/projects', { token: owner.token, json: { name: unique('project'), ...json } }),
    201,
    'project create',
  );

/** The user made a member of a group or project (`/groups/<id>`, `/projects/<id>`) at `level`, by the owner. */
export const addMember = (owner: TestUser, place: string, user: { id: number }, level: number) =>
  must(
    api('POST', `${place}/members`, { token: owner.token, json: { user_id: user.id, access_level: level } }),
    201,
    'member add',
  );

/** A milestone of a group or project (`/groups/<id>`, `/projects/<id>`), created by `owner`. */
export const newMilestone = (owner: TestUser, place: string, json: Record<string, unknown>) =>
  must(api<MilestoneBody>('POST', `${place}/milestones`, { token: owner.token, json }), 201, 'milestone');

/** Who owns a milestone, as its entity shows it. */
export type MilestoneOwnerBody =
  | { kind: 'project'; project: ProjectBody }
  | { kind: 'group'; group: GroupBody };

/** GitLab's Milestone entity as answered: active, undated and without a description unless `fields` say otherwise. */
export const milestoneView = (
  owner: MilestoneOwnerBody,
  milestone: MilestoneBody,
  fields: Partial<{
    title: string;
    description: string | null;
    state: string;
    due_date: string | null;
    start_date: string | null;
    expired: boolean;
  }> = {},
) => {
  const base = baseUrl().replace(/\/+$/, '');
  return {
    id: milestone.id,
    iid: milestone.iid,
    ...(owner.kind === 'project' ? { project_id: owner.project.id } : { group_id: owner.group.id }),
    title: milestone.title,
    description: null,
    state: 'active',
    created_at: milestone.created_at,
    updated_at: milestone.updated_at,
    due_date: null,
    start_date: null,
    expired: false,
    web_url:
      owner.kind === 'project'
        ? `${base}/${owner.project.path_with_namespace}/-/milestones/${milestone.iid}`
        : `${base}/groups/${owner.group.full_path}/-/milestones/${milestone.iid}`,
    ...fields,
  };
};
