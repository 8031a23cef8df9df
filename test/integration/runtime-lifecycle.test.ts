/**
 * The local runtime's engines never outlive it: even a SIGKILL of the runtime, which no handler can
 * see, leaves no DynamoDB Local (Java) behind. Starts `npm start`'s entry in a process of its own.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../bin/local/engines.ts';

const dataDir = mkdtempSync(join(tmpdir(), 'gitlab-api-lifecycle-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** Every live process whose parent chain leads to `root`. */
function descendantsOf(root: number): number[] {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(Number(entry), parent);
    } catch {
      // The process ended while we looked.
    }
  }
  const found: number[] = [];
  const walk = (pid: number) => {
    for (const [child, parent] of parents) {
      if (parent === pid) {
        found.push(child);
        walk(child);
      }
    }
  };
  walk(root);
  return found;
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return !readFileSync(`/proc/${pid}/stat`, 'utf8').includes(') Z ');
  } catch {
    return false;
  }
};

describe('local runtime lifecycle', () => {
  it('SIGKILL of the runtime stops DynamoDB Local within seconds', async () => {
    const port = await freePort();
    const runtime = spawn(process.execPath, ['--import', 'tsx', 'bin/local.ts'], {
      env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'silent' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    // Until it says it listens, or ends: the test's timeout bounds a start that does neither.
    await new Promise<void>((resolve) => {
      const heard = (chunk: Buffer) => {
        output += chunk;
        if (output.includes('listening on')) resolve();
      };
      runtime.stdout.on('data', heard);
      runtime.stderr.on('data', heard);
      runtime.once('exit', () => resolve());
    });
    expect(output).toContain(`listening on http://127.0.0.1:${port}/api/v4`);
    // `npm start` offers no test control: its idle path is an unknown route.
    const control = await fetch(`http://127.0.0.1:${port}/-/test/idle`, { method: 'POST' });
    expect([control.status, await control.json()]).toEqual([404, { error: '404 Not Found' }]);
    const engines = descendantsOf(runtime.pid as number);
    const java = engines.filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'java';
      } catch {
        return false;
      }
    });
    expect(java.length).toBe(1);

    runtime.kill('SIGKILL');
    const gone = Date.now() + 10_000;
    while (engines.some(alive) && Date.now() < gone) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(engines.filter(alive)).toEqual([]);
  });
});
