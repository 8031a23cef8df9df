/**
 * commit_count rules over small graphs: the bounded full count, and the count of what a new HEAD
 * adds to a counted one: fast-forwards, a burst of commits within one second, merges of branches
 * forked before the counted HEAD, a HEAD that does not descend from it, the visit budget and a
 * clock that went backwards (both give way to a full count).
 */
import { describe, expect, it } from 'vitest';
import {
  type CommitNode,
  countAdded,
  countReachable,
  type ReadCommit,
} from '../../shared/domain/commit-counts.ts';

/** A graph from `id: time parents…` lines. */
function graph(lines: string[]): { read: ReadCommit; reads: () => number } {
  const nodes = new Map<string, CommitNode>();
  for (const line of lines) {
    const [id, time, ...parents] = line.split(/[: ]+/);
    nodes.set(id as string, { time: Number(time), parents });
  }
  let reads = 0;
  return {
    read: async (oid) => {
      reads++;
      const node = nodes.get(oid);
      if (!node) throw new Error(`no ${oid}`);
      return node;
    },
    reads: () => reads,
  };
}

/** A linear history c1 ← c2 ← … ← cN, one commit a minute from `from`. */
const linear = (count: number, prefix = 'c', from = 0, first?: string) =>
  Array.from({ length: count }, (_, index) => {
    const parent = index === 0 ? (first ?? '') : `${prefix}${index}`;
    return `${prefix}${index + 1}: ${from + index * 60} ${parent}`.trim();
  });

/** rev-list --count head ^base by brute force. */
async function expected(read: ReadCommit, head: string, base: string): Promise<number> {
  const reach = async (start: string) => {
    const seen = new Set([start]);
    const pending = [start];
    while (pending.length > 0) {
      for (const parent of (await read(pending.pop() as string)).parents) {
        if (!seen.has(parent)) {
          seen.add(parent);
          pending.push(parent);
        }
      }
    }
    return seen;
  };
  const fromBase = await reach(base);
  return [...(await reach(head))].filter((oid) => !fromBase.has(oid)).length;
}

describe('countReachable', () => {
  it('counts each commit once, merges included, up to the bound', async () => {
    const { read } = graph([...linear(5), 'b1: 70 c2', 'm: 400 c5 b1']);
    expect(await countReachable(read, 'm')).toBe(7);
    expect(await countReachable(read, 'c5')).toBe(5);
    expect(await countReachable(read, 'm', 4)).toBe(4);
  });
});

describe('countAdded', () => {
  it('counts a fast-forward by walking only the new commits', async () => {
    const history = graph(linear(1000));
    expect(await countAdded(history.read, 'c1000', 'c990')).toBe(10);
    expect(history.reads()).toBeLessThan(20);
    expect(await countAdded(history.read, 'c990', 'c990')).toBe(0);
  });

  it('counts commits made within one second, the counted one among them', async () => {
    const lines = [
      ...linear(100),
      ...Array.from({ length: 6 }, (_, i) => `s${i + 1}: 6000 ${i === 0 ? 'c100' : `s${i}`}`),
    ];
    const { read } = graph(lines);
    expect(await countAdded(read, 's6', 's2')).toBe(4);
    expect(await countAdded(read, 's6', 'c100')).toBe(6);
  });

  it('counts a merge of a branch forked before the counted HEAD as git does', async () => {
    // main: c1…c50; a branch from c10 (f1…f5); main goes on to c50; the merge joins them.
    const lines = [
      ...linear(50),
      'f1: 700 c10',
      'f2: 760 f1',
      'f3: 820 f2',
      'f4: 880 f3',
      'f5: 940 f4',
      'm: 5000 c50 f5',
      'n: 5060 m',
    ];
    const { read } = graph(lines);
    expect(await countAdded(read, 'n', 'c50')).toBe(await expected(read, 'n', 'c50'));
    expect(await countAdded(read, 'n', 'c50')).toBe(7);
    // Merging main into a branch: the branch's counted HEAD is f5.
    expect(await countAdded(read, 'm', 'f5')).toBe(await expected(read, 'm', 'f5'));
    expect(await countAdded(read, 'm', 'f5')).toBe(41);
  });

  it('counts a merge whose side branch holds commits the counted HEAD reaches', async () => {
    // The side branch was merged into main earlier (at k), then merged again after more work.
    const lines = [
      ...linear(20),
      's1: 300 c5',
      's2: 360 s1',
      'k: 1300 c20 s2',
      's3: 1400 s2',
      'm: 1500 k s3',
    ];
    const { read } = graph(lines);
    expect(await countAdded(read, 'm', 'k')).toBe(2);
    expect(await countAdded(read, 'm', 'k')).toBe(await expected(read, 'm', 'k'));
  });

  it('answers nothing when HEAD does not descend from the counted one', async () => {
    const { read } = graph([...linear(10), 'x1: 300 c5', 'x2: 360 x1']);
    expect(await countAdded(read, 'x2', 'c10')).toBeUndefined();
    expect(await countAdded(read, 'c5', 'c10')).toBeUndefined();
  });

  it('answers nothing past its budget of visits, or when a parent is newer than its child', async () => {
    const { read } = graph(linear(500));
    expect(await countAdded(read, 'c500', 'c1', 100)).toBeUndefined();
    expect(await countAdded(read, 'c500', 'c400', 200)).toBe(100);
    const skewed = graph([...linear(10), 'y1: 99999 c10', 'y2: 600 y1']);
    expect(await countAdded(skewed.read, 'y2', 'c10')).toBeUndefined();
  });
});
