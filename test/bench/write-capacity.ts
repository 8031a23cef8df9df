/**
 * B10's meter: the write capacity of every write command the store sends through its
 * DocumentClient while `measure()` runs, two ways.
 *
 * - As DynamoDB Local reports it: each TransactWriteItems, PutItem, UpdateItem, DeleteItem and
 *   BatchWriteItem gets `ReturnConsumedCapacity: 'INDEXES'`, and the table's and each index's
 *   units of the answer are added up. DynamoDB Local does not count by AWS's rules (it doubles the
 *   index units of a transaction, and charges index writes the item did not change), so these are
 *   information.
 * - On DynamoDB's documented rules, from the items themselves: before the command is sent, every
 *   item it addresses is read (GetItem, strongly consistent, through a client of the meter's own
 *   that nothing else records), and again once it succeeded; the figure is computed from the two
 *   images and the table's key schema and indexes (DescribeTable):
 *   - an item's size is the sum of its attributes' name and value sizes (strings and binaries
 *     their bytes, a number 1 byte per two significant digits + 1, a boolean or null 1, a list or
 *     map 3 + 1 per element + its elements, a set its elements); 1 WRU per started KB;
 *   - table: a put or update costs the larger of the item before and after, a delete the item
 *     before, each at least 1; a ConditionCheck in a transaction costs the item it reads (at least
 *     1); every item of a TransactWriteItems costs twice (prepare and commit);
 *   - each index: the entry is the item's projection (ALL: the item; KEYS_ONLY and INCLUDE: the
 *     table and index keys, and the included attributes) when the item holds the index's key
 *     attributes, else none. No entry before or after: 0; one appears: its size; one goes: its
 *     size; its key moves: old + new; it changes in place: the larger of the two; it is the same:
 *     0. Index writes are not doubled in a transaction (the index is updated after the commit);
 *   - a write refused by its condition costs the item it addressed (at least 1), twice in a
 *     transaction, and nothing on the indexes.
 *   Id-block reservations (`ADD` of ID_BLOCK_SIZE on a `COUNTER#<kind>` item, one per block of
 *   ids a container takes) are marked, so a reader can set them apart.
 */
import {
  type AttributeValue,
  DescribeTableCommand,
  DynamoDBClient,
  GetItemCommand,
} from '@aws-sdk/client-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';

type Image = Record<string, AttributeValue>;

export interface IndexSchema {
  name: string;
  kind: 'GSI' | 'LSI';
  hash: string;
  range?: string;
  projection: 'ALL' | 'KEYS_ONLY' | 'INCLUDE';
  include: string[];
}

export interface TableSchema {
  hash: string;
  range?: string;
  indexes: IndexSchema[];
}

/** What one write command cost. */
export interface WriteCost {
  command: string;
  /** Items it addressed (a transaction's actions, a batch's requests, 1 otherwise). */
  items: number;
  transactional: boolean;
  /** An id-block reservation (see above). */
  idBlock: boolean;
  /**
   * A write of a stream consumer that landed during the call (not the call's): the note-touches
   * consumer's touch of a note's parent, the counter-rollups consumer's rollup.
   */
  streamTouch: boolean;
  /** The error it failed with (a refused condition, a cancelled transaction). */
  failed?: string;
  /** WRU on DynamoDB's documented rules: the table, and each index that changed. */
  table: number;
  indexes: Record<string, number>;
  /** What DynamoDB Local reported: the table, each index, and its total. */
  reported: { table: number; indexes: Record<string, number>; total: number };
}

/** A counted item's rollup by its sort key (store/table/counters.ts ROLLUP_SK), plain or marshalled. */
const isRollup = (sortKey: unknown) =>
  sortKey === 'COUNTS' || (sortKey as { S?: unknown } | undefined)?.S === 'COUNTS';

const WRITE_COMMANDS = new Set([
  'TransactWriteItemsCommand',
  'PutItemCommand',
  'UpdateItemCommand',
  'DeleteItemCommand',
  'BatchWriteItemCommand',
]);

type Plain = Record<string, unknown>;
type Action = { op: 'Put' | 'Update' | 'Delete' | 'ConditionCheck'; table: string; key: Plain };

