/**
 * B1: every function of the route and worker tables bundled the way it is deployed (esbuild, ESM,
 * bundle, minify, node22, AWS SDK inside the bundle), sized against its budget, and its metafile
 * searched for SDK clients the function's declared access never uses.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import * as esbuild from 'esbuild';
import { type Access, routes } from '../../functions/routes.ts';
import { streamConsumers } from '../../functions/stream-consumers.ts';
import { workers } from '../../functions/workers.ts';
import { bundleAliases, bundleDefines } from '../../lib/bundling.ts';
import { type BudgetResult, benchDir, kB, projectRoot, table } from './common.ts';

export const bundleDir = join(benchDir, 'bundles');

/** kB here are SI kilobytes (1,000 bytes), the stricter reading of the budget. */
export const TABLE_ONLY_BUDGET = 600_000;
export const WITH_BUCKET_OR_QUEUE_BUDGET = 850_000;

/**
 * The options of a deployed bundle (NodejsFunction with `format: ESM`, `minify`, `target: node22`,
 * no external modules, so the SDK is bundled, lib/bundling.ts's aliases; its defines per entry, in buildAll). The banner gives CommonJS dependencies a `require`.
 */
export const deployedBundleOptions: esbuild.BuildOptions = {
  bundle: true,
  minify: true,
  format: 'esm',
  platform: 'node',
  target: 'node22',
  mainFields: ['module', 'main'],
  external: [],
  banner: {
    js: "import { createRequire as __benchCreateRequire } from 'node:module'; const require = __benchCreateRequire(import.meta.url);",
  },
  legalComments: 'none',
  alias: bundleAliases,
  absWorkingDir: projectRoot,
  logLevel: 'silent',
};

export interface BundleTarget {
  name: string;
  entry: string;
  kind: 'route' | 'worker' | 'reference';
  /** `METHOD path` of each route served, or the queue consumed. */
  serves: string[];
  access: Access;
  /** B2's yardstick: the reference bundle holding the same SDK clients (see referenceTargets). */
  reference: string;
}

export interface SdkPackage {
  name: string;
  bytes: number;
}

export interface BundleInfo extends BundleTarget {
  file: string;
  bytes: number;
  budgetBytes: number | null;
  withinBudget: boolean | null;
  /** `@aws-sdk/client-*` service clients in the output, with the bytes each contributes. */
  serviceClients: SdkPackage[];
  /** SDK clients only the default credential chain needs (SSO, STS, ...), information only. */
  credentialClients: SdkPackage[];
  /** Service clients the function's access never calls. */
  unusedClients: string[];
  /** For each unused client, the import chain from the entry that brings it in. */
  unusedVia: Record<string, string[]>;
  topPackages: SdkPackage[];
}

export function bundleTargets(): BundleTarget[] {
  const byEntry = new Map<string, BundleTarget>();
  for (const route of routes) {
    // Routes sharing an entry share its bundle.
    const existing = byEntry.get(route.entry);
    if (existing) {
      existing.serves.push(`${route.method} ${route.path}`);
      continue;
    }
    byEntry.set(route.entry, {
      name: nameOf(route.entry),
      entry: route.entry,
      kind: 'route',
      serves: [`${route.method} ${route.path}`],
      access: route.access,
      reference: referenceName(route.access),
    });
  }
  for (const worker of workers) {
    // A worker that counts its own retries defers and dead-letters its messages: it calls SQS.
    const access: Access = worker.ownsRetries
      ? { ...worker.access, queues: [...(worker.access.queues ?? []), worker.queue] }
      : worker.access;
    byEntry.set(worker.entry, {
      name: nameOf(worker.entry),
      entry: worker.entry,
      kind: 'worker',
      serves: [`queue ${worker.queue}`],
      access,
      reference: referenceName(access),
    });
  }
  for (const consumer of streamConsumers) {
    byEntry.set(consumer.entry, {
      name: nameOf(consumer.entry),
      entry: consumer.entry,
      kind: 'worker',
      serves: [`stream ${consumer.name}`],
      access: consumer.access,
      reference: referenceName(consumer.access),
    });
  }
  const functions = [...byEntry.values()];
  return [...functions, ...referenceTargets(functions.map((target) => target.access))];
}

