import { describe, expect, it } from 'vitest';
import type { Group } from '#domain/groups.ts';
import {
  mayTransferInto,
  type NamespaceSource,
  namespaceMatchesSearch,
  projectCreatorOf,
  readsNamespace,
  suggestionCandidates,
  visibilityAfterTransfer,
} from '#domain/namespaces.ts';
import { projectListFilter } from '#domain/project-lists.ts';
import type { Project } from '#domain/projects.ts';
import { ANONYMOUS_SCOPE, readScopeOf } from '#domain/read-scope.ts';
import type { Caller, User } from '#domain/users.ts';
import { boundsOf } from '#store/projects/project-pages.ts';

const caller = (id: number, admin = false): Caller => ({
  id,
  username: `u${id}`,
  admin,
  state: 'active',
  can_create_group: true,
  external: false,
});
const userNs = (userId: number): NamespaceSource => ({
  kind: 'user',
  id: 100 + userId,
  user: { id: userId, username: `Alice${userId}`, name: 'Alice Liddell' } as User,
});
const groupNs: NamespaceSource = {
  kind: 'group',
  id: 7,
  group: { id: 7, path: 'tools', name: 'Tool Shed', parent_id: null } as Group,
};

describe('namespace rules', () => {
  it('reads: owners of personal namespaces, group members (guest+), admins', () => {
    expect(readsNamespace(readScopeOf(caller(1)), userNs(1), 0)).toBe(true);
    expect(readsNamespace(readScopeOf(caller(2)), userNs(1), 0)).toBe(false);
    expect(readsNamespace(readScopeOf(caller(2, true)), userNs(1), 0)).toBe(true);
    expect(readsNamespace(readScopeOf(caller(2)), groupNs, 0)).toBe(false);
    expect(readsNamespace(readScopeOf(caller(2)), groupNs, 10)).toBe(true);
  });

  it('transfers into: own namespace within the limit, maintainers who may create projects, admins', () => {
    expect(mayTransferInto(userNs(1), projectCreatorOf(caller(1)), 0, false, true)).toBe(true);
    expect(mayTransferInto(userNs(1), projectCreatorOf(caller(1)), 0, false, false)).toBe(false);
    expect(mayTransferInto(userNs(1), projectCreatorOf(caller(2)), 0, false, true)).toBe(false);
    expect(mayTransferInto(userNs(1), projectCreatorOf(caller(2, true)), 0, false, true)).toBe(true);
    expect(mayTransferInto(groupNs, projectCreatorOf(caller(2)), 40, true, true)).toBe(true);
    expect(mayTransferInto(groupNs, projectCreatorOf(caller(2)), 40, false, true)).toBe(false);
    expect(mayTransferInto(groupNs, projectCreatorOf(caller(2)), 30, true, true)).toBe(false);
    expect(mayTransferInto(groupNs, projectCreatorOf(caller(2, true)), 0, false, true)).toBe(true);
  });

  it('lowers a visibility above the group’s, keeps others', () => {
    expect(visibilityAfterTransfer('public', 'private')).toBe('private');
    expect(visibilityAfterTransfer('internal', 'public')).toBe('internal');
    expect(visibilityAfterTransfer('public', null)).toBe('public');
  });

  it('searches name and path case-insensitively; suggests counters', () => {
    expect(namespaceMatchesSearch(userNs(1), 'alice1')).toBe(true);
    expect(namespaceMatchesSearch(userNs(1), 'LIDDELL')).toBe(true);
    expect(namespaceMatchesSearch(groupNs, 'shed')).toBe(true);
    expect(namespaceMatchesSearch(groupNs, 'alice')).toBe(false);
    expect(suggestionCandidates('a').slice(0, 3)).toEqual(['a1', 'a2', 'a3']);
  });
});

describe('project bounds', () => {
  const project = (id: number, last_activity_at: string) => ({ id, last_activity_at }) as Project;

  it('filter: every bound exclusive', () => {
    const accept = projectListFilter(
      {
        id_after: 2,
        id_before: 5,
        last_activity_after: '2024-01-01T00:00:00.000Z',
        last_activity_before: '2024-02-01T00:00:00.000Z',
      },
      ANONYMOUS_SCOPE,
    ) as (project: Project) => boolean;
    expect(accept(project(3, '2024-01-15T00:00:00.000Z'))).toBe(true);
    expect(accept(project(2, '2024-01-15T00:00:00.000Z'))).toBe(false);
    expect(accept(project(5, '2024-01-15T00:00:00.000Z'))).toBe(false);
    expect(accept(project(3, '2024-01-01T00:00:00.000Z'))).toBe(false);
    expect(accept(project(3, '2024-02-01T00:00:00.000Z'))).toBe(false);
  });

  it('key ranges only in the bounded order, empty when nothing fits', () => {
    expect(boundsOf({ id_after: 2, id_before: 5 }, 'id')).toEqual({
      from: '000000000003',
      to: '000000000004',
    });
    expect(boundsOf({ id_after: 4, id_before: 5 }, 'id')).toBe('empty');
    expect(boundsOf({ id_before: 1 }, 'id')).toBe('empty');
    expect(boundsOf({ id_after: -5 }, 'id')).toEqual({ from: '000000000000', to: undefined });
    expect(boundsOf({ id_before: 10 ** 14 }, 'id')).toBeUndefined();
    expect(boundsOf({ id_after: 2 }, 'name')).toBeUndefined();
    expect(boundsOf({ last_activity_after: 'T1', last_activity_before: 'T2' }, 'last_activity_at')).toEqual({
      from: 'T1\u0001',
      to: 'T2',
    });
    expect(boundsOf({ last_activity_after: 'T2', last_activity_before: 'T2' }, 'last_activity_at')).toBe(
      'empty',
    );
  });
});
