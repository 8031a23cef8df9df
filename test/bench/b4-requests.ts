/**
 * B4: DynamoDB requests per API call, counted on the handlers' own DocumentClient while real
 * requests go through the local gateway to DynamoDB Local. Each request runs alone, three times.
 */
import type { User } from '#domain/users.ts';
import { type BudgetResult, round, table } from './common.ts';
import { type BenchRuntime, ROOT_TOKEN, type SendRecord, sequentialRoundTrips } from './runtime.ts';

export const MAX_READ_ROUND_TRIPS = 3;
const REPETITIONS = 3;

const WRITE_COMMANDS = new Set([
  'TransactWriteItemsCommand',
  'PutItemCommand',
  'UpdateItemCommand',
  'DeleteItemCommand',
  'BatchWriteItemCommand',
]);

interface Scenario {
  name: string;
  kind: 'read' | 'write';
  expect: number;
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
  kind: 'read' | 'write';
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
  medianMs: number;
  /** Commands of the first call in the order they were sent (id-block reservations marked). */
  sequence: string[];
  holds: boolean;
  why: string[];
}

function scenarios(users: User[], stamp: string): Scenario[] {
  const user = (i: number) => {
    const found = users[i];
    if (!found) throw new Error(`seed user ${i} missing`);
    return found;
  };
  return [
    {
      name: 'GET /api/v4/user',
      kind: 'read',
      expect: 200,
      request: () => ({ method: 'GET', path: '/user' }),
    },
    {
      name: 'GET /api/v4/users/:id',
      kind: 'read',
      expect: 200,
      request: (rep) => ({ method: 'GET', path: `/users/${user(rep).id}` }),
    },
    {
      name: 'GET /api/v4/users?per_page=20',
      kind: 'read',
      expect: 200,
      request: () => ({ method: 'GET', path: '/users?per_page=20' }),
    },
    {
      name: 'GET /api/v4/users?per_page=100',
      kind: 'read',
      expect: 200,
      request: () => ({ method: 'GET', path: '/users?per_page=100' }),
    },
    {
      name: 'GET /api/v4/users?per_page=100&page=2',
      kind: 'read',
      expect: 200,
      request: () => ({ method: 'GET', path: '/users?per_page=100&page=2' }),
    },
    {
      name: 'GET /api/v4/users?search=…',
      kind: 'read',
      expect: 200,
      request: (rep) => ({
        method: 'GET',
        path: `/users?search=${encodeURIComponent(user(40 + rep).username)}`,
      }),
    },
    {
      name: 'GET /api/v4/personal_access_tokens',
      kind: 'read',
      expect: 200,
      request: () => ({ method: 'GET', path: '/personal_access_tokens' }),
    },
    {
      name: 'POST /api/v4/users',
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
      name: 'POST /api/v4/users/:id/personal_access_tokens',
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
      name: 'PUT /api/v4/users/:id',
      kind: 'write',
      expect: 200,
      request: (rep) => ({
        method: 'PUT',
        path: `/users/${user(10 + rep).id}`,
        body: { bio: `bio ${stamp} ${rep}` },
      }),
    },
    {
      name: 'POST /api/v4/users/:id/block',
      kind: 'write',
      expect: 201,
      request: (rep) => ({ method: 'POST', path: `/users/${user(10 + rep).id}/block` }),
    },
    {
      name: 'DELETE /api/v4/users/:id',
      kind: 'write',
      expect: 204,
      request: (rep) => ({ method: 'DELETE', path: `/users/${user(20 + rep).id}` }),
    },
  ];
}

async function call(apiUrl: string, request: { method: string; path: string; body?: unknown }) {
  const response = await fetch(`${apiUrl}${request.path}`, {
    method: request.method,
    headers: {
      'PRIVATE-TOKEN': ROOT_TOKEN,
      ...(request.body === undefined ? {} : { 'Content-Type': 'application/json' }),
    },
    body: request.body === undefined ? undefined : JSON.stringify(request.body),
    signal: AbortSignal.timeout(30_000),
  });
  await response.arrayBuffer();
  return response.status;
}

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
    if (Math.max(...roundTrips) > MAX_READ_ROUND_TRIPS) {
      why.push(`${Math.max(...roundTrips)} sequential round trips > ${MAX_READ_ROUND_TRIPS}`);
    }
    if (writes) why.push(`${writes} write(s) on a read`);
  } else {
    if (writes !== 1) why.push(`${writes} write commands (want exactly one)`);
    if (!conditionalOrTransaction) why.push('a write that is neither a transaction nor conditional');
    if (sqsSends > 1) why.push(`${sqsSends} queue messages (want ≤ 1)`);
  }
  const times = observations.map((o) => o.ms).sort((a, b) => a - b);
  return {
    name: scenario.name,
    kind: scenario.kind,
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
    medianMs: round(times[Math.floor(times.length / 2)] ?? Number.NaN, 2),
    sequence: [...(observations[0]?.sends ?? [])]
      .sort((a, b) => a.start - b.start)
      .map((send) => `${shortCommand(send.command)}${send.idReservation ? '(id block)' : ''}`),
    holds: why.length === 0,
    why,
  };
}

