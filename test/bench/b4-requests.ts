/**
 * B4: DynamoDB requests per API call, counted on the handlers' own DocumentClient while real
 * requests go through the local gateway to DynamoDB Local. Each request runs alone, three times,
 * as an anonymous caller, a signed-in member or root (admin), on data seeded through the store:
 * a public group with subgroups and projects of every visibility, a member's personal projects,
 * an issue of a private project of the group with more than a page of 100 notes, and a user's
 * private project with a hook whose delivery log holds more than a page, and a push rule; the
 * private project and the group with more than a page of labels and of milestones each, and another
 * issue of the project with more than a page of discussions (a third of them threads with replies)
 * and of award emoji, on itself and on one of its notes.
 *
 * The table's stream feeds the webhook consumer in this process through the same DocumentClient:
 * before each request the bench waits until the stream has reached it, so the consumer's reads of
 * earlier writes are not counted in the request's.
 */
import { ACCESS } from '#domain/access.ts';
import type { AwardEmoji } from '#domain/award-emoji.ts';
import type { Group } from '#domain/groups.ts';
import type { Hook } from '#domain/hooks.ts';
import type { Label } from '#domain/labels.ts';
import type { Milestone } from '#domain/milestones.ts';
import type { Note } from '#domain/notes.ts';
import type { Project } from '#domain/projects.ts';
import { PUSH_RULE_DEFAULTS } from '#domain/push-rules.ts';
import type { User } from '#domain/users.ts';
import type { StoredDiscussion } from '#store/issuables/discussions.ts';
import type { StoredIssue } from '#store/issuables/issues.ts';
import { updateProject } from '#store/projects/project-writes.ts';
import { createPushRule } from '#store/projects/push-rules.ts';
import { type BudgetResult, round, table } from './common.ts';
import {
  type BenchRuntime,
  READ_COMMANDS,
  ROOT_TOKEN,
  roundSequence,
  type SendRecord,
  sequentialRoundTrips,
  shortCommand,
} from './runtime.ts';
import {
  AWARD_NAMES,
  personalNamespace,
  seedAwards,
  seedDiscussions,
  seedGroup,
  seedGroupProjects,
  seedHook,
  seedHookLogs,
  seedIssue,
  seedIssueNotes,
  seedLabels,
  seedMember,
  seedMilestones,
  seedProject,
  seedRepository,
  seedToken,
  VISIBILITY_CYCLE,
} from './seed.ts';

export const MAX_READ_ROUND_TRIPS = 3;
const REPETITIONS = 3;
/** Projects in the bench group (half public) and its subgroups: more than one page of 100 each. */
const GROUP_PROJECTS = 240;
const SUBGROUPS = 110;
/** Notes on the bench issue: more than a page at per_page=100, so both pages of a pair are full. */
const ISSUE_NOTES = 120;
/** Attempts in the bench hook's delivery log: more than a page (events are paged 20 at most). */
const HOOK_LOGS = 50;
/** Hooks here are never delivered to (no events switched on): the url is only stored. */
const HOOK_URL = 'http://127.0.0.1:9/bench-b4';
/** Labels and milestones of the private project and of the group: more than a page of 100 each. */
const LABELS = 110;
const MILESTONES = 110;
/** Discussions on the discussed issue: more than a page of 100; every third a thread with replies. */
const DISCUSSIONS = 120;
const THREAD_EVERY = 3;
const THREAD_REPLIES = 2;
/** Users (by index among the seeded ones) who award each of AWARD_NAMES: 110 awards, more than a page. */
const AWARDERS = [130, 131, 132, 133, 134, 135, 136, 137, 138, 139, 140];
/** The repository's history and branches: more than a page of 100 each. */
const REPOSITORY_COMMITS = 120;
const REPOSITORY_BRANCHES = 110;

const WRITE_COMMANDS = new Set([
  'TransactWriteItemsCommand',
  'PutItemCommand',
  'UpdateItemCommand',
  'DeleteItemCommand',
  'BatchWriteItemCommand',
]);

type Who = 'anon' | 'user' | 'admin';

interface Scenario {
  name: string;
  who: Who;
  kind: 'read' | 'write';
  expect: number;
  /** Scenarios with the same pair key differ only in per_page (20 vs 100). */
  pair?: string;
  /** A per-repetition token instead of the caller's. */
  token?: (rep: number) => string;
  request: (rep: number) => { method: string; path: string; body?: unknown };
}

interface Observation {
  status: number;
  ms: number;
  sends: SendRecord[];
  queued: number;
  workerSends: SendRecord[];
}

export interface ScenarioResult {
  name: string;
  who: Who;
  kind: 'read' | 'write';
  pair?: string;
  statuses: number[];
  /** Per repetition, id-block reservations excluded. */
  sends: number[];
  roundTrips: number[];
  commands: Record<string, number>;
  writes: number;
  conditionalOrTransaction: boolean;
  idReservations: number;
  sqsSends: number;
  workerSends: number;
  scans: number;
  /** Read capacity DynamoDB reported for the first call's reads, and the items they touched. */
  readCapacity: number;
  itemsRead: number;
  medianMs: number;
  /** The first call's sends as sequential rounds (id-block reservations marked). */
  rounds: string;
  holds: boolean;
  why: string[];
}

