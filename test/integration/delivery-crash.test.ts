/**
 * A delivery that is written is delivered, even across a crash: `npm start`'s entry runs in a
 * process group of its own on a data directory kept on disk, 20 clients create notes on a project
 * with a hook, the whole group (DynamoDB Local's Java included) is killed with SIGKILL mid-burst and
 * started again on the same data. Every note that got 201 reaches the receiver — through the
 * resumed stream, the queue's journal, or the delivery sweep — and a note that arrives twice
 * arrives under one Idempotency-Key.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../bin/local/engines.ts';
import { projectRoot } from '../../bin/local/runtime.ts';
import { api, must, unique, useRuntime } from '../support/api.ts';
import { type Receiver, startReceiver } from '../support/receiver.ts';

const ROOT_TOKEN = 'crash-test-root-token-0123456789';
const CLIENTS = 20;
/** The kill comes once this many notes got 201 (the clients still sending), or after BURST_MS. */
const NOTES_BEFORE_KILL = 60;
const BURST_MS = 30_000;
/** How long every 201 note may take to reach the receiver after the restart. */
const DELIVERY_TIMEOUT_MS = 120_000;

const dataDir = mkdtempSync(join(tmpdir(), 'gitlab-api-crash-'));
let receiver: Receiver;
const groups = new Set<number>();

/** The live processes of a process group (a runtime and everything it started). */
function groupMembers(pgid: number): number[] {
  const members: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const [state, , group] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(group) === pgid && state !== 'Z') members.push(Number(entry));
    } catch {
      // Ended while we looked.
    }
  }
  return members;
}

/** SIGKILL to the whole group; resolves once none of it is left. */
async function killGroup(pgid: number): Promise<void> {
  try {
    process.kill(-pgid, 'SIGKILL');
  } catch {
    // Already gone.
  }
  const deadline = Date.now() + 15_000;
  while (groupMembers(pgid).length > 0 && Date.now() < deadline) await sleep(50);
  expect(groupMembers(pgid)).toEqual([]);
  groups.delete(pgid);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** What the runtime is given besides the test's own environment (the shared runtime's settings left out). */
function runtimeEnvironment(port: number): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of [
    'EXTERNAL_URL',
    'DYNAMODB_ENDPOINT',
    'S3_ENDPOINT',
    'TABLE_NAME',
    'BUCKET_NAME',
    'QUEUE_MODE',
  ])
    delete env[name];
  return {
    ...env,
    PORT: String(port),
    ROOT_TOKEN,
    DATA_DIR: dataDir,
    ALLOW_LOCAL_REQUESTS: 'true',
    LOG_LEVEL: 'silent',
    // The sweep every 3 s, for deliveries nothing has been expected of for 2 s.
    HOOK_DELIVERY_SWEEP_MINUTES: '0.05',
    HOOK_DELIVERY_SWEEP_AGE_SECONDS: '2',
    MIRROR_SCHEDULE_MINUTES: '0',
    LDAP_SYNC_SCHEDULE_MINUTES: '0',
  };
}

/** Starts `npm start`'s entry in a process group of its own; resolves with its API URL once it listens. */
async function startRuntime(): Promise<{ child: ChildProcess; apiUrl: string }> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', 'bin/local.ts'], {
    cwd: projectRoot,
    env: runtimeEnvironment(port),
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  groups.add(child.pid as number);
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  const deadline = Date.now() + 60_000;
  for (;;) {
    const url = /listening on (http:\/\/\S+\/api\/v4)/.exec(output)?.[1];
    if (url) return { child, apiUrl: url };
    if (child.exitCode !== null || Date.now() > deadline)
      throw new Error(`the runtime did not start: ${output.slice(-2000)}`);
    await sleep(50);
  }
}

function useApi(apiUrl: string): void {
  useRuntime({ url: apiUrl.replace(/\/api\/v4$/, ''), apiUrl, rootToken: ROOT_TOKEN });
}

beforeAll(async () => {
  receiver = await startReceiver();
});

afterAll(async () => {
  for (const pgid of [...groups]) await killGroup(pgid);
  await receiver?.close();
  rmSync(dataDir, { recursive: true, force: true });
}, 30_000);

/** The ids of the notes people wrote on the issue, as the API lists them. */
async function storedNoteIds(projectId: number, iid: number): Promise<Set<number>> {
  const ids = new Set<number>();
  for (let page = 1; ; page++) {
    const notes = await must(
      api<{ id: number; system: boolean }[]>(
        'GET',
        `/projects/${projectId}/issues/${iid}/notes?per_page=100&page=${page}&sort=asc`,
      ),
      200,
      'notes',
    );
    for (const note of notes) if (!note.system) ids.add(note.id);
    if (notes.length < 100) return ids;
  }
}

