/** Parameters every list of issues, merge requests, epics and notes shares. */
import { commaList, id, oneOf, optional, str } from '../params.ts';

/** `order_by` and `sort` of lists in time order (GitLab's default: created_at, desc). */
export const timeOrderParams = {
  order_by: optional(oneOf(['created_at', 'updated_at'])),
  sort: optional(oneOf(['asc', 'desc'])),
};

/** What lists of issues, merge requests and epics filter by, and their order. */
export const issuableListParams = {
  labels: optional(commaList(str())),
  search: optional(str()),
  author_id: optional(id()),
  ...timeOrderParams,
};