const shortCommand = (name: string) =>
  name
    .replace(/Command$/, '')
    .replace('TransactWriteItems', 'TransactWrite')
    .replace(/Item$/, '');

export async function runB4(
  bench: BenchRuntime,
  users: User[],
  ids: { idBlockSize: number; seedCreations: number; seedReservations: number },
): Promise<BudgetResult> {
  const { idBlockSize } = ids;
  const started = performance.now();
  const stamp = Date.now().toString(36);
  const results: ScenarioResult[] = [];
  for (const scenario of scenarios(users, stamp)) {
    const observations: Observation[] = [];
    for (let rep = 0; rep < REPETITIONS; rep++) {
      const request = scenario.request(rep);
      const t0 = performance.now();
      const recorded = await bench.record(() => call(bench.runtime.apiUrl, request));
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

  const list20 = results.find((r) => r.name.endsWith('per_page=20'));
  const list100 = results.find((r) => r.name.endsWith('per_page=100'));
  const sameListCost =
    list20 !== undefined &&
    list100 !== undefined &&
    Math.max(...list20.sends) === Math.max(...list100.sends) &&
    Math.max(...list20.roundTrips) === Math.max(...list100.roundTrips);

  const rows: (string | number)[][] = [
    ['request', 'status', 'sends', 'commands (1st call)', 'seq RT', 'id blocks', 'SQS', 'worker', 'ok'],
  ];
  for (const r of results) {
    rows.push([
      r.name,
      [...new Set(r.statuses)].join('/'),
      [...new Set(r.sends)].join('/'),
      Object.entries(r.commands)
        .map(([command, count]) => `${shortCommand(command)}${count > 1 ? `×${count}` : ''}`)
        .join(' '),
      [...new Set(r.roundTrips)].join('/'),
      r.idReservations ? `${r.idReservations}/${REPETITIONS}` : '-',
      r.sqsSends || '-',
      r.workerSends || '-',
      r.holds ? 'yes' : 'NO',
    ]);
  }
  const failing = results.filter((r) => !r.holds);
  const notes = [
    `Each request ran ${REPETITIONS}× alone as root (admin token), so authentication is always one of the sends. "sends" and "seq RT" exclude id-counter block reservations, shown apart: one UpdateItem ADD reserves ${idBlockSize} ids (ID_BLOCK_SIZE), i.e. ${round(1 / idBlockSize, 2)} extra sends per creation amortized; seeding ${ids.seedCreations} users took ${ids.seedReservations} reservations (${round(ids.seedReservations / ids.seedCreations, 3)} per creation).`,
    'seq RT = sends that had to wait for each other (overlapping sends, e.g. a page Query and its count GetItem in Promise.all, count once). Worker = DynamoDB sends of the queue worker the request triggered, counted apart.',
    `per_page=20 vs per_page=100: ${
      sameListCost
        ? 'same number of sends and round trips'
        : `DIFFERENT (${list20?.sends.join('/')} vs ${list100?.sends.join('/')} sends)`
    }.`,
  ];
  for (const r of failing) notes.push(`FAIL ${r.name}: ${r.why.join('; ')}`);
  const writes = results.filter((r) => r.kind === 'write');
  for (const r of writes) {
    const reads = Math.max(...r.sends) - r.writes;
    const rt = Math.max(...r.roundTrips);
    // Authentication + one read of what is changed + the write is the floor for an update.
    if (rt > MAX_READ_ROUND_TRIPS) {
      notes.push(
        `FINDING ${r.name}: ${reads} reads before its write, ${rt} sequential round trips (${r.sequence.join(' → ')}).`,
      );
    }
  }
  return {
    id: 'B4',
    title: `DynamoDB requests per call: reads ≤ ${MAX_READ_ROUND_TRIPS} sequential round trips; writes one transaction or conditional write (+ ≤ 1 SQS); list cost independent of per_page`,
    holds: failing.length === 0 && sameListCost,
    summary: `${results.length - failing.length}/${results.length} requests within budget; per_page 20 vs 100 ${
      sameListCost ? 'same cost' : 'DIFFERENT cost'
    }`,
    table: table(rows),
    notes,
    details: { repetitions: REPETITIONS, ids, sameListCost, results },
    seconds: (performance.now() - started) / 1000,
  };
}
