/**
 * GET /projects?search=… through the project search index: a project is found at once after it
 * is created or renamed (its pending marker keeps it a candidate until the search-index worker has
 * written its postings), and still after the worker ran, checked by key in the runtime's DynamoDB
 * Local. Visibility, the other filters, order and pages apply to the index's answer as to the
 * plain list; a term too common for the index falls back to the filtered list read.
 *
 * Other test files write the same table in parallel: every name here is unique and every
 * assertion is about this file's own projects.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { DeleteCommand, type DynamoDBDocumentClient, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { api, createUser, idle, must, type TestUser } from '../support/api.ts';
import { listSize, localDatabase, storedItem } from '../support/db.ts';

interface ProjectBody {
  id: number;
  name: string;
  path: string;
  description: string | null;
  visibility: string;
  archived?: boolean;
}

interface GroupBody {
  id: number;
  full_path: string;
}

/** MAX_CANDIDATES in shared/store/search/search-index.ts. */
const MAX_CANDIDATES = 200;
const DEVELOPER = 30;

let db: DynamoDBDocumentClient;
let table: string;

beforeAll(() => {
  ({ db, table } = localDatabase());
});

/** Lower-case hex, unique to this run: no other file's fixed names hold it. */
const tag = () => randomBytes(6).toString('hex');

const getItem = storedItem;

const pendingMarker = (projectId: number) => getItem(`PROJECT#${projectId}`, 'SEARCHPENDING');
const posting = (projectId: number, key: string) => getItem(`PROJECT#${projectId}`, `SEARCH#${key}`);

/** How many postings a search key lists. */
const postingCount = (key: string) => listSize('l1', `SEARCH#${key}`);

/**
 * Once the runtime is idle (the search-index worker has run): the ids whose pending marker is
 * still stored, empty when the worker is done.
 */
async function pendingOnceIdle(projectIds: number[]): Promise<number[]> {
  await idle();
  const markers = await Promise.all(projectIds.map(pendingMarker));
  return projectIds.filter((_, i) => markers[i] !== undefined);
}

const createProject = (fields: Record<string, unknown>, token?: string) =>
  must(
    api<ProjectBody>('POST', '/projects', { token, json: fields }),
    201,
    `project ${JSON.stringify(fields)}`,
  );

const createGroup = (path: string, visibility: string) =>
  must(api<GroupBody>('POST', '/groups', { json: { name: path, path, visibility } }), 201, `group ${path}`);

const search = (query: string, token?: string | null) =>
  api<ProjectBody[]>('GET', `/projects?${query}`, { token });

/** The ids a search answers, after checking it answered 200 with a list. */
async function found(query: string, token?: string | null): Promise<number[]> {
  const response = await search(query, token);
  expect(response.status, `${query}: ${response.text}`).toBe(200);
  expect(Array.isArray(response.body), query).toBe(true);
  return response.body.map((project) => project.id);
}

const term = (text: string) => `search=${encodeURIComponent(text)}`;