/** The data B4's group and project scenarios run against (seeded through the store). */
interface B4Data {
  /** A developer of `group`, with personal projects and a token. */
  member: User;
  memberToken: string;
  /** Users without a personal namespace yet, one per repetition, with tokens. */
  newcomerTokens: string[];
  group: Group;
  publicProjects: Project[];
  privateProject: Project;
  /** An issue of `privateProject` with ISSUE_NOTES notes by the member and root. */
  issue: StoredIssue;
  /** One of them, by the member (who may edit it, as root may). */
  memberNote: Note;
  /** A user's private personal project (so its owner is a maintainer and up) with a hook and a push rule. */
  hooksProject: Project;
  hooksOwnerToken: string;
  /** The project's hook, with HOOK_LOGS attempts in its delivery log. */
  hook: Hook;
  /** Projects of the same owner for the repository jobs, one per repetition: deleted, housekept, linked. */
  jobProjects: { remove: Project[]; housekeep: Project[]; link: Project[] };
  /** A pull mirror of the same owner (its remote answers nothing: each update fails at once). */
  mirrorProject: Project;
  /** One of LABELS labels of `privateProject` (the group has as many). */
  label: Label;
  /** One of MILESTONES milestones of `privateProject` (the group has as many). */
  milestone: Milestone;
  /** An issue of `privateProject` with DISCUSSIONS discussions and awards on it and on its first note. */
  discussed: StoredIssue;
  /** One of the discussed issue's threads, with replies. */
  thread: StoredDiscussion;
  /** The discussed issue's first note, with as many awards as the issue. */
  awardedNoteId: number;
  /** One award on the discussed issue and one on its first note. */
  issueAward: AwardEmoji;
  noteAward: AwardEmoji;
  /** A public project of the group with a stored repository: REPOSITORY_COMMITS commits, REPOSITORY_BRANCHES branches. */
  repositoryProject: Project;
  repositoryHead: string;
}

async function seedB4(users: User[], rootId: number, stamp: string): Promise<B4Data> {
  const user = (i: number) => {
    const found = users[i];
    if (!found) throw new Error(`seed user ${i} missing`);
    return found;
  };
  const member = user(100);
  const hooksOwner = user(120);
  // Parts that do not depend on each other are seeded side by side (the store serialises what
  // they share), so the engine and this process work at once.
  const group = await seedGroup(`bench-group-${stamp}`, 'public', rootId);
  const [, projects, , memberToken, newcomerTokens, hooks] = await Promise.all([
    (async () => {
      await seedMember(group, member.id, ACCESS.developer);
      for (let i = 0; i < SUBGROUPS; i++) {
        await seedGroup(`sub-${i}`, VISIBILITY_CYCLE[i % 3] ?? 'public', rootId, group);
      }
    })(),
    seedGroupProjects(group, GROUP_PROJECTS, {
      prefix: `bench-${stamp}`,
      creatorId: rootId,
      visibilityOf: (i) => (i % 4 < 2 ? 'public' : i % 4 === 2 ? 'internal' : 'private'),
    }),
    (async () => {
      const namespace = await personalNamespace(member);
      for (let i = 0; i < 3; i++) await seedProject(namespace, `own-${stamp}-${i}`, 'public', member.id);
    })(),
    seedToken(member),
    Promise.all(Array.from({ length: REPETITIONS }, (_, rep) => seedToken(user(110 + rep)))),
    // Hooks and push rules are for maintainers: a user of their own (none of the member's lists
    // change) owning a private project; its hook's log written as the delivery worker writes it.
    (async () => {
      const hooksProject = await seedProject(
        await personalNamespace(hooksOwner),
        `hooks-${stamp}`,
        'private',
        hooksOwner.id,
      );
      const hooksOwnerToken = await seedToken(hooksOwner);
      const hook = await seedHook(hooksProject, `${HOOK_URL}/seeded`);
      await seedHookLogs(hook, HOOK_LOGS);
      await createPushRule(hooksProject.id, { ...PUSH_RULE_DEFAULTS, deny_delete_tag: true });
      const ownerNamespace = await personalNamespace(hooksOwner);
      const jobProject = (use: string, rep: number) =>
        seedProject(ownerNamespace, `${use}-${stamp}-${rep}`, 'private', hooksOwner.id);
      const jobProjects: B4Data['jobProjects'] = { remove: [], housekeep: [], link: [] };
      for (let rep = 0; rep < REPETITIONS; rep++) {
        jobProjects.remove.push(await jobProject('remove', rep));
        jobProjects.housekeep.push(await jobProject('housekeep', rep));
        jobProjects.link.push(await jobProject('link', rep));
      }
      const mirrorProject = await updateProject((await jobProject('mirror', 0)).id, (project) => ({
        ...project,
        import_url: 'http://127.0.0.1:9/bench-mirror.git',
        mirror: true,
        mirror_user_id: hooksOwner.id,
      }));
      return { hooksProject, hooksOwnerToken, hook, jobProjects, mirrorProject };
    })(),
  ]);
  const { hooksProject, hooksOwnerToken, hook, jobProjects, mirrorProject } = hooks;
  const privateProject = projects.find((project) => project.visibility === 'private');
  if (!privateProject) throw new Error('no private project seeded');
  const repositoryProject = projects.find((project) => project.visibility === 'public');
  if (!repositoryProject) throw new Error('no public project seeded');
  const awarders = AWARDERS.map((i) => user(i).id);
  const [notesSeeded, [label], , [milestone], , discussion, { head: repositoryHead }] = await Promise.all([
    (async () => {
      const issue = await seedIssue(privateProject, `bench issue ${stamp}`, member.id);
      const notes = await seedIssueNotes(issue, ISSUE_NOTES, { authorIds: [member.id, rootId] });
      return { issue, notes };
    })(),
    seedLabels({ kind: 'project', id: privateProject.id }, LABELS, `bench-${stamp}`),
    seedLabels({ kind: 'group', id: group.id }, LABELS, `group-${stamp}`),
    seedMilestones({ kind: 'project', id: privateProject.id }, MILESTONES),
    seedMilestones({ kind: 'group', id: group.id }, MILESTONES),
    (async () => {
      const discussed = await seedIssue(privateProject, `discussed ${stamp}`, member.id);
      const { threads, notes: discussionNotes } = await seedDiscussions(discussed, DISCUSSIONS, {
        authorIds: [member.id, rootId],
        threadEvery: THREAD_EVERY,
        replies: THREAD_REPLIES,
      });
      const awardedNoteId = discussionNotes[0]?.id;
      if (awardedNoteId === undefined) throw new Error('no discussion note seeded');
      const [[issueAward], [noteAward]] = await Promise.all([
        seedAwards(discussed, { userIds: awarders, names: AWARD_NAMES }),
        seedAwards(discussed, { userIds: awarders, names: AWARD_NAMES, noteId: awardedNoteId }),
      ]);
      return { discussed, thread: threads[0], awardedNoteId, issueAward, noteAward };
    })(),
    seedRepository(repositoryProject, { commits: REPOSITORY_COMMITS, branches: REPOSITORY_BRANCHES }),
  ]);
  const { issue, notes } = notesSeeded;
  const memberNote = notes.find((note) => note.author_id === member.id);
  if (!memberNote) throw new Error('no note by the member seeded');
  const { discussed, thread, awardedNoteId, issueAward, noteAward } = discussion;
  if (!label || !milestone || !thread || !issueAward || !noteAward)
    throw new Error('labels, milestones, discussions or awards not seeded');
  return {
    repositoryProject,
    repositoryHead,
    label,
    milestone,
    discussed,
    thread,
    awardedNoteId,
    issueAward,
    noteAward,
    jobProjects,
    mirrorProject,
    hooksProject,
    hooksOwnerToken,
    hook,
    issue,
    memberNote,
    member,
    memberToken,
    newcomerTokens,
    group,
    publicProjects: projects.filter((project) => project.visibility === 'public'),
    privateProject,
  };
}

