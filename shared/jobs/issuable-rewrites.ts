/**
 * Issues and merge requests follow their labels and milestones: a label renamed or removed, or a
 * milestone removed, is seen on the table's stream (the `reference-changes` consumer), which only
 * queues an `issuable-rewrite` message; the job then rewrites the issuables of the owner's
 * projects, one bounded page per message, queueing the next page's message before it ends:
 *
 *   a group owner's projects (its whole tree), a page of ids → one message per project
 *   a project's issues, a page → the next page, then its merge requests likewise
 *   a group label's groups (its whole tree), a page of ids → one message per group
 *   a group's epics, a page → the next page
 *
 * Every step is safe twice (a rewrite finds the old title or id gone), so a redelivered message
 * does no harm. A label change is decided again on each page from the labels as they are then.
 */
import { labelRewriteFor } from '#domain/issuable-rewrites.ts';
import { groupLabelOwners, projectLabelOwners } from '#domain/labels.ts';
import type { QueueMessage } from '#queue/messages.ts';
import { publish } from '#queue/publish.ts';
import { getGroup } from '#store/groups/group-items.ts';
import {
  groupTreeGroupIds,
  groupTreeProjectIds,
  type IssuableRewrite,
  PROJECT_PARTITIONS,
  relabelEpicPage,
  rewriteIssuablePage,
} from '#store/issuables/issuable-rewrites.ts';
import { readReferenceCarry } from '#store/issuables/reference-carry.ts';
import { readLabels } from '#store/labels/labels.ts';
import { getProject } from '#store/projects/project-items.ts';

type RewriteMessage = QueueMessage<'issuable-rewrite'>;
type Step = NonNullable<RewriteMessage['at']>;

/** Issues or merge requests read (and rewritten) per message, and projects of a group's tree. */
const REWRITE_PAGE_SIZE = 100;

/** One page of the job (see the module comment), then the message of the next, if any. */
export async function runIssuableRewrite(message: RewriteMessage): Promise<void> {
  const { change } = message;
  const at: Step =
    message.at ??
    (change.owner.kind === 'group'
      ? { step: 'projects', visibility: 0 }
      : { step: 'issuables', projectId: change.owner.id, collection: 'issues' });
  if (at.step === 'groups' || at.step === 'epics') {
    if (change.kind === 'label') await relabelEpics(change, at);
    return;
  }
  // A group's label is also carried by the epics of the group and of its subgroups.
  if (!message.at && change.kind === 'label' && change.owner.kind === 'group')
    await publish('issuable-rewrite', { change, at: { step: 'groups' } });
  if (at.step === 'projects') {
    const page = await groupTreeProjectIds(change.owner.id, at.visibility, at.after, REWRITE_PAGE_SIZE);
    await Promise.all(
      page.items.map((projectId) =>
        publish('issuable-rewrite', { change, at: { step: 'issuables', projectId, collection: 'issues' } }),
      ),
    );
    const next: Step | undefined = page.next
      ? { ...at, after: page.next }
      : at.visibility + 1 < PROJECT_PARTITIONS
        ? { step: 'projects', visibility: at.visibility + 1 }
        : undefined;
    if (next) await publish('issuable-rewrite', { change, at: next });
    return;
  }
  const rewrite = await rewriteIn(at.projectId, change);
  if (!rewrite) return;
  const page = await rewriteIssuablePage(at.projectId, at.collection, rewrite, at.after, REWRITE_PAGE_SIZE);
  const next: Step | undefined = page.next
    ? { ...at, after: page.next }
    : at.collection === 'issues'
      ? { step: 'issuables', projectId: at.projectId, collection: 'merge_requests' }
      : undefined;
  if (next) await publish('issuable-rewrite', { change, at: next });
}

type LabelChange = Extract<RewriteMessage['change'], { kind: 'label' }>;

/** A page of the group label's tree groups (one message each), or of one group's epics relabelled. */
async function relabelEpics(change: LabelChange, at: Extract<Step, { step: 'groups' | 'epics' }>) {
  if (at.step === 'groups') {
    const page = await groupTreeGroupIds(change.owner.id, at.after, REWRITE_PAGE_SIZE);
    await Promise.all(
      page.items.map((groupId) => publish('issuable-rewrite', { change, at: { step: 'epics', groupId } })),
    );
    if (page.next) await publish('issuable-rewrite', { change, at: { step: 'groups', after: page.next } });
    return;
  }
  const group = await getGroup(at.groupId);
  if (!group) return;
  const owners = groupLabelOwners(group);
  const rewrite = labelRewriteFor(owners, await readLabels(owners), change);
  if (!rewrite) return;
  const page = await relabelEpicPage(at.groupId, rewrite, at.after, REWRITE_PAGE_SIZE);
  if (page.next)
    await publish('issuable-rewrite', {
      change,
      at: { step: 'epics', groupId: at.groupId, after: page.next },
    });
}

/**
 * What the project's issuables are made to follow, from the project and its labels as they are
 * now; none when the project is gone or the change means nothing to it (see labelRewriteFor). A
 * moved project's carry what they use of the groups it left (see readReferenceCarry).
 */
async function rewriteIn(
  projectId: number,
  change: RewriteMessage['change'],
): Promise<IssuableRewrite | undefined> {
  const project = await getProject(projectId);
  if (!project) return undefined;
  if (change.kind === 'milestone') return { milestoneId: change.milestoneId };
  if (change.kind === 'project-moved') {
    const carry = await readReferenceCarry(project, change.fromGroupIds);
    return carry && { carry };
  }
  const owners = projectLabelOwners(project);
  const labels = labelRewriteFor(owners, await readLabels(owners), change);
  return labels && { labels };
}
