import type { Group } from '#domain/groups.ts';
import { issueBasicEntity } from '#domain/issues.ts';
import { listedSha, type MergeRequest, mergeRequestBasic } from '#domain/merge-requests.ts';
import { type Milestone, ownMilestone } from '#domain/milestones.ts';
import type { PageRequest } from '#domain/pagination.ts';
import type { Project } from '#domain/projects.ts';
import type { ReadScope } from '#domain/read-scope.ts';
import { milestoneSchemas } from '#domain/schemas/milestones.ts';
import { type IssuableSearchRules, issuableSearchRulesOf } from '#domain/search-policy.ts';
import type { User } from '#domain/users.ts';
import { group } from '#http/load.ts';
import { type MilestoneIssuableKind, perMilestoneIssuable } from '#http/milestone-issuables.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { readRefsOfProjects } from '#repository/merge-request-code.ts';
import {
  listGroupMilestoneIssues,
  listGroupMilestoneMergeRequests,
  type MilestoneIssuablesPage,
} from '#store/issuables/milestone-issuables.ts';
import { readMilestone } from '#store/issuables/milestones.ts';

/** A kind's page of the group's subtree and how one of its items is shown. */
interface Kind<T> {
  list: (
    group: Group,
    milestone: Milestone,
    rules: IssuableSearchRules,
    scope: ReadScope,
    page: PageRequest,
  ) => Promise<MilestoneIssuablesPage<T>>;
  shown: (
    item: T,
    project: Project,
    users: ReadonlyMap<number, User>,
    baseUrl: string,
    milestones: ReadonlyMap<number, Milestone>,
    refs: Readonly<Record<string, string>> | undefined,
  ) => unknown;
  /** Whether an item shows what its project's repository holds (its refs read once per project of the page). */
  readsRefs: boolean;
}

/** A kind with its item type forgotten (each lists and shows only its own items). */
const anyKind = <T>(kind: Kind<T>) => kind as unknown as Kind<unknown>;

const KINDS: Record<MilestoneIssuableKind, Kind<unknown>> = {
  issues: anyKind({ list: listGroupMilestoneIssues, shown: issueBasicEntity, readsRefs: false }),
  merge_requests: anyKind({
    list: listGroupMilestoneMergeRequests,
    shown: (mr: MergeRequest, project, users, baseUrl, milestones, refs) =>
      mergeRequestBasic(mr, project, users, baseUrl, milestones, listedSha(mr, refs)),
    readsRefs: true,
  }),
};

/**
 * The issues or merge requests carrying one of the group's milestones in the projects of the group
 * and its subgroups the caller reads them in, newest first; confidential issues only for those who
 * may see them.
 */
export const handler = perMilestoneIssuable((kind) =>
  defineRoute({
    auth: 'user',
    paginated: true,
    params: milestoneSchemas.issuables,
    load: group(),
    run: async ({ params: input, caller, readScope, page, request, group }) => {
      const owner = { kind: 'group', id: group.id } as const;
      const milestone = ownMilestone(await readMilestone(owner, input.milestone_id), owner);
      const { list, shown, readsRefs } = KINDS[kind];
      const found = await list(group, milestone, issuableSearchRulesOf(caller), readScope, page);
      const milestones = new Map([[milestone.id, milestone]]);
      const refs = readsRefs
        ? await readRefsOfProjects(found.entries.map(({ project }) => project.id))
        : new Map<number, Readonly<Record<string, string>>>();
      return reply.page(
        found.entries.map(({ item, project }) =>
          shown(item, project, found.users, request.baseUrl, milestones, refs.get(project.id)),
        ),
        found.total,
        page,
      );
    },
  }),
);