function userScenarios(users: User[], stamp: string): Scenario[] {
  const user = (i: number) => {
    const found = users[i];
    if (!found) throw new Error(`seed user ${i} missing`);
    return found;
  };
  return [
    {
      name: 'GET /user',
      who: 'admin',
      kind: 'read',
      expect: 200,
      request: () => ({ method: 'GET', path: '/user' }),
    },
    {
      name: 'GET /users/:id',
      who: 'admin',
      kind: 'read',
      expect: 200,
      request: (rep) => ({ method: 'GET', path: `/users/${user(rep).id}` }),
    },
    ...([20, 100] as const).map(
      (perPage): Scenario => ({
        name: `GET /users?per_page=${perPage}`,
        who: 'admin',
        kind: 'read',
        expect: 200,
        pair: 'GET /users',
        request: () => ({ method: 'GET', path: `/users?per_page=${perPage}` }),
      }),
    ),
    {
      name: 'GET /users?per_page=100&page=2',
      who: 'admin',
      kind: 'read',
      expect: 200,
      request: () => ({ method: 'GET', path: '/users?per_page=100&page=2' }),
    },
    {
      name: 'GET /users?search=…',
      who: 'admin',
      kind: 'read',
      expect: 200,
      request: (rep) => ({
        method: 'GET',
        path: `/users?search=${encodeURIComponent(user(40 + rep).username)}`,
      }),
    },
    {
      name: 'GET /personal_access_tokens',
      who: 'admin',
      kind: 'read',
      expect: 200,
      request: () => ({ method: 'GET', path: '/personal_access_tokens' }),
    },
    {
      name: 'POST /users',
      who: 'admin',
      kind: 'write',
      expect: 201,
      request: (rep) => ({
        method: 'POST',
        path: '/users',
        body: {
          username: `bench-new-${stamp}-${rep}`,
          email: `bench-new-${stamp}-${rep}@example.com`,
          name: `Bench New ${rep}`,
          password: 'benchpass123',
        },
      }),
    },
    {
      name: 'POST /users/:id/personal_access_tokens',
      who: 'admin',
      kind: 'write',
      expect: 201,
      request: (rep) => ({
        method: 'POST',
        path: `/users/${user(10 + rep).id}/personal_access_tokens`,
        body: { name: `bench-${rep}`, scopes: ['api'] },
      }),
    },
    {
      // The same users as above, so each now has a token whose grant copies the user's auth fields.
      name: 'PUT /users/:id',
      who: 'admin',
      kind: 'write',
      expect: 200,
      request: (rep) => ({
        method: 'PUT',
        path: `/users/${user(10 + rep).id}`,
        body: { bio: `bio ${stamp} ${rep}` },
      }),
    },
    {
      name: 'POST /users/:id/block',
      who: 'admin',
      kind: 'write',
      expect: 201,
      request: (rep) => ({ method: 'POST', path: `/users/${user(10 + rep).id}/block` }),
    },
    {
      name: 'DELETE /users/:id',
      who: 'admin',
      kind: 'write',
      expect: 204,
      request: (rep) => ({ method: 'DELETE', path: `/users/${user(20 + rep).id}` }),
    },
  ];
}

const CALLERS: readonly Who[] = ['anon', 'user', 'admin'];

/** GET `path` for every caller and, when `paged`, at per_page 20 and 100. */
function reads(path: string, options: { paged: boolean; callers?: readonly Who[] }): Scenario[] {
  const out: Scenario[] = [];
  for (const who of options.callers ?? CALLERS) {
    for (const perPage of options.paged ? [20, 100] : [undefined]) {
      const query = perPage ? `${path.includes('?') ? '&' : '?'}per_page=${perPage}` : '';
      out.push({
        name: `GET ${path}${query}`,
        who,
        kind: 'read',
        expect: 200,
        pair: perPage ? `GET ${path} ${who}` : undefined,
        request: () => ({ method: 'GET', path: path + query }),
      });
    }
  }
  return out;
}