describe('project search: a new project', () => {
  const nameTag = tag();
  const pathTag = tag();
  const descriptionTag = tag();
  let project: ProjectBody;
  let markerOrPostings: { marker: boolean; posting: boolean };
  let atOnce: Record<string, number[]>;

  beforeAll(async () => {
    project = await createProject({
      name: `Alpha ${nameTag} Omega`,
      path: `pth-${pathTag}`,
      description: `Describes ${descriptionTag} at length`,
    });
    // No waiting: these run right after the creation, whether or not the worker has run yet.
    const [byName, byDescription, byPath, byFullPath] = await Promise.all([
      found(term(`HA ${nameTag.toUpperCase()} OM`)),
      found(term(`es ${descriptionTag.slice(0, 6).toUpperCase()}`)),
      found(term(pathTag.slice(2, 9))),
      found(term(`PTH-${pathTag}`)),
    ]);
    atOnce = { byName, byDescription, byPath, byFullPath };
    // Either the marker is still there or the worker wrote the postings before removing it (read in
    // this order, so one of the two is always seen).
    const marker = (await pendingMarker(project.id)) !== undefined;
    const window = `~${nameTag.slice(0, 3)}`;
    markerOrPostings = { marker, posting: (await posting(project.id, window)) !== undefined };
  }, 120_000);

  it('is found at once by a substring of its name, description or path, case-insensitively', () => {
    expect(atOnce).toEqual({
      byName: [project.id],
      byDescription: [project.id],
      byPath: [project.id],
      byFullPath: [project.id],
    });
  });

  it('is a search candidate at once: pending marker, or postings already written', () => {
    expect(markerOrPostings.marker || markerOrPostings.posting).toBe(true);
  });

  it('gets its postings from the worker, which then removes the pending marker', async () => {
    expect(await pendingOnceIdle([project.id])).toEqual([]);
    const windows = [
      `~alp`,
      `~${nameTag.slice(0, 3)}`,
      `~${nameTag.slice(-3)}`,
      `~ega`,
      `~pth`,
      `~${pathTag.slice(4, 7)}`,
      `~des`,
      `~${descriptionTag.slice(5, 8)}`,
      `~gth`,
    ];
    for (const window of windows) {
      expect(await posting(project.id, window), window).toMatchObject({
        pk: `PROJECT#${project.id}`,
        sk: `SEARCH#${window}`,
        l1: `SEARCH#${window}`,
        project_id: project.id,
      });
    }
    // Lower-cased: no key of an upper-case window.
    expect(await posting(project.id, '~Alp')).toBeUndefined();
  });

  it('is still found once indexed, by name, description and path', async () => {
    expect(await pendingOnceIdle([project.id])).toEqual([]);
    expect(await found(term(nameTag.toUpperCase()))).toEqual([project.id]);
    expect(await found(term(`${descriptionTag} AT`))).toEqual([project.id]);
    expect(await found(term(`Pth-${pathTag.slice(0, 4)}`))).toEqual([project.id]);
    // A term the project does not contain, though every window but one is among its keys.
    expect(await found(term(`${nameTag} Omegas`))).toEqual([]);
  });
});

/** The project's postings, read by its partition. */
async function postingsOf(projectId: number): Promise<Record<string, unknown>[]> {
  const result = await db.send(
    new QueryCommand({
      TableName: table,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :search)',
      ExpressionAttributeValues: { ':pk': `PROJECT#${projectId}`, ':search': 'SEARCH#' },
      ConsistentRead: true,
    }),
  );
  return result.Items ?? [];
}

describe('project search: the pending marker', () => {
  // The local queue runs the worker within moments of a change, mostly before the next request:
  // this puts a project in the state between its change and the worker's run by hand.
  const shared = tag();
  let project: ProjectBody;

  beforeAll(async () => {
    project = await createProject({ name: `Pending ${shared}` });
    expect(await pendingOnceIdle([project.id])).toEqual([]);
  }, 120_000);

  it('without postings nor marker a project is not a candidate (the search answers from the index)', async () => {
    const postings = await postingsOf(project.id);
    expect(postings.map((item) => item.sk)).toContain(`SEARCH#~${shared.slice(0, 3)}`);
    for (const item of postings) {
      await db.send(new DeleteCommand({ TableName: table, Key: { pk: item.pk, sk: item.sk } }));
    }
    expect(await postingsOf(project.id)).toEqual([]);
    expect(await found(term(shared))).toEqual([]);
  });

  it('with its pending marker the project is found, before any posting exists', async () => {
    await db.send(
      new PutCommand({
        TableName: table,
        Item: {
          pk: `PROJECT#${project.id}`,
          sk: 'SEARCHPENDING',
          kind: 'search_pending',
          project_id: project.id,
          version: `by-hand-${tag()}`,
          l1: 'SEARCH#PENDING',
          sid: String(project.id).padStart(12, '0'),
        },
      }),
    );
    expect(await postingsOf(project.id)).toEqual([]);
    expect(await found(term(shared.toUpperCase()))).toEqual([project.id]);
    expect(await found(term('pending'), null)).not.toContain(project.id);
    // Other filters still apply to a pending candidate.
    expect(await found(`${term(shared)}&visibility=public`)).toEqual([]);
  });

  it('the next change replaces the marker; the worker writes the postings and removes it', async () => {
    const updated = await api<ProjectBody>('PUT', `/projects/${project.id}`, {
      json: { description: `indexed again ${shared}` },
    });
    expect(updated.status, updated.text).toBe(200);
    expect(await pendingOnceIdle([project.id])).toEqual([]);
    expect((await postingsOf(project.id)).map((item) => item.sk)).toEqual(
      expect.arrayContaining([`SEARCH#~${shared.slice(0, 3)}`, 'SEARCH#~pen', 'SEARCH#~ind']),
    );
    expect(await found(term(shared))).toEqual([project.id]);
  });
});

