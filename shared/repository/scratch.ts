/** Scratch space for one repository operation: the function's /tmp on Lambda, removed whatever happens. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export async function withScratchDirectory<T>(work: (directory: string) => Promise<T>): Promise<T> {
  const directory = await mkdtemp(join(tmpdir(), 'repository-'));
  try {
    return await work(directory);
  } finally {
    // /tmp outlives the invocation in a warm Lambda: leftovers would fill it.
    await rm(directory, { recursive: true, force: true });
  }
}