/** The service clients beside DynamoDB that an access declaration brings: S3 for a bucket, SQS for queues. */
const extraClients = (access: Access) => [
  ...(access.bucket ? ['S3Client'] : []),
  ...((access.queues?.length ?? 0) > 0 ? ['SQSClient'] : []),
];

/** `reference`, `reference+S3Client`, `reference+S3Client+SQSClient`, … */
const referenceName = (access: Access) => ['reference', ...extraClients(access)].join('+');

const referenceDir = join(bundleDir, '..', 'references');

/**
 * What each extra client adds to a reference: its import, and its construction on first use with
 * the options the project's own client takes (s3rver when S3_ENDPOINT names one). The first request
 * stays the reference's GetItem: a function's first request rarely reaches its bucket or queue.
 */
const referenceClients: Record<string, { from: string; construct: string }> = {
  S3Client: {
    from: '@aws-sdk/client-s3',
    construct: `new S3Client(
    process.env.S3_ENDPOINT
      ? {
          endpoint: process.env.S3_ENDPOINT,
          forcePathStyle: true,
          region: process.env.AWS_REGION ?? 'us-east-1',
          credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
          requestChecksumCalculation: 'WHEN_REQUIRED',
          responseChecksumValidation: 'WHEN_REQUIRED',
        }
      : {},
  )`,
  },
  SQSClient: { from: '@aws-sdk/client-sqs', construct: 'new SQSClient({})' },
};

/**
 * One reference per set of SDK clients the functions use (B2 and B11 compare each function with
 * the reference holding its clients): reference-handler.ts for DynamoDB alone, and for each set
 * with S3 and/or SQS a source written beside the bundles that adds those clients to it, built on
 * the handler's first call as the project's are.
 */
function referenceTargets(accesses: Access[]): BundleTarget[] {
  const sets = new Map(accesses.map((access) => [referenceName(access), extraClients(access)]));
  sets.set('reference', []);
  mkdirSync(referenceDir, { recursive: true });
  return [...sets].map(([name, clients]) => {
    const base = join(import.meta.dirname, 'reference-handler.ts');
    let entry = base;
    if (clients.length) {
      entry = join(referenceDir, `${name}.ts`);
      const used = clients.map((client) => referenceClients[client] as (typeof referenceClients)[string]);
      writeFileSync(
        entry,
        [
          `import { handler as tableHandler } from ${JSON.stringify(base)};`,
          ...clients.map(
            (client, index) => `import { ${client} } from ${JSON.stringify(used[index]?.from)};`,
          ),
          ...clients.map((client, index) => `export let client${index}: ${client} | undefined;`),
          'export const handler = async (event: { id?: string }) => {',
          ...clients.map((_, index) => `  client${index} ??= ${used[index]?.construct};`),
          '  return tableHandler(event, {} as never);',
          '};',
          '',
        ].join('\n'),
      );
    }
    return {
      name,
      entry: relative(projectRoot, entry),
      kind: 'reference',
      serves: [['middy core + DynamoDBDocumentClient + GetCommand', ...clients].join(' + ')],
      access: { table: 'read' },
      reference: name,
    };
  });
}

