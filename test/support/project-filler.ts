/**
 * Thousands of projects written straight into the table of a running local runtime, for the tests
 * and benchmarks that need a list longer than the API can fill in their time (a project through
 * POST /projects is a transaction and a search worker's run; ten thousand take many minutes).
 *
 * A filler project is laid out as createProject and the search worker leave it: its item, route
 * item and name item built by the store's own builders, its search postings as the worker writes
 * them, and the counters of every list those items join moved with the store's listCountChange,
 * so X-Total of offset lists and the search's key choice stay right. Ids come from nextId, times
 * rise with the ids. The layout is checked attribute for attribute against a project the store
 * made before the first batch is written, so a change to what createProject writes fails the
 * filler loudly instead of leaving a table the store could never have made.
 *
 * Runs in the runtime's process (its DYNAMODB_ENDPOINT and TABLE_NAME): a test that starts a
 * runtime of its own, or a benchmark's measuring process.
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { type Visibility, visibilityLevel } from '#domain/access.ts';
import { newProjectFrom, type Project, type ProjectNamespace } from '#domain/projects.ts';
import { searchColumns } from '#domain/search.ts';
import { getGroup } from '#store/groups/group-items.ts';
import { namespaceOfGroup } from '#store/projects/namespace-lookup.ts';
import {
  newRunnersToken,
  projectItem,
  projectNameItem,
  projectRouteItem,
} from '#store/projects/project-items.ts';
import { createProject } from '#store/projects/project-writes.ts';
import { indexProjectForSearch, postingItems } from '#store/search/search-index.ts';
import { batchWriteItems } from '#store/table/batch.ts';
import { documentClient, tableName } from '#store/table/client.ts';
import { nextId } from '#store/table/ids.ts';
import { type ListName, listsOfItem } from '#store/table/list-keys.ts';
import { listCountChange } from '#store/table/lists.ts';
import { commit } from '#store/table/transaction.ts';

type Raw = Record<string, unknown>;

/** What a project's creation and its search worker leave in the table: item, route, name, postings. */
export function fillerProjectItems(project: Project): Raw[] {
  return [
    projectItem(project),
    projectRouteItem(project),
    projectNameItem(project),
    ...postingItems(project.id, searchColumns(project)),
  ];
}

/**
 * The moves of list counters that writing many items owes: every list an item joins gains one, as
 * the store's transactions (listCountChange) and the search worker move them. Committed in
 * transactions of CHANGES_PER_COMMIT, each list's change in one of them only.
 */
export class ListCountTally {
  private readonly counts = new Map<string, { list: ListName; delta: number }>();

  /** `delta` more items in `list`. */
  add(list: ListName, delta = 1): void {
    const key = `${list.attribute}|${list.partition}`;
    this.counts.set(key, { list, delta: (this.counts.get(key)?.delta ?? 0) + delta });
  }

  /** The lists of every item in `items` gain one each. */
  addItems(items: readonly Raw[]): void {
    for (const item of items) for (const list of listsOfItem(item)) this.add(list);
  }

  get lists(): number {
    return this.counts.size;
  }

  /** Moves every counter tallied, `concurrency` transactions at a time, then forgets them. */
  async commit(concurrency = 4): Promise<void> {
    const changes = [...this.counts.values()].map(({ list, delta }) => listCountChange(list, delta));
    this.counts.clear();
    const chunks: (typeof changes)[] = [];
    for (let start = 0; start < changes.length; start += CHANGES_PER_COMMIT)
      chunks.push(changes.slice(start, start + CHANGES_PER_COMMIT));
    const worker = async () => {
      for (let chunk = chunks.shift(); chunk; chunk = chunks.shift()) await commit(chunk);
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
  }
}

/** Below DynamoDB's 100 actions a transaction, with room for what commit() may add. */
const CHANGES_PER_COMMIT = 90;

/** A project as POST /projects makes it from `path`, with the id and time given. */
export function fillerProject(
  namespace: ProjectNamespace,
  fields: { path: string; visibility: Visibility; id: number; at: string },
  creatorId: number,
): Project {
  return {
    ...newProjectFrom(
      { name: fields.path, path: fields.path, visibility: fields.visibility },
      namespace,
      creatorId,
      newRunnersToken(),
    ),
    id: fields.id,
    created_at: fields.at,
    updated_at: fields.at,
    last_activity_at: fields.at,
  };
}

/** JSON with object keys sorted, to compare items whatever order their attributes were set in. */
export const canonical = (value: unknown): string =>
  JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner as Raw).sort(([a], [b]) => a.localeCompare(b)))
      : inner,
  );

/** An item as the table holds it (getItem would add the sums of its counter shards). */
export async function getRaw(key: { pk: string; sk: string }): Promise<Raw | undefined> {
  const result = await documentClient().send(
    new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }),
  );
  return result.Item;
}

/** What fillerProjectItems gives, in its order (postings after these). */
const ITEM_NAMES = ['project item', 'route item', 'name item'] as const;

/**
 * Throws unless the filler's items for each of `stored` (projects createProject made and the search
 * worker indexed) equal what the table holds for them, attribute for attribute; names what was
 * checked.
 */
