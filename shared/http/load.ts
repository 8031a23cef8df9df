/**
 * Resources a route loads and authorizes before its handler runs (`load: project({...})`,
 * `load: group({...})`). The read starts beside authentication, folded into the credential's read
 * where it can be; once the caller is known the resource is checked: 404 when the caller may not
 * see it (GitLab never says 403 for what one cannot see), 403 when they may see it but not act.
 * The handler receives the resource and the caller's level, and never checks a level itself.
 */

import { ApiError, forbidden, invalidParams, notFound, unauthorized } from '#domain/errors.ts';
import { canAdminGroup, canCreateSubgroup, canCreateTopLevelGroup } from '#domain/group-policy.ts';
import type { Group } from '#domain/groups.ts';
import { canAdminProject, canOwnProject, type Project, type ProjectAccess } from '#domain/projects.ts';
import { type ReadScope, readsGroup, readsProject } from '#domain/read-scope.ts';
import type { Caller } from '#domain/users.ts';
import {
  type CredentialBatch,
  groupWithAccess,
  lookupGroup,
  lookupProject,
  lookupProjectAhead,
  type ProjectReadAhead,
  projectWithAccess,
} from '#store/access/access.ts';
import { readableForkSource } from '#store/projects/forks.ts';
import type { Key } from '#store/table/batch.ts';
import type { Raw } from '#store/table/raw.ts';

/**
 * Who reads: the caller, and what it reads (the domain's decision, made once per request by
 * defineRoute, so no loader decides it again).
 */
export interface Reader {
  caller: Caller | undefined;
  readScope: ReadScope;
}

/**
 * What a route declares to load; see defineRoute. `S` is what the read started with; methods, so a
 * route's loader of any `S` fits the route's `Loader<P, L>`.
 */
export interface Loader<P, L, S = unknown> {
  /** Starts the read beside authentication; called before anything awaits. */
  start(params: P, ahead: CredentialBatch): Promise<S>;
  /** Once the caller is known: the resource as the reader may act on it, or the refusal. */
  authorize(started: Promise<S>, reader: Reader, params: P): Promise<L>;
}

/**
 * The project a caller asked for and their access; 404 `Project Not Found` when there is none or
 * they may not see it.
 */
export async function readableProject(
  read: Promise<ProjectReadAhead>,
  { readScope }: Reader,
): Promise<{ project: Project; access: ProjectAccess }> {
  const found = await projectWithAccess(read, readScope);
  if (!found || !readsProject(readScope, found.project, found.access)) throw notFound('Project');
  return found;
}

/**
 * The group a caller asked for, with their inherited access; 404 `Group Not Found` when there is
 * none or they may not see it. `levelWanted: false`: the caller's memberships are not read where
 * the group's visibility alone lets them see it (access is then 0).
 */
export async function readableGroup(
  reference: string | number | Promise<Raw | undefined>,
  { readScope }: Reader,
  options: { levelWanted?: boolean } = {},
): Promise<{ group: Group; access: number }> {
  const found = await groupWithAccess(reference, readScope, options);
  if (!found || !readsGroup(readScope, found.group, found.access)) throw notFound('Group');
  return found;
}

/** A rule for acting on a loaded resource: a named level, or a domain rule over the caller's access. */
type Rule<R, Level extends string> = Level | ((resource: R) => boolean);

/** Applies a rule: 403 when it refuses a caller who may see the resource. */
function enforce<R, Level extends string>(
  rule: Rule<R, Level>,
  resource: R,
  named: (level: Level) => boolean,
) {
  const allowed = typeof rule === 'function' ? rule(resource) : named(rule);
  if (!allowed) throw forbidden();
}

/** The caller a rule judges: rules are about acting, which anonymous callers never may (401). */
function actor(caller: Caller | undefined): Caller {
  if (!caller) throw unauthorized();
  return caller;
}

export interface LoadedProject<P> {
  project: Project;
  access: ProjectAccess;
  caller: Caller;
  params: P;
}

/**
 * Reads begun with a project's id, before its access is checked (see `alongside`, `inProject`);
 * `item` is the project's item being read, for reads that need more than its id.
 */
type BesideProject<P, R> = (projectId: number, params: P, item: Promise<Raw | undefined>) => Promise<R>;

/**
 * Starts `read` as soon as the project's id is known: at once for a numeric id (beside the
 * credential's read), after the project's item for a path. Nothing read is handed on here.
 */
