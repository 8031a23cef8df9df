/**
 * B8: webhook delivery through the local runtime — the table's change stream, the fan-out, the
 * delivery queue and its worker, as `npm start` runs them — to a receiver on 127.0.0.1 in this
 * process (node:http, 200 at once). A project with 3 hooks (note events only) and an issue; notes
 * created through the API:
 *
 * - sequentially, one at a time (the next once the previous one's 3 deliveries arrived): the
 *   latency of each delivery, from sending the POST that creates the note to the receiver's
 *   request, matched by the note body in `object_attributes.note`;
 * - as a burst of concurrent POSTs: deliveries per second from the first POST sent to the last
 *   delivery received.
 *
 * Every delivery must arrive exactly once: one per note and hook, each with its own
 * Idempotency-Key, none duplicated or missing (after a grace period once the stream and the queue
 * are idle) — the row fails otherwise. The times are information (the first run sets the bar).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type BudgetResult, median, percentile, round, sleep, table } from './common.ts';
import type { BenchRuntime } from './runtime.ts';

export interface B8Options {
  /** Notes created one at a time (latency); 100 in the budget. */
  notes: number;
  /** Notes created at once (throughput). */
  burst: number;
  hooks: number;
  /** Notes (and their deliveries) before measuring, not counted in the figures. */
  warmup: number;
  /** How long to wait for one note's deliveries, and for a burst's. */
  timeoutSec: number;
  /** Quiet time after the last expected delivery in which a duplicate would show. */
  graceMs: number;
}

interface Delivery {
  /** performance.now() when the request's headers arrived. */
  at: number;
  path: string;
  key: string | undefined;
  event: string | undefined;
  note: string | undefined;
  kind: string | undefined;
}

interface Receiver {
  origin: string;
  deliveries: Delivery[];
  /** Resolves when `count` deliveries satisfy `match`; rejects after `timeoutMs`. */
  waitFor(match: (delivery: Delivery) => boolean, count: number, timeoutMs: number): Promise<Delivery[]>;
  close(): Promise<void>;
}