function groupProjectScenarios(data: B4Data, stamp: string): Scenario[] {
  const g = data.group.id;
  const at = (path: string) => path.replace(':id', String(g));
  const named = (scenarios: Scenario[]) =>
    scenarios.map((scenario) => ({
      ...scenario,
      name: scenario.name.replace(String(g), ':id'),
      pair: scenario.pair?.replace(String(g), ':id'),
    }));
  const publicProject = (rep: number) => {
    const project = data.publicProjects[rep];
    if (!project) throw new Error(`public project ${rep} missing`);
    return project;
  };
  // A search the index narrows (names bench-<stamp>-1 and -10 … -19 match).
  const search = `/projects?search=${encodeURIComponent(`bench-${stamp}-1`)}`;
  return [
    ...reads('/projects', { paged: true }),
    ...reads(search, { paged: true }).map((scenario) => ({
      ...scenario,
      name: scenario.name.replace(search, '/projects?search=…'),
      pair: scenario.pair?.replace(search, '/projects?search=…'),
    })),
    ...(
      [
        ['anon', publicProject(0).id],
        ['user', data.privateProject.id],
        ['admin', data.privateProject.id],
      ] as const
    ).map(
      ([who, id]): Scenario => ({
        name: `GET /projects/:id (${who === 'anon' ? 'public' : 'private'})`,
        who,
        kind: 'read',
        expect: 200,
        request: () => ({ method: 'GET', path: `/projects/${id}` }),
      }),
    ),
    {
      name: 'POST /projects (personal, namespace exists)',
      who: 'user',
      kind: 'write',
      expect: 201,
      request: (rep) => ({ method: 'POST', path: '/projects', body: { name: `mine-${stamp}-${rep}` } }),
    },
    {
      name: 'POST /projects (first personal project)',
      who: 'user',
      kind: 'write',
      expect: 201,
      token: (rep) => data.newcomerTokens[rep] ?? '',
      request: (rep) => ({ method: 'POST', path: '/projects', body: { name: `first-${stamp}-${rep}` } }),
    },
    {
      name: 'POST /projects (namespace_id=group)',
      who: 'admin',
      kind: 'write',
      expect: 201,
      request: (rep) => ({
        method: 'POST',
        path: '/projects',
        body: { name: `in-group-${stamp}-${rep}`, namespace_id: g },
      }),
    },
    {
      name: 'POST /projects/:id/star',
      who: 'user',
      kind: 'write',
      expect: 201,
      request: (rep) => ({ method: 'POST', path: `/projects/${publicProject(10 + rep).id}/star` }),
    },
    ...reads('/groups', { paged: true }),
    ...named(reads(at('/groups/:id'), { paged: false })),
    ...named(reads(at('/groups/:id/projects'), { paged: true })),
    ...named(reads(at('/groups/:id/subgroups'), { paged: true })),
    {
      name: 'POST /groups',
      who: 'admin',
      kind: 'write',
      expect: 201,
      request: (rep) => ({
        method: 'POST',
        path: '/groups',
        body: { name: `New ${stamp} ${rep}`, path: `new-${stamp}-${rep}` },
      }),
    },
    {
      name: 'POST /groups (subgroup, parent_id)',
      who: 'admin',
      kind: 'write',
      expect: 201,
      request: (rep) => ({
        method: 'POST',
        path: '/groups',
        body: { name: `Child ${stamp} ${rep}`, path: `child-${stamp}-${rep}`, parent_id: g },
      }),
    },
    ...reads(`/users/${data.member.id}/projects`, { paged: false }).map((scenario) => ({
      ...scenario,
      name: scenario.name.replace(String(data.member.id), ':id'),
    })),
  ];
}

/**
 * The lists of members with their inherited levels, descendants, namespaces and search, on the
 * bench group (public, 110 subgroups, 240 projects) and its private project.
 */
function membershipAndSearchScenarios(data: B4Data, stamp: string): Scenario[] {
  const g = data.group.id;
  const p = data.privateProject.id;
  const anonymize = (scenarios: Scenario[], concrete: string, shown: string) =>
    scenarios.map((scenario) => ({
      ...scenario,
      name: scenario.name.replace(concrete, shown),
      pair: scenario.pair?.replace(concrete, shown),
    }));
  const signedIn = ['user', 'admin'] as const;
  const projectSearch = `search=${encodeURIComponent(`bench-${stamp}-1`)}`;
  return [
    ...anonymize(reads(`/groups/${g}/descendant_groups`, { paged: true }), `/groups/${g}/`, '/groups/:id/'),
    ...anonymize(
      reads(`/groups/${g}/members/all`, { paged: true, callers: signedIn }),
      `/groups/${g}/`,
      '/groups/:id/',
    ),
    ...anonymize(
      reads(`/groups/${g}/members/all/${data.member.id}`, { paged: false, callers: signedIn }),
      `/groups/${g}/members/all/${data.member.id}`,
      '/groups/:id/members/all/:user_id',
    ),
    ...anonymize(
      reads(`/projects/${p}/members/all`, { paged: true, callers: signedIn }),
      `/projects/${p}/`,
      '/projects/:id/',
    ),
    ...anonymize(
      reads(`/projects/${p}/groups`, { paged: true, callers: signedIn }),
      `/projects/${p}/`,
      '/projects/:id/',
    ),
    ...reads('/namespaces', { paged: true, callers: signedIn }),
    ...anonymize(
      reads(`/namespaces/${g}`, { paged: false, callers: signedIn }),
      `/namespaces/${g}`,
      '/namespaces/:id',
    ),
    ...anonymize(
      reads(`/namespaces/${data.group.path}/exists`, { paged: false, callers: signedIn }),
      `/namespaces/${data.group.path}/`,
      '/namespaces/:id/',
    ),
    ...anonymize(
      reads(`/search?scope=projects&${projectSearch}`, { paged: true, callers: signedIn }),
      projectSearch,
      'search=…',
    ),
    ...reads('/search?scope=users&search=bench', { paged: true, callers: signedIn }),
    ...reads('/search?scope=groups&search=sub-1', { paged: true, callers: signedIn }),
    ...anonymize(
      reads(`/groups/${g}/search?scope=projects&${projectSearch}`, { paged: true, callers: signedIn }),
      `/groups/${g}/search?scope=projects&${projectSearch}`,
      '/groups/:id/search?scope=projects&search=…',
    ),
    ...anonymize(
      reads(`/projects/${p}/search?scope=issues&search=bench`, { paged: true, callers: signedIn }),
      `/projects/${p}/`,
      '/projects/:id/',
    ),
  ];
}

/**
 * Labels and milestones of the private project and of the group, the discussed issue's award
 * emoji (on it and on its first note) and discussions, as the member (a developer of the group)
 * and as root; GitLab authenticates every one of these routes (401 for anonymous callers).
 */