function besideProject<P extends { id: string | number }, R>(
  project: Promise<ProjectReadAhead>,
  params: P,
  read: BesideProject<P, R>,
): Promise<R> {
  const item = project.then((started) => started.item);
  item.catch(() => undefined);
  const found = /^\d+$/.test(String(params.id))
    ? read(Number(params.id), params, item)
    : project.then(({ item: found }) => (found ? read(Number(found.id), params, item) : (undefined as R)));
  found.catch(() => undefined);
  return found;
}

/**
 * A read-ahead that reads more than the project with the credential: `counters: false` when the
 * route shows none of the project's counts (its counter shards are not read, its counts read 0);
 * `with`, other keys the route needs, known from the project's id and the parameters (the route
 * gets what was found as `readWith`, undefined when the project was named by its path).
 */
export interface AheadWith<P> {
  counters?: false;
  with?: (projectId: number, params: P) => Key[];
}

/** A project as a reader sees it: the caller is absent on routes that let anonymous callers read. */
export interface ReadProject {
  project: Project;
  access: ProjectAccess;
  caller: Caller | undefined;
}

/**
 * The project named by the `id` parameter. `allow` judges acting (anonymous callers never may:
 * 401); `reads` judges reading a part of the project, anonymous readers included (403 when it
 * refuses). `ahead` reads it in one batch with the credential (and, when this container has seen
 * both, with the caller's memberships): for the hottest read. `alongside` starts a read that needs
 * only the project's id beside those reads; the route receives it (as a promise) only once the
 * project is authorized, anonymous callers included.
 */
export function project<P extends { id: string | number }, R = undefined>(
  options: {
    allow?: Rule<LoadedProject<P>, 'maintainer' | 'owner' | 'admin'>;
    reads?: (reading: ReadProject) => boolean;
    ahead?: boolean | AheadWith<P>;
    alongside?: BesideProject<P, R>;
  } = {},
): Loader<
  P,
  { project: Project; access: ProjectAccess; alongside: Promise<R>; readWith: Raw[] | undefined },
  ProjectReadAhead
> {
  const started = new WeakMap<Promise<ProjectReadAhead>, Promise<R>>();
  const ahead = options.ahead;
  return {
    start: (params, credential) => {
      const project =
        typeof ahead === 'object'
          ? lookupProjectAhead(params.id, credential, {
              counters: ahead.counters,
              with: ahead.with && ((projectId) => ahead.with?.(projectId, params) ?? []),
            })
          : ahead
            ? lookupProjectAhead(params.id, credential)
            : lookupProject(params.id).then((item) => ({ item }));
      if (options.alongside) {
        project.catch(() => undefined);
        started.set(project, besideProject(project, params, options.alongside));
      }
      return project;
    },
    authorize: async (reads, reader, params) => {
      const loaded = await readableProject(reads, reader);
      if (options.reads && !options.reads({ ...loaded, caller: reader.caller })) throw forbidden();
      if (options.allow !== undefined) {
        const resource = { ...loaded, caller: actor(reader.caller), params };
        enforce(options.allow, resource, (level) =>
          level === 'admin'
            ? resource.caller.admin
            : level === 'owner'
              ? canOwnProject(resource.caller, loaded.access)
              : canAdminProject(resource.caller, loaded.access),
        );
      }
      const alongside = started.get(reads) ?? Promise.resolve(undefined as R);
      return { ...loaded, alongside, readWith: (await reads).with };
    },
  };
}

export interface LoadedGroup<P> {
  group: Group;
  access: number;
  caller: Caller;
  params: P;
}

/** Reads begun once the group's item is read, beside the access check (see `alongside`). */
type Alongside<P, R> = (item: Promise<Raw | undefined>, reader: Reader, params: P) => R;

/**
 * The group named by the `id` parameter. `alongside` starts reads that need only the group's item
 * (and the caller) as soon as the item is read, beside the access check.
 */
export function group<P extends { id: string | number }, R = undefined>(
  options: {
    allow?: Rule<LoadedGroup<P>, 'owner'>;
    alongside?: Alongside<P, R>;
    /**
     * The route needs only to know the caller may see the group: the caller's memberships are
     * not read where its visibility alone decides, and `access` is then 0.
     */
    seeOnly?: boolean;
  } = {},
): Loader<P, { group: Group; access: number; alongside: R }, Raw | undefined> {
  return {
    start: (params) => lookupGroup(params.id),
    authorize: async (item, reader, params) => {
      const alongside = options.alongside ? options.alongside(item, reader, params) : (undefined as R);
      const loaded = await readableGroup(item, reader, {
        levelWanted: !options.seeOnly || options.allow !== undefined,
      });
      if (options.allow !== undefined) {
        const resource = { ...loaded, caller: actor(reader.caller), params };
        // Owners (and admins) are the group's administrators.
        enforce(options.allow, resource, () => canAdminGroup(resource.caller, loaded.access));
      }
      return { ...loaded, alongside };
    },
  };
}

