/**
 * Forks. A fork is a project whose `forked_from_project_id` names its source, with a link item in
 * the source's partition (`FORK#<padded fork id>`: the source's forks list is one Query) and the
 * source's `forks_count`; the three change together in one transaction, so the count stays exact
 * whoever forks at the same time.
 */

import { ApiError, conflict, notFound } from '#domain/errors.ts';
import { type ForkInput, forkedProjectFrom, minimumListLevel } from '#domain/forks.ts';
import type { ProjectCreator } from '#domain/namespaces.ts';
import { type PageRequest, slicePage } from '#domain/pagination.ts';
import { projectListFilter } from '#domain/project-lists.ts';
import type { ProjectPage } from '#domain/project-views.ts';
import {
  effectiveAccess,
  NO_ACCESS,
  type Project,
  type ProjectAccess,
  type ProjectNamespace,
} from '#domain/projects.ts';
import { type ReadScope, readsProject, seesOpenly } from '#domain/read-scope.ts';
import { accessFromLevels, membershipLevelsOf } from '../access/access.ts';
import { counterChange, itemCounter } from '../table/counters.ts';
import { getItem, readPartition } from '../table/items.ts';
import { FORK_PREFIX, keys } from '../table/keys.ts';
import type { Raw } from '../table/raw.ts';
import { listSortAttributes } from '../table/table.ts';
import {
  commit,
  EXISTING_ITEM,
  LIVE_ITEM,
  NEW_ITEM,
  put,
  refusedReading,
  refusedWith,
  remove,
  retrying,
  type Step,
  type TransactItem,
  update,
} from '../table/transaction.ts';
import { getUser } from '../users/users.ts';
import { personalNamespaceId } from './namespace-lookup.ts';
import { creatableNamespace } from './project-creation.ts';
import {
  decodeProject,
  getProject,
  getProjectsRaw,
  NamespaceMoved,
  newRunnersToken,
} from './project-items.ts';
import type { ProjectListRequest } from './project-pages.ts';
import { starredProjectIds } from './project-stars.ts';
import { createProject } from './project-writes.ts';

const targetNamespaceNotFound = () => notFound('Target Namespace');

/** The link item of a fork in its source's partition. */
const forkLinkItem = (sourceId: number, forkId: number, createdAt: string): Raw => ({
  ...keys.forkLink(sourceId, forkId),
  kind: 'fork_link',
  source_id: sourceId,
  fork_id: forkId,
  created_at: createdAt,
});

/**
 * The source's `forks_count` moves with the link (on its counters, store/table/counters.ts); a source gone
 * meanwhile is 404.
 */
const forksCountChange = (sourceId: number, delta: 1 | -1): Step[] => [
  // A new fork of a source marked deleted is refused by its counter's shard (store/table/counters.ts).
  refusedWith(counterChange(itemCounter(keys.project(sourceId), 'forks_count'), delta), notFound('Project')),
];

// Fork ----------------------------------------------------------------------------------------------

/** A namespace's id from an id or a full path (a user's path names their personal namespace). */
async function namespaceIdOf(reference: string | number): Promise<number | undefined> {
  if (/^\d+$/.test(String(reference))) return Number(reference);
  const route = await getItem(keys.route(String(reference)));
  if (route?.kind === 'group') return Number(route.id);
  if (route?.kind !== 'user') return undefined;
  const user = await getUser(Number(route.id));
  return user ? personalNamespaceId(user) : undefined;
}

/**
 * The namespace a fork goes to: the creator's own when none is named; otherwise one they may create
 * projects in (see creatableNamespace). 404 `Target Namespace Not Found` for a missing or refused one.
 */
async function forkNamespace(
  creator: ProjectCreator,
  reference: string | number | undefined,
): Promise<ProjectNamespace> {
  if (reference === undefined) return creatableNamespace(creator, undefined);
  const id = await namespaceIdOf(reference);
  if (id === undefined) throw targetNamespaceNotFound();
  try {
    return await creatableNamespace(creator, id);
  } catch (error) {
    // creatableNamespace's "namespace is not valid" (400) is the fork's 404.
    if (error instanceof ApiError && error.status === 400) throw targetNamespaceNotFound();
    throw error;
  }
}

export interface ForkRequest extends ForkInput {
  namespace?: string;
  namespace_id?: number;
  namespace_path?: string;
}

/** Renames racing one fork's placement: more than this many in a row are reported, not chased. */
const MAX_PLACEMENTS = 20;

/** GitLab answers a fork whose name or path is taken in the target with 409 and the fields that clash. */
const takenAsConflict = (error: unknown) => {
  if (!(error instanceof ApiError) || error.status !== 400) return error;
  const message = (error.body as { message?: unknown }).message;
  if (typeof message !== 'object' || message === null) return error;
  const fields = Object.entries(message as Record<string, string[]>);
  const taken = fields.filter(
    ([field, sentences]) =>
      (field === 'name' || field === 'path') && sentences.includes('has already been taken'),
  );
  return taken.length === fields.length && taken.length > 0 ? new ApiError(409, error.body) : error;
};