describe('project search: rename', () => {
  const oldTag = tag();
  const newTag = tag();
  let renamed: ProjectBody;
  let described: ProjectBody;

  const check = async () => {
    expect(await found(term(`old${oldTag}`))).toEqual([described.id]);
    expect(await found(term(`new${newTag}`))).toEqual([renamed.id]);
    expect(await found(term(`NEW${newTag.slice(0, 8).toUpperCase()}`))).toEqual([renamed.id]);
    // Both old path and new path: the path changed too.
    expect(await found(term(`old-path-${oldTag}`))).toEqual([]);
    expect(await found(term(`new-path-${newTag}`))).toEqual([renamed.id]);
  };

  beforeAll(async () => {
    [renamed, described] = await Promise.all([
      createProject({ name: `old${oldTag}`, path: `old-path-${oldTag}`, description: 'Nothing to see' }),
      createProject({ name: `other-${oldTag}`, path: `other-${oldTag}`, description: `was old${oldTag}` }),
    ]);
    // Indexed under the old name first, so its old postings outlive the rename.
    expect(await pendingOnceIdle([renamed.id, described.id])).toEqual([]);
    expect(await found(`${term(`old${oldTag}`)}&order_by=id&sort=asc`)).toEqual(
      [renamed.id, described.id].sort((a, b) => a - b),
    );
  }, 120_000);

  it('finds the new name and no longer the old one at once (the old name still matches a description)', async () => {
    const updated = await api<ProjectBody>('PUT', `/projects/${renamed.id}`, {
      json: { name: `new${newTag}`, path: `new-path-${newTag}` },
    });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body).toMatchObject({ id: renamed.id, name: `new${newTag}`, path: `new-path-${newTag}` });
    await check();
  });

  it('still so after the worker indexed the new name', async () => {
    expect(await pendingOnceIdle([renamed.id])).toEqual([]);
    expect(await posting(renamed.id, `~${newTag.slice(0, 3)}`)).toMatchObject({ project_id: renamed.id });
    await check();
  });

  it('a description change is searchable at once and after the worker', async () => {
    const descriptionTag = tag();
    const updated = await api<ProjectBody>('PUT', `/projects/${renamed.id}`, {
      json: { description: `Now about ${descriptionTag}` },
    });
    expect(updated.status, updated.text).toBe(200);
    expect(await found(term(descriptionTag))).toEqual([renamed.id]);
    expect(await pendingOnceIdle([renamed.id])).toEqual([]);
    expect(await found(term(descriptionTag))).toEqual([renamed.id]);
    expect(await found(term(`new${newTag}`))).toEqual([renamed.id]);
  });
});