/** Size in bytes of one value, on DynamoDB's rules (the attribute name not included). */
export function valueSize(value: AttributeValue): number {
  if (value.S !== undefined) return Buffer.byteLength(value.S);
  if (value.N !== undefined) return numberSize(value.N);
  if (value.B !== undefined) return value.B.byteLength;
  if (value.BOOL !== undefined || value.NULL !== undefined) return 1;
  if (value.SS !== undefined) return value.SS.reduce((sum, entry) => sum + Buffer.byteLength(entry), 0);
  if (value.NS !== undefined) return value.NS.reduce((sum, entry) => sum + numberSize(entry), 0);
  if (value.BS !== undefined) return value.BS.reduce((sum, entry) => sum + entry.byteLength, 0);
  if (value.L !== undefined) return 3 + value.L.reduce((sum, entry) => sum + 1 + valueSize(entry), 0);
  if (value.M !== undefined)
    return (
      3 +
      Object.entries(value.M).reduce(
        (sum, [name, entry]) => sum + 1 + Buffer.byteLength(name) + valueSize(entry),
        0,
      )
    );
  return 0;
}

/** A number: 1 byte per two significant digits (leading and trailing zeros trimmed) + 1. */
function numberSize(text: string): number {
  const mantissa = text.replace(/^[-+]/, '').split(/[eE]/)[0] ?? '';
  const digits = mantissa.replace('.', '').replace(/^0+/, '').replace(/0+$/, '');
  return Math.ceil(Math.max(1, digits.length) / 2) + 1;
}

export function itemSize(item: Image): number {
  return Object.entries(item).reduce(
    (sum, [name, value]) => sum + Buffer.byteLength(name) + valueSize(value),
    0,
  );
}

/** Write units of an item of `bytes` (a started KB is a unit; at least 1). */
export const writeUnits = (bytes: number) => Math.max(1, Math.ceil(bytes / 1024));

/** A value in a form two equal values share (set members sorted; map keys sorted). */
function canonical(value: unknown): unknown {
  if (value instanceof Uint8Array) return Buffer.from(value).toString('base64');
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Plain).sort(([a], [b]) => a.localeCompare(b));
    return Object.fromEntries(
      entries.map(([key, entry]) =>
        (key === 'SS' || key === 'NS' || key === 'BS') && Array.isArray(entry)
          ? [key, entry.map(canonical).map(String).sort()]
          : [key, canonical(entry)],
      ),
    );
  }
  return value;
}

const same = (a: Image, b: Image) => JSON.stringify(canonical(a)) === JSON.stringify(canonical(b));

/** The index's entry for an item: its position (index key) and what the index stores, or none. */
function entryOf(item: Image | undefined, index: IndexSchema, schema: TableSchema) {
  if (!item) return undefined;
  const hash = item[index.hash];
  const range = index.range === undefined ? undefined : item[index.range];
  if (!hash || (index.range !== undefined && !range)) return undefined;
  let stored: Image = item;
  if (index.projection !== 'ALL') {
    const names = [schema.hash, schema.range, index.hash, index.range, ...index.include];
    stored = Object.fromEntries(
      names
        .filter((name): name is string => !!name && item[name] !== undefined)
        .map((name) => [name, item[name] as AttributeValue]),
    );
  }
  return { position: JSON.stringify(canonical([hash, range])), stored, size: itemSize(stored) };
}

/** WRU an index consumes for one item going from `before` to `after` (see the rules above). */
export function indexUnits(
  before: Image | undefined,
  after: Image | undefined,
  index: IndexSchema,
  schema: TableSchema,
): number {
  const old = entryOf(before, index, schema);
  const now = entryOf(after, index, schema);
  if (!old && !now) return 0;
  if (!old && now) return writeUnits(now.size);
  if (old && !now) return writeUnits(old.size);
  if (!old || !now) return 0;
  if (old.position !== now.position) return writeUnits(old.size) + writeUnits(now.size);
  if (same(old.stored, now.stored)) return 0;
  return Math.max(writeUnits(old.size), writeUnits(now.size));
}

/** Table WRU of one action on an item going from `before` to `after`, before the transaction factor. */
export function tableUnits(op: Action['op'], before: Image | undefined, after: Image | undefined): number {
  const size = (image: Image | undefined) => (image ? itemSize(image) : 0);
  if (op === 'ConditionCheck' || op === 'Delete') return writeUnits(size(before));
  return writeUnits(Math.max(size(before), size(after)));
}

