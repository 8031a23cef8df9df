/** What a commit walk reads of a pack's objects: a commit's parents and committer time, and git's deltas applied. */
import { describe, expect, it } from 'vitest';
import { applyDelta, parseCommit } from '../../shared/repository/pack-commits.ts';

describe('parseCommit', () => {
  it('reads every parent and the committer time, not the message', () => {
    const commit = Buffer.from(
      `tree ${'a'.repeat(40)}\nparent ${'b'.repeat(40)}\nparent ${'c'.repeat(40)}\n` +
        'author A <a@example.com> 1600000000 +0200\ncommitter C <c@example.com> 1700000123 -0500\n\n' +
        `parent ${'d'.repeat(40)}\n`,
    );
    expect(parseCommit(commit)).toEqual({ parents: ['b'.repeat(40), 'c'.repeat(40)], time: 1_700_000_123 });
    expect(parseCommit(Buffer.from(`tree ${'a'.repeat(40)}\ncommitter C <c@e> 5 +0000\n\nroot\n`))).toEqual({
      parents: [],
      time: 5,
    });
  });
});

describe('applyDelta', () => {
  it('copies from the base and inserts new bytes', () => {
    const base = Buffer.from('hello, world\n');
    // base size 13, result size 12; copy offset 0 length 7 ("hello, "); insert "there"
    const delta = Buffer.from([13, 12, 0x90, 7, 5, ...Buffer.from('there')]);
    expect(applyDelta(base, delta).toString()).toBe('hello, there');
  });

  it('refuses a delta for another base or making another size than it declares', () => {
    const base = Buffer.from('abc');
    expect(() => applyDelta(base, Buffer.from([4, 1, 1, 120]))).toThrow('Delta does not apply to its base');
    expect(() => applyDelta(base, Buffer.from([3, 5, 1, 120]))).toThrow(
      'Delta makes another size than it declares',
    );
  });
});
