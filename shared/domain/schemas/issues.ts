/** Parameters of the project issue routes. */
import { ISSUE_DESCRIPTION_MAX_LENGTH, ISSUE_TITLE_MAX_LENGTH } from '../issues.ts';
import { MILESTONE_TITLE_MAX_LENGTH } from '../milestones.ts';
import {
  bool,
  commaList,
  date,
  id,
  idOrPath,
  list,
  optional,
  params,
  present,
  required,
  str,
  timestamp,
} from '../params.ts';
import { issuableListParams, stateEventParams } from './issuables.ts';
import { milestoneIdOrNone } from './milestones.ts';

const fields = {
  description: optional(str(ISSUE_DESCRIPTION_MAX_LENGTH)),
  confidential: optional(bool()),
  labels: optional(commaList(str())),
  add_labels: optional(commaList(str())),
  remove_labels: optional(commaList(str())),
  assignee_ids: optional(list(id())),
  assignee_id: optional(id()),
  due_date: optional(date()),
  discussion_locked: optional(bool()),
  milestone_id: optional(milestoneIdOrNone()),
};

const one = { id: required(idOrPath()), issue_iid: required(id()) };

export const issueSchemas = {
  list: params({
    id: required(idOrPath()),
    ...issuableListParams,
    confidential: optional(bool()),
    assignee_id: optional(id()),
    iids: optional(list(id())),
    milestone: optional(str(MILESTONE_TITLE_MAX_LENGTH)),
    my_reaction_emoji: optional(str()),
    with_labels_details: optional(bool()),
  }),
  one: params(one),
  create: params({
    id: required(idOrPath()),
    title: required(present(str(ISSUE_TITLE_MAX_LENGTH))),
    ...fields,
    created_at: optional(timestamp()),
  }),
  update: params({
    ...one,
    title: optional(present(str(ISSUE_TITLE_MAX_LENGTH))),
    ...fields,
    ...stateEventParams,
  }),
};