describe('project search: a term of one or two characters', () => {
  // Two letters no hex tag holds, random so that parallel runs of this file do not meet.
  const letters = 'ghijklmnopqrstuvwxyz';
  const short = `${letters[randomInt(letters.length)]}${randomInt(10)}`;
  const group = `short-${tag()}`;
  let exact: ProjectBody;
  let exactUpper: ProjectBody;
  let inside: ProjectBody;
  let byPath: ProjectBody;

  beforeAll(async () => {
    const namespace = await createGroup(group, 'private');
    [exact, exactUpper, inside, byPath] = await Promise.all([
      createProject({ name: `exact-${tag()}`, namespace_id: namespace.id, description: short }),
      createProject({
        name: `upper-${tag()}`,
        namespace_id: namespace.id,
        description: short.toUpperCase(),
      }),
      createProject({
        name: `inside-${tag()}`,
        namespace_id: namespace.id,
        description: `a${short}b ${short}x`,
      }),
      createProject({ name: `by-path-${tag()}`, namespace_id: namespace.id, path: short }),
    ]);
  }, 120_000);

  const check = async () => {
    for (const query of [short, short.toUpperCase()]) {
      const ids = await found(term(query));
      expect(ids, query).toEqual(expect.arrayContaining([exact.id, exactUpper.id, byPath.id]));
      expect(ids, query).not.toContain(inside.id);
    }
    // One character equals no column of these projects.
    const one = await found(term(short.slice(0, 1)));
    expect(one.filter((id) => [exact.id, exactUpper.id, inside.id, byPath.id].includes(id))).toEqual([]);
  };

  it('matches only a whole column, case-insensitively, at once', check);

  it('the same once indexed, under the `=` key', async () => {
    expect(await pendingOnceIdle([exact.id, exactUpper.id, inside.id, byPath.id])).toEqual([]);
    expect(await posting(exact.id, `=${short}`)).toMatchObject({ l1: `SEARCH#=${short}` });
    expect(await posting(exactUpper.id, `=${short}`)).toMatchObject({ l1: `SEARCH#=${short}` });
    expect(await posting(byPath.id, `=${short}`)).toMatchObject({ l1: `SEARCH#=${short}` });
    expect(await posting(inside.id, `=${short}`)).toBeUndefined();
    await check();
  });
});

describe('project search: visibility', () => {
  const shared = tag();
  let member: TestUser;
  let stranger: TestUser;
  let privateProject: ProjectBody;
  let internalProject: ProjectBody;
  let publicProject: ProjectBody;

  beforeAll(async () => {
    [member, stranger] = await Promise.all([createUser(), createUser()]);
    const group = await createGroup(`vis-${tag()}`, 'private');
    await must(
      api('POST', `/groups/${group.id}/members`, { json: { user_id: member.id, access_level: DEVELOPER } }),
      201,
      'member',
    );
    // One after the other: ids ascend in this order.
    privateProject = await createProject({
      name: `Private ${shared}`,
      namespace_id: group.id,
      visibility: 'private',
    });
    internalProject = await createProject({ name: `Internal ${shared}`, visibility: 'internal' });
    publicProject = await createProject({ name: `Public ${shared}`, visibility: 'public' });
  }, 120_000);

  const check = async () => {
    const query = `${term(shared)}&order_by=id&sort=asc`;
    expect(await found(query)).toEqual([privateProject.id, internalProject.id, publicProject.id]);
    expect(await found(query, member.token)).toEqual([
      privateProject.id,
      internalProject.id,
      publicProject.id,
    ]);
    expect(await found(query, stranger.token)).toEqual([internalProject.id, publicProject.id]);
    expect(await found(query, null)).toEqual([publicProject.id]);
    const anonymous = await search(query, null);
    expect(anonymous.headers.get('x-total')).toBe('1');
    const asStranger = await search(query, stranger.token);
    expect(asStranger.headers.get('x-total')).toBe('2');
  };

  it(
    'root and a group member find the private project; a stranger the internal; anonymous only the public',
    check,
  );

  it('the same once indexed', async () => {
    expect(await pendingOnceIdle([privateProject.id, internalProject.id, publicProject.id])).toEqual([]);
    await check();
  });
});

