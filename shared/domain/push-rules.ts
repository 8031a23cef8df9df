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

// A commit made through the API, judged by the rule -------------------------------------------

/** What the rule judges of one commit. */
export interface CommitFacts {
  branch: string;
  /** The project's default branch: a commit to it is never refused for its branch name. */
  defaultBranch: string | null;
  message: string;
  authorEmail: string;
  committerEmail: string;
  /** The paths the commit adds or renames to (file names are judged on these only). */
  newPaths: readonly string[];
  /** Every file the commit writes content to, with its size in bytes. */
  written: readonly { path: string; size: number }[];
}

/**
 * Files that hold secrets (GitLab's "prevent_secrets" list): cloud credentials, private SSH keys
 * under their usual names, keys and certificates by extension, shell and REPL histories.
 */
export const SECRET_FILE_PATTERNS: readonly string[] = [
  '(^|/)\\.?aws/credentials$',
  '(^|/)\\.?id_(rsa|dsa|ed25519|ecdsa|ecdsa_sk|ed25519_sk)$',
  '(^|/)\\.?ssh/personal_(rsa|dsa|ed25519|ecdsa|ecdsa_sk|ed25519_sk)$',
  '(^|/)config/server_(rsa|dsa|ed25519|ecdsa|ecdsa_sk|ed25519_sk)$',
  '\\.(pem|key)$',
  '[._]history$',
];

/** Whether RE2 finds `pattern` in `value` (GitLab's untrusted regexps: RE2, never backtracking). */
async function re2Finds(pattern: string, value: string, multiline = false): Promise<boolean> {
  const { RE2JS } = await import('re2js');
  return RE2JS.compile(pattern, multiline ? RE2JS.MULTILINE : 0)
    .matcher(value)
    .find();
}

/**
 * The refusal of a commit by the project's push rule, worded as GitLab words it, in GitLab's
 * order (branch name, message, emails, membership, then each file's name and size); undefined
 * when the commit passes. `isUserEmail` says whether an email is a user's (member_check).
 */
export async function commitPushRuleRefusal(
  rule: PushRuleFields | undefined,
  facts: CommitFacts,
  isUserEmail: (email: string) => Promise<boolean>,
): Promise<string | undefined> {
  if (!rule) return undefined;
  if (
    rule.branch_name_regex &&
    facts.branch !== facts.defaultBranch &&
    !(await re2Finds(rule.branch_name_regex, facts.branch))
  )
    return `Branch name does not follow the pattern '${rule.branch_name_regex}'`;
  if (rule.commit_message_regex && !(await re2Finds(rule.commit_message_regex, facts.message, true)))
    return `Commit message does not follow the pattern '${rule.commit_message_regex}'`;
  if (
    rule.commit_message_negative_regex &&
    (await re2Finds(rule.commit_message_negative_regex, facts.message, true))
  )
    return `Commit message contains the forbidden pattern '${rule.commit_message_negative_regex}'`;
  if (rule.author_email_regex) {
    if (!(await re2Finds(rule.author_email_regex, facts.committerEmail)))
      return `Committer's email '${facts.committerEmail}' does not follow the pattern '${rule.author_email_regex}'`;
    if (!(await re2Finds(rule.author_email_regex, facts.authorEmail)))
      return `Author's email '${facts.authorEmail}' does not follow the pattern '${rule.author_email_regex}'`;
  }
  if (rule.member_check) {
    if (!(await isUserEmail(facts.authorEmail.toLowerCase())))
      return `Author '${facts.authorEmail}' is not a member of team`;
    if (
      facts.committerEmail.toLowerCase() !== facts.authorEmail.toLowerCase() &&
      !(await isUserEmail(facts.committerEmail.toLowerCase()))
    )
      return `Committer '${facts.committerEmail}' is not a member of team`;
  }
  for (const path of facts.newPaths) {
    const patterns = [
      ...(rule.file_name_regex ? [rule.file_name_regex] : []),
      ...(rule.prevent_secrets ? SECRET_FILE_PATTERNS : []),
    ];
    for (const pattern of patterns)
      if (await re2Finds(pattern, path))
        return `File name ${path} was prohibited by the pattern ${JSON.stringify(pattern)}.`;
  }
  if (rule.max_file_size > 0) {
    const limit = rule.max_file_size * 1024 * 1024;
    const over = facts.written.find((file) => file.size > limit);
    if (over)
      return `File ${JSON.stringify(over.path)} is larger than the allowed size of ${rule.max_file_size} MiB. Use Git LFS to manage this file.`;
  }
  return undefined;
}
