import type { WarmThroughput } from 'aws-cdk-lib/aws-dynamodb';
import type { Construct } from 'constructs';

/**
 * The stack's capacity settings: each a stack prop, else a cdk context value (cdk.json's `context`
 * or `cdk deploy -c name=value`), else its default. Checked at synth, so a bad value fails the
 * synth, not the deploy.
 */
export interface CapacitySettings {
  /** Seconds CloudFront serves an anonymous list page from its cache (1–30). */
  listCacheSeconds: number;
  /**
   * The API's public address (EXTERNAL_URL of every function: links, Link headers, webhook
   * payloads), e.g. the `DistributionUrl` output or a custom domain. Unset: each request's host.
   */
  externalUrl: string | undefined;
  /**
   * GitLab's Gravatar URL (`https://www.gravatar.com/avatar/%{hash}?s=%{size}&d=identicon`) for the
   * avatar_url of users without an upload (GRAVATAR_URL of the route functions). Unset: the
   * service's own default avatar.
   */
  gravatarUrl: string | undefined;
  /** Most concurrent invocations of a worker's SQS event source mapping (2–1000), by queue name. */
  workerMaxConcurrency: Readonly<Record<string, number>>;
  /** Warm throughput of the table (its base, not its indexes). */
  tableWarmThroughput: Required<WarmThroughput>;
  /** Warm throughput of each global secondary index. */
  indexWarmThroughput: Required<WarmThroughput>;
  /**
   * The table-level throughput quota granted in the account and Region (Service Quotas): warm
   * throughput may not exceed it, and an alarm fires when the table's use nears it.
   */
  tableQuota: Required<WarmThroughput>;
}

/** The cdk context keys of the settings. */
export const settingKeys = {
  listCacheSeconds: 'listCacheSeconds',
  externalUrl: 'externalUrl',
  gravatarUrl: 'gravatarUrl',
  workerMaxConcurrency: 'workerMaxConcurrency',
  tableWarmReadUnits: 'tableWarmReadUnitsPerSecond',
  tableWarmWriteUnits: 'tableWarmWriteUnitsPerSecond',
  indexWarmReadUnits: 'indexWarmReadUnitsPerSecond',
  indexWarmWriteUnits: 'indexWarmWriteUnitsPerSecond',
  tableReadQuota: 'tableReadQuota',
  tableWriteQuota: 'tableWriteQuota',
} as const;

/**
 * What a new on-demand table and each of its indexes sustain at once: warm throughput can only be
 * set at or above it (and only ever raised).
 */
export const onDemandBaseline: Required<WarmThroughput> = {
  readUnitsPerSecond: 12_000,
  writeUnitsPerSecond: 4_000,
};

/** DynamoDB's default table-level quota (per table, and per index), before any increase. */
export const defaultTableQuota: Required<WarmThroughput> = {
  readUnitsPerSecond: 40_000,
  writeUnitsPerSecond: 40_000,
};

export const defaultListCacheSeconds = 15;

/**
 * The hook-delivery worker may hold at most this many concurrent invocations: receivers that
 * time out (10 s each) must not take the account's concurrency from the API (docs/capacity.md F6).
 * The modelled load, 300 deliveries/s at 0.3 s, needs about 90.
 */
export const defaultWorkerMaxConcurrency: Readonly<Record<string, number>> = { 'hook-delivery': 200 };

/** The settings as stack props give them; each absent one is read from the context (`settingKeys`). */
export interface CapacitySettingProps {
  /** @default the `listCacheSeconds` context value, else 15 */
  listCacheSeconds?: number;
  /** @default the `externalUrl` context value, else unset (each request's host) */
  externalUrl?: string;
  /** @default the `gravatarUrl` context value, else unset (the service's default avatar) */
  gravatarUrl?: string;
  /** By worker queue name. @default the `workerMaxConcurrency` context value (JSON), else hook-delivery 200 */
  workerMaxConcurrency?: Readonly<Record<string, number>>;
  /** @default the `tableWarm{Read,Write}UnitsPerSecond` context values, else 12,000 / 4,000 */
  tableWarmThroughput?: WarmThroughput;
  /** Of each global secondary index. @default the `indexWarm{Read,Write}UnitsPerSecond` context values, else 12,000 / 4,000 */
  indexWarmThroughput?: WarmThroughput;
  /** The table-level quota granted. @default the `tableReadQuota`/`tableWriteQuota` context values, else 40,000 / 40,000 */
  tableQuota?: WarmThroughput;
}

function contextOf(scope: Construct, key: string): unknown {
  const value: unknown = scope.node.tryGetContext(key);
  return value === '' ? undefined : value;
}

/** A whole number from the prop, the context (a number, or a string from `-c`) or the default. */
function wholeNumber(scope: Construct, key: string, given: number | undefined, fallback: number): number {
  const raw = given ?? contextOf(scope, key) ?? fallback;
  const value = typeof raw === 'string' ? Number(raw) : raw;
  if (typeof value !== 'number' || !Number.isInteger(value)) {
    throw new Error(`${key} must be a whole number, not ${JSON.stringify(raw)}`);
  }
  return value;
}