describe('project search: order and pages', () => {
  const shared = tag();
  const projects: ProjectBody[] = [];

  beforeAll(async () => {
    // Created one after the other: ids ascend in this order.
    for (const letter of ['c', 'a', 'e', 'b', 'd']) {
      projects.push(await createProject({ name: `${shared} ${letter}` }));
    }
    expect(await pendingOnceIdle(projects.map((project) => project.id))).toEqual([]);
  }, 120_000);

  const pages = async (query: string) => {
    const answers = [];
    for (const page of [1, 2, 3]) {
      const response = await search(`${term(shared)}&per_page=2&page=${page}&${query}`);
      expect(response.status, response.text).toBe(200);
      answers.push({
        ids: response.body.map((project) => project.id),
        total: response.headers.get('x-total'),
        totalPages: response.headers.get('x-total-pages'),
        next: response.headers.get('x-next-page'),
      });
    }
    return answers;
  };

  it('order_by=id sort=asc: pages of 2, 2, 1 with x-total 5 and x-total-pages 3', async () => {
    const ids = projects.map((project) => project.id);
    expect(await pages('order_by=id&sort=asc')).toEqual([
      { ids: ids.slice(0, 2), total: '5', totalPages: '3', next: '2' },
      { ids: ids.slice(2, 4), total: '5', totalPages: '3', next: '3' },
      { ids: ids.slice(4), total: '5', totalPages: '3', next: '' },
    ]);
    const beyond = await search(`${term(shared)}&per_page=2&page=4&order_by=id&sort=asc`);
    expect(beyond.status).toBe(200);
    expect(beyond.body).toEqual([]);
    expect(beyond.headers.get('x-total')).toBe('5');
  });

  it('order_by=name sort=desc', async () => {
    const byName = [...projects].sort((a, b) => b.name.localeCompare(a.name)).map((project) => project.id);
    expect(byName).toHaveLength(5);
    expect((await pages('order_by=name&sort=desc')).map((page) => page.ids)).toEqual([
      byName.slice(0, 2),
      byName.slice(2, 4),
      byName.slice(4),
    ]);
    const whole = await search(`${term(shared)}&order_by=name&sort=desc`);
    expect(whole.body.map((project) => project.name)).toEqual(
      ['e', 'd', 'c', 'b', 'a'].map((l) => `${shared} ${l}`),
    );
  });

  it('the default order is newest first', async () => {
    expect(await found(term(shared))).toEqual(projects.map((project) => project.id).reverse());
  });
});

describe('project search: other filters', () => {
  const shared = tag();
  let privateActive: ProjectBody;
  let privateArchived: ProjectBody;
  let internalArchived: ProjectBody;
  let publicActive: ProjectBody;
  let user: TestUser;

  beforeAll(async () => {
    user = await createUser();
    // One after the other: ids ascend in this order.
    privateActive = await createProject({ name: `${shared} private active`, visibility: 'private' });
    privateArchived = await createProject({ name: `${shared} private archived`, visibility: 'private' });
    internalArchived = await createProject({ name: `${shared} internal archived`, visibility: 'internal' });
    publicActive = await createProject({ name: `${shared} public active`, visibility: 'public' });
    for (const project of [privateArchived, internalArchived]) {
      await must(api('POST', `/projects/${project.id}/archive`), 201, 'archive');
    }
  }, 120_000);

  const check = async () => {
    const query = (extra: string) => `${term(shared)}&order_by=id&sort=asc&${extra}`;
    expect(await found(query('visibility=private'))).toEqual([privateActive.id, privateArchived.id]);
    expect(await found(query('archived=true'))).toEqual([privateArchived.id, internalArchived.id]);
    expect(await found(query('archived=false'))).toEqual([privateActive.id, publicActive.id]);
    expect(await found(query('visibility=private&archived=true'))).toEqual([privateArchived.id]);
    expect(await found(query('visibility=public&archived=true'))).toEqual([]);
    expect(await found(query('visibility=internal'), user.token)).toEqual([internalArchived.id]);
    expect(await found(query('visibility=private'), user.token)).toEqual([]);
    // The search itself is one of the filters: a term longer than the names matches none.
    expect(await found(`${term(`${shared} private active!`)}&visibility=private`)).toEqual([]);
    const counted = await search(query('archived=true&per_page=1'));
    expect(counted.headers.get('x-total')).toBe('2');
  };

  it('visibility and archived are ANDed with the search', check);

  it('the same once indexed', async () => {
    expect(
      await pendingOnceIdle([privateActive.id, privateArchived.id, internalArchived.id, publicActive.id]),
    ).toEqual([]);
    await check();
  });
});

