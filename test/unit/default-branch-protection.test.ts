import { describe, expect, it } from 'vitest';
import {
  ADMIN_PROTECTION_LEVEL,
  branchProtectionRefusal,
  defaultBranchProtection,
  emptyRepositoryPushRefusal,
  newProtectedBranch,
  pushedBranchProtected,
  sourcePushRefusal,
} from '../../shared/domain/protected-branches.ts';

describe('default branch protection', () => {
  it('protects the default branch fully: maintainers push, merge and unprotect, no force push', () => {
    const protection = newProtectedBranch(defaultBranchProtection('main'), 1, [2, 3, 4], new Date(0));
    expect(protection).toEqual({
      id: 1,
      name: 'main',
      push_access_levels: [{ id: 2, access_level: 40 }],
      merge_access_levels: [{ id: 3, access_level: 40 }],
      unprotect_access_levels: [{ id: 4, access_level: 40 }],
      allow_force_push: false,
      code_owner_approval_required: false,
      created_at: '1970-01-01T00:00:00.000Z',
    });
    expect(branchProtectionRefusal([protection], 'main', 30, 'push')).toMatchObject({
      status: 403,
      body: { message: 'You are not allowed to push into this branch' },
    });
    expect(branchProtectionRefusal([protection], 'main', 30, 'merge')).toMatchObject({ status: 403 });
    expect(branchProtectionRefusal([protection], 'main', 40, 'push')).toBeUndefined();
    expect(branchProtectionRefusal([protection], 'main', 40, 'merge')).toBeUndefined();
  });

  it("takes an empty repository's first push from maintainers, owners and admins only", () => {
    for (const level of [10, 20, 30]) {
      expect(emptyRepositoryPushRefusal(level)).toMatchObject({
        status: 403,
        body: { message: 'You are not allowed to push into this branch' },
      });
    }
    for (const level of [40, 50, ADMIN_PROTECTION_LEVEL])
      expect(emptyRepositoryPushRefusal(level)).toBeUndefined();
  });

  it("answers GitLab's refusal of a rebase onto a source the caller may not push to", () => {
    expect(sourcePushRefusal()).toMatchObject({
      status: 403,
      body: { message: '403 Forbidden  - Cannot push to source branch' },
    });
  });

  it("counts an empty repository's first branch, its new HEAD, as protected in its push; other pushes by the protections", () => {
    const main = 'refs/heads/main';
    const first = { head: main, refs: { [main]: 'a'.repeat(40), 'refs/heads/topic': 'a'.repeat(40) } };
    expect(pushedBranchProtected([], undefined, first, main)).toBe(true);
    expect(
      pushedBranchProtected([], { head: null, refs: { 'refs/tags/v1': 'b'.repeat(40) } }, first, main),
    ).toBe(true);
    expect(pushedBranchProtected([], undefined, first, 'refs/heads/topic')).toBe(false);
    const later = { head: main, refs: { [main]: 'c'.repeat(40) } };
    expect(pushedBranchProtected([], first, later, main)).toBe(false);
    const topics = newProtectedBranch({ name: 'top*' }, 1, [2, 3, 4], new Date(0));
    expect(pushedBranchProtected([topics], first, later, 'refs/heads/topic')).toBe(true);
  });
});
