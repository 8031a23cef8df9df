/**
 * A milestone item read back as the domain's Milestone: apart from the store's reads and writes,
 * so that what decodes a stream image (the reference-changes consumer) bundles no database client.
 */
import type { Milestone } from '#domain/milestones.ts';
import type { Raw } from '../table/raw.ts';

const nullableString = (value: unknown) => (typeof value === 'string' ? value : null);

export function decodeMilestone(item: Raw): Milestone {
  return {
    id: Number(item.id),
    iid: Number(item.iid),
    owner: { kind: item.owner_kind === 'group' ? 'group' : 'project', id: Number(item.owner_id) },
    title: String(item.title),
    description: nullableString(item.description),
    state: item.state === 'closed' ? 'closed' : 'active',
    due_date: nullableString(item.due_date),
    start_date: nullableString(item.start_date),
    created_at: String(item.created_at),
    updated_at: String(item.updated_at),
  };
}