const nameOf = (entry: string) =>
  entry
    .replace(/^functions\//, '')
    .replace(/\.ts$/, '')
    .replace(/[^\w.-]+/g, '-');

const usesBucketOrQueue = (access: Access) => Boolean(access.bucket) || (access.queues?.length ?? 0) > 0;

/** Which service clients an access declaration justifies. */
function allowedClients(access: Access): Set<string> {
  const allowed = new Set<string>();
  if (access.table) allowed.add('@aws-sdk/client-dynamodb');
  if (access.bucket) allowed.add('@aws-sdk/client-s3');
  if ((access.queues?.length ?? 0) > 0) allowed.add('@aws-sdk/client-sqs');
  return allowed;
}

const SERVICE_CLIENTS = new Set(['@aws-sdk/client-dynamodb', '@aws-sdk/client-s3', '@aws-sdk/client-sqs']);

function packageOf(input: string): string {
  const at = input.lastIndexOf('node_modules/');
  if (at < 0) return '(project)';
  const rest = input.slice(at + 'node_modules/'.length).split('/');
  return rest[0]?.startsWith('@') ? `${rest[0]}/${rest[1]}` : (rest[0] ?? '(unknown)');
}

/** The shortest import chain (project files, then the first package) from the entry to `pkg`. */
function importChain(metafile: esbuild.Metafile, entry: string, pkg: string): string[] {
  const previous = new Map<string, string | undefined>([[entry, undefined]]);
  const queue = [entry];
  for (let at = queue.shift(); at !== undefined; at = queue.shift()) {
    if (packageOf(at) === pkg) {
      const chain: string[] = [];
      for (let step: string | undefined = at; step !== undefined; step = previous.get(step))
        chain.unshift(step);
      const firstPackage = chain.findIndex((step) => step.includes('node_modules/'));
      return chain.slice(0, firstPackage < 0 ? chain.length : firstPackage + 1).map((step) => {
        const name = packageOf(step);
        return name === '(project)' ? step : name;
      });
    }
    for (const imported of metafile.inputs[at]?.imports ?? []) {
      if (previous.has(imported.path) || !metafile.inputs[imported.path]) continue;
      previous.set(imported.path, at);
      queue.push(imported.path);
    }
  }
  return [];
}

/**
 * Builds the targets in one esbuild run per set of defines (the stack's for each entry, tracing off
 * as deployed by default; a reference's or a worker's entry is in no route row and gets the
 * defines of a function taking no body, which change nothing in it). Each entry is still its own
 * bundle, linked, shaken and minified on its own (no code splitting), while the modules they share
 * are parsed once per run.
 */
async function buildAll(targets: BundleTarget[]): Promise<BundleInfo[]> {
  const byDefines = new Map<string, BundleTarget[]>();
  for (const target of targets) {
    const defines = JSON.stringify(bundleDefines(target.entry));
    byDefines.set(defines, [...(byDefines.get(defines) ?? []), target]);
  }
  const built = new Map<BundleTarget, BundleInfo>();
  for (const [defines, group] of byDefines) {
    const result = await esbuild.build({
      ...deployedBundleOptions,
      absWorkingDir: projectRoot,
      define: JSON.parse(defines) as Record<string, string>,
      entryPoints: Object.fromEntries(group.map((target) => [target.name, join(projectRoot, target.entry)])),
      outdir: bundleDir,
      outExtension: { '.js': '.mjs' },
      metafile: true,
    });
    const metafile = result.metafile;
    for (const target of group) {
      const file = join(bundleDir, `${target.name}.mjs`);
      const outputPath = relative(projectRoot, file);
      const output = metafile.outputs[outputPath];
      if (!output) throw new Error(`esbuild produced no output for ${target.entry}`);
      // The bundle's own metafile: its output and the inputs that went into it.
      const inputs = Object.fromEntries(
        Object.entries(metafile.inputs).filter(([input]) => output.inputs[input] !== undefined),
      );
      writeFileSync(
        join(bundleDir, `${target.name}.meta.json`),
        JSON.stringify({ inputs, outputs: { [outputPath]: output } }),
      );
      built.set(target, describeBundle(target, file, output, metafile));
    }
  }
  // The order of the targets: the route table's.
  return targets.map((target) => built.get(target) as BundleInfo);
}

function describeBundle(
  target: BundleTarget,
  file: string,
  output: esbuild.Metafile['outputs'][string],
  metafile: esbuild.Metafile,
): BundleInfo {
  const packages = new Map<string, number>();
  for (const [input, info] of Object.entries(output.inputs)) {
    if (info.bytesInOutput === 0) continue;
    const name = packageOf(input);
    packages.set(name, (packages.get(name) ?? 0) + info.bytesInOutput);
  }
  const sdk = [...packages]
    .filter(([name]) => name.startsWith('@aws-sdk/client-') || name === '@aws-sdk/nested-clients')
    .map(([name, bytes]) => ({ name, bytes }))
    .sort((a, b) => b.bytes - a.bytes);
  const allowed = allowedClients(target.access);
  const serviceClients = sdk.filter((pkg) => SERVICE_CLIENTS.has(pkg.name));
  const budgetBytes =
    target.kind === 'reference'
      ? null
      : usesBucketOrQueue(target.access)
        ? WITH_BUCKET_OR_QUEUE_BUDGET
        : TABLE_ONLY_BUDGET;
  const unusedClients =
    target.kind === 'reference'
      ? []
      : serviceClients.map((pkg) => pkg.name).filter((name) => !allowed.has(name));
  const entryInput = Object.keys(metafile.inputs).find((input) => input === target.entry) ?? target.entry;
  return {
    ...target,
    file,
    bytes: output.bytes,
    budgetBytes,
    withinBudget: budgetBytes === null ? null : output.bytes <= budgetBytes,
    serviceClients,
    credentialClients: sdk.filter((pkg) => !SERVICE_CLIENTS.has(pkg.name)),
    unusedClients,
    unusedVia: Object.fromEntries(
      unusedClients.map((name) => [name, importChain(metafile, entryInput, name)]),
    ),
    topPackages: [...packages]
      .map(([name, bytes]) => ({ name, bytes }))
      .sort((a, b) => b.bytes - a.bytes)
      .slice(0, 8),
  };
}

const describeAccess = (access: Access) =>
  [
    access.table ? `table:${access.table}` : '',
    access.bucket ? `bucket:${access.bucket}` : '',
    access.queues?.length ? `queues:${access.queues.join('+')}` : '',
  ]
    .filter(Boolean)
    .join(' ') || '(none)';

const short = (name: string) => name.replace('@aws-sdk/client-', '').replace('@aws-sdk/', '');

export async function runB1(): Promise<{ result: BudgetResult; bundles: BundleInfo[] }> {
  const started = performance.now();
  rmSync(bundleDir, { recursive: true, force: true });
  mkdirSync(bundleDir, { recursive: true });
  // The order of the table stays the order of the route table.
  const bundles = await buildAll(bundleTargets());

  const measured = bundles.filter((bundle) => bundle.kind !== 'reference');
  const over = measured.filter((bundle) => bundle.withinBudget === false);
  const unused = measured.filter((bundle) => bundle.unusedClients.length > 0);
  const rows: (string | number)[][] = [
    ['bundle', 'access', 'size', 'budget', 'ok', 'SDK clients in bundle', 'unused'],
  ];
  for (const bundle of bundles) {
    rows.push([
      bundle.name,
      describeAccess(bundle.access),
      kB(bundle.bytes),
      bundle.budgetBytes === null ? 'info' : kB(bundle.budgetBytes),
      bundle.withinBudget === null ? '-' : bundle.withinBudget ? 'yes' : 'NO',
      bundle.serviceClients.map((pkg) => `${short(pkg.name)} ${kB(pkg.bytes)}`).join(', ') || '-',
      bundle.unusedClients.map(short).join(', ') || '-',
    ]);
  }
  const notes: string[] = [
    `kB = 1,000 bytes. Bundles and metafiles are in ${relative(projectRoot, bundleDir)}/ (open a .meta.json in https://esbuild.github.io/analyze/).`,
  ];
  const credential = bundles[0]?.credentialClients ?? [];
  if (credential.length) {
    notes.push(
      `Every bundle also carries the default credential chain's own clients (${credential
        .map((pkg) => `${short(pkg.name)} ${kB(pkg.bytes)}`)
        .join(', ')}); information only — they are the SDK's, not the handler's.`,
    );
  }
  for (const bundle of unused) {
    notes.push(
      `FINDING ${bundle.name}: contains ${bundle.unusedClients
        .map((name) => `${name} (via ${bundle.unusedVia[name]?.join(' → ') || '?'})`)
        .join(', ')} although its access is ${describeAccess(bundle.access)}.`,
    );
  }
  const largest = [...measured].sort((a, b) => b.bytes - a.bytes)[0];
  if (largest) {
    notes.push(
      `Largest: ${largest.name} ${kB(largest.bytes)} — ${largest.topPackages
        .slice(0, 5)
        .map((pkg) => `${pkg.name} ${kB(pkg.bytes)}`)
        .join(', ')}.`,
    );
  }
  const holds = over.length === 0 && unused.length === 0;
  return {
    bundles,
    result: {
      id: 'B1',
      title: 'Bundle size (≤ 600 kB table only, ≤ 850 kB with S3/SQS) and no unused SDK client',
      holds,
      summary: `${measured.length} bundles, largest ${largest ? `${largest.name} ${kB(largest.bytes)}` : '-'}; ${
        over.length
      } over budget; ${unused.length} with an SDK client they never call`,
      table: table(rows),
      notes,
      details: bundles.map(({ file, ...bundle }) => ({ ...bundle, file: relative(projectRoot, file) })),
      seconds: (performance.now() - started) / 1000,
    },
  };
}