/**
 * Forks `source` for the creator into the namespace asked for. One transaction: the new project
 * (scheduled, `forked_from_project_id` = source), its route, name and counters, the link in the
 * source's partition and the source's `forks_count`. The creator's access to the fork comes along
 * (for `permissions`).
 */
export async function createFork(creator: ProjectCreator, source: Project, request: ForkRequest) {
  const reference = request.namespace_id ?? request.namespace_path ?? request.namespace;
  const namespace = await forkNamespace(creator, reference);
  const runnersToken = newRunnersToken();
  const place = (current: ProjectNamespace) =>
    createProject(
      forkedProjectFrom(source, request, current, creator.userId, runnersToken),
      current.owner_id,
      (fork) => [
        put(forkLinkItem(source.id, fork.id, fork.created_at), NEW_ITEM),
        ...forksCountChange(source.id, 1),
      ],
    );
  try {
    const fork = await retrying(
      { times: MAX_PLACEMENTS, retry: (error) => error instanceof NamespaceMoved },
      namespace,
      place,
      // The namespace was renamed between our read and our write: place it as it is now.
      () => forkNamespace(creator, namespace.id),
    );
    const access = await accessFromLevels(creator.userId, [fork], undefined);
    return { project: fork, access: access.get(fork.id) };
  } catch (error) {
    throw takenAsConflict(error);
  }
}

// Fork relation -------------------------------------------------------------------------------------

/** The project may not already be a fork (its attribute absent, or null as a new project stores it). */
const NOT_A_FORK =
  '(attribute_not_exists(forked_from_project_id) OR attribute_type(forked_from_project_id, :null))';

/**
 * Makes `project` a fork of `source` (an admin's repair): the attribute, the link and the source's
 * count in one transaction; 409 `Project already forked` when it is one.
 */
export async function createForkRelation(project: Project, source: Project): Promise<Project> {
  if (project.forked_from_project_id !== null && project.forked_from_project_id !== undefined) {
    throw conflict('Project already forked');
  }
  await commit([
    refusedReading(
      update(keys.project(project.id), 'SET forked_from_project_id = :source', {
        condition: `${LIVE_ITEM} AND ${NOT_A_FORK}`,
        values: { ':source': source.id, ':null': 'NULL' },
      }),
      (stored) => (stored && !stored.deleting ? conflict('Project already forked') : notFound('Project')),
    ),
    put(forkLinkItem(source.id, project.id, new Date().toISOString()), NEW_ITEM),
    ...forksCountChange(source.id, 1),
  ]);
  return (await getProject(project.id)) ?? { ...project, forked_from_project_id: source.id };
}

/** The relation was removed (or changed) by someone else meanwhile. */
class RelationGone extends Error {}

/**
 * Ends `project`'s fork relation: the attribute, the link and (while the source exists) its
 * count, in one transaction. False when the project is not a fork (or stopped being one meanwhile).
 */
export async function removeForkRelation(project: Project): Promise<boolean> {
  const sourceId = project.forked_from_project_id;
  if (sourceId === null || sourceId === undefined) return false;
  const steps = (sourceExists: boolean): (TransactItem | Step)[] => [
    refusedWith(
      update(keys.project(project.id), 'SET forked_from_project_id = :none', {
        condition: `${EXISTING_ITEM} AND forked_from_project_id = :source`,
        values: { ':none': null, ':source': sourceId },
      }),
      new RelationGone(),
    ),
    remove(keys.forkLink(sourceId, project.id)),
    // A deleted source's count goes with it.
    ...(sourceExists ? forksCountChange(sourceId, -1) : []),
  ];
  try {
    await retrying(
      // The source went away between our read and our write: end the relation without its count.
      { times: 2, retry: (error) => error instanceof ApiError && error.status === 404 },
      (await getItem(keys.project(sourceId))) !== undefined,
      (sourceExists) => commit(steps(sourceExists)),
      async () => false,
    );
    return true;
  } catch (error) {
    if (error instanceof RelationGone) return false;
    throw error;
  }
}

// Reading -------------------------------------------------------------------------------------------

/** The ids of a project's forks: its link items, one Query of its partition. */
export async function forkIdsOf(sourceId: number): Promise<number[]> {
  const links = await readPartition(keys.project(sourceId).pk, {
    skPrefix: FORK_PREFIX,
    projection: 'fork_id',
  });
  return links.map((link) => Number(link.fork_id));
}

/** A project's forks as stored: its link items, one Query of its partition, then one batch read. */
export async function readForks(sourceId: number): Promise<Raw[]> {
  return getProjectsRaw(await forkIdsOf(sourceId));
}

/**
 * One page of a project's forks (as `readForks` read them, beside the source's access check) that
 * the scope sees, with the common list parameters: filtered, sorted and paged in memory. The
 * member's levels (and starred projects, when asked) are read in one round.
 */
