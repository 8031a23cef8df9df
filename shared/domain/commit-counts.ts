/**
 * commit_count over a commit graph read one commit at a time: a bounded full count, and the
 * count of the commits a new HEAD adds to one already counted, so that a write adding a few
 * commits to a long history costs a walk of those few, not of the whole history.
 */

/** What a walk needs of a commit: its parents and its committer time (seconds). */
export interface CommitNode {
  parents: string[];
  time: number;
}

export type ReadCommit = (oid: string) => Promise<CommitNode>;

/** A full count stops here: commit_count is then this bound, not more (a walk must end in a worker's time). */
export const COMMIT_COUNT_MAX = 2_000_000;

/** Commits a count of what a HEAD adds may visit before it gives way to a full count. */
export const INCREMENTAL_VISITS_MAX = 20_000;

/**
 * `git rev-list --count <start>`: every commit reachable from `start` through all parents, each
 * once, up to `max`.
 */
export async function countReachable(
  read: ReadCommit,
  start: string,
  max = COMMIT_COUNT_MAX,
): Promise<number> {
  const seen = new Set<string>([start]);
  const pending = [start];
  while (pending.length > 0 && seen.size < max) {
    const { parents } = await read(pending.pop() as string);
    for (const parent of parents) {
      if (!seen.has(parent)) {
        seen.add(parent);
        pending.push(parent);
      }
    }
  }
  return Math.min(seen.size, max);
}

const FROM_HEAD = 1;
const FROM_BASE = 2;

/**
 * The number of commits reachable from `head` and not from `base` (`git rev-list --count
 * head ^base`) when `head` descends from `base`; undefined when it does not, when the walk would
 * visit more than `visits` commits, or when it meets a commit older than one of its parents.
 *
 * Both sides are walked newest first, each commit marked with the sides that reach it; the walk
 * ends once no commit reached from `head` alone waits to be walked and every waiting commit is
 * older than each commit reached from `head` alone so far: under committer times that never
 * decrease from parent to child (checked on every edge walked), nothing waiting can reach those,
 * so they are exactly the commits `base` does not reach. Commits of one second are walked on
 * until the times differ, so a burst of commits made within a second is counted right.
 */
export async function countAdded(
  read: ReadCommit,
  head: string,
  base: string,
  visits = INCREMENTAL_VISITS_MAX,
): Promise<number | undefined> {
  if (head === base) return 0;
  const nodes = new Map<string, CommitNode>();
  const marks = new Map<string, number>();
  const walkedWith = new Map<string, number>();
  const waitingHeadOnly = new Set<string>();
  const queue = new TimeQueue();
  let oldestHeadOnly = Number.POSITIVE_INFINITY;

  const mark = async (oid: string, side: number): Promise<CommitNode | undefined> => {
    let node = nodes.get(oid);
    if (node === undefined) {
      if (nodes.size >= visits) return undefined;
      node = await read(oid);
      nodes.set(oid, node);
    }
    const before = marks.get(oid) ?? 0;
    const after = before | side;
    if (after !== before) {
      marks.set(oid, after);
      queue.push(oid, node.time);
      if (after === FROM_HEAD) {
        waitingHeadOnly.add(oid);
        oldestHeadOnly = Math.min(oldestHeadOnly, node.time);
      } else {
        waitingHeadOnly.delete(oid);
      }
    }
    return node;
  };

  if (!(await mark(head, FROM_HEAD)) || !(await mark(base, FROM_BASE))) return undefined;
  while (queue.size > 0 && (waitingHeadOnly.size > 0 || queue.newestTime() >= oldestHeadOnly)) {
    const oid = queue.pop();
    const sides = marks.get(oid) as number;
    if (walkedWith.get(oid) === sides) continue;
    walkedWith.set(oid, sides);
    waitingHeadOnly.delete(oid);
    const node = nodes.get(oid) as CommitNode;
    for (const parent of node.parents) {
      const parentNode = await mark(parent, sides);
      if (parentNode === undefined || parentNode.time > node.time) return undefined;
    }
  }
  if (((marks.get(base) ?? 0) & FROM_HEAD) === 0) return undefined;
  let added = 0;
  for (const sides of marks.values()) if (sides === FROM_HEAD) added++;
  return added;
}

/** Commit ids by time, newest first (a binary heap). */
class TimeQueue {
  private readonly oids: string[] = [];
  private readonly times: number[] = [];

  get size(): number {
    return this.oids.length;
  }

  newestTime(): number {
    return this.times[0] as number;
  }

  push(oid: string, time: number): void {
    let at = this.oids.length;
    this.oids.push(oid);
    this.times.push(time);
    while (at > 0) {
      const up = (at - 1) >> 1;
      if ((this.times[up] as number) >= time) break;
      this.swap(at, up);
      at = up;
    }
  }

  pop(): string {
    const top = this.oids[0] as string;
    const lastOid = this.oids.pop() as string;
    const lastTime = this.times.pop() as number;
    if (this.oids.length > 0) {
      this.oids[0] = lastOid;
      this.times[0] = lastTime;
      let at = 0;
      for (;;) {
        const left = at * 2 + 1;
        const right = left + 1;
        let newest = at;
        if (left < this.times.length && (this.times[left] as number) > (this.times[newest] as number))
          newest = left;
        if (right < this.times.length && (this.times[right] as number) > (this.times[newest] as number))
          newest = right;
        if (newest === at) break;
        this.swap(at, newest);
        at = newest;
      }
    }
    return top;
  }

  private swap(a: number, b: number): void {
    [this.oids[a], this.oids[b]] = [this.oids[b] as string, this.oids[a] as string];
    [this.times[a], this.times[b]] = [this.times[b] as number, this.times[a] as number];
  }
}