function throughput(
  scope: Construct,
  keys: { read: string; write: string },
  given: WarmThroughput | undefined,
  fallback: Required<WarmThroughput>,
): Required<WarmThroughput> {
  return {
    readUnitsPerSecond: wholeNumber(scope, keys.read, given?.readUnitsPerSecond, fallback.readUnitsPerSecond),
    writeUnitsPerSecond: wholeNumber(
      scope,
      keys.write,
      given?.writeUnitsPerSecond,
      fallback.writeUnitsPerSecond,
    ),
  };
}

function checkWarmThroughput(what: string, warm: Required<WarmThroughput>, quota: Required<WarmThroughput>) {
  for (const [unit, key] of [
    ['read', 'readUnitsPerSecond'],
    ['write', 'writeUnitsPerSecond'],
  ] as const) {
    if (warm[key] < onDemandBaseline[key]) {
      throw new Error(
        `${what} warm ${unit} throughput ${warm[key]} is below the on-demand baseline ${onDemandBaseline[key]}`,
      );
    }
    if (warm[key] > quota[key]) {
      throw new Error(
        `${what} warm ${unit} throughput ${warm[key]} exceeds the table-level quota ${quota[key]}: request the quota first, then set ${key === 'readUnitsPerSecond' ? settingKeys.tableReadQuota : settingKeys.tableWriteQuota}`,
      );
    }
  }
}

/** The settings for `scope`'s stack, from `props`, the context and the defaults; checked. */
export function capacitySettings(
  scope: Construct,
  props: CapacitySettingProps,
  queues: readonly string[],
): CapacitySettings {
  const listCacheSeconds = wholeNumber(
    scope,
    settingKeys.listCacheSeconds,
    props.listCacheSeconds,
    defaultListCacheSeconds,
  );

  const rawUrl = props.externalUrl ?? contextOf(scope, settingKeys.externalUrl);
  if (rawUrl !== undefined && (typeof rawUrl !== 'string' || !/^https?:\/\/[^/\s]+(\/\S*)?$/.test(rawUrl))) {
    throw new Error(`${settingKeys.externalUrl} must be an http(s) URL, not ${JSON.stringify(rawUrl)}`);
  }
  const externalUrl = rawUrl?.replace(/\/+$/, '');

  const gravatarUrl = props.gravatarUrl ?? contextOf(scope, settingKeys.gravatarUrl);
  if (
    gravatarUrl !== undefined &&
    (typeof gravatarUrl !== 'string' || !/^https?:\/\/[^/\s]+\/\S*$/.test(gravatarUrl))
  ) {
    throw new Error(`${settingKeys.gravatarUrl} must be an http(s) URL, not ${JSON.stringify(gravatarUrl)}`);
  }

  const rawConcurrency = props.workerMaxConcurrency ?? contextOf(scope, settingKeys.workerMaxConcurrency);
  const concurrency = typeof rawConcurrency === 'string' ? JSON.parse(rawConcurrency) : rawConcurrency;
  if (concurrency !== undefined && (typeof concurrency !== 'object' || concurrency === null)) {
    throw new Error(`${settingKeys.workerMaxConcurrency} must map queue names to numbers`);
  }
  const workerMaxConcurrency: Record<string, number> = {
    ...Object.fromEntries(
      Object.entries(defaultWorkerMaxConcurrency).filter(([queue]) => queues.includes(queue)),
    ),
    ...(concurrency as Record<string, number> | undefined),
  };
  for (const [queue, limit] of Object.entries(workerMaxConcurrency)) {
    if (!queues.includes(queue))
      throw new Error(`${settingKeys.workerMaxConcurrency}: no worker queue ${queue}`);
    if (!Number.isInteger(limit) || limit < 2 || limit > 1000) {
      throw new Error(`${settingKeys.workerMaxConcurrency}.${queue} must be a whole number from 2 to 1000`);
    }
  }

  const tableQuota = throughput(
    scope,
    { read: settingKeys.tableReadQuota, write: settingKeys.tableWriteQuota },
    props.tableQuota,
    defaultTableQuota,
  );
  const tableWarmThroughput = throughput(
    scope,
    { read: settingKeys.tableWarmReadUnits, write: settingKeys.tableWarmWriteUnits },
    props.tableWarmThroughput,
    onDemandBaseline,
  );
  const indexWarmThroughput = throughput(
    scope,
    { read: settingKeys.indexWarmReadUnits, write: settingKeys.indexWarmWriteUnits },
    props.indexWarmThroughput,
    onDemandBaseline,
  );
  checkWarmThroughput('the table', tableWarmThroughput, tableQuota);
  checkWarmThroughput('an index', indexWarmThroughput, tableQuota);

  return {
    listCacheSeconds,
    externalUrl,
    gravatarUrl,
    workerMaxConcurrency,
    tableWarmThroughput,
    indexWarmThroughput,
    tableQuota,
  };
}
