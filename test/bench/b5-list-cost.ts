/**
 * B5: list cost does not grow with table size. Runs b5-child.ts (its own runtime on a fresh table)
 * and judges what it measured: page 1 of each list at ≈ 1k and ≈ 100k rows within ±10% in read
 * capacity and items read; page N no dearer than page 1 plus a Query skipping (N − 1) × per_page
 * keys; no Scan sent by any process of the bench (and none in the handlers' source). An issue's
 * notes list is one of the lists: the same issue's page 1 with 10 and with 10,000 notes on the
 * project's other issues, and another issue's pages N against skipping its notes. A hook's
 * delivery log is another: page 1 of one hook's events (50 attempts) at both sizes, and another
 * hook's pages N against skipping its log. Labels, milestones, award emoji and discussions are
 * others: page 1 of a project's and a group's labels and milestones, of an issue's awards (on it and
 * on a note) and discussions at both sizes, with their own partitions and the rest of the table
 * grown between, and another issue's discussions pages N against skipping its notes list. Keyset
 * pagination is one more: GET /projects by id, page 1 against the deepest full page at ≈ 100k rows.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import type { B5ChildResult, ListScenario, Measurement, Options, PageResult } from './b5-child.ts';
import {
  type BudgetResult,
  lastJsonLine,
  projectRoot,
  round,
  runChild,
  table,
  tsxNodeArgs,
} from './common.ts';

export const SIZE_TOLERANCE = 0.1;
/** Page N may cost page 1 + the skip Query's capacity, plus this share of it and 1 RCU of rounding. */
export const SKIP_TOLERANCE = 0.1;

/** Files of the deployed code (handlers and shared modules) that mention a Scan at all. */
function scanInSource(): string[] {
  const hits: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (path.endsWith('.ts') && /\bScan(Command|Input)\b/.test(readFileSync(path, 'utf8'))) {
        hits.push(relative(projectRoot, path));
      }
    }
  };
  for (const dir of ['functions', 'shared']) walk(join(projectRoot, dir));
  return hits;
}

const ratioOf = (large: number, small: number) =>
  small === 0 ? (large === 0 ? 1 : Infinity) : large / small;
const within = (ratio: number) => Math.abs(ratio - 1) <= SIZE_TOLERANCE;
const who = (scenario: { who: ListScenario['who'] }) =>
  scenario.who === 'anon' ? 'anonymous' : scenario.who;

