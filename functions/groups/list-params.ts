import { bool, id, list, oneOf, optional, str, stringMap } from '#domain/params.ts';

/** Query parameters shared by GET /groups and GET /groups/:id/subgroups. */
export const groupListParams = {
  skip_groups: optional(list(id())),
  all_available: optional(bool()),
  search: optional(str()),
  order_by: optional(oneOf(['name', 'path', 'id'])),
  sort: optional(oneOf(['asc', 'desc'])),
  statistics: optional(bool()),
  with_custom_attributes: optional(bool()),
  owned: optional(bool()),
  custom_attributes: optional(stringMap()),
};