export async function describeSchema(client: DynamoDBClient, tableName: string): Promise<TableSchema> {
  const table = (await client.send(new DescribeTableCommand({ TableName: tableName }))).Table;
  if (!table?.KeySchema) throw new Error(`DescribeTable ${tableName} gave no key schema`);
  const keyOf = (schema: { AttributeName?: string; KeyType?: string }[] | undefined, type: string) =>
    schema?.find((key) => key.KeyType === type)?.AttributeName;
  const hash = keyOf(table.KeySchema, 'HASH');
  if (!hash) throw new Error(`table ${tableName} has no partition key`);
  const index =
    (kind: IndexSchema['kind']) =>
    (definition: {
      IndexName?: string;
      KeySchema?: { AttributeName?: string; KeyType?: string }[];
      Projection?: { ProjectionType?: string; NonKeyAttributes?: string[] };
    }): IndexSchema => ({
      name: definition.IndexName ?? '?',
      kind,
      hash: keyOf(definition.KeySchema, 'HASH') ?? hash,
      range: keyOf(definition.KeySchema, 'RANGE'),
      projection: (definition.Projection?.ProjectionType ?? 'ALL') as IndexSchema['projection'],
      include: definition.Projection?.NonKeyAttributes ?? [],
    });
  return {
    hash,
    range: keyOf(table.KeySchema, 'RANGE'),
    indexes: [
      ...(table.GlobalSecondaryIndexes ?? []).map(index('GSI')),
      ...(table.LocalSecondaryIndexes ?? []).map(index('LSI')),
    ],
  };
}

/** The items a write command addresses, as (operation, table, plain key). */
function actionsOf(command: string, input: Plain, schema: TableSchema): Action[] {
  const keyOfItem = (item: Plain) =>
    Object.fromEntries(
      [schema.hash, schema.range].filter((name): name is string => !!name).map((name) => [name, item[name]]),
    );
  const fromBody = (op: Action['op'], body: Plain): Action => ({
    op,
    table: String(body.TableName),
    key: op === 'Put' ? keyOfItem((body.Item ?? {}) as Plain) : ((body.Key ?? {}) as Plain),
  });
  if (command === 'TransactWriteItemsCommand') {
    return ((input.TransactItems ?? []) as Plain[]).map((entry) => {
      const [op, body] = Object.entries(entry)[0] as [Action['op'], Plain];
      return fromBody(op, body);
    });
  }
  if (command === 'BatchWriteItemCommand') {
    return Object.entries((input.RequestItems ?? {}) as Record<string, Plain[]>).flatMap(
      ([table, requests]) =>
        requests.map((request) =>
          request.PutRequest
            ? fromBody('Put', { ...(request.PutRequest as Plain), TableName: table })
            : fromBody('Delete', { ...(request.DeleteRequest as Plain), TableName: table }),
        ),
    );
  }
  const op = ({ PutItemCommand: 'Put', UpdateItemCommand: 'Update', DeleteItemCommand: 'Delete' } as const)[
    command as 'PutItemCommand'
  ];
  return [fromBody(op, input)];
}

type Consumed = {
  TableName?: string;
  CapacityUnits?: number;
  Table?: { CapacityUnits?: number };
  GlobalSecondaryIndexes?: Record<string, { CapacityUnits?: number }>;
  LocalSecondaryIndexes?: Record<string, { CapacityUnits?: number }>;
};

function reportedOf(consumed: Consumed | Consumed[] | undefined): WriteCost['reported'] {
  const out: WriteCost['reported'] = { table: 0, indexes: {}, total: 0 };
  for (const entry of consumed ? (Array.isArray(consumed) ? consumed : [consumed]) : []) {
    out.total += entry.CapacityUnits ?? 0;
    out.table += entry.Table?.CapacityUnits ?? 0;
    for (const [name, units] of Object.entries({
      ...entry.GlobalSecondaryIndexes,
      ...entry.LocalSecondaryIndexes,
    }))
      out.indexes[name] = (out.indexes[name] ?? 0) + (units.CapacityUnits ?? 0);
  }
  return out;
}

export interface WriteMeter {
  /** Runs `action`; the write commands sent through the client meanwhile, with their cost. */
  measure<T>(action: () => Promise<T>): Promise<{ value: T; writes: WriteCost[] }>;
  schema: TableSchema;
  uninstall(): void;
}

