/** Reading history out of a repository directory. */
import fs from 'node:fs';
import * as git from 'isomorphic-git';

/**
 * commit_count as GitLab reports it: `git rev-list --count <ref>`, every commit reachable from the
 * ref through all parents (merges included), each once. Pass the same `cache` as the fetch or
 * materialization before it: without one, isomorphic-git reloads the pack index for every commit.
 */
export async function countCommits(gitdir: string, ref: string, cache: object = {}): Promise<number> {
  return countCommitsFrom(gitdir, await git.resolveRef({ fs, gitdir, ref }), cache);
}

/** countCommits from a commit's object id, for a directory holding objects only (a pack set). */
export async function countCommitsFrom(gitdir: string, start: string, cache: object = {}): Promise<number> {
  const seen = new Set<string>([start]);
  const pending = [start];
  while (pending.length > 0) {
    const oid = pending.pop() as string;
    const { commit } = await git.readCommit({ fs, gitdir, oid, cache });
    for (const parent of commit.parent) {
      if (!seen.has(parent)) {
        seen.add(parent);
        pending.push(parent);
      }
    }
  }
  return seen.size;
}
