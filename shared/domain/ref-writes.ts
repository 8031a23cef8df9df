/**
 * The rules of branch and tag writes through the API: which names GitLab accepts for a new branch
 * or tag, the push rule's branch name pattern, and the errors a write answers.
 */
import { badRequest, conflict, methodNotAllowed, notFound } from './errors.ts';
import { isValidRefName } from './repository.ts';

/** Prefixes a new ref's short name may not start with: it would read as a full ref name or an option. */
const REFUSED_PREFIXES = ['refs/heads/', 'refs/remotes/', 'refs/tags/', '-'];

/**
 * Whether GitLab accepts `name` as a new branch's or tag's short name: git's check-ref-format
 * rules, no full ref name or leading `-`, and never `HEAD`.
 */
export function isNewRefNameValid(name: string): boolean {
  if (name === '' || name === 'HEAD') return false;
  if (REFUSED_PREFIXES.some((prefix) => name.startsWith(prefix))) return false;
  return isValidRefName(name);
}

/**
 * The refusal of a new branch name by the project's push rule (`branch_name_regex`, RE2 syntax
 * as GitLab checks it); undefined when the name matches or there is no pattern.
 */
export async function branchNameRuleRefusal(
  pattern: string | null | undefined,
  name: string,
): Promise<string | undefined> {
  if (!pattern) return undefined;
  const { RE2JS } = await import('re2js');
  if (RE2JS.compile(pattern).matcher(name).find()) return undefined;
  return `Branch name does not follow the pattern '${pattern}'`;
}

export const refErrors = {
  branchNameInvalid: () => badRequest('Branch name is invalid'),
  branchExists: () => badRequest('Branch already exists'),
  invalidReference: (ref: string) => badRequest(`Invalid reference name: ${ref}`),
  branchNotFound: () => notFound('Branch'),
  /** GitLab answers 405 for this refusal of its branch deletion service. */
  defaultBranch: () => methodNotAllowed('The default branch of a project cannot be deleted'),
  tagNameInvalid: () => badRequest('Tag name invalid'),
  tagExists: (name: string) => badRequest(`Tag ${name} already exists`),
  tagTargetInvalid: (ref: string) => badRequest(`Target ${ref} is invalid`),
  tagNotFound: () => notFound('Tag'),
  /** The push rule's `deny_delete_tag`. */
  tagDeletionDenied: () => badRequest('You cannot delete a tag'),
  /** Other writers kept committing first, every try: the client may send the request again. */
  raced: () => conflict('Repository was changed by another write, try again'),
};
