import { issueBasicEntity } from '#domain/issues.ts';
import { listedSha, mergeRequestBasic } from '#domain/merge-requests.ts';
import { type Milestone, ownMilestone } from '#domain/milestones.ts';
import {
  canReadMergeRequests,
  confidentialIssuesHiddenFrom,
  type InProject,
  listsIssues,
} from '#domain/noteable-policy.ts';
import type { PageRequest } from '#domain/pagination.ts';
import { milestoneSchemas } from '#domain/schemas/milestones.ts';
import { project } from '#http/load.ts';
import { type MilestoneIssuableKind, perMilestoneIssuable } from '#http/milestone-issuables.ts';
import { reply } from '#http/reply.ts';
import { defineRoute } from '#http/route.ts';
import { readProjectRefs } from '#repository/merge-request-code.ts';
import { listIssuesWithUsers } from '#store/issuables/issues.ts';
import { listMergeRequestsWithMilestones } from '#store/issuables/merge-request-items.ts';
import { readMilestone } from '#store/issuables/milestones.ts';

/** What a page of one kind is read with. */
interface Asked extends InProject {
  milestone: Milestone;
  page: PageRequest;
  baseUrl: string;
}

const carrying = (milestone: Milestone) => ({ ids: new Set([milestone.id]), negate: false });

/** Per kind: who lists it, and a page of it carrying the milestone, newest first, as shown. */
const KINDS: Record<
  MilestoneIssuableKind,
  {
    lists: (context: InProject) => boolean;
    read: (asked: Asked) => Promise<{ shown: unknown[]; total: number | undefined }>;
  }
> = {
  // Confidential issues only for those who may see them.
  issues: {
    lists: listsIssues,
    read: async ({ project, caller, access, milestone, page, baseUrl }) => {
      const { items, total, users, milestones } = await listIssuesWithUsers(project, {
        filter: { milestones: carrying(milestone) },
        order: 'created_at',
        sort: 'desc',
        page,
        hidesConfidentialFrom: confidentialIssuesHiddenFrom({ project, caller, access }),
      });
      return {
        shown: items.map((issue) => issueBasicEntity(issue, project, users, baseUrl, milestones)),
        total,
      };
    },
  },
  merge_requests: {
    lists: canReadMergeRequests,
    read: async ({ project, caller, milestone, page, baseUrl }) => {
      const [{ items, total, users, milestones }, refs] = await Promise.all([
        listMergeRequestsWithMilestones(project, {
          filter: { milestones: carrying(milestone) },
          order: 'created_at',
          sort: 'desc',
          page,
          viewerId: caller?.id,
        }),
        readProjectRefs(project.id),
      ]);
      const shown = items.map((mr) =>
        mergeRequestBasic(mr, project, users, baseUrl, milestones, listedSha(mr, refs)),
      );
      return { shown, total };
    },
  },
};

/**
 * The issues or merge requests of the project carrying one of its milestones, newest first, for
 * those who list them (an empty page for the others).
 */
export const handler = perMilestoneIssuable((kind) =>
  defineRoute({
    auth: 'user',
    paginated: true,
    params: milestoneSchemas.issuables,
    load: project({ ahead: true }),
    run: async ({ params: input, caller, page, request, project, access }) => {
      const owner = { kind: 'project', id: project.id } as const;
      const milestone = ownMilestone(await readMilestone(owner, input.milestone_id), owner);
      if (!KINDS[kind].lists({ project, caller, access })) return reply.page([], 0, page);
      const { shown, total } = await KINDS[kind].read({
        project,
        caller,
        access,
        milestone,
        page,
        baseUrl: request.baseUrl,
      });
      return reply.page(shown, total, page);
    },
  }),
);
