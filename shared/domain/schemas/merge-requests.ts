/** Parameters of the project merge request routes (GitLab's lib/api/merge_requests.rb). */
import * as v from 'valibot';
import {
  MERGE_REQUEST_DESCRIPTION_MAX_LENGTH,
  MERGE_REQUEST_STATES,
  MERGE_REQUEST_TITLE_MAX_LENGTH,
} from '../merge-requests.ts';
import { MILESTONE_TITLE_MAX_LENGTH } from '../milestones.ts';
import {
  bool,
  commaList,
  id,
  idOrPath,
  int,
  issueCode,
  list,
  oneOf,
  optional,
  params,
  present,
  required,
  str,
  timestamp,
} from '../params.ts';
import { stateEventParams, timeOrderParams } from './issuables.ts';
import { milestoneIdOrNone } from './milestones.ts';

/** A user id, or 0 for nobody (GitLab unassigns with `assignee_id=0`). */
const userIdOrNobody = () =>
  v.pipe(
    int(),
    v.check((value) => value >= 0, issueCode.invalid),
  );

/**
 * A user id, or `none`/`any` (any case), as the finders filter assignees; anything else "does not
 * have a valid value" (Grape's `values` proc).
 */
const assigneeFilter = () =>
  v.pipe(
    v.unknown(),
    v.transform((value) => (Array.isArray(value) ? value[value.length - 1] : value)),
    v.union([v.string(), v.number()], issueCode.invalid),
    v.transform((value) => String(value).trim()),
    v.check((value) => /^(none|any|\d{1,15})$/i.test(value) && value !== '0', issueCode.notAllowed),
    v.transform((value) => (/^\d+$/.test(value) ? Number(value) : (value.toLowerCase() as 'none' | 'any'))),
  );

/** A list a merge request keeps (labels, assignees): at most this many, so its item stays in bounds. */
const MAX_KEPT = 100;
const bounded = <T extends v.GenericSchema<unknown, unknown[]>>(schema: T) =>
  v.pipe(
    schema,
    v.check((values) => values.length <= MAX_KEPT, issueCode.invalid),
  );

/** Optional fields of both writes (`optional_params` of the API). */
const fields = {
  description: optional(str(MERGE_REQUEST_DESCRIPTION_MAX_LENGTH)),
  assignee_id: optional(userIdOrNobody()),
  assignee_ids: optional(bounded(list(userIdOrNobody()))),
  milestone_id: optional(milestoneIdOrNone()),
  labels: optional(bounded(commaList(str()))),
  add_labels: optional(bounded(commaList(str()))),
  remove_labels: optional(bounded(commaList(str()))),
  remove_source_branch: optional(bool()),
  /** Accepted: no one but the author pushes to a fork's source branch here, so they change nothing. */
  allow_collaboration: optional(bool()),
  allow_maintainer_to_push: optional(bool()),
  squash: optional(bool()),
};

const branch = () => present(str());

const one = { id: required(idOrPath()), merge_request_iid: required(id()) };

export const mergeRequestSchemas = {
  list: params({
    id: required(idOrPath()),
    state: optional(oneOf([...MERGE_REQUEST_STATES, 'all'])),
    ...timeOrderParams,
    milestone: optional(str(MILESTONE_TITLE_MAX_LENGTH)),
    labels: optional(commaList(str())),
    created_after: optional(timestamp()),
    created_before: optional(timestamp()),
    updated_after: optional(timestamp()),
    updated_before: optional(timestamp()),
    view: optional(oneOf(['simple'])),
    author_id: optional(id()),
    assignee_id: optional(assigneeFilter()),
    scope: optional(oneOf(['created-by-me', 'assigned-to-me', 'created_by_me', 'assigned_to_me', 'all'])),
    my_reaction_emoji: optional(str()),
    with_labels_details: optional(bool()),
    source_branch: optional(str()),
    target_branch: optional(str()),
    search: optional(str()),
    wip: optional(oneOf(['yes', 'no'])),
    iids: optional(list(id())),
  }),
  one: params(one),
  /** Declared in GitLab's order, so several missing parameters are named in that order. */
  create: params({
    id: required(idOrPath()),
    title: required(present(str(MERGE_REQUEST_TITLE_MAX_LENGTH))),
    source_branch: required(branch()),
    target_branch: required(branch()),
    target_project_id: optional(id()),
    ...fields,
  }),
  /** The merge: messages, squash, the source's removal, the sha seen (pipelines are ignored). */
  merge: params({
    ...one,
    merge_commit_message: optional(str()),
    squash_commit_message: optional(str()),
    squash: optional(bool()),
    should_remove_source_branch: optional(bool()),
    merge_when_pipeline_succeeds: optional(bool()),
    auto_merge: optional(bool()),
    sha: optional(str()),
  }),
  rebase: params({ ...one, skip_ci: optional(bool()) }),
  changes: params({ ...one, access_raw_diffs: optional(bool()), unidiff: optional(bool()) }),
  /** `title` and `target_branch` may not be blank: Grape's `allow_blank: false` (see updateParamsError). */
  update: params({
    ...one,
    title: optional(str(MERGE_REQUEST_TITLE_MAX_LENGTH)),
    target_branch: optional(str()),
    ...stateEventParams,
    discussion_locked: optional(bool()),
    ...fields,
  }),
};