export async function checkProjectLayout(stored: readonly Project[]): Promise<string[]> {
  const checked: string[] = [];
  for (const project of stored) {
    for (const [index, mine] of fillerProjectItems(project).entries()) {
      const what = ITEM_NAMES[index] ?? 'search posting';
      const theirs = await getRaw({ pk: String(mine.pk), sk: String(mine.sk) });
      if (canonical(mine) !== canonical(theirs)) {
        const names = new Set([...Object.keys(mine), ...Object.keys(theirs ?? {})]);
        const differing = [...names].filter((name) => canonical(mine[name]) !== canonical(theirs?.[name]));
        throw new Error(
          `filler ${what} differs from what createProject and the search worker store (attributes: ${differing.join(', ')}); update test/support/project-filler.ts to the store's layout`,
        );
      }
      checked.push(`${what} of a ${project.visibility} project`);
    }
  }
  return checked;
}

const PATH_ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';
const PATH_RADIX = PATH_ALPHABET.length;
const char = (n: number) => PATH_ALPHABET[n % PATH_RADIX] ?? '0';

/**
 * A four-character path, distinct for each index below 36⁴ (`a00b`): its search keys are its two
 * three-character windows, and the middle pair changes only every 36² indices, so ten thousand
 * projects share a few hundred keys. Postings are most of a filler project's items (one per
 * window of its name and path), and each key's list is a counter to move: short paths with shared
 * windows keep both few.
 */
export function compactPath(index: number): string {
  const middle = Math.floor(index / PATH_RADIX ** 2);
  return `${char(index)}${char(Math.floor(middle / PATH_RADIX))}${char(middle)}${char(Math.floor(index / PATH_RADIX))}`;
}

export interface FillOptions {
  /** Path (and name) of the index-th project; unique in the group. Default compactPath. */
  pathOf?: (index: number) => string;
  /** Default: public, internal, private in turn, none more visible than the group. */
  visibilityOf?: (index: number) => Visibility;
  creatorId: number;
  /** BatchWriteItem requests (25 items each) in flight. */
  concurrency?: number;
}

export interface FilledProjects {
  /** The projects' ids, ascending (the first made by createProject, the rest written by batches). */
  ids: number[];
  /** Items written, counter items not included. */
  items: number;
  /** Counter lists moved. */
  lists: number;
  seconds: number;
  layoutChecked: string[];
}

const VISIBILITIES: readonly Visibility[] = ['public', 'internal', 'private'];
/** Ids reserved per counter write while filling (one ADD per this many projects). */
const FILL_ID_BLOCK = 1000;
const PROJECTS_PER_BATCH = 25;

/**
 * `count` projects in group `groupId` (it must exist): the first through createProject and the
 * search worker's step, the rest written as that one was laid out (checked first), then the list
 * counters moved. Resolves once every item and counter is in the table. The table's stream sees
 * the writes: wait for the runtime's idle() before measuring anything that must not overlap them.
 */
export async function fillGroupProjects(
  groupId: number,
  count: number,
  options: FillOptions,
): Promise<FilledProjects> {
  const started = performance.now();
  const group = await getGroup(groupId);
  if (!group) throw new Error(`fillGroupProjects: no group ${groupId}`);
  const namespace = await namespaceOfGroup(group);
  const pathOf = options.pathOf ?? compactPath;
  const visibilityOf = (index: number): Visibility => {
    const wanted = options.visibilityOf?.(index) ?? VISIBILITIES[index % VISIBILITIES.length] ?? 'private';
    return visibilityLevel[wanted] > visibilityLevel[group.visibility] ? group.visibility : wanted;
  };
  if (count <= 0) return { ids: [], items: 0, lists: 0, seconds: 0, layoutChecked: [] };

  const first = await createProject(
    newProjectFrom(
      { name: pathOf(0), path: pathOf(0), visibility: visibilityOf(0) },
      namespace,
      options.creatorId,
      newRunnersToken(),
    ),
    null,
  );
  await indexProjectForSearch(first.id);
  const layoutChecked = await checkProjectLayout([first]);

  const ids = [first.id];
  const tally = new ListCountTally();
  let items = 0;
  // Ids in large blocks while filling, then back to the block size the runtime was given.
  const blockSize = process.env.ID_BLOCK_SIZE;
  process.env.ID_BLOCK_SIZE = String(FILL_ID_BLOCK);
  try {
    // Later than the store-made project, a millisecond per id: created_at order is id order.
    const base = Date.parse(first.created_at) - first.id;
    let next = 1;
    const worker = async () => {
      while (next < count) {
        const batch: Raw[] = [];
        for (let k = 0; k < PROJECTS_PER_BATCH && next < count; k++) {
          const index = next++;
          const id = await nextId('project');
          const project = fillerProject(
            namespace,
            {
              path: pathOf(index),
              visibility: visibilityOf(index),
              id,
              at: new Date(base + id).toISOString(),
            },
            options.creatorId,
          );
          ids.push(project.id);
          batch.push(...fillerProjectItems(project));
        }
        tally.addItems(batch);
        items += batch.length;
        await batchWriteItems(batch);
      }
    };
    await Promise.all(Array.from({ length: options.concurrency ?? 8 }, worker));
  } finally {
    if (blockSize === undefined) delete process.env.ID_BLOCK_SIZE;
    else process.env.ID_BLOCK_SIZE = blockSize;
  }
  const lists = tally.lists;
  await tally.commit();
  return {
    ids: ids.sort((a, b) => a - b),
    items,
    lists,
    seconds: (performance.now() - started) / 1000,
    layoutChecked,
  };
}
