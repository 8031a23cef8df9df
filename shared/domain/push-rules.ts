/**
 * Project push rules (GitLab EE's PushRule): the stored shape, what a POST or PUT makes of its
 * parameters (at least one; regexes valid; max_file_size an integer ≥ 0) and the entity.
 */
import { invalidParams, validationFailed } from './errors.ts';
import { atLeastOneOf } from './params.ts';

export interface PushRuleFields {
  commit_message_regex: string | null;
  commit_message_negative_regex: string | null;
  branch_name_regex: string | null;
  deny_delete_tag: boolean;
  member_check: boolean;
  prevent_secrets: boolean;
  author_email_regex: string | null;
  file_name_regex: string | null;
  /** Megabytes; 0 is no limit. */
  max_file_size: number;
  commit_committer_check: boolean;
  reject_unsigned_commits: boolean;
}

export interface PushRule extends PushRuleFields {
  id: number;
  project_id: number;
  created_at: string;
}

/** The parameters of POST and PUT, in GitLab's `at_least_one_of` order. */
export const PUSH_RULE_PARAMS = [
  'deny_delete_tag',
  'member_check',
  'prevent_secrets',
  'commit_message_regex',
  'commit_message_negative_regex',
  'branch_name_regex',
  'author_email_regex',
  'file_name_regex',
  'max_file_size',
  'commit_committer_check',
  'reject_unsigned_commits',
] as const satisfies readonly (keyof PushRuleFields)[];

const REGEX_FIELDS = [
  'commit_message_regex',
  'commit_message_negative_regex',
  'branch_name_regex',
  'author_email_regex',
  'file_name_regex',
] as const satisfies readonly (keyof PushRuleFields)[];

/** GitLab's PushRule validates each regex to 511 characters. */
export const PUSH_RULE_REGEX_MAX_LENGTH = 511;

/** A new rule's values for what is not sent: switches off, no regexes, no size limit. */
export const PUSH_RULE_DEFAULTS: PushRuleFields = {
  commit_message_regex: null,
  commit_message_negative_regex: null,
  branch_name_regex: null,
  deny_delete_tag: false,
  member_check: false,
  prevent_secrets: false,
  author_email_regex: null,
  file_name_regex: null,
  max_file_size: 0,
  commit_committer_check: false,
  reject_unsigned_commits: false,
};

/** What a POST or PUT sends, once coerced. */
export type PushRuleInput = Partial<{
  [K in keyof PushRuleFields]: Exclude<PushRuleFields[K], null>;
}>;

/** Why a regex does not compile, or undefined when it does (the engine's own words). */
export function regexError(pattern: string): string | undefined {
  try {
    new RegExp(pattern);
    return undefined;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const at = message.lastIndexOf(': ');
    return at >= 0 ? message.slice(at + 2) : message;
  }
}

/**
 * The fields a POST or PUT sets: only those sent; 400 naming every parameter when none is sent,
 * and the model's errors (`{"message": {"branch_name_regex": ["not valid RE2 syntax: …"]}}`) for
 * regexes that do not compile and a negative max_file_size.
 */
export function pushRuleChanges(input: PushRuleInput): Partial<PushRuleFields> {
  const missing = atLeastOneOf(input, PUSH_RULE_PARAMS);
  if (missing) throw invalidParams(missing);
  const errors: Record<string, string[]> = {};
  for (const field of REGEX_FIELDS) {
    const pattern = input[field];
    const reason = pattern === undefined ? undefined : regexError(pattern);
    if (reason !== undefined) errors[field] = [`not valid RE2 syntax: ${reason}`];
  }
  if (input.max_file_size !== undefined && input.max_file_size < 0)
    errors.max_file_size = ['must be greater than or equal to 0'];
  if (Object.keys(errors).length) throw validationFailed(errors);
  const changes: Partial<PushRuleFields> = {};
  for (const field of PUSH_RULE_PARAMS) {
    const value = input[field];
    if (value !== undefined) Object.assign(changes, { [field]: value });
  }
  return changes;
}

/** A new rule: the defaults with what POST sends. */
export const newPushRuleFields = (input: PushRuleInput): PushRuleFields => ({
  ...PUSH_RULE_DEFAULTS,
  ...pushRuleChanges(input),
});

/** GitLab's ProjectPushRule entity. */
export function pushRuleEntity(rule: PushRule) {
  return {
    id: rule.id,
    project_id: rule.project_id,
    created_at: rule.created_at,
    commit_message_regex: rule.commit_message_regex,
    commit_message_negative_regex: rule.commit_message_negative_regex,
    branch_name_regex: rule.branch_name_regex,
    deny_delete_tag: rule.deny_delete_tag,
    member_check: rule.member_check,
    prevent_secrets: rule.prevent_secrets,
    author_email_regex: rule.author_email_regex,
    file_name_regex: rule.file_name_regex,
    max_file_size: rule.max_file_size,
    commit_committer_check: rule.commit_committer_check,
    reject_unsigned_commits: rule.reject_unsigned_commits,
  };
}