function labelMilestoneAwardDiscussionScenarios(data: B4Data, stamp: string): Scenario[] {
  const project = `/projects/${data.privateProject.id}`;
  const group = `/groups/${data.group.id}`;
  const issue = `${project}/issues/${data.discussed.iid}`;
  const note = `${issue}/notes/${data.awardedNoteId}`;
  const signedIn = ['user', 'admin'] as const;
  const shown: [string, string][] = [
    [note, '/projects/:id/issues/:iid/notes/:note_id'],
    [issue, '/projects/:id/issues/:iid'],
    [project, '/projects/:id'],
    [group, '/groups/:id'],
  ];
  const generic = (text: string) => shown.reduce((named, [path, as]) => named.replace(path, as), text);
  const list = (path: string) =>
    reads(path, { paged: true, callers: signedIn }).map((scenario) => ({
      ...scenario,
      name: generic(scenario.name),
      pair: scenario.pair && generic(scenario.pair),
    }));
  const one = (path: string, name: string): Scenario[] =>
    signedIn.map((who) => ({
      name,
      who,
      kind: 'read',
      expect: 200,
      request: () => ({ method: 'GET', path }),
    }));
  const create = (name: string, path: string, body: (who: string, rep: number) => unknown): Scenario[] =>
    signedIn.map((who) => ({
      name,
      who,
      kind: 'write',
      expect: 201,
      request: (rep) => ({ method: 'POST', path, body: body(who, rep) }),
    }));
  return [
    ...list(`${project}/labels`),
    ...list(`${group}/labels`),
    ...list(`${project}/milestones`),
    ...list(`${group}/milestones`),
    ...list(`${issue}/award_emoji`),
    ...list(`${note}/award_emoji`),
    ...list(`${issue}/discussions`),
    ...one(`${project}/labels/${data.label.id}`, 'GET /projects/:id/labels/:label_id'),
    ...one(`${project}/milestones/${data.milestone.id}`, 'GET /projects/:id/milestones/:milestone_id'),
    ...one(
      `${issue}/award_emoji/${data.issueAward.id}`,
      'GET /projects/:id/issues/:iid/award_emoji/:award_id',
    ),
    ...one(
      `${note}/award_emoji/${data.noteAward.id}`,
      'GET /projects/:id/issues/:iid/notes/:note_id/award_emoji/:award_id',
    ),
    ...one(
      `${issue}/discussions/${data.thread.id}`,
      'GET /projects/:id/issues/:iid/discussions/:discussion_id',
    ),
    ...create('POST /projects/:id/labels', `${project}/labels`, (who, rep) => ({
      name: `new-${stamp}-${who}-${rep}`,
      color: '#d9534f',
    })),
    // Neither the member nor root has awarded anything on the discussed issue.
    ...create('POST /projects/:id/issues/:iid/award_emoji', `${issue}/award_emoji`, (_who, rep) => ({
      name: AWARD_NAMES[rep] ?? 'thumbsup',
    })),
    ...create('POST /projects/:id/issues/:iid/discussions', `${issue}/discussions`, (who, rep) => ({
      body: `A new thread ${stamp} ${who} ${rep}`,
    })),
  ];
}

/**
 * An issue's notes and the issue itself, as the member (a developer of the group, so a reporter
 * and more of its private project) and as root; numeric project ids.
 */
function issueNoteScenarios(data: B4Data, stamp: string): Scenario[] {
  const project = data.privateProject.id;
  const issue = `/projects/${project}/issues/${data.issue.iid}`;
  const note = `${issue}/notes/${data.memberNote.id}`;
  const out: Scenario[] = [];
  for (const who of ['user', 'admin'] as const) {
    for (const perPage of [20, 100]) {
      out.push({
        name: `GET /projects/:id/issues/:iid/notes?per_page=${perPage}`,
        who,
        kind: 'read',
        expect: 200,
        pair: `GET /projects/:id/issues/:iid/notes ${who}`,
        request: () => ({ method: 'GET', path: `${issue}/notes?per_page=${perPage}` }),
      });
    }
    out.push(
      {
        name: 'GET /projects/:id/issues/:iid/notes/:note_id',
        who,
        kind: 'read',
        expect: 200,
        request: () => ({ method: 'GET', path: note }),
      },
      {
        name: 'POST /projects/:id/issues/:iid/notes',
        who,
        kind: 'write',
        expect: 201,
        request: (rep) => ({
          method: 'POST',
          path: `${issue}/notes`,
          body: { body: `A new note ${stamp} ${who} ${rep}` },
        }),
      },
      {
        name: 'PUT /projects/:id/issues/:iid/notes/:note_id',
        who,
        kind: 'write',
        expect: 200,
        request: (rep) => ({ method: 'PUT', path: note, body: { body: `Edited ${stamp} ${who} ${rep}` } }),
      },
      {
        name: 'POST /projects/:id/issues',
        who,
        kind: 'write',
        expect: 201,
        request: (rep) => ({
          method: 'POST',
          path: `/projects/${project}/issues`,
          body: { title: `Bench issue ${stamp} ${who} ${rep}` },
        }),
      },
    );
  }
  return out;
}

/**
 * A project's hooks, a hook, its delivery log and the push rule, as the project's owner and as
 * root; numeric project ids.
 */
