/**
 * From a committed change to deliveries: what happened (store/hooks/hook-changes.ts), which of the
 * project's hooks subscribe to it, GitLab's payload, one delivery per hook (written once: a replay
 * of the same stream record finds them; carrying what its attempts need of the hook) and one queue
 * message per delivery still pending.
 */
import { createHash } from 'node:crypto';
import { putBlob } from '#blob/s3.ts';
import { config } from '#config/env.ts';
import {
  emojiHookTrigger,
  emojiPayload,
  ghostHookUser,
  issueHookTrigger,
  issuePayload,
  mergeRequestHookTrigger,
  mergeRequestPayload,
  noteHookTrigger,
  notePayload,
  payloadJson,
} from '#domain/hook-payloads.ts';
import { type Hook, type HookTrigger, subscribes } from '#domain/hooks.ts';
import { noteHookParent } from '#domain/noteables.ts';
import { publish } from '#queue/publish.ts';
import {
  type HookChange,
  type HookChangeContext,
  hookChangeOf,
  type ItemChange,
  readHookChangeContext,
} from '#store/hooks/hook-changes.ts';
import { deliveryTargetOf, recordDeliveries, storedPayload } from '#store/hooks/hook-deliveries.ts';
import { readProjectHooks } from '#store/hooks/hooks.ts';

/** A UUID-shaped name made from `seed` (so the same event and hook always name the same delivery). */
export function uuidFrom(seed: string): string {
  const hex = createHash('sha256').update(seed).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** The hooks' trigger of a change and its payload (confidential issues and notes on them go to their own hooks). */
function eventOf(
  change: HookChange,
  context: HookChangeContext,
): { trigger: HookTrigger; payload: unknown } | undefined {
  const baseUrl = config.externalUrl ?? 'http://localhost';
  const { project, users } = context;
  const user = users.get(change.actorId) ?? ghostHookUser(change.actorId);
  switch (change.kind) {
    case 'issue':
      return {
        trigger: issueHookTrigger(change.issue),
        payload: issuePayload({ ...change, project, user, users, baseUrl }),
      };
    case 'merge_request':
      return {
        trigger: mergeRequestHookTrigger(),
        payload: mergeRequestPayload({ ...change, mr: change.mergeRequest, project, user, users, baseUrl }),
      };
    case 'emoji': {
      const parent = context.noteParent && noteHookParent(context.noteParent, project, baseUrl);
      const onNote = change.award.awardable_type === 'Note';
      if (!parent || (onNote && !context.awardedNote)) return undefined;
      return {
        trigger: emojiHookTrigger(),
        payload: emojiPayload({
          action: change.action,
          award: change.award,
          parent,
          ...(context.awardedNote ? { note: context.awardedNote } : {}),
          project,
          user,
          baseUrl,
        }),
      };
    }
    case 'note': {
      // What the payload shows of the parent read beside the change (none: it went away).
      const parent = context.noteParent && noteHookParent(context.noteParent, project, baseUrl);
      if (!parent) return undefined;
      return {
        trigger: noteHookTrigger(parent),
        payload: notePayload({ action: change.action, note: change.note, parent, project, user, baseUrl }),
      };
    }
  }
}

/** Turns one stream record into its deliveries; the count of queue messages sent. */
export async function fanOut(record: ItemChange, eventId: string): Promise<number> {
  const change = await hookChangeOf(record);
  if (!change) return 0;
  const hooks = await readProjectHooks(change.projectId);
  if (hooks.length === 0) return 0;
  const context = await readHookChangeContext(change);
  if (!context) return 0;
  const event = eventOf(change, context);
  if (!event) return 0;
  const { trigger } = event;
  const subscribed = hooks.filter((hook) => subscribes(hook, trigger));
  if (subscribed.length === 0) return 0;
  return deliverEvent(change.projectId, subscribed, trigger, payloadJson(event.payload), eventId);
}

/**
 * One event's deliveries to `hooks`, each written once (ids from `eventKey` and the hook, so a
 * replay finds them), the payload beside them or, when too long for an item, in the bucket; then
 * the messages of those still pending. The count of messages sent.
 */
export async function deliverEvent(
  projectId: number,
  hooks: readonly Hook[],
  trigger: HookTrigger,
  json: string,
  eventKey: string,
): Promise<number> {
  const eventUuid = uuidFrom(`event|${eventKey}`);
  let stored = storedPayload(json);
  if (!stored) {
    const key = `hook-payloads/${eventUuid}.json`;
    await putBlob(key, Buffer.from(json), 'application/json');
    stored = { payload_blob: key };
  }
  const pending = await recordDeliveries(
    hooks.map((hook) => ({
      id: uuidFrom(`delivery|${eventKey}|${hook.id}`),
      hook_id: hook.id,
      project_id: projectId,
      trigger,
      event_uuid: eventUuid,
      // What its attempts need of the hook, as read now: they read no hook item.
      target: deliveryTargetOf(hook),
    })),
    stored,
  );
  await Promise.all(pending.map((deliveryId) => publish('hook-delivery', { deliveryId })));
  return pending.length;
}
