/**
 * Project push rules (GitLab EE's PushRule): the stored shape, what a POST or PUT makes of its
 * parameters (at least one; regexes valid RE2; max_file_size an integer ≥ 0) and the entity.
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

/**
 * RE2's own words (C++ RE2, which GitLab reaches through the re2 gem) for the errors of re2js,
 * whose texts are Go's: GitLab says `invalid perl operator: (?=` where Go says `invalid or
 * unsupported Perl syntax`.
 */
const RE2_WORDS: Readonly<Record<string, string>> = {
  'invalid or unsupported Perl syntax': 'invalid perl operator',
  'invalid named capture': 'invalid named capture group',
  'duplicate capture group name': 'invalid named capture group',
  'missing closing )': 'missing )',
  'missing closing ]': 'missing ]',
  'missing argument to repetition operator': 'no argument for repetition operator',
  'invalid nested repetition operator': 'bad repetition operator',
  'invalid repeat count': 'invalid repetition size',
  'trailing backslash at end of expression': 'trailing \\',
  'expression too large': 'pattern too large - compile failed',
};

/**
 * Why a pattern is not valid RE2 syntax, in RE2's words (`invalid perl operator: (?<`), or
 * undefined when it is (GitLab's UntrustedRegexp: RE2, so no lookaround and no backreferences;
 * `(?i)`, `(?P<name>…)` and `\p{L}` are fine). re2js, a port of RE2, is loaded on first use only:
 * the push rule routes that write a regex pay for it, no other function's start does.
 */
export async function regexError(pattern: string): Promise<string | undefined> {
  const { RE2JS, RE2JSException, RE2JSSyntaxException } = await import('re2js');
  try {
    RE2JS.compile(pattern);
    return undefined;
  } catch (error) {
    if (error instanceof RE2JSSyntaxException) {
      const words = RE2_WORDS[error.error] ?? error.error;
      return error.input ? `${words}: ${error.input}` : words;
    }
    if (error instanceof RE2JSException) return RE2_WORDS[error.message] ?? error.message;
    throw error;
  }
}

/**
 * The fields a POST or PUT sets: only those sent; 400 naming every parameter when none is sent,
 * and the model's errors (`{"message": {"branch_name_regex": ["not valid RE2 syntax: …"]}}`) for
 * regexes RE2 refuses and a negative max_file_size.
 */
export async function pushRuleChanges(input: PushRuleInput): Promise<Partial<PushRuleFields>> {
  const missing = atLeastOneOf(input, PUSH_RULE_PARAMS);
  if (missing) throw invalidParams(missing);
  const errors: Record<string, string[]> = {};
  for (const field of REGEX_FIELDS) {
    const pattern = input[field];
    const reason = pattern ? await regexError(pattern) : undefined;
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
export const newPushRuleFields = async (input: PushRuleInput): Promise<PushRuleFields> => ({
  ...PUSH_RULE_DEFAULTS,
  ...(await pushRuleChanges(input)),
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
