/** Parameters of the project and group milestone routes (a milestone is named by its global id). */
import * as v from 'valibot';
import { MILESTONE_DESCRIPTION_MAX_LENGTH, MILESTONE_TITLE_MAX_LENGTH } from '../milestones.ts';
import {
  bool,
  commaList,
  date,
  id,
  idOrPath,
  int,
  oneOf,
  optional,
  params,
  required,
  str,
  timestamp,
} from '../params.ts';

const owner = { id: required(idOrPath()) };
const one = { ...owner, milestone_id: required(id()) };
const details = {
  description: optional(str(MILESTONE_DESCRIPTION_MAX_LENGTH)),
  due_date: optional(date()),
  start_date: optional(date()),
};

export const milestoneSchemas = {
  list: params({
    ...owner,
    state: optional(oneOf(['active', 'closed', 'all'])),
    iids: optional(commaList(id())),
    title: optional(str(MILESTONE_TITLE_MAX_LENGTH)),
    search: optional(str()),
    include_ancestors: optional(bool()),
    include_parent_milestones: optional(bool()),
    updated_before: optional(timestamp()),
    updated_after: optional(timestamp()),
  }),
  one: params(one),
  /** A milestone's issues or merge requests: a page of them. */
  issuables: params(one),
  create: params({ ...owner, title: required(str(MILESTONE_TITLE_MAX_LENGTH)), ...details }),
  update: params({
    ...one,
    title: optional(str(MILESTONE_TITLE_MAX_LENGTH)),
    state_event: optional(oneOf(['close', 'activate'])),
    ...details,
  }),
};

/** `milestone_id` of an issue or merge request: an id, or 0 or empty to remove the milestone (null). */
export const milestoneIdOrNone = () =>
  v.pipe(
    v.unknown(),
    v.transform((value) => (value === '' ? 0 : value)),
    int(),
    v.transform((value) => (value > 0 ? value : null)),
  );