export async function forksPage(
  raw: Raw[],
  input: ProjectListRequest,
  scope: ReadScope,
  page: PageRequest,
): Promise<ProjectPage> {
  const { memberId } = scope;
  const levels = memberId !== undefined ? membershipLevelsOf(memberId) : undefined;
  const starred = memberId !== undefined && input.starred ? starredProjectIds(memberId) : undefined;
  starred?.catch(() => undefined);
  const forks = raw.map(decodeProject);
  const access: Map<number, ProjectAccess> =
    memberId !== undefined ? await accessFromLevels(memberId, forks, levels) : new Map();
  const accessTo = (fork: Project) => access.get(fork.id) ?? NO_ACCESS;
  const starredIds = starred && new Set(await starred);
  const minimum = minimumListLevel(input);
  const narrowing: ((project: Project) => boolean)[] = [(fork) => readsProject(scope, fork, accessTo(fork))];
  if (memberId !== undefined && minimum !== undefined) {
    narrowing.push((fork) => effectiveAccess(accessTo(fork)) >= minimum);
  }
  if (input.starred) narrowing.push((fork) => Boolean(starredIds?.has(fork.id)));
  const accept = projectListFilter(input, scope, narrowing) ?? (() => true);
  const order = listSortAttributes[input.order_by ?? 'created_at'];
  const direction = input.sort === 'asc' ? 1 : -1;
  const sorted = raw
    .filter((_, index) => accept(forks[index] as Project))
    // The stored sort attributes (value, separator, padded id), compared as the list indexes do.
    .sort((a, b) => direction * compareText(String(a[order]), String(b[order])))
    .map(decodeProject);
  return { ...slicePage(sorted, page), access };
}

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The sources of the forks among `projects` that the scope sees, by id, for
 * `forked_from_project`: one batch read of those not on the page already, and for those its
 * visibilities do not open, one batch read of the member's memberships.
 */
export async function forkSourcesOf(projects: Project[], scope: ReadScope): Promise<Map<number, Project>> {
  const onPage = new Map(projects.map((project) => [project.id, project]));
  const wanted = [
    ...new Set(
      projects.flatMap((project) => (project.forked_from_project_id ? [project.forked_from_project_id] : [])),
    ),
  ];
  if (wanted.length === 0) return new Map();
  const missing = wanted.filter((id) => !onPage.has(id));
  const read = missing.length ? (await getProjectsRaw(missing)).map(decodeProject) : [];
  const sources = [...wanted.flatMap((id) => onPage.get(id) ?? []), ...read];
  return new Map((await readableOnly(sources, scope)).map((source) => [source.id, source]));
}

/** The fork sources a page's entities show; none for simple entities, which show no forked_from_project. */
export const forkSourcesFor = (
  projects: Project[],
  scope: ReadScope,
  view: { simple?: boolean },
): Promise<Map<number, Project> | undefined> =>
  view.simple ? Promise.resolve(undefined) : forkSourcesOf(projects, scope);

/** The projects the scope reads; memberships are read only for those its visibilities do not open. */
async function readableOnly(projects: Project[], scope: ReadScope): Promise<Project[]> {
  const open = (project: Project) => seesOpenly(scope, project.visibility);
  const closed = projects.filter((project) => !open(project));
  if (scope.memberId === undefined || closed.length === 0) return projects.filter(open);
  const access = await accessFromLevels(scope.memberId, closed, undefined);
  return projects.filter(
    (project) => open(project) || readsProject(scope, project, access.get(project.id) ?? NO_ACCESS),
  );
}

/**
 * The source of a project read ahead (GET /projects/:id): started as soon as the project's item
 * is read, beside the reader's access check; undefined when it is no fork or the scope does not
 * see the source.
 */
export async function readableForkSource(
  item: Promise<{ item: Raw | undefined }>,
  scope: ReadScope,
): Promise<Project | undefined> {
  const sourceId = (await item).item?.forked_from_project_id;
  if (typeof sourceId !== 'number') return undefined;
  const source = await getProject(sourceId);
  if (!source) return undefined;
  const [readable] = await readableOnly([source], scope);
  return readable;
}

/** Fork links followed up from a project at most (a network deeper than this is cut there). */
const FORK_NETWORK_MAX_DEPTH = 16;

/** The ids from a project up its fork sources (itself first), as far as they are still there. */
async function forkLineOf(project: Project): Promise<number[]> {
  const line = [project.id];
  let sourceId = project.forked_from_project_id ?? null;
  while (sourceId !== null && line.length < FORK_NETWORK_MAX_DEPTH && !line.includes(sourceId)) {
    const source = await getProject(sourceId);
    if (!source) break;
    line.push(source.id);
    sourceId = source.forked_from_project_id ?? null;
  }
  return line;
}

/** Whether two projects are of one fork network: the same root up their fork sources. */
export async function inSameForkNetwork(a: Project, b: Project): Promise<boolean> {
  if (a.id === b.id) return true;
  const [lineA, lineB] = await Promise.all([forkLineOf(a), forkLineOf(b)]);
  return lineA[lineA.length - 1] === lineB[lineB.length - 1];
}