function hookScenarios(data: B4Data, stamp: string): Scenario[] {
  const project = `/projects/${data.hooksProject.id}`;
  const hook = `${project}/hooks/${data.hook.id}`;
  const out: Scenario[] = [];
  for (const who of ['user', 'admin'] as const) {
    const token = who === 'user' ? () => data.hooksOwnerToken : undefined;
    const read = (name: string, path: string, pair?: string): Scenario => ({
      name,
      who,
      kind: 'read',
      expect: 200,
      ...(pair ? { pair: `${pair} ${who}` } : {}),
      ...(token ? { token } : {}),
      request: () => ({ method: 'GET', path }),
    });
    for (const perPage of [20, 100])
      out.push(
        read(
          `GET /projects/:id/hooks?per_page=${perPage}`,
          `${project}/hooks?per_page=${perPage}`,
          'GET /projects/:id/hooks',
        ),
      );
    out.push(read('GET /projects/:id/hooks/:hook_id', hook));
    for (const perPage of [20, 100])
      out.push(
        read(
          `GET /projects/:id/hooks/:hook_id/events?per_page=${perPage}`,
          `${hook}/events?per_page=${perPage}`,
          'GET /projects/:id/hooks/:hook_id/events',
        ),
      );
    out.push(read('GET /projects/:id/push_rule', `${project}/push_rule`), {
      name: 'POST /projects/:id/hooks',
      who,
      kind: 'write',
      expect: 201,
      ...(token ? { token } : {}),
      request: (rep) => ({
        method: 'POST',
        path: `${project}/hooks`,
        body: { url: `${HOOK_URL}/${stamp}/${who}/${rep}`, push_events: false, token: 'bench-secret' },
      }),
    });
  }
  return out;
}

/**
 * The synchronous halves of the repository jobs, as the owner of the projects (fork relations as
 * root, as the spec allows only admins): each is one write and one queue message at most.
 */
function repositoryScenarios(data: B4Data, stamp: string): Scenario[] {
  const token = () => data.hooksOwnerToken;
  const pick = (projects: Project[], rep: number) => {
    const project = projects[rep];
    if (!project) throw new Error(`no project seeded for repetition ${rep}`);
    return project;
  };
  const write = (
    name: string,
    expect: number,
    request: Scenario['request'],
    who: Who = 'user',
  ): Scenario => ({
    name,
    who,
    kind: 'write',
    expect,
    ...(who === 'user' ? { token } : {}),
    request,
  });
  const source = data.hooksProject.id;
  return [
    write('POST /projects/:id/fork', 201, (rep) => ({
      method: 'POST',
      path: `/projects/${source}/fork`,
      body: { name: `fork ${stamp} ${rep}`, path: `fork-${stamp}-${rep}` },
    })),
    {
      name: 'GET /projects/:id/forks',
      who: 'user',
      kind: 'read',
      expect: 200,
      token,
      request: () => ({ method: 'GET', path: `/projects/${source}/forks` }),
    },
    write('DELETE /projects/:id', 202, (rep) => ({
      method: 'DELETE',
      path: `/projects/${pick(data.jobProjects.remove, rep).id}`,
    })),
    write('POST /projects/:id/housekeeping', 201, (rep) => ({
      method: 'POST',
      path: `/projects/${pick(data.jobProjects.housekeep, rep).id}/housekeeping`,
    })),
    write('POST /projects/:id/mirror/pull', 200, () => ({
      method: 'POST',
      path: `/projects/${data.mirrorProject.id}/mirror/pull`,
    })),
    write(
      'POST /projects/:id/fork/:forked_from_id',
      201,
      (rep) => ({ method: 'POST', path: `/projects/${pick(data.jobProjects.link, rep).id}/fork/${source}` }),
      'admin',
    ),
    write(
      'DELETE /projects/:id/fork',
      204,
      (rep) => ({ method: 'DELETE', path: `/projects/${pick(data.jobProjects.link, rep).id}/fork` }),
      'admin',
    ),
  ];
}

/**
 * Reading the repository (branch, tag, tree and commit lists paged at 20 and 100; one branch and
 * one commit) by every caller, and a developer's branch creation and deletion: the project and the
 * repository pointer are the only table reads, the pointer's move the only write.
 */
function repositoryReadScenarios(data: B4Data, stamp: string): Scenario[] {
  const project = `/projects/${data.repositoryProject.id}`;
  const generic = (text: string) =>
    text.replace(project, '/projects/:id').replace(data.repositoryHead, ':sha');
  const named = (scenario: Scenario): Scenario => ({
    ...scenario,
    name: generic(scenario.name),
    pair: scenario.pair && generic(scenario.pair),
  });
  const branch = (rep: number) => `b4-${stamp}-${rep}`;
  const scenarios: Scenario[] = [
    ...reads(`${project}/repository/branches`, { paged: true }),
    ...reads(`${project}/repository/tags`, { paged: true }),
    ...reads(`${project}/repository/tree?recursive=true`, { paged: true }),
    ...reads(`${project}/repository/commits`, { paged: true }),
    ...reads(`${project}/repository/branches/main`, { paged: false }),
    ...reads(`${project}/repository/commits/${data.repositoryHead}`, { paged: false }),
    {
      name: `POST ${project}/repository/branches`,
      who: 'user',
      kind: 'write',
      expect: 201,
      request: (rep) => ({
        method: 'POST',
        path: `${project}/repository/branches`,
        body: { branch: branch(rep), ref: 'main' },
      }),
    },
    {
      name: `DELETE ${project}/repository/branches/:branch`,
      who: 'user',
      kind: 'write',
      expect: 204,
      request: (rep) => ({ method: 'DELETE', path: `${project}/repository/branches/${branch(rep)}` }),
    },
  ];
  return scenarios.map(named);
}

