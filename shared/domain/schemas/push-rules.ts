/** Parameters of the project push rule routes (all optional; at least one is the rule's, see #domain/push-rules.ts). */
import { bool, idOrPath, int, optional, params, required, str } from '../params.ts';
import { PUSH_RULE_REGEX_MAX_LENGTH } from '../push-rules.ts';

const regex = () => optional(str(PUSH_RULE_REGEX_MAX_LENGTH));

const properties = {
  deny_delete_tag: optional(bool()),
  member_check: optional(bool()),
  prevent_secrets: optional(bool()),
  commit_message_regex: regex(),
  commit_message_negative_regex: regex(),
  branch_name_regex: regex(),
  author_email_regex: regex(),
  file_name_regex: regex(),
  max_file_size: optional(int()),
  commit_committer_check: optional(bool()),
  reject_unsigned_commits: optional(bool()),
};

export const pushRuleSchemas = {
  byProject: params({ id: required(idOrPath()) }),
  write: params({ id: required(idOrPath()), ...properties }),
};
