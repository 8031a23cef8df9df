/**
 * The change a label's, a milestone's or a project's stream record asks issuables to follow: read
 * from the record's images alone, so the consumer that queues it bundles no database client.
 */
import {
  labelReferenceChange,
  type PlacedProject,
  projectMoveChange,
  type ReferenceChange,
} from '#domain/issuable-rewrites.ts';
import { decodeLabel } from '../labels/label-records.ts';
import { PROJECT_SK } from '../table/keys.ts';
import type { Raw } from '../table/raw.ts';
import { decodeMilestone } from './milestone-records.ts';

/** The change a committed label or milestone record asks the issuables to follow, if any. */
export function referenceChangeOf(change: {
  eventName: 'INSERT' | 'MODIFY' | 'REMOVE';
  oldImage?: Raw;
  newImage?: Raw;
}): ReferenceChange | undefined {
  const before = change.oldImage;
  if (!before || change.eventName === 'INSERT') return undefined;
  if (before.kind === 'label') {
    const after =
      change.eventName === 'REMOVE' || !change.newImage ? undefined : decodeLabel(change.newImage);
    return labelReferenceChange(decodeLabel(before), after);
  }
  if (before.kind === 'milestone' && change.eventName === 'REMOVE') {
    const milestone = decodeMilestone(before);
    return { kind: 'milestone', owner: milestone.owner, milestoneId: milestone.id };
  }
  if (before.sk === PROJECT_SK && change.eventName === 'MODIFY' && change.newImage) {
    const [from, to] = [placedProject(before), placedProject(change.newImage)];
    return from && to && projectMoveChange(from, to);
  }
  return undefined;
}

/** A project item's id and namespace (none when the image holds no namespace). */
function placedProject(item: Raw): PlacedProject | undefined {
  const namespace = item.namespace as Raw | undefined;
  if (!namespace || typeof namespace !== 'object') return undefined;
  const groupIds = Array.isArray(namespace.group_ids) ? namespace.group_ids.map(Number) : [];
  return { id: Number(item.id), namespace: { id: Number(namespace.id), group_ids: groupIds } };
}
