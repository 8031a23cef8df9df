/**
 * Labels of projects and groups. A label lives in its owner's partition (`PROJECT#<id>` or
 * `GROUP#<id>`, sort `LABEL#<id>`), so an owner's labels are one Query of its own partition,
 * whatever the table holds, and a project's go with its partition when it is purged. Its title is
 * unique in the owner through a title item written in the same transaction (`LABELTITLE#<hash>`),
 * and a user's subscriptions sit beside them (`LABELSUB#<user>#<label>`), one Query per owner.
 */
import { ApiError, conflict, notFound } from '#domain/errors.ts';
import {
  implicitLabels,
  type Label,
  type LabelChanges,
  type LabelOwner,
  type NewLabel,
} from '#domain/labels.ts';
import { nextId } from '../table/ids.ts';
import { readPartition } from '../table/items.ts';
import { keys, LABEL_PREFIX, labelSubscriptionPrefix } from '../table/keys.ts';
import type { Raw } from '../table/raw.ts';
import {
  check,
  commit,
  EXISTING_ITEM,
  LIVE_ITEM,
  NEW_ITEM,
  put,
  refusedWith,
  remove,
  unique,
  update,
  writeAlone,
} from '../table/transaction.ts';
import { decodeLabel } from './label-records.ts';

const ownerPk = (owner: LabelOwner) =>
  owner.kind === 'project' ? `PROJECT#${owner.id}` : `GROUP#${owner.id}`;
const ownerKey = (owner: LabelOwner) =>
  owner.kind === 'project' ? keys.project(owner.id) : keys.group(owner.id);
const ownerGone = (owner: LabelOwner) => notFound(owner.kind === 'project' ? 'Project' : 'Group');
const labelExists = () => conflict('Label already exists');

const labelItem = (label: Label): Raw => ({
  ...keys.label(ownerPk(label.owner), label.id),
  kind: 'label',
  id: label.id,
  title: label.title,
  color: label.color,
  description: label.description,
  priority: label.priority,
  owner_kind: label.owner.kind,
  owner_id: label.owner.id,
  created_at: label.created_at,
  updated_at: label.updated_at,
});

const titleItem = (label: Label): Raw => ({
  ...keys.labelTitle(ownerPk(label.owner), label.title),
  kind: 'label_title',
  label_id: label.id,
});

// Reads ------------------------------------------------------------------------------------------

/** The labels of each owner, read side by side (a project and its ancestor groups: the tree's depth). */
export async function readLabels(owners: readonly LabelOwner[]): Promise<Label[]> {
  const pages = await Promise.all(
    owners.map((owner) => readPartition(ownerPk(owner), { skPrefix: LABEL_PREFIX, consistent: true })),
  );
  return pages.flat().map(decodeLabel);
}

/** The ids of the labels of these owners the user is subscribed to. */
async function readSubscriptions(owners: readonly LabelOwner[], userId: number): Promise<Set<number>> {
  const pages = await Promise.all(
    owners.map((owner) =>
      readPartition(ownerPk(owner), { skPrefix: labelSubscriptionPrefix(userId), projection: 'label_id' }),
    ),
  );
  return new Set(pages.flat().map((item) => Number(item.label_id)));
}

/** The labels of these owners with the ids of those the reader (if any) is subscribed to. */
export async function readLabelsFor(
  owners: readonly LabelOwner[],
  readerId: number | undefined,
): Promise<{ labels: Label[]; subscribed: Set<number> }> {
  const [labels, subscribed] = await Promise.all([
    readLabels(owners),
    readerId === undefined ? new Set<number>() : readSubscriptions(owners, readerId),
  ]);
  return { labels, subscribed };
}

// Writes -----------------------------------------------------------------------------------------

/** Creates a label in its owner (409 `Label already exists` for a title the owner has). */
export async function createLabel(fields: NewLabel): Promise<Label> {
  const now = new Date().toISOString();
  const label: Label = { ...fields, id: await nextId('label'), created_at: now, updated_at: now };
  await commit([
    refusedWith(check(ownerKey(label.owner), LIVE_ITEM), ownerGone(label.owner)),
    refusedWith(put(titleItem(label), NEW_ITEM), labelExists()),
    put(labelItem(label), NEW_ITEM),
  ]);
  return label;
}

/**
 * Creates, in the project, a label for each title that none of `available` (the labels of the
 * project and its groups, as read) has; a title created meanwhile by another request is taken as it is.
 */