interface NotePayload {
  object_kind: string;
  object_attributes: { id: number };
}

describe('webhook deliveries across a crash of the runtime', () => {
  it('delivers every stored note (every 201 one the database kept), each under one Idempotency-Key', async () => {
    const began = Date.now();
    const first = await startRuntime();
    useApi(first.apiUrl);
    const project = await must(
      api<{ id: number }>('POST', '/projects', { json: { name: unique('crash') } }),
      201,
    );
    const path = `/${unique('notes')}`;
    await must(
      api('POST', `/projects/${project.id}/hooks`, {
        json: { url: `${receiver.origin}${path}`, note_events: true, push_events: false },
      }),
      201,
      'hook',
    );
    const issue = await must(
      api<{ iid: number }>('POST', `/projects/${project.id}/issues`, { json: { title: 'Busy' } }),
      201,
      'issue',
    );

    // The burst: each client creates notes one after another until the runtime is gone.
    const created: number[] = [];
    const notesUrl = `${first.apiUrl}/projects/${project.id}/issues/${issue.iid}/notes`;
    const client = async (n: number) => {
      for (let k = 0; ; k++) {
        try {
          const response = await fetch(notesUrl, {
            method: 'POST',
            headers: { 'PRIVATE-TOKEN': ROOT_TOKEN, 'Content-Type': 'application/json' },
            body: JSON.stringify({ body: `client ${n} note ${k}` }),
            signal: AbortSignal.timeout(15_000),
          });
          const body = (await response.json()) as { id: number };
          if (response.status === 201) created.push(body.id);
        } catch {
          return; // The runtime was killed.
        }
      }
    };
    const clients = Promise.all(Array.from({ length: CLIENTS }, (_, n) => client(n)));
    const burstStart = Date.now();
    while (created.length < NOTES_BEFORE_KILL && Date.now() - burstStart < BURST_MS) await sleep(20);
    const deliveredBeforeKill = receiver.at(path).length;
    await killGroup(first.child.pid as number);
    await clients;
    expect(created.length).toBeGreaterThan(CLIENTS);

    const second = await startRuntime();
    useApi(second.apiUrl);
    const restartedAt = Date.now();
    // What the database holds now: the notes that got 201 and those whose answer the kill cut off.
    // DynamoDB Local (not DynamoDB) may lose a transaction it acknowledged when it is killed while
    // another is still running: such a note is gone with its event, for no webhook to carry. Only
    // a request in flight at the kill can be one.
    const stored = await storedNoteIds(project.id, issue.iid);
    const lostByDatabase = created.filter((id) => !stored.has(id));
    expect(lostByDatabase.length).toBeLessThanOrEqual(CLIENTS);

    const noteIdOf = (request: { json: unknown }) => (request.json as NotePayload).object_attributes.id;
    const missing = () => {
      const arrived = new Set(receiver.at(path).map(noteIdOf));
      return [...stored].filter((id) => !arrived.has(id));
    };
    const deadline = Date.now() + DELIVERY_TIMEOUT_MS;
    while (missing().length > 0 && Date.now() < deadline) await sleep(50);
    expect(missing()).toEqual([]);
    const secondsToDeliver = (Date.now() - restartedAt) / 1000;

    // One Idempotency-Key per note however often it arrived (every request is a note's).
    const keys = new Map<number, Set<string>>();
    for (const request of receiver.at(path)) {
      expect((request.json as NotePayload).object_kind).toBe('note');
      const id = noteIdOf(request);
      const seen = keys.get(id) ?? new Set<string>();
      seen.add(String(request.headers['idempotency-key']));
      keys.set(id, seen);
    }
    expect([...keys.values()].filter((seen) => seen.size !== 1)).toEqual([]);

    await killGroup(second.child.pid as number);
    // What the run looked like, for whoever reads the output.
    console.info(
      JSON.stringify({
        created: created.length,
        stored: stored.size,
        lostByDatabase: lostByDatabase.length,
        deliveredBeforeKill,
        requests: receiver.at(path).length,
        notesDelivered: keys.size,
        secondsToDeliverAfterRestart: secondsToDeliver,
        secondsInAll: (Date.now() - began) / 1000,
      }),
    );
  }, 240_000);
});
