/**
 * From a committed repository state to push deliveries: the repository pointer's change names the
 * previous and the new refs document; each ref the new state changed is one Push Hook (branch) or
 * Tag Push Hook (tag) for the project's hooks that take it (their switch, a branch's filter). A
 * delivery's id is made from the new document and the ref, so a replayed record, or the same state
 * read twice, finds the deliveries written the first time.
 */
import { config } from '#config/env.ts';
import { ghostHookUser, payloadJson } from '#domain/hook-payloads.ts';
import { subscribes } from '#domain/hooks.ts';
import { pushedBranchProtected } from '#domain/protected-branches.ts';
import { isTagRef, pushPayload, pushTriggerOf, takesPush } from '#domain/push-payloads.ts';
import { readPushes, readRefsDocument } from '#repository/push-events.ts';
import { readProjectHooks } from '#store/hooks/hooks.ts';
import { getProject } from '#store/projects/project-items.ts';
import { readProtectedBranches } from '#store/projects/protected-branches.ts';
import { pointerRefsKey } from '#store/projects/repository-pointer.ts';
import type { Raw } from '#store/table/raw.ts';
import { getUsers } from '#store/users/users.ts';
import { deliverEvent } from './fan-out.ts';

/** A change of a project's repository pointer as the stream records it. */
export interface PointerChange {
  eventName: 'INSERT' | 'MODIFY' | 'REMOVE';
  keys: { pk: string; sk: string };
  newImage?: Raw;
  oldImage?: Raw;
}

/**
 * Turns one committed state into its push deliveries; the count of queue messages sent. A change
 * that names no new document (pending packs announced, a removal) or the same one sends nothing.
 */
export async function fanOutPushes(record: PointerChange): Promise<number> {
  if (record.eventName === 'REMOVE') return 0;
  const newKey = pointerRefsKey(record.newImage);
  const oldKey = pointerRefsKey(record.oldImage);
  if (newKey === undefined || newKey === oldKey) return 0;
  const projectId = Number(record.keys.pk.replace(/^PROJECT#/, ''));
  const hooks = (await readProjectHooks(projectId)).filter(
    (hook) => subscribes(hook, 'push_hooks') || subscribes(hook, 'tag_push_hooks'),
  );
  if (hooks.length === 0) return 0;
  const [project, before, after, protections] = await Promise.all([
    getProject(projectId),
    // A pointer's first document follows the legacy one when the repository had it.
    readRefsDocument(projectId, oldKey),
    readRefsDocument(projectId, newKey),
    readProtectedBranches(projectId),
  ]);
  if (!project) return 0;
  if (!after) throw new Error(`Repository of project ${projectId} names ${newKey}, which is not stored`);
  const pushes = await readPushes(projectId, before, after);
  if (pushes.length === 0) return 0;
  // A job's state has no pusher: a mirror's update acts for its mirror user, an import (or a
  // fork's copy) for the project's creator.
  const pushedBy = record.newImage?.pushed_by;
  const userId =
    typeof pushedBy === 'number'
      ? pushedBy
      : ((project.mirror ? project.mirror_user_id : undefined) ?? project.creator_id);
  const user = (await getUsers([userId])).get(userId) ?? ghostHookUser(userId);
  const baseUrl = config.externalUrl ?? 'http://localhost';
  let sent = 0;
  for (const push of pushes) {
    const { ref } = push.change;
    const taking = hooks.filter((hook) => takesPush(hook, ref, subscribes));
    if (taking.length === 0) continue;
    const payload = pushPayload({
      ...push,
      refProtected: !isTagRef(ref) && pushedBranchProtected(protections, before, after, ref),
      user,
      project,
      baseUrl,
    });
    const eventKey = `push|${projectId}|${newKey}|${ref}`;
    sent += await deliverEvent(projectId, taking, pushTriggerOf(ref), payloadJson(payload), eventKey);
  }
  return sent;
}