export async function createLabelsMissingFrom(
  available: readonly Label[],
  titles: readonly string[],
  projectId: number,
): Promise<void> {
  await Promise.all(
    implicitLabels(available, titles, projectId).map((label) =>
      createLabel(label).catch((error: unknown) => {
        if (error instanceof ApiError && error.status === 409) return undefined;
        throw error;
      }),
    ),
  );
}

/**
 * Changes a label, on the condition that it is still as read (its `updated_at`): a new title
 * takes its title item (400 `title has already been taken` when the owner has it) and frees the old one in the same transaction.
 */
export async function changeLabel(label: Label, changes: LabelChanges): Promise<Label> {
  const changed: Label = { ...label, ...changes, updated_at: new Date().toISOString() };
  const pk = ownerPk(label.owner);
  const renamed = changed.title !== label.title;
  await commit([
    refusedWith(
      update(
        keys.label(pk, label.id),
        'SET title = :title, color = :color, description = :description, priority = :priority, updated_at = :now',
        {
          condition: 'attribute_exists(pk) AND updated_at = :read',
          values: {
            ':title': changed.title,
            ':color': changed.color,
            ':description': changed.description,
            ':priority': changed.priority,
            ':now': changed.updated_at,
            ':read': label.updated_at,
          },
        },
      ),
      conflict('Label was changed meanwhile, try again'),
    ),
    ...(renamed
      ? [
          remove(keys.labelTitle(pk, label.title), EXISTING_ITEM),
          unique(put(titleItem(changed), NEW_ITEM), 'title'),
        ]
      : []),
  ]);
  return changed;
}

/** Removes a label and its title (404 when it went meanwhile). */
export async function deleteLabel(label: Label): Promise<void> {
  const pk = ownerPk(label.owner);
  await commit([
    refusedWith(remove(keys.label(pk, label.id), EXISTING_ITEM), notFound('Label')),
    remove(keys.labelTitle(pk, label.title)),
  ]);
}

/**
 * Makes a project label its group's, in one transaction: the project's label and title go, and the
 * group's label of that title is the one found or, when the group has none, one created with the
 * project label's fields (404 when the project label went meanwhile). Issues and merge requests
 * name labels by title, so they keep theirs.
 */
export async function promoteLabel(
  label: Label,
  group: LabelOwner,
  existing: Label | undefined,
): Promise<Label> {
  const pk = ownerPk(label.owner);
  const gone = [
    refusedWith(remove(keys.label(pk, label.id), EXISTING_ITEM), notFound('Label')),
    remove(keys.labelTitle(pk, label.title)),
  ];
  if (existing) {
    await commit(gone);
    return existing;
  }
  const now = new Date().toISOString();
  const promoted: Label = {
    ...label,
    id: await nextId('label'),
    owner: group,
    priority: null,
    created_at: now,
    updated_at: now,
  };
  await commit([
    ...gone,
    refusedWith(check(ownerKey(group), LIVE_ITEM), ownerGone(group)),
    refusedWith(put(titleItem(promoted), NEW_ITEM), conflict('Label was promoted meanwhile, try again')),
    put(labelItem(promoted), NEW_ITEM),
  ]);
  return promoted;
}

/** Subscribes the user to the label: false when they already were. */
export const subscribeToLabel = (label: Label, userId: number) =>
  writeAlone(
    put(
      {
        ...keys.labelSubscription(ownerPk(label.owner), userId, label.id),
        kind: 'label_subscription',
        label_id: label.id,
      },
      NEW_ITEM,
    ),
  );

/** Unsubscribes the user from the label: false when they were not subscribed. */
export const unsubscribeFromLabel = (label: Label, userId: number) =>
  writeAlone(remove(keys.labelSubscription(ownerPk(label.owner), userId, label.id), EXISTING_ITEM));

/** Removes a group's labels, their titles and subscriptions (the group purge; a project's go with its partition). */
export async function purgeGroupLabels(groupId: number): Promise<void> {
  const pk = ownerPk({ kind: 'group', id: groupId });
  // Labels, their titles and subscriptions all sort under `LABEL`.
  const items = await readPartition(pk, { skPrefix: 'LABEL', projection: 'pk, sk', consistent: true });
  await Promise.all(items.map((item) => writeAlone(remove({ pk, sk: String(item.sk) }))));
}