/**
 * The group named by `id`, for its owners and admins, as GitLab's routes that look the group up
 * without the "!" helper (LDAP group links): a group the caller may not see is refused as one
 * they may not administer (403), never 404. `refuse` judges the parameters first, as Grape does
 * before the route runs.
 */
export function administeredGroup<P extends { id: string | number }>(
  refuse?: (params: P) => string | undefined,
): Loader<P, { group: Group; access: number }, Raw | undefined> {
  const owned = group<P>({ allow: 'owner' });
  return {
    start: owned.start,
    authorize: async (started, reader, params) => {
      const refusal = refuse?.(params);
      if (refusal) throw invalidParams(refusal);
      try {
        const { group, access } = await owned.authorize(started, reader, params);
        return { group, access };
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) throw forbidden();
        throw error;
      }
    },
  };
}

/** The group id or path an optional parameter holds. */
const groupIdIn =
  <P>(param: keyof P) =>
  (params: P) =>
    params[param] as string | number | undefined;

/** The group item a reference names; undefined when there is no reference. */
const lookupGroupNamed = (reference: string | number | undefined) =>
  reference === undefined ? Promise.resolve(undefined) : lookupGroup(reference);

/**
 * The group named by an optional parameter (`parent_id` of a new group): undefined when absent;
 * `allow` sees the group (or its absence) and decides.
 */
export function optionalGroup<P, K extends keyof P>(
  param: K,
  allow: (resource: { group: Group | undefined; access: number; caller: Caller; params: P }) => boolean,
): Loader<P, { group: Group | undefined; access: number }, Raw | undefined> {
  const idOf = groupIdIn<P>(param);
  return {
    start: (params) => lookupGroupNamed(idOf(params)),
    authorize: async (started, reader, params) => {
      const loaded =
        idOf(params) === undefined ? { group: undefined, access: 0 } : await readableGroup(started, reader);
      if (!allow({ ...loaded, caller: actor(reader.caller), params })) throw forbidden();
      return loaded;
    },
  };
}

/** What a route reads of a project besides the project, decided once the caller's access is known. */
export interface InProjectOptions<P, R, L> {
  /** Started as soon as the project's id is known: with the credential's read for a numeric id. */
  read: (projectId: number, params: P) => Promise<R>;
  /**
   * The reader's view of what was read (404 for what they cannot see, 403 for what they may not
   * do); the caller is absent only on routes that let anonymous callers read.
   */
  decide: (loaded: {
    project: Project;
    access: ProjectAccess;
    caller: Caller | undefined;
    params: P;
    found: R;
  }) => L;
}

/**
 * The project named by `id` and something kept under its id (an issue, a page of its notes):
 * both reads start beside authentication, so the project's children cost no round trip of their
 * own; nothing read is handed on before the project and then `decide` have allowed it.
 */
export function inProject<P extends { id: string | number }, R, L>(
  options: InProjectOptions<P, R, L>,
): Loader<
  P,
  { project: Project; access: ProjectAccess } & L,
  { project: Promise<ProjectReadAhead>; found: Promise<R> }
> {
  return {
    start: (params, ahead) => {
      const project = lookupProjectAhead(params.id, ahead);
      project.catch(() => undefined);
      return Promise.resolve({ project, found: besideProject(project, params, options.read) });
    },
    authorize: async (started, reader, params) => {
      const reads = await started;
      const loaded = await readableProject(reads.project, reader);
      const decided = options.decide({
        ...loaded,
        caller: reader.caller,
        params,
        found: await reads.found,
      });
      return { ...loaded, ...decided };
    },
  };
}

/** What a route reads of a group besides the group, decided once the caller's access is known. */
export interface InGroupOptions<P, R, L> {
  read: (groupId: number, params: P) => Promise<R>;
  decide: (loaded: { group: Group; access: number; caller: Caller | undefined; params: P; found: R }) => L;
}

/** The group named by `id` and something kept under its id (an epic, its notes), as inProject. */
export function inGroup<P extends { id: string | number }, R, L>(
  options: InGroupOptions<P, R, L>,
): Loader<P, { group: Group; access: number } & L, { group: Promise<Raw | undefined>; found: Promise<R> }> {
  return {
    start: (params) => {
      const group = lookupGroup(params.id);
      const numeric = /^\d+$/.test(String(params.id));
      const found = numeric
        ? options.read(Number(params.id), params)
        : group.then((item) => (item ? options.read(Number(item.id), params) : (undefined as R)));
      group.catch(() => undefined);
      found.catch(() => undefined);
      return Promise.resolve({ group, found });
    },
    authorize: async (started, reader, params) => {
      const reads = await started;
      const loaded = await readableGroup(reads.group, reader);
      const decided = options.decide({
        ...loaded,
        caller: reader.caller,
        params,
        found: await reads.found,
      });
      return { ...loaded, ...decided };
    },
  };
}

