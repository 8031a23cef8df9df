/**
 * Parameters of the project and group label routes. A label is named in the path by id or title
 * (`label_id`), or on the older routes without it by `name`.
 */
import * as v from 'valibot';
import { LABEL_COLOR_MAX_LENGTH, LABEL_DESCRIPTION_MAX_LENGTH, LABEL_TITLE_MAX_LENGTH } from '../labels.ts';
import { bool, idOrPath, int, optional, params, required, str } from '../params.ts';

/** A priority that may be sent empty (or null) to remove it: present in the output as null then. */
const clearablePriority = () =>
  v.optional(
    v.pipe(
      v.unknown(),
      v.transform((value) => (value === '' ? null : value)),
      v.nullable(int()),
    ),
  );

/** A title in a path or parameter: a little longer than a title may be, so trimming can still find it. */
const labelReference = () => str(LABEL_TITLE_MAX_LENGTH * 2);

const owner = { id: required(idOrPath()) };
const create = {
  ...owner,
  name: required(str(LABEL_TITLE_MAX_LENGTH * 2)),
  color: required(str(LABEL_COLOR_MAX_LENGTH)),
  description: optional(str(LABEL_DESCRIPTION_MAX_LENGTH)),
};
const update = {
  new_name: optional(str(LABEL_TITLE_MAX_LENGTH * 2)),
  color: optional(str(LABEL_COLOR_MAX_LENGTH)),
  description: optional(str(LABEL_DESCRIPTION_MAX_LENGTH)),
};

export const labelSchemas = {
  list: params({
    ...owner,
    with_counts: optional(bool()),
    include_ancestor_groups: optional(bool()),
    include_descendant_groups: optional(bool()),
    only_group_labels: optional(bool()),
    search: optional(str()),
  }),
  one: params({ ...owner, label_id: required(labelReference()), include_ancestor_groups: optional(bool()) }),
  createInProject: params({ ...create, priority: optional(int()) }),
  createInGroup: params(create),
  updateInProject: params({
    ...owner,
    label_id: required(labelReference()),
    ...update,
    priority: clearablePriority(),
  }),
  updateInProjectByName: params({
    ...owner,
    name: required(labelReference()),
    ...update,
    priority: clearablePriority(),
  }),
  updateInGroup: params({ ...owner, label_id: required(labelReference()), ...update }),
  updateInGroupByName: params({ ...owner, name: required(labelReference()), ...update }),
  deleteByName: params({ ...owner, name: required(labelReference()) }),
  /** The subscription routes name the label by id or title too. */
  subscription: params({ ...owner, label_id: required(labelReference()) }),
  promote: params({ ...owner, name: required(labelReference()) }),
  promoteById: params({ ...owner, label_id: required(labelReference()) }),
};