export async function runB5(
  options: Options,
  parent: { commandCounts: Record<string, number> | undefined; timeoutSec: number },
): Promise<BudgetResult> {
  const started = performance.now();
  const child = await runChild(
    process.execPath,
    [...tsxNodeArgs, join(import.meta.dirname, 'b5-child.ts'), JSON.stringify(options)],
    { timeoutMs: parent.timeoutSec * 1000 },
  );
  if (child.code !== 0) throw new Error(`B5 child exit ${child.code}: ${child.stderr.slice(-1500)}`);
  const result = lastJsonLine<B5ChildResult>(child.stdout);
  const { small, large } = result;

  const rows: (string | number)[][] = [
    [
      'list, page 1',
      'caller',
      `RCU ${kRows(small.rows)}`,
      'items',
      `RCU ${kRows(large.rows)}`,
      'items',
      'RCU ×',
      'items ×',
      'ok',
    ],
  ];
  const verdictRows: { scenario: ListScenario; holds: boolean }[] = [];
  const failures: string[] = [];
  for (const scenario of result.scenarios) {
    const a = small.measurements[scenario.key] as Measurement;
    const b = large.measurements[scenario.key] as Measurement;
    const rcuRatio = ratioOf(b.rcu, a.rcu);
    const itemRatio = ratioOf(b.itemsRead, a.itemsRead);
    const holds = a.status === 200 && b.status === 200 && within(rcuRatio) && within(itemRatio);
    if (scenario.verdict) verdictRows.push({ scenario, holds });
    rows.push([
      scenario.label,
      who(scenario),
      a.rcu,
      a.itemsRead,
      b.rcu,
      b.itemsRead,
      `${round(rcuRatio, 2)}`,
      `${round(itemRatio, 2)}`,
      scenario.verdict ? (holds ? 'yes' : 'NO') : holds ? 'info' : 'info: grows',
    ]);
    if (!holds) {
      const top = b.breakdown
        .slice(0, 3)
        .map((entry) => `${entry.target} ×${entry.sends}: ${entry.rcu} RCU, ${entry.items} items`)
        .join('; ');
      failures.push(
        `${scenario.verdict ? 'FAIL' : 'INFO'} ${scenario.label} [${who(scenario)}]: ${a.rcu} → ${b.rcu} RCU, ${a.itemsRead} → ${b.itemsRead} items (statuses ${a.status}/${b.status}); at ${kRows(large.rows)} rows the reads were: ${top}`,
      );
    }
  }

  const pageRows: (string | number)[][] = [
    [
      'list (100k rows)',
      'caller',
      ...result.options.pages.flatMap((page) =>
        page === 1 ? ['page 1'] : [`page ${page}`, `1 + skip ${(page - 1) * result.options.perPage}`],
      ),
      'ok',
    ],
  ];
  const pageFailures: string[] = [];
  const pagesByKey = new Map<string, PageResult[]>();
  for (const page of result.pages) pagesByKey.set(page.key, [...(pagesByKey.get(page.key) ?? []), page]);
  let pagesHold = true;
  for (const [key, pages] of pagesByKey) {
    const scenario = [...result.scenarios, ...result.pageScenarios].find(
      (s) => s.key === key,
    ) as ListScenario;
    const first = pages.find((page) => page.page === 1);
    const cells: (string | number)[] = [];
    let holds = true;
    for (const page of pages) {
      if (page.page === 1) {
        cells.push(page.rcu);
        continue;
      }
      const allowed = (first?.rcu ?? 0) + page.skipRcu * (1 + SKIP_TOLERANCE) + 1;
      const ok = page.rcu <= allowed;
      if (!ok) {
        holds = false;
        pageFailures.push(
          `FAIL ${scenario.label} [${who(scenario)}] page ${page.page}: ${page.rcu} RCU > page 1 (${first?.rcu}) + skipping ${(page.page - 1) * result.options.perPage} keys (${page.skipRcu}) + tolerance`,
        );
      }
      cells.push(page.rcu, round((first?.rcu ?? 0) + page.skipRcu, 1));
    }
    if (scenario.verdict) pagesHold &&= holds;
    pageRows.push([
      scenario.label,
      who(scenario),
      ...cells,
      scenario.verdict ? (holds ? 'yes' : 'NO') : 'info',
    ]);
  }

  // Keyset: the deepest full page costs no more than page 1 (+10%), whatever the number of items
  // before it. It may cost less: near the end of a merged list the lists it merges run out.
  const keysetRows: (string | number)[][] = [
    [
      'keyset list (large size)',
      'caller',
      'page',
      'RCU p. 1',
      'items',
      'RCU deep',
      'items',
      'RCU ×',
      'items ×',
      'ok',
    ],
  ];
  const keysetFailures: string[] = [];
  let keysetHolds = true;
  for (const keyset of result.keyset) {
    const page = Math.floor(keyset.before / result.options.perPage) + 1;
    const rcuRatio = ratioOf(keyset.deep.rcu, keyset.first.rcu);
    const itemRatio = ratioOf(keyset.deep.itemsRead, keyset.first.itemsRead);
    const holds =
      keyset.first.status === 200 &&
      keyset.deep.status === 200 &&
      keyset.deep.returned === result.options.perPage &&
      rcuRatio <= 1 + SIZE_TOLERANCE &&
      itemRatio <= 1 + SIZE_TOLERANCE;
    keysetHolds &&= holds;
    keysetRows.push([
      keyset.label,
      who(keyset),
      `${page} of ${Math.ceil(keyset.listed / result.options.perPage)}`,
      keyset.first.rcu,
      keyset.first.itemsRead,
      keyset.deep.rcu,
      keyset.deep.itemsRead,
      `${round(rcuRatio, 2)}`,
      `${round(itemRatio, 2)}`,
      holds ? 'yes' : 'NO',
    ]);
    if (!holds) {
      const top = keyset.deep.breakdown
        .slice(0, 3)
        .map((entry) => `${entry.target} ×${entry.sends}: ${entry.rcu} RCU, ${entry.items} items`)
        .join('; ');
      keysetFailures.push(
        `FAIL ${keyset.label} [${who(keyset)}] page ${page}: ${keyset.first.rcu} → ${keyset.deep.rcu} RCU, ${keyset.first.itemsRead} → ${keyset.deep.itemsRead} items, ${keyset.deep.returned} returned (statuses ${keyset.first.status}/${keyset.deep.status}); the deep page read: ${top}`,
      );
    }
  }

  const childScans = result.commandCounts.ScanCommand ?? 0;
  const parentScans = parent.commandCounts?.ScanCommand ?? 0;
  const scans = childScans + parentScans;
  const sourceScans = scanInSource();
  const total = (counts: Record<string, number> | undefined) =>
    Object.values(counts ?? {}).reduce((sum, count) => sum + count, 0);
  const sizesHold = verdictRows.every((row) => row.holds);
  const reached = result.reachedLarge;
  const n = result.notes;
  const holds = sizesHold && pagesHold && keysetHolds && scans === 0;
  const failingLists = verdictRows
    .filter((row) => !row.holds)
    .map((row) => `${row.scenario.label} [${who(row.scenario)}]`);

  const notes = [
    `Sizes: ${small.rows} rows (${small.projects} projects, ${small.groups} groups; seeded through createUser/createAccessToken/createGroup/addGroupMember/createProject in ${small.seedSeconds} s) and ${large.rows} rows (${large.projects} projects, ${large.groups} groups; +${large.groups - small.groups} groups: ${result.groupFiller.byStore} through createGroup and ${result.groupFiller.byBatchWrite} by BatchWriteItem in ${result.groupFiller.seconds} s, laid out as createGroup and the search worker write them (checked attribute for attribute first: ${result.groupFiller.layoutChecked.join(', ')}); +${result.fillerProjects} projects by BatchWriteItem at ${result.fillerRowsPerSecond} rows/s; in ${large.seedSeconds} s)${reached ? '' : ` — the seeding deadline (${result.options.seedDeadlineSec} s of growth) stopped growth short of ${result.options.large} rows`}. Rows = DescribeTable ItemCount of DynamoDB Local. Steps: ${result.phases.map((phase) => `${phase.name}: ${phase.seconds} s`).join('; ')}.`,
    `BatchWrite filler items are laid out as createProject writes them: checked attribute for attribute against store-written items before the first write (${result.layoutChecked.length} items: project, route and name item of a public, an internal and a private project); ids from nextId; the list counters moved afterwards with listCountChange. ${result.sanity.join('; ')}.`,
    `Projects are created in one interleaved order at both sizes (every 3rd into the growing group, so it holds more than a page of each visibility at the small size too; the rest round-robin over the other groups; the groups added for the large size are created by another user, so the callers' own memberships are the same at both sizes), visibility cycling public/internal/private (capped at the group's); the growing group holds ${small.growingGroupProjects} → ${large.growingGroupProjects} projects, the control group 30 at both sizes. "user" = a developer of the growing group. Verdict rows: the lists docs/performance.md names, and the search and GET /users/:id/projects the projects issue names, with the callers the brief names (anonymous, admin); user rows, the control group and GET /groups/:id are information. The search term matches 11 projects of the control group at both sizes; the member owns 5 public personal projects at both sizes. Every project has its search postings (store-made ones by the worker's own step, filler ones laid out by the same function).`,
    `Notes: a private project in a private group ("user" here = a developer of that group and nothing else) holds the listed issue with ${n.onTarget} notes (that user's and root's, through createIssue and createNoteBy) at both sizes, and ${n.otherIssues} other issues with ${n.otherSmall} notes at ${kRows(small.rows)} rows and ${n.otherLarge} at ${kRows(large.rows)} rows: ${n.deep} on one issue through createNoteBy (its pages are the notes rows of the page table) and ${n.filler} by BatchWriteItem in ${n.fillerSeconds} s (ids and times in creation order, the newest batches written first), laid out as createNoteBy writes them (checked attribute for attribute first: ${n.layoutChecked.join(', ')}), the issues' notes_count/user_notes_count moved on their counter shards as createNoteBy moves them and their updated_at by the table's stream (note-touches), as for any note. ${n.sanity.join('; ')}. The notes page is a Query of the issue's notes list (l1 = NOTES#<issue>) on the l1-created_at index, eventually consistent; its skip is a Query of that list on that index.`,
    `Hook delivery log: a private project of the notes' group holds a hook (no events switched on, so never delivered to) whose log holds ${result.hookLogs.onTarget} attempts at both sizes, and for the large size another hook with ${result.hookLogs.deep} (its pages are the events rows of the page table), all written by appendHookLog as the delivery worker logs an attempt (a Note Hook request of ≈ 2 KB each), in ${result.hookLogs.seconds} s. ${result.hookLogs.sanity.join('; ')}. The events page is a consistent Query of the hook's partition of the day (HOOKLOG#<hook>#<yyyy-mm-dd>, sort key LOG#<created_at>#<id>), newest first, walking back a day at a time while a page is short; its skip is a Query of the same partitions, newest first.`,
    `Labels, milestones, award emoji, discussions: the notes' project and group hold ${result.extras.labels} labels and ${result.extras.milestones} milestones each (createLabel, createMilestone; the project's labels list reads the group's too), and another issue of the project ${result.extras.discussions} discussions (startThread, replyToDiscussion, createNoteBy; every 3rd a thread with 2 replies) and ${result.extras.awards} awards on itself and as many on its first note (addAward), at both sizes (${result.extras.smallSeconds} s). For the large size (${result.extras.largeSeconds} s, all through the store): ${result.extras.grown.join('; ')}. The lists are read by "user" = the notes' group's developer and by admin. Labels, milestones and awards are read whole per owner or awardable (one Query of its partition under the kind's sort prefix) and paged in memory, so their page N costs what page 1 does; a discussions page reads the parent's notes list (one note per discussion) from its head to the page's end, as the notes list does, then each thread of the page with a Query of its own.`,
    `The table's stream feeds the webhook consumer in the measuring process (its reads use the same DocumentClient): before each round of measurements the bench waited until the stream had reached the consumer (${(result.streamWaits ?? []).map((seconds) => `${seconds} s`).join(', ')}), so none of its reads is counted in a request's.`,
    `RCU = sum of the ConsumedCapacity DynamoDB Local returned for every GetItem/Query/BatchGetItem of the request (ReturnConsumedCapacity TOTAL set by a middleware on documentClient()), authentication included, and so the BatchGet of a page's counter rollups (eventually consistent) and of list totals' shards, plus DynamoDB's minimum for each key a Get/BatchGet asked for and did not find (0.5 eventually consistent, 1 consistent), which DynamoDB Local does not report (a list total's shards not written yet cost the same as written ones); items = ScannedCount of Queries + keys a Get/BatchGet asked for. Median of ${result.options.repetitions} repetitions (all equal unless shown otherwise in results.json). Budget ±${SIZE_TOLERANCE * 100}%.`,
    `Keyset: GET /projects?pagination=keyset&order_by=id&sort=asc&per_page=${result.options.perPage} as ${result.keyset.map((keyset) => `${who(keyset)} (${keyset.listed} projects listed; walked to the deepest full page by the Link headers' cursors at per_page ${keyset.walkPerPage}, unmeasured, in ${keyset.walkSeconds} s)`).join(' and ')}: that page costs no more than page 1 (+${SIZE_TOLERANCE * 100}%) in RCU and items, a full page returned (near the end of a merged list it may cost less: the lists it merges run out).`,
    `Page N: "1 + skip K" = page 1's RCU + a raw Query on the same index and partitions (each partition, as a merge must) reading K = (N − 1) × ${result.options.perPage} keys; page N holds when ≤ that + ${SKIP_TOLERANCE * 100}% of the skip + 1 RCU rounding.`,
    `Scan: ${scans} sent — ${childScans} of ${total(result.commandCounts)} DynamoDB commands in the B5 process${
      parent.commandCounts
        ? `, ${parentScans} of ${total(parent.commandCounts)} in the B4/B6 runtime`
        : ' (B4/B6 not run: only this process counted)'
    }; ${sourceScans.length ? `ScanCommand appears in ${sourceScans.join(', ')}` : 'no ScanCommand anywhere in functions/ or shared/'}.`,
    ...failures,
    ...pageFailures,
    ...keysetFailures,
  ];
  return {
    id: 'B5',
    title: `List cost vs table size: page 1 within ±${SIZE_TOLERANCE * 100}% (RCU and items) between ≈1k and ≈100k rows; page N ≤ page 1 + skipping; a keyset list's deepest page ≤ page 1; no Scan`,
    holds,
    summary: `${verdictRows.length - failingLists.length}/${verdictRows.length} lists flat from ${kRows(small.rows)} to ${kRows(large.rows)} rows${
      failingLists.length ? ` (grow: ${failingLists.join(', ')})` : ''
    }; page N ${pagesHold ? '≤' : 'NOT ≤'} page 1 + skip; keyset deepest page ${keysetHolds ? '≤' : 'NOT ≤'} page 1 (+${SIZE_TOLERANCE * 100}%); ${scans} Scan`,
    table: [...table(rows), '', ...table(pageRows), '', ...table(keysetRows)],
    notes,
    details: { ...result, parentCommandCounts: parent.commandCounts, sourceScans },
    seconds: (performance.now() - started) / 1000,
  };
}

function kRows(rows: number): string {
  return rows >= 1000 ? `${round(rows / 1000, rows >= 10_000 ? 0 : 1)}k` : String(rows);
}