/** What a loader hands the route once it has authorized. */
type LoadedBy<X> = X extends { authorize(...args: never[]): Promise<infer L> } ? L : never;

/**
 * A route's resource and the others it names by parameters (a source project, a target group),
 * every read started beside authentication; the first resource is authorized first, so its 404 or
 * 403 comes before any about the others. The others come to the route under their names. `then`
 * is a rule judged once all are read, refused with its own error (GitLab's services that look up
 * what they were given before they check who asks).
 */
export function withAlso<P, L, S, X extends Record<string, Loader<P, unknown>>>(
  main: Loader<P, L, S>,
  also: X,
  then?: {
    allow: (loaded: L & { [K in keyof X]: LoadedBy<X[K]> } & { caller: Caller }) => boolean;
    refusal: () => ApiError;
  },
): Loader<P, L & { [K in keyof X]: LoadedBy<X[K]> }, { main: Promise<S>; also: Promise<unknown>[] }> {
  const names = Object.keys(also);
  const loaderOf = (name: string) => also[name] as unknown as Loader<P, unknown, unknown>;
  return {
    start: (params, ahead) => {
      const started = {
        main: main.start(params, ahead),
        also: names.map((name) => loaderOf(name).start(params, ahead)),
      };
      for (const read of [started.main, ...started.also]) read.catch(() => undefined);
      return Promise.resolve(started);
    },
    authorize: async (started, reader, params) => {
      const reads = await started;
      const loaded = await main.authorize(reads.main, reader, params);
      const others = await Promise.all(
        names.map((name, index) =>
          loaderOf(name).authorize(reads.also[index] as Promise<unknown>, reader, params),
        ),
      );
      const named = Object.fromEntries(names.map((name, index) => [name, others[index]]));
      const all = { ...loaded, ...named } as L & { [K in keyof X]: LoadedBy<X[K]> };
      if (then && !then.allow({ ...all, caller: actor(reader.caller) })) throw then.refusal();
      return all;
    },
  };
}

/** A group named by a parameter, as the caller may see it (404 `Group Not Found` otherwise). */
export function groupNamedBy<P>(param: keyof P): Loader<P, Group, Raw | undefined> {
  const idOf = groupIdIn<P>(param);
  return {
    start: (params) => lookupGroupNamed(idOf(params)),
    authorize: async (started, reader) => (await readableGroup(started, reader)).group,
  };
}

/** A project named by a parameter, as the caller may see it (404 `Project Not Found` otherwise). */
export function projectNamedBy<P>(param: keyof P): Loader<P, Project, ProjectReadAhead> {
  return {
    start: (params) => lookupProject(params[param] as string | number).then((item) => ({ item })),
    authorize: async (started, reader) => (await readableProject(started, reader)).project,
  };
}

/**
 * Where a group is to be placed: under the group a parameter names (404 when the caller may not
 * see it) and whether the caller may create subgroups there, or at the top level when the
 * parameter is absent and whether the caller may create top-level groups.
 */
export function placementNamedBy<P>(
  param: keyof P,
): Loader<P, { group: Group | undefined; mayPlace: boolean }, Raw | undefined> {
  const idOf = groupIdIn<P>(param);
  return {
    start: (params) => lookupGroupNamed(idOf(params)),
    authorize: async (started, reader, params) => {
      const placer = actor(reader.caller);
      if (idOf(params) === undefined) return { group: undefined, mayPlace: canCreateTopLevelGroup(placer) };
      const { group, access } = await readableGroup(started, reader);
      return { group, mayPlace: canCreateSubgroup(placer, access, group) };
    },
  };
}

/**
 * The project named by `id`, read with the credential (and, when warm, the caller's memberships),
 * and for a fork its source as far as the caller may see it: the source's read starts once the
 * project's item is read, beside the caller's access check.
 */
export function projectWithForkSource<P extends { id: string | number }>(): Loader<
  P,
  { project: Project; access: ProjectAccess; source?: Project },
  ProjectReadAhead
> {
  const theProject = project<P>({ ahead: true });
  return {
    start: theProject.start,
    authorize: async (started, reader, params) => {
      const source = readableForkSource(started, reader.readScope);
      source.catch(() => undefined);
      const { project: loaded, access } = await theProject.authorize(started, reader, params);
      return { project: loaded, access, source: await source };
    },
  };
}
