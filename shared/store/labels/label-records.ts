/**
 * A label item read back as the domain's Label: apart from the store's reads and writes, so that
 * what decodes a stream image (the reference-changes consumer) bundles no database client.
 */
import type { Label } from '#domain/labels.ts';
import type { Raw } from '../table/raw.ts';

export function decodeLabel(item: Raw): Label {
  return {
    id: Number(item.id),
    title: String(item.title),
    color: String(item.color),
    description: typeof item.description === 'string' ? item.description : null,
    priority: typeof item.priority === 'number' ? item.priority : null,
    owner: { kind: item.owner_kind === 'group' ? 'group' : 'project', id: Number(item.owner_id) },
    created_at: String(item.created_at),
    updated_at: String(item.updated_at),
  };
}