async function call(
  apiUrl: string,
  token: string | undefined,
  request: { method: string; path: string; body?: unknown },
) {
  const response = await fetch(`${apiUrl}${request.path}`, {
    method: request.method,
    headers: {
      ...(token ? { 'PRIVATE-TOKEN': token } : {}),
      ...(request.body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: request.body === undefined ? undefined : JSON.stringify(request.body),
    signal: AbortSignal.timeout(30_000),
  });
  await response.arrayBuffer();
  return response.status;
}

/**
 * A route's sequential round trips from its repetitions' chains: a send that needs another's answer
 * always starts after it ended, so every chain is at least the route's depth, while sends started
 * side by side may, on a loaded machine, happen to run one after another and lengthen a chain. The
 * shortest chain is the depth.
 */
const routeDepth = (chains: number[]) => Math.min(...chains);

function judge(scenario: Scenario, observations: Observation[]): ScenarioResult {
  const commands: Record<string, number> = {};
  const main = observations.map((o) => o.sends.filter((send) => !send.idReservation));
  for (const send of main[0] ?? []) commands[send.command] = (commands[send.command] ?? 0) + 1;
  const writesPerRep = main.map((sends) => sends.filter((send) => WRITE_COMMANDS.has(send.command)));
  const writes = Math.max(...writesPerRep.map((w) => w.length));
  const conditionalOrTransaction = writesPerRep.every((w) =>
    w.every((send) => send.command === 'TransactWriteItemsCommand' || send.conditional),
  );
  const roundTrips = main.map(sequentialRoundTrips);
  const depth = routeDepth(roundTrips);
  const scans = observations.reduce(
    (sum, o) => sum + o.sends.filter((send) => send.command === 'ScanCommand').length,
    0,
  );
  const sqsSends = Math.max(...observations.map((o) => o.queued));
  const why: string[] = [];
  const statuses = observations.map((o) => o.status);
  if (statuses.some((status) => status !== scenario.expect)) {
    why.push(`answered ${statuses.join('/')} (expected ${scenario.expect})`);
  }
  if (scans) why.push(`${scans} Scan`);
  if (scenario.kind === 'read') {
    if (depth > MAX_READ_ROUND_TRIPS) {
      why.push(`${depth} sequential round trips > ${MAX_READ_ROUND_TRIPS}`);
    }
    if (writes) why.push(`${writes} write(s) on a read`);
  } else {
    if (writes !== 1) why.push(`${writes} write commands (want exactly one)`);
    if (!conditionalOrTransaction) why.push('a write that is neither a transaction nor conditional');
    if (sqsSends > 1) why.push(`${sqsSends} queue messages (want ≤ 1)`);
  }
  const times = observations.map((o) => o.ms).sort((a, b) => a - b);
  const first = observations[0]?.sends ?? [];
  const firstReads = first.filter((send) => READ_COMMANDS.has(send.command));
  return {
    name: scenario.name,
    who: scenario.who,
    kind: scenario.kind,
    pair: scenario.pair,
    statuses,
    sends: main.map((sends) => sends.length),
    roundTrips,
    commands,
    writes,
    conditionalOrTransaction,
    idReservations: observations.reduce(
      (sum, o) => sum + o.sends.filter((send) => send.idReservation).length,
      0,
    ),
    sqsSends,
    workerSends: Math.max(...observations.map((o) => o.workerSends.length)),
    scans,
    readCapacity: round(
      firstReads.reduce((sum, send) => sum + send.capacity, 0),
      1,
    ),
    itemsRead: firstReads.reduce((sum, send) => sum + send.itemsRead, 0),
    medianMs: round(times[Math.floor(times.length / 2)] ?? Number.NaN, 2),
    rounds: roundSequence(first),
    holds: why.length === 0,
    why,
  };
}

interface PairResult {
  pair: string;
  same: boolean;
  sends: [number, number];
  roundTrips: [number, number];
  readCapacity: [number, number];
}

function comparePairs(results: ScenarioResult[]): PairResult[] {
  const pairs = new Map<string, ScenarioResult[]>();
  for (const r of results) if (r.pair) pairs.set(r.pair, [...(pairs.get(r.pair) ?? []), r]);
  return [...pairs].flatMap(([pair, members]) => {
    const [p20, p100] = members;
    if (!p20 || !p100) return [];
    const sends: [number, number] = [Math.max(...p20.sends), Math.max(...p100.sends)];
    const roundTrips: [number, number] = [routeDepth(p20.roundTrips), routeDepth(p100.roundTrips)];
    return [
      {
        pair,
        same: sends[0] === sends[1] && roundTrips[0] === roundTrips[1],
        sends,
        roundTrips,
        readCapacity: [p20.readCapacity, p100.readCapacity],
      },
    ];
  });
}

export async function runB4(
  bench: BenchRuntime,
  users: User[],
  ids: { idBlockSize: number; seedCreations: number; seedReservations: number; rootId: number },
): Promise<BudgetResult> {
  const { idBlockSize } = ids;
  const started = performance.now();
  const stamp = Date.now().toString(36);
  const seedStarted = performance.now();
  const data = await seedB4(users, ids.rootId, stamp);
  const seedSeconds = (performance.now() - seedStarted) / 1000;
  // The hooks owner's first request, unrecorded: like every other caller's, their scenarios then
  // run on a warm read-ahead (a credential's first request in a container reads its memberships
  // one round later; see store/access/read-ahead.ts), so per_page pairs compare like with like.
  await call(bench.runtime.apiUrl, data.hooksOwnerToken, {
    method: 'GET',
    path: `/projects/${data.hooksProject.id}`,
  });
  const tokens: Record<Who, string | undefined> = {
    anon: undefined,
    user: data.memberToken,
    admin: ROOT_TOKEN,
  };
  const results: ScenarioResult[] = [];
  let streamWaitMs = 0;
  for (const scenario of [
    ...userScenarios(users, stamp),
    ...groupProjectScenarios(data, stamp),
    ...issueNoteScenarios(data, stamp),
    ...hookScenarios(data, stamp),
    ...labelMilestoneAwardDiscussionScenarios(data, stamp),
    ...repositoryScenarios(data, stamp),
    ...repositoryReadScenarios(data, stamp),
    ...membershipAndSearchScenarios(data, stamp),
  ]) {
    const observations: Observation[] = [];
    for (let rep = 0; rep < REPETITIONS; rep++) {
      const request = scenario.request(rep);
      const token = scenario.token ? scenario.token(rep) : tokens[scenario.who];
      const waited = performance.now();
      await bench.runtime.streams.drain(60_000);
      streamWaitMs += performance.now() - waited;
      const t0 = performance.now();
      const recorded = await bench.record(() => call(bench.runtime.apiUrl, token, request));
      observations.push({
        status: recorded.value,
        ms: performance.now() - t0,
        sends: recorded.sends,
        queued: recorded.queued.length,
        workerSends: recorded.workerSends,
      });
    }
    results.push(judge(scenario, observations));
  }
  const pairs = comparePairs(results);
  const differing = pairs.filter((pair) => !pair.same);

  const rows: (string | number)[][] = [
    [
      'request',
      'caller',
      'status',
      'sends',
      'commands (1st call)',
      'seq RT',
      'RCU',
      'items',
      'id blk',
      'SQS',
      'wkr',
      'ok',
    ],
  ];
  for (const r of results) {
    rows.push([
      r.name,
      r.who,
      [...new Set(r.statuses)].join('/'),
      [...new Set(r.sends)].join('/'),
      Object.entries(r.commands)
        .map(([command, count]) => `${shortCommand(command)}${count > 1 ? `×${count}` : ''}`)
        .join(' '),
      [...new Set(r.roundTrips)].join('/'),
      r.readCapacity,
      r.itemsRead,
      r.idReservations ? `${r.idReservations}/${REPETITIONS}` : '-',
      r.sqsSends || '-',
      r.workerSends || '-',
      r.holds ? 'yes' : 'NO',
    ]);
  }
  const failing = results.filter((r) => !r.holds);
  const notes = [
    `Each request ran ${REPETITIONS}× alone: anon = no token; user = a developer of the bench group (which holds ${GROUP_PROJECTS} projects — ½ public, ¼ internal, ¼ private — and ${SUBGROUPS} subgroups) who also owns 3 personal projects; admin = root. The notes scenarios use an issue of a private project of the bench group with ${ISSUE_NOTES} notes (the member's and root's, through createIssue and createNoteBy); the member edits a note of their own. The hooks and push rule scenarios use another user's private personal project ("user" there = its owner) with a hook (createHook) whose delivery log holds ${HOOK_LOGS} attempts (appendHookLog) and a push rule (createPushRule); the hooks POSTed have no events switched on. The labels and milestones scenarios list the private project's and the group's ${LABELS} labels and ${MILESTONES} milestones (createLabel, createMilestone; a project's labels list reads its group's too); the award emoji and discussions scenarios use another issue of the private project with ${DISCUSSIONS} discussions (startThread, replyToDiscussion, createNoteBy: every ${THREAD_EVERY}rd a thread with ${THREAD_REPLIES} replies) and ${AWARDERS.length * AWARD_NAMES.length} awards (addAward) on it and as many on its first note; GitLab answers these routes to signed-in callers only. Authentication is one GetItem for user and admin. Seeding that data through the store took ${seedSeconds.toFixed(1)} s. Before each request the bench waited until the table's stream had reached its consumers (${(streamWaitMs / 1000).toFixed(1)} s in all), and the consumers were held while the request ran (LocalStreams.hold), so their commands (a rollup, a parent's touch) are not counted as the request's.`,
    `"sends" and "seq RT" exclude number allocation, shown apart as "id blk": id-counter block reservations (one UpdateItem ADD reserves ${idBlockSize} ids (ID_BLOCK_SIZE), i.e. ${round(1 / idBlockSize, 2)} extra sends per creation amortized; seeding ${ids.seedCreations} users took ${ids.seedReservations} reservations (${round(ids.seedReservations / ids.seedCreations, 3)} per creation)) and the one atomic ADD that takes a parent's next iid (issues, merge requests, epics) before the creating transaction.`,
    "seq RT = the longest chain of sends each started after the previous one ended (sends in one Promise.all, e.g. a page Query and its count GetItem, count once; the R1 | R2 | … sequences below place each send in its round). RCU / items = read capacity DynamoDB Local reported (ReturnConsumedCapacity TOTAL), plus DynamoDB's minimum for each key read that found nothing (Local reports none), and items touched by the first call's reads (ScannedCount of Queries, keys asked of Gets and BatchGets). Worker = DynamoDB sends of the queue worker the request triggered, counted apart.",
    `per_page=20 vs per_page=100: ${
      differing.length
        ? `${differing.length} of ${pairs.length} pairs DIFFER — ${differing
            .map(
              (pair) =>
                `${pair.pair} [${pair.sends[0]} vs ${pair.sends[1]} sends, ${pair.roundTrips[0]} vs ${pair.roundTrips[1]} RT]`,
            )
            .join('; ')}`
        : `all ${pairs.length} pairs cost the same sends and round trips`
    }.`,
  ];
  for (const r of failing) notes.push(`FAIL ${r.name} [${r.who}]: ${r.why.join('; ')} — ${r.rounds}`);
  for (const pair of differing) {
    const big = results.find((r) => r.pair === pair.pair && r !== results.find((x) => x.pair === pair.pair));
    if (big) notes.push(`PER_PAGE ${big.name} [${big.who}]: ${big.rounds}`);
  }
  for (const r of results.filter((x) => x.kind === 'write' && x.holds)) {
    const reads = Math.max(...r.sends) - r.writes;
    const rt = routeDepth(r.roundTrips);
    // Authentication + one read of what is changed + the write is the floor for an update.
    if (rt > MAX_READ_ROUND_TRIPS) {
      notes.push(
        `FINDING ${r.name} [${r.who}]: ${reads} reads around its write, ${rt} sequential round trips — ${r.rounds}`,
      );
    }
  }
  return {
    id: 'B4',
    title: `DynamoDB requests per call: reads ≤ ${MAX_READ_ROUND_TRIPS} sequential round trips; writes one transaction or conditional write (+ ≤ 1 SQS); list cost independent of per_page`,
    holds: failing.length === 0 && differing.length === 0,
    summary: `${results.length - failing.length}/${results.length} requests within budget; per_page 20 vs 100: ${
      differing.length
        ? `${differing.length}/${pairs.length} pairs DIFFER`
        : `same cost in all ${pairs.length} pairs`
    }`,
    table: table(rows),
    notes,
    details: { repetitions: REPETITIONS, ids, seedSeconds, pairs, results },
    seconds: (performance.now() - started) / 1000,
  };
}
