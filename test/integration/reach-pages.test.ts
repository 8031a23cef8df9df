/**
 * Pages and totals of GET /projects for a signed-in member: the private projects of each group in
 * the member's subtrees come from that group's own list, read only to the end of the page and
 * counted by its counter; projects reached by a direct membership or a share are merged in and
 * counted once, also when they sit in a group the member reaches anyway. A member of a tree
 * with more groups than are worth one list each is served from the tree index instead, with the
 * same answer.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { api, createUser, must, type TestUser, unique } from '../support/api.ts';

interface ProjectBody {
  id: number;
  name: string;
  visibility: string;
}

interface GroupBody {
  id: number;
  full_path: string;
}

const DEVELOPER = 30;
const REPORTER = 20;
/** More subgroups than the list-per-group reading takes (MAX_GROUP_LISTS in shared/store/projects.ts). */
const WIDE_SUBGROUPS = 52;

const createGroup = (path: string, parentId?: number) =>
  must(
    api<GroupBody>('POST', '/groups', {
      json: { name: path, path, visibility: 'private', ...(parentId ? { parent_id: parentId } : {}) },
    }),
    201,
    `group ${path}`,
  );

const createProject = (name: string, namespaceId: number) =>
  must(
    api<ProjectBody>('POST', '/projects', {
      json: { name, namespace_id: namespaceId, visibility: 'private' },
    }),
    201,
    `project ${name}`,
  );

/**
 * Every page of GET /projects, oldest first: projects other test files create meanwhile are newer
 * than ours, so they join after the pages that hold ours and never shift them.
 */
async function oldestFirst(token: string, perPage: number): Promise<ProjectBody[]> {
  const all: ProjectBody[] = [];
  for (let page = 1; page <= 1000; page++) {
    const response = await api<ProjectBody[]>(
      'GET',
      `/projects?order_by=created_at&sort=asc&per_page=${perPage}&page=${page}`,
      { token },
    );
    expect(response.status).toBe(200);
    expect(Array.isArray(response.body)).toBe(true);
    all.push(...response.body);
    if (!response.headers.get('x-next-page')) return all;
    expect(response.body).toHaveLength(perPage);
  }
  throw new Error('GET /projects did not end within 1000 pages');
}

/**
 * X-Total of the member minus that of a user who is a member of nothing: the private projects
 * the member reaches. Taken again when another file changed the shared lists in between.
 */
async function privateReach(member: TestUser, stranger: TestUser): Promise<number> {
  const total = async (user: TestUser) => {
    const response = await api('GET', '/projects?per_page=1', { token: user.token });
    expect(response.status).toBe(200);
    return Number(response.headers.get('x-total'));
  };
  for (let attempt = 0; attempt < 20; attempt++) {
    const before = await total(stranger);
    const mine = await total(member);
    const after = await total(stranger);
    if (before === after) return mine - before;
  }
  throw new Error('the shared lists kept changing');
}

describe('GET /projects pages of a member reaching private projects', () => {
  let member: TestUser;
  let wideMember: TestUser;
  let stranger: TestUser;
  /** The member's private projects, oldest first. */
  let reached: number[];
  /** Private projects of this file the member must not see. */
  let unreached: number[];
  let wideReached: number[];
  let fixture: Set<number>;

  beforeAll(async () => {
    const name = unique('reach');
    const top = await createGroup(name);
    const sub = await createGroup('sub', top.id);
    const subSub = await createGroup('subsub', sub.id);
    const other = await createGroup(unique('reach-other'));
    [member, wideMember, stranger] = await Promise.all([createUser(), createUser(), createUser()]);
    const made: { id: number; where: string }[] = [];
    // One at a time, interleaving the groups, so the member's projects are spread over every list.
    for (let round = 0; round < 4; round++) {
      for (const [where, group] of [
        ['top', top],
        ['sub', sub],
        ['subsub', subSub],
        ['other', other],
      ] as const) {
        const project = await createProject(`${name} ${where} ${round}`, group.id);
        made.push({ id: project.id, where });
      }
    }
    const inOther = made.filter((project) => project.where === 'other').map((project) => project.id);
    const [directInOther, sharedInOther, alsoDirectInTop] = [
      inOther[0] as number,
      inOther[2] as number,
      made.find((project) => project.where === 'top')?.id as number,
    ];
    await must(
      api('POST', `/groups/${top.id}/members`, { json: { user_id: member.id, access_level: DEVELOPER } }),
      201,
      'member of top',
    );
    await must(
      api('POST', `/projects/${directInOther}/members`, {
        json: { user_id: member.id, access_level: REPORTER },
      }),
      201,
      'direct member in other',
    );
    // Also a direct member of a project its group membership reaches: counted once.
    await must(
      api('POST', `/projects/${alsoDirectInTop}/members`, {
        json: { user_id: member.id, access_level: REPORTER },
      }),
      201,
      'direct member in top',
    );
    await must(
      api('POST', `/projects/${sharedInOther}/share`, {
        json: { group_id: subSub.id, group_access: REPORTER },
      }),
      201,
      'share with subsub',
    );
    reached = made
      .filter((project) => project.where !== 'other' || [directInOther, sharedInOther].includes(project.id))
      .map((project) => project.id);
    unreached = made.map((project) => project.id).filter((id) => !reached.includes(id));

    // A group with more subgroups than are read one list each; projects at both ends.
    const wide = await createGroup(unique('reach-wide'));
    const subgroups: GroupBody[] = [];
    for (let i = 0; i < WIDE_SUBGROUPS; i++) subgroups.push(await createGroup(`s${i}`, wide.id));
    wideReached = [];
    for (const group of [wide, subgroups[0], subgroups[WIDE_SUBGROUPS - 1]] as GroupBody[]) {
      wideReached.push((await createProject(`${name} wide ${group.id}`, group.id)).id);
    }
    await must(
      api('POST', `/groups/${wide.id}/members`, {
        json: { user_id: wideMember.id, access_level: DEVELOPER },
      }),
      201,
      'member of wide',
    );
    fixture = new Set([...made.map((project) => project.id), ...wideReached]);
  }, 120_000);

  const ours = (projects: ProjectBody[]) =>
    projects.map((project) => project.id).filter((id) => fixture.has(id));

  it('the fixture: 12 private projects reached through the tree, one direct, one shared; 2 not', () => {
    expect(reached).toHaveLength(14);
    expect(unreached).toHaveLength(2);
  });

  it.each([5, 100])(
    'per_page=%i: every reached project once, in order, and nothing else',
    async (perPage) => {
      const listed = await oldestFirst(member.token, perPage);
      expect(ours(listed)).toEqual(reached);
      const ids = listed.map((project) => project.id);
      expect(new Set(ids).size).toBe(ids.length);
    },
  );

  it('newest first, the first page holds the newest reached projects', async () => {
    const response = await api<ProjectBody[]>('GET', '/projects?per_page=100', { token: member.token });
    expect(response.status).toBe(200);
    // Other files may have created newer public projects; ours keep their order among them.
    const mine = ours(response.body);
    expect(mine).toEqual([...reached].reverse().slice(0, mine.length));
  });

  it('X-Total counts each reached private project once', async () => {
    expect(await privateReach(member, stranger)).toBe(reached.length);
  });

  it('the stranger sees none of them', async () => {
    expect(ours(await oldestFirst(stranger.token, 100))).toEqual([]);
  });

  it('a member of a group with more subgroups than lists read: the same projects, counted', async () => {
    expect(ours(await oldestFirst(wideMember.token, 5))).toEqual(wideReached);
    expect(await privateReach(wideMember, stranger)).toBe(wideReached.length);
  });
});
