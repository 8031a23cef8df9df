import { describe, expect, it } from 'vitest';
import {
  COMMIT_CONTENT_MAX_BYTES,
  commitActionsOf,
  commitStartOf,
  decodeContent,
  fileCommitOf,
  startsElsewhere,
  writablePathProblem,
} from '../../shared/domain/commit-writes.ts';
import { ApiError } from '../../shared/domain/errors.ts';
import { commitPushRuleRefusal, PUSH_RULE_DEFAULTS } from '../../shared/domain/push-rules.ts';

const refusal = (work: () => unknown) => {
  try {
    work();
  } catch (error) {
    if (error instanceof ApiError) return { status: error.status, body: error.body };
    throw error;
  }
  throw new Error('not refused');
};

describe('writable paths', () => {
  it('takes relative paths and refuses traversal, .git, NUL, empty parts and long paths', () => {
    expect(writablePathProblem('a/b/c.txt')).toBeUndefined();
    expect(writablePathProblem('.gitignore')).toBeUndefined();
    expect(writablePathProblem('a/.github/x')).toBeUndefined();
    expect(writablePathProblem('../a')).toBe('traversal');
    expect(writablePathProblem('a/../../b')).toBe('traversal');
    for (const path of ['', '/a', 'a//b', 'a/./b', '.git', 'x/.Git/config', 'a\0b', `${'é'.repeat(2049)}`])
      expect(writablePathProblem(path), JSON.stringify(path.slice(0, 9))).toBe('invalid');
  });
});

describe('content', () => {
  it('decodes text and base64 (wrapped lines allowed), refusing bad base64 and oversize before decoding', () => {
    expect(decodeContent('héllo', 'text').toString('utf8')).toBe('héllo');
    expect(decodeContent('aGVs\nbG8=\n', 'base64').toString()).toBe('hello');
    expect(refusal(() => decodeContent('aGVsbG8', 'base64'))).toEqual({
      status: 400,
      body: { message: 'Content is not valid base64' },
    });
    expect(refusal(() => decodeContent('a*==', 'base64')).status).toBe(400);
    expect(refusal(() => decodeContent('A'.repeat(COMMIT_CONTENT_MAX_BYTES * 2), 'base64')).status).toBe(413);
    expect(refusal(() => decodeContent('x'.repeat(COMMIT_CONTENT_MAX_BYTES + 1), 'text')).status).toBe(413);
  });
});

describe('actions', () => {
  it('names every missing or invalid field as Grape does', () => {
    expect(
      refusal(() =>
        commitActionsOf([
          { action: 'nope', file_path: 'a' },
          { action: 'move' },
          { action: 'chmod', file_path: 'b' },
        ]),
      ),
    ).toEqual({
      status: 400,
      body: {
        error:
          'actions[0][action] does not have a valid value, actions[1][file_path] is missing, ' +
          'actions[1][previous_path] is missing, actions[2][execute_filemode] is missing',
      },
    });
  });

  it('decodes content, keeps a move without content, refuses a path changed twice', () => {
    const [create, move, chmod] = commitActionsOf([
      { action: 'create', file_path: 'a', content: 'aGk=', encoding: 'base64', execute_filemode: 'true' },
      { action: 'move', file_path: 'c', previous_path: 'b', last_commit_id: 'x' },
      { action: 'chmod', file_path: 'd', execute_filemode: false },
    ]);
    expect(create).toEqual({ action: 'create', path: 'a', content: Buffer.from('hi'), executable: true });
    expect(move).toEqual({ action: 'move', path: 'c', previousPath: 'b', lastCommitId: 'x' });
    expect(chmod).toEqual({ action: 'chmod', path: 'd', executable: false });
    expect(
      refusal(() =>
        commitActionsOf([
          { action: 'move', file_path: 'x', previous_path: 'a' },
          { action: 'move', file_path: 'y', previous_path: 'a' },
        ]),
      ).body,
    ).toEqual({ message: "Path 'a' is changed by more than one action" });
    expect(refusal(() => commitActionsOf(Array.from({ length: 1001 }, () => ({})))).body).toEqual({
      message: 'A commit takes at most 1000 actions',
    });
  });
});