async function startReceiver(): Promise<Receiver> {
  const deliveries: Delivery[] = [];
  const waiters = new Set<() => void>();
  const server: Server = createServer((incoming, response) => {
    const at = performance.now();
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{}');
      let payload: { object_kind?: unknown; object_attributes?: { note?: unknown } } = {};
      try {
        payload = JSON.parse(Buffer.concat(chunks).toString('utf8')) as typeof payload;
      } catch {
        // counted as a delivery of no note
      }
      const header = (name: string) => {
        const value = incoming.headers[name];
        return Array.isArray(value) ? value.join(',') : value;
      };
      deliveries.push({
        at,
        path: incoming.url ?? '/',
        key: header('idempotency-key'),
        event: header('x-gitlab-event'),
        note:
          typeof payload.object_attributes?.note === 'string' ? payload.object_attributes.note : undefined,
        kind: typeof payload.object_kind === 'string' ? payload.object_kind : undefined,
      });
      for (const wake of [...waiters]) wake();
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    deliveries,
    waitFor(match, count, timeoutMs) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const seen = deliveries.filter(match);
          if (seen.length < count) return false;
          waiters.delete(wake);
          clearTimeout(timer);
          resolve(seen);
          return true;
        };
        const wake = () => void check();
        const timer = setTimeout(() => {
          waiters.delete(wake);
          reject(new Error(`receiver got ${deliveries.filter(match).length} of ${count} deliveries`));
        }, timeoutMs);
        waiters.add(wake);
        check();
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

async function api<T>(
  bench: BenchRuntime,
  method: string,
  path: string,
  body: unknown,
  expect: number,
): Promise<T> {
  const response = await fetch(`${bench.runtime.apiUrl}${path}`, {
    method,
    headers: { 'PRIVATE-TOKEN': bench.runtime.rootToken, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await response.text();
  if (response.status !== expect) {
    throw new Error(
      `${method} ${path} answered ${response.status} (expected ${expect}): ${text.slice(0, 300)}`,
    );
  }
  return JSON.parse(text) as T;
}

/** Waits until the change stream has reached its consumer and the queues are empty. */
async function settle(bench: BenchRuntime, timeoutMs: number): Promise<void> {
  await bench.runtime.streams.drain(timeoutMs);
  await bench.runtime.queues.drain(timeoutMs);
}

interface PhaseCheck {
  phase: string;
  notes: number;
  expected: number;
  received: number;
  distinctKeys: number;
  /** (note, hook) pairs delivered more than once, and the extra deliveries. */
  duplicated: number;
  missing: number;
  /** Deliveries carrying a key another delivery of the run also carried. */
  sharedKeys: number;
  withoutKey: number;
  /** Deliveries whose event header or payload is not a note hook's. */
  wrongEvent: number;
}

/** Exactly once: each note's delivery reached each hook once, each with an Idempotency-Key of its own. */
function checkPhase(
  phase: string,
  bodies: readonly string[],
  paths: readonly string[],
  all: Delivery[],
): PhaseCheck {
  const wanted = new Set(bodies);
  const mine = all.filter((delivery) => delivery.note !== undefined && wanted.has(delivery.note));
  const perPair = new Map<string, number>();
  for (const delivery of mine) {
    const pair = `${delivery.path}|${delivery.note}`;
    perPair.set(pair, (perPair.get(pair) ?? 0) + 1);
  }
  let missing = 0;
  let duplicated = 0;
  for (const body of bodies)
    for (const path of paths) {
      const count = perPair.get(`${path}|${body}`) ?? 0;
      if (count === 0) missing++;
      else duplicated += count - 1;
    }
  const keyCounts = new Map<string, number>();
  for (const delivery of all)
    if (delivery.key) keyCounts.set(delivery.key, (keyCounts.get(delivery.key) ?? 0) + 1);
  const keys = new Set(mine.map((delivery) => delivery.key).filter((key) => key !== undefined));
  return {
    phase,
    notes: bodies.length,
    expected: bodies.length * paths.length,
    received: mine.length,
    distinctKeys: keys.size,
    duplicated,
    missing,
    sharedKeys: mine.filter((delivery) => delivery.key && (keyCounts.get(delivery.key) ?? 0) > 1).length,
    withoutKey: mine.filter((delivery) => !delivery.key).length,
    wrongEvent: mine.filter((delivery) => delivery.event !== 'Note Hook' || delivery.kind !== 'note').length,
  };
}

const exact = (check: PhaseCheck) =>
  check.received === check.expected &&
  check.distinctKeys === check.expected &&
  check.duplicated === 0 &&
  check.missing === 0 &&
  check.sharedKeys === 0 &&
  check.withoutKey === 0 &&
  check.wrongEvent === 0;

function figures(samples: readonly number[]) {
  return {
    count: samples.length,
    medianMs: round(median(samples), 1),
    p95Ms: round(percentile(samples, 95), 1),
    p99Ms: round(percentile(samples, 99), 1),
    maxMs: round(Math.max(...samples), 1),
  };
}

/** Commands sent between two counts, per note, by command name. */
function commandsPerNote(
  before: Record<string, number>,
  after: Record<string, number>,
  notes: number,
): Record<string, number> {
  return Object.fromEntries(
    Object.entries(after)
      .map(([command, count]) => [command, round((count - (before[command] ?? 0)) / notes, 2)] as const)
      .filter(([, count]) => count > 0)
      .sort(([a], [b]) => a.localeCompare(b)),
  );
}

export async function runB8(bench: BenchRuntime, options: B8Options): Promise<BudgetResult> {
  const started = performance.now();
  const timeoutMs = options.timeoutSec * 1000;
  const receiver = await startReceiver();
  try {
    const stamp = Date.now().toString(36);
    const project = await api<{ id: number }>(bench, 'POST', '/projects', { name: `b8-${stamp}` }, 201);
    const paths = Array.from({ length: options.hooks }, (_, i) => `/b8/${stamp}/hook-${i}`);
    for (const path of paths) {
      await api(
        bench,
        'POST',
        `/projects/${project.id}/hooks`,
        { url: `${receiver.origin}${path}`, note_events: true, push_events: false },
        201,
      );
    }
    const issue = await api<{ iid: number }>(
      bench,
      'POST',
      `/projects/${project.id}/issues`,
      { title: `B8 issue ${stamp}` },
      201,
    );
    const notesPath = `/projects/${project.id}/issues/${issue.iid}/notes`;
    await settle(bench, timeoutMs);
    const hookPaths = new Set(paths);
    const ofNote = (body: string) => (delivery: Delivery) =>
      delivery.note === body && hookPaths.has(delivery.path);

    /** Creates a note; its deliveries' latencies from sending the POST, and the API call's own time. */
    const sequentialNote = async (body: string) => {
      const sent = performance.now();
      await api(bench, 'POST', notesPath, { body }, 201);
      const answered = performance.now() - sent;
      const arrived = await receiver.waitFor(ofNote(body), paths.length, timeoutMs);
      return { answered, latencies: arrived.map((delivery) => delivery.at - sent) };
    };

    // Warm-up: the code paths of the API, the stream consumer, the worker and the receiver.
    const warmBodies = Array.from({ length: options.warmup }, (_, i) => `B8 warm-up ${stamp} ${i}`);
    for (const body of warmBodies) await sequentialNote(body);

    // Sequential: one note at a time, the next once its deliveries are in.
    const seqBodies = Array.from({ length: options.notes }, (_, i) => `B8 sequential ${stamp} ${i}`);
    const latencies: number[] = [];
    const answeredMs: number[] = [];
    const seqCommands = bench.commandCounts();
    const seqStart = performance.now();
    for (const body of seqBodies) {
      const note = await sequentialNote(body);
      latencies.push(...note.latencies);
      answeredMs.push(note.answered);
    }
    const seqSeconds = (performance.now() - seqStart) / 1000;
    await settle(bench, timeoutMs);
    await sleep(options.graceMs);
    const perNote = commandsPerNote(seqCommands, bench.commandCounts(), seqBodies.length);

    // Burst: every POST at once; throughput from the first POST sent to the last delivery.
    const burstBodies = Array.from({ length: options.burst }, (_, i) => `B8 burst ${stamp} ${i}`);
    const burstSet = new Set(burstBodies);
    const burstStart = performance.now();
    const sentAt = new Map<string, number>();
    const burstAnswered = await Promise.all(
      burstBodies.map(async (body) => {
        const sent = performance.now();
        sentAt.set(body, sent);
        await api(bench, 'POST', notesPath, { body }, 201);
        return performance.now() - sent;
      }),
    );
    const allPosted = performance.now() - burstStart;
    const burstArrived = await receiver.waitFor(
      (delivery) =>
        delivery.note !== undefined && burstSet.has(delivery.note) && hookPaths.has(delivery.path),
      options.burst * paths.length,
      timeoutMs,
    );
    const lastArrival = Math.max(...burstArrived.map((delivery) => delivery.at));
    const burstMs = lastArrival - burstStart;
    const burstLatencies = burstArrived.map(
      (delivery) => delivery.at - (sentAt.get(delivery.note ?? '') ?? burstStart),
    );
    await settle(bench, timeoutMs);
    await sleep(options.graceMs);

    const all = receiver.deliveries;
    const checks = [
      checkPhase('warm-up', warmBodies, paths, all),
      checkPhase('sequential', seqBodies, paths, all),
      checkPhase('burst', burstBodies, paths, all),
    ];
    const known = new Set([...warmBodies, ...seqBodies, ...burstBodies]);
    const strays = all.filter((delivery) => delivery.note === undefined || !known.has(delivery.note));
    const deadLetters = bench.runtime.queues.deadLetters('hook-delivery').length;
    const streamFailures = bench.runtime.streams.failures('hook-events').length;
    const failing = checks.filter((check) => !exact(check));
    const holds = failing.length === 0 && strays.length === 0;

    const seq = figures(latencies);
    const burst = figures(burstLatencies);
    const burstRate = round((burstArrived.length / burstMs) * 1000, 1);
    const seqRate = round(latencies.length / seqSeconds, 1);
    const rows: (string | number)[][] = [
      ['notes', 'deliveries', 'median ms', 'p95 ms', 'p99 ms', 'max ms', 'API 201 median ms', 'deliveries/s'],
      [
        `${options.notes} one at a time`,
        seq.count,
        seq.medianMs,
        seq.p95Ms,
        seq.p99Ms,
        seq.maxMs,
        round(median(answeredMs), 1),
        seqRate,
      ],
      [
        `${options.burst} at once`,
        burst.count,
        burst.medianMs,
        burst.p95Ms,
        burst.p99Ms,
        burst.maxMs,
        round(median(burstAnswered), 1),
        burstRate,
      ],
    ];
    const checkRows: (string | number)[][] = [
      ['phase', 'notes', 'expected', 'received', 'distinct keys', 'duplicates', 'missing', 'ok'],
      ...checks.map((check) => [
        check.phase,
        check.notes,
        check.expected,
        check.received,
        check.distinctKeys,
        check.duplicated,
        check.missing,
        exact(check) ? 'yes' : 'NO',
      ]),
    ];
    const notes = [
      `Local runtime in this process (DynamoDB Local in memory; the table's stream polled by bin/local/streams.ts, idle pause 50 ms; the hook-delivery queue dispatched in process), receiver on 127.0.0.1 (node:http, 200 once the body is in). Project with ${options.hooks} hooks (note_events true, push_events false) and one issue; notes POSTed as root; ${options.warmup} warm-up notes first, not counted.`,
      `Latency = from sending the POST that creates the note to the receiver seeing the delivery's request (headers in), matched by object_attributes.note; the next sequential note is sent once the previous one's ${options.hooks} deliveries arrived. Sequential deliveries/s = ${latencies.length} / ${round(seqSeconds, 1)} s (one note in flight: a latency figure, not a throughput one).`,
      `Burst: ${options.burst} POSTs at once (all answered after ${round(allPosted, 0)} ms); deliveries/s = ${burstArrived.length} deliveries / ${round(burstMs, 0)} ms from the first POST sent to the last delivery received; its latency columns are from each note's own POST.`,
      `DynamoDB commands per note in the sequential phase, API call, stream consumer and delivery worker together (every command this process sent, over ${options.notes} notes): ${Object.entries(
        perNote,
      )
        .map(([command, count]) => `${command.replace(/Command$/, '')} ${count}`)
        .join(', ')}.`,
      `Exactly once: every (note, hook) pair delivered once, each delivery with an Idempotency-Key no other delivery carried, checked after the stream and queue were idle and ${options.graceMs} ms more; ${strays.length} deliveries of no known note; hook-delivery dead letters ${deadLetters}; hook-events stream records given up ${streamFailures}.`,
      ...failing.map(
        (check) =>
          `FAIL ${check.phase}: ${check.received}/${check.expected} received, ${check.distinctKeys} distinct keys, ${check.duplicated} duplicates, ${check.missing} missing, ${check.sharedKeys} with a shared key, ${check.withoutKey} without a key, ${check.wrongEvent} not a Note Hook`,
      ),
    ];
    const delivered = checks.reduce((sum, check) => sum + check.received, 0);
    const expected = checks.reduce((sum, check) => sum + check.expected, 0);
    return {
      id: 'B8',
      title: `Webhook delivery through the local runtime: note → receiver latency over ${options.notes} notes × ${options.hooks} hooks, deliveries/s, exactly once by Idempotency-Key`,
      holds,
      summary: `median ${seq.medianMs} ms, p95 ${seq.p95Ms} ms, p99 ${seq.p99Ms} ms, max ${seq.maxMs} ms over ${seq.count} deliveries; burst ${burstRate} deliveries/s; ${
        holds
          ? `${delivered}/${expected} delivered exactly once`
          : `NOT exactly once (${failing.map((check) => check.phase).join(', ') || `${strays.length} strays`})`
      } (times: information)`,
      table: [...table(rows), '', ...table(checkRows)],
      notes,
      details: {
        options,
        sequential: {
          ...seq,
          seconds: round(seqSeconds, 2),
          perSecond: seqRate,
          apiMedianMs: round(median(answeredMs), 1),
        },
        burst: {
          ...burst,
          windowMs: round(burstMs, 1),
          allPostedMs: round(allPosted, 1),
          perSecond: burstRate,
          apiMedianMs: round(median(burstAnswered), 1),
        },
        commandsPerNote: perNote,
        checks,
        strays: strays.length,
        deadLetters,
        streamFailures,
      },
      seconds: (performance.now() - started) / 1000,
    };
  } finally {
    await receiver.close();
  }
}
