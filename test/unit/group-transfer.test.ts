import { describe, expect, it } from 'vitest';
import { cappedVisibility, TRANSFER_ERRORS, transferError, transferFailed } from '#domain/groups.ts';

const top = { id: 1, parent_id: null };
const child = { id: 2, parent_id: 1 };
const place = (id: number, ancestor_ids: number[]) => ({ id, ancestor_ids });

describe('transferError', () => {
  it('refuses the top level to a top-level group, and its own parent to a subgroup', () => {
    expect(transferError(top, undefined, true)).toBe(TRANSFER_ERRORS.alreadyRoot);
    expect(transferError(child, place(1, []), true)).toBe(TRANSFER_ERRORS.sameParent);
  });

  it('checks the caller’s right to place it after those, as GitLab does', () => {
    expect(transferError(top, undefined, false)).toBe(TRANSFER_ERRORS.alreadyRoot);
    expect(transferError(child, undefined, false)).toBe(TRANSFER_ERRORS.permissions);
    expect(transferError(child, place(9, []), false)).toBe(TRANSFER_ERRORS.permissions);
  });

  it('refuses the group itself and any group below it as the new parent', () => {
    expect(transferError(top, place(1, []), true)).toBe(TRANSFER_ERRORS.intoSubgroup);
    expect(transferError(top, place(5, [1, 2]), true)).toBe(TRANSFER_ERRORS.intoSubgroup);
    expect(transferError(child, place(7, [1, 3, 2, 4]), true)).toBe(TRANSFER_ERRORS.intoSubgroup);
  });

  it('allows the top level to a subgroup and another group to anyone', () => {
    expect(transferError(child, undefined, true)).toBeUndefined();
    expect(transferError(child, place(3, [1]), true)).toBeUndefined();
    expect(transferError(top, place(3, [8]), true)).toBeUndefined();
  });

  it('answers as GitLab: 400 Transfer failed: …', () => {
    const error = transferFailed(TRANSFER_ERRORS.samePath);
    expect(error).toMatchObject({
      status: 400,
      body: {
        message: 'Transfer failed: The parent group already has a subgroup or a project with the same path.',
      },
    });
  });
});

describe('cappedVisibility', () => {
  it('lowers what is above the new parent’s visibility and keeps the rest', () => {
    expect(cappedVisibility('public', { visibility: 'private' })).toBe('private');
    expect(cappedVisibility('public', { visibility: 'internal' })).toBe('internal');
    expect(cappedVisibility('internal', { visibility: 'public' })).toBe('internal');
    expect(cappedVisibility('private', { visibility: 'internal' })).toBe('private');
    expect(cappedVisibility('public', undefined)).toBe('public');
  });
});
