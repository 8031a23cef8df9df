/** Parameters every list of issues, merge requests, epics and notes shares. */
import { commaList, id, oneOf, optional, str } from '../params.ts';

/** `order_by` and `sort` of lists in time order (GitLab's default: created_at, desc). */
export const timeOrderParams = {
  order_by: optional(oneOf(['created_at', 'updated_at'])),
  sort: optional(oneOf(['asc', 'desc'])),
};

/** What lists of issues and epics filter by (their state: opened, closed or all), and their order. */
export const issuableListParams = {
  state: optional(oneOf(['opened', 'closed', 'all'])),
  labels: optional(commaList(str())),
  search: optional(str()),
  author_id: optional(id()),
  ...timeOrderParams,
};

/** Closing or reopening an issue, merge request or epic. */
export const stateEventParams = { state_event: optional(oneOf(['close', 'reopen'])) };
