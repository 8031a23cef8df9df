import { describe, expect, it } from 'vitest';
import { branchNameRuleRefusal, isNewRefNameValid } from '#domain/ref-writes.ts';

describe('isNewRefNameValid', () => {
  it('accepts what git stores as a branch or tag name', () => {
    for (const name of ['main', 'feature/one', 'v1.0', 'a-b_c', 'über'])
      expect(isNewRefNameValid(name)).toBe(true);
  });

  it('refuses empty names, HEAD, full ref names, a leading dash and check-ref-format failures', () => {
    for (const name of [
      '',
      'HEAD',
      'refs/heads/x',
      'refs/tags/x',
      'refs/remotes/x',
      '-x',
      'a..b',
      'a b',
      'a~1',
      'x.lock',
      '.hidden',
      'end/',
      'end.',
      'a@{1}',
      'a//b',
    ]) {
      expect(isNewRefNameValid(name)).toBe(false);
    }
  });
});

describe('branchNameRuleRefusal', () => {
  it("answers GitLab's sentence when the name does not match; nothing without a pattern or on a match", async () => {
    expect(await branchNameRuleRefusal(null, 'x')).toBeUndefined();
    expect(await branchNameRuleRefusal('^feature/', 'feature/a')).toBeUndefined();
    expect(await branchNameRuleRefusal('^feature/', 'hotfix')).toBe(
      "Branch name does not follow the pattern '^feature/'",
    );
  });
});