describe('project search: a term too common for the index', () => {
  const COUNT = MAX_CANDIDATES + 1;
  let run = '';
  let projects: ProjectBody[] = [];

  beforeAll(async () => {
    // Three letters no hex tag holds and no project holds yet.
    const letters = 'jkqvwxz';
    for (let attempt = 0; attempt < 50 && !run; attempt++) {
      const candidate = Array.from({ length: 3 }, () => letters[randomInt(letters.length)]).join('');
      const taken = await search(`${term(candidate)}&per_page=1`);
      expect(taken.status).toBe(200);
      if (taken.headers.get('x-total') === '0') run = candidate;
    }
    expect(run).toHaveLength(3);
    const group = await createGroup(`common-${tag()}`, 'private');
    projects = [];
    for (let start = 0; start < COUNT; start += 10) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(10, COUNT - start) }, (_, offset) =>
          createProject({ name: `many ${run} ${start + offset}`, namespace_id: group.id }),
        ),
      );
      projects.push(...batch);
    }
    projects.sort((a, b) => a.id - b.id);
    expect(await pendingOnceIdle(projects.map((project) => project.id))).toEqual([]);
  }, 180_000);

  it('the run lists more than MAX_CANDIDATES projects in the index', async () => {
    expect(projects).toHaveLength(COUNT);
    expect(await postingCount(`~${run}`)).toBe(COUNT);
  });

  it('every match is still counted and paged (the filtered list read)', async () => {
    const answers = [];
    for (const page of [1, 2, 3]) {
      const response = await search(
        `${term(run.toUpperCase())}&order_by=id&sort=asc&per_page=100&page=${page}`,
      );
      expect(response.status, response.text).toBe(200);
      expect(response.headers.get('x-total')).toBe(String(COUNT));
      expect(response.headers.get('x-total-pages')).toBe('3');
      answers.push(response.body.map((project) => project.id));
    }
    expect(answers.map((ids) => ids.length)).toEqual([100, 100, 1]);
    expect(answers.flat()).toEqual(projects.map((project) => project.id));
  });

  it('a longer term with a rarer window is narrowed by the index to the same answer', async () => {
    // `many <run> 17` matches 17 and 170–179; its window ` 17` lists far fewer than 200.
    const expected = projects
      .filter((project) => project.name.includes(`${run} 17`))
      .map((project) => project.id);
    expect(expected).toHaveLength(11);
    expect(await found(`${term(`${run} 17`)}&order_by=id&sort=asc`)).toEqual(expected);
  });
});

describe('project search: deleted projects', () => {
  // There is no DELETE /projects/:id; a project goes with its group.
  it('a project of a deleted group is no longer found', async () => {
    const shared = tag();
    const group = await createGroup(`gone-${tag()}`, 'private');
    const project = await createProject({ name: `Doomed ${shared}`, namespace_id: group.id });
    expect(await found(term(shared))).toEqual([project.id]);
    expect(await pendingOnceIdle([project.id])).toEqual([]);
    const removed = await api('DELETE', `/groups/${group.id}`);
    expect(removed.status).toBe(202);
    await idle();
    const gone = await api('GET', `/projects/${project.id}`);
    expect([gone.status, gone.body]).toEqual([404, { message: '404 Project Not Found' }]);
    expect(await found(term(shared))).toEqual([]);
    const counted = await search(`${term(shared)}&per_page=1`);
    expect(counted.headers.get('x-total')).toBe('0');
  });
});