const METER = 'benchWriteMeter';

/**
 * Installs the meter on the store's DocumentClient (a middleware at `initialize`, after any other
 * there, so its ReturnConsumedCapacity is the one sent). Outside `measure()` it passes commands on
 * untouched; `uninstall()` takes it off again.
 */
export async function installWriteMeter(
  client: DynamoDBDocumentClient,
  options: { endpoint: string; tableName: string; idBlockSize: number },
): Promise<WriteMeter> {
  const reader = new DynamoDBClient({
    endpoint: options.endpoint,
    region: process.env.AWS_REGION ?? 'us-east-1',
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  const schema = await describeSchema(reader, options.tableName);
  const read = async (action: Action): Promise<Image | undefined> =>
    action.table === options.tableName
      ? (
          await reader.send(
            new GetItemCommand({ TableName: action.table, Key: marshall(action.key), ConsistentRead: true }),
          )
        ).Item
      : undefined;
  let sink: WriteCost[] | undefined;

  client.middlewareStack.add(
    (next, context) => async (args) => {
      const command = String((context as { commandName?: string }).commandName ?? '');
      const writes = sink;
      if (!writes || !WRITE_COMMANDS.has(command)) return next(args);
      const input = ((args as { input?: Plain }).input ?? {}) as Plain;
      const actions = actionsOf(command, input, schema);
      const transactional = command === 'TransactWriteItemsCommand';
      const factor = transactional ? 2 : 1;
      const pk = (input.Key as Plain | undefined)?.[schema.hash];
      const cost: WriteCost = {
        command,
        items: actions.length,
        transactional,
        idBlock:
          command === 'UpdateItemCommand' &&
          typeof pk === 'string' &&
          /^COUNTER#[a-z_]+$/.test(pk) &&
          Object.values((input.ExpressionAttributeValues ?? {}) as Plain).includes(options.idBlockSize),
        // The stream consumers run in this process too and may land while the call is measured:
        // the touch of a new note's parent (store/issuables/notes.ts touchNoteParent) and a counted item's
        // rollup (store/table/counter-rollups.ts) are the consumers' writes, not the call's.
        streamTouch:
          (command === 'UpdateItemCommand' &&
            String(input.UpdateExpression ?? '').startsWith('SET updated_at = :now, #updatedSort = :sort') &&
            String(input.ConditionExpression ?? '').endsWith('AND updated_at < :now')) ||
          (command === 'PutItemCommand' &&
            isRollup((input.Item as Plain | undefined)?.[schema.range ?? 'sk'])),
        table: 0,
        indexes: {},
        reported: { table: 0, indexes: {}, total: 0 },
      };
      writes.push(cost);
      const before = await Promise.all(actions.map(read));
      let result: Awaited<ReturnType<typeof next>>;
      try {
        result = await next({
          ...args,
          input: { ...input, ReturnConsumedCapacity: 'INDEXES' },
        } as typeof args);
      } catch (error) {
        cost.failed = error instanceof Error ? error.name : String(error);
        // A refused write still costs the item it addressed; its indexes do not change.
        cost.table = actions.reduce(
          (sum, _, i) => sum + factor * writeUnits(before[i] ? itemSize(before[i]) : 0),
          0,
        );
        throw error;
      }
      cost.reported = reportedOf(
        (result.output as { ConsumedCapacity?: Consumed | Consumed[] }).ConsumedCapacity,
      );
      const after = await Promise.all(
        actions.map((action) => (action.op === 'ConditionCheck' ? undefined : read(action))),
      );
      actions.forEach((action, i) => {
        if (action.table !== options.tableName) return;
        cost.table += factor * tableUnits(action.op, before[i], after[i]);
        if (action.op === 'ConditionCheck') return;
        for (const index of schema.indexes) {
          const units = indexUnits(before[i], after[i], index, schema);
          if (units) cost.indexes[index.name] = (cost.indexes[index.name] ?? 0) + units;
        }
      });
      return result;
    },
    { step: 'initialize', priority: 'low', name: METER, override: true },
  );

  return {
    schema,
    async measure(action) {
      const writes: WriteCost[] = [];
      sink = writes;
      try {
        return { value: await action(), writes };
      } finally {
        sink = undefined;
      }
    },
    uninstall() {
      client.middlewareStack.remove(METER);
      reader.destroy();
    },
  };
}