describe('where a commit starts', () => {
  it('defaults start_branch to the branch, and knows a new branch from elsewhere', () => {
    const { start, action } = fileCommitOf('update', {
      file_path: 'dir/a.txt/',
      branch: 'main',
      commit_message: 'm',
      content: 'x',
      last_commit_id: 'abc',
    });
    expect(start).toEqual({ branch: 'main', startBranch: 'main', startSha: undefined });
    expect(action).toEqual({
      action: 'update',
      path: 'dir/a.txt',
      content: Buffer.from('x'),
      lastCommitId: 'abc',
    });
    expect(startsElsewhere(start)).toBe(false);
    expect(startsElsewhere({ branch: 'new', startBranch: 'main', startSha: undefined })).toBe(true);
    const project = { id: 7, path_with_namespace: 'g/p' };
    expect(commitStartOf({ branch: 'b', commit_message: 'm', start_sha: 'a'.repeat(40) }, project)).toEqual({
      branch: 'b',
      startBranch: undefined,
      startSha: 'a'.repeat(40),
    });
    expect(
      refusal(() => startsElsewhere({ branch: 'b', startBranch: undefined, startSha: 'abc' })).body,
    ).toEqual({
      message: "Invalid start_sha 'abc'",
    });
    expect(
      refusal(() => commitStartOf({ branch: 'b', commit_message: 'm', start_project: '8' }, project)).status,
    ).toBe(400);
    expect(
      refusal(() => fileCommitOf('create', { file_path: 'a', branch: '', commit_message: '' })).body,
    ).toEqual({
      error: 'branch is empty, commit_message is empty',
    });
  });
});

describe('push rules on a commit', () => {
  const facts = {
    branch: 'main',
    defaultBranch: 'main',
    message: 'Fix things\n\nJIRA-12',
    authorEmail: 'a@example.com',
    committerEmail: 'c@example.com',
    newPaths: ['src/app.ts'],
    written: [{ path: 'src/app.ts', size: 10 }],
  };
  const judge = (
    rule: Partial<typeof PUSH_RULE_DEFAULTS>,
    over: Partial<typeof facts> = {},
    users = ['a@example.com'],
  ) =>
    commitPushRuleRefusal({ ...PUSH_RULE_DEFAULTS, ...rule }, { ...facts, ...over }, async (email) =>
      users.includes(email),
    );

  it('passes what the rule allows', async () => {
    expect(await commitPushRuleRefusal(undefined, facts, async () => false)).toBeUndefined();
    expect(
      await judge({ commit_message_regex: '^JIRA-\\d+$', branch_name_regex: '^release' }),
    ).toBeUndefined();
  });

  it('refuses with GitLab’s words, in GitLab’s order', async () => {
    expect(await judge({ branch_name_regex: '^feature/' }, { branch: 'topic' })).toBe(
      "Branch name does not follow the pattern '^feature/'",
    );
    expect(await judge({ commit_message_regex: '^\\[' })).toBe(
      "Commit message does not follow the pattern '^\\['",
    );
    expect(await judge({ commit_message_negative_regex: '(?i)fix' })).toBe(
      "Commit message contains the forbidden pattern '(?i)fix'",
    );
    expect(await judge({ author_email_regex: '^a@' })).toBe(
      "Committer's email 'c@example.com' does not follow the pattern '^a@'",
    );
    expect(await judge({ member_check: true }, {}, ['c@example.com'])).toBe(
      "Author 'a@example.com' is not a member of team",
    );
    expect(await judge({ member_check: true })).toBe("Committer 'c@example.com' is not a member of team");
    expect(await judge({ file_name_regex: '\\.ts$' })).toBe(
      'File name src/app.ts was prohibited by the pattern "\\\\.ts$".',
    );
    expect(await judge({ prevent_secrets: true }, { newPaths: ['deploy/server.pem'] })).toMatch(
      /^File name deploy\/server\.pem was prohibited by the pattern /,
    );
    expect(await judge({ prevent_secrets: true }, { newPaths: ['.ssh/id_ed25519'] })).toBeDefined();
    expect(await judge({ prevent_secrets: true }, { newPaths: ['docs/keys.md'] })).toBeUndefined();
    expect(await judge({ max_file_size: 1 }, { written: [{ path: 'big', size: 1024 * 1024 + 1 }] })).toBe(
      'File "big" is larger than the allowed size of 1 MiB. Use Git LFS to manage this file.',
    );
  });
});
