/**
 * The one table definition. The stack, the local bootstrap and the repositories all read it.
 *
 * Items are addressed by `pk`/`sk` holding immutable ids only. The table has no local index, so
 * every partition key can split for heat and no item collection is capped at 10 GB. Lists are
 * Queries on GSIs: an item
 * joins up to two lists by setting `l1`/`l2` to the list's name, and each list can be read in
 * every order GitLab offers because the GSIs share those partition attributes with different sort
 * attributes. Every sort value ends with the zero-padded id, so order is total and stable.
 */
export const keyAttributes = { partition: 'pk', sort: 'sk' } as const;

export const listPartitionAttributes = ['l1', 'l2'] as const;
export type ListPartitionAttribute = (typeof listPartitionAttributes)[number];

/** Sort attribute per `order_by` value. */
export const listSortAttributes = {
  id: 'sid',
  name: 'sname',
  path: 'spath',
  created_at: 'screated',
  updated_at: 'supdated',
  last_activity_at: 'sactivity',
} as const;
export type ListOrder = keyof typeof listSortAttributes;

export interface IndexDefinition {
  name: string;
  partitionKey: string;
  sortKey: string;
}

export const indexName = (list: ListPartitionAttribute, order: ListOrder) => `${list}-${order}`;

/**
 * The group tree: a root group's groups (and, in a partition of their own, its projects and shares)
 * sorted by traversal path, so one Query with `begins_with` reads a whole subtree.
 */
export const treeIndex: IndexDefinition = { name: 'tree', partitionKey: 'tree', sortKey: 'tpath' };

export const indexes: IndexDefinition[] = [
  ...listPartitionAttributes.flatMap((list) =>
    (Object.keys(listSortAttributes) as ListOrder[]).map((order) => ({
      name: indexName(list, order),
      partitionKey: list,
      sortKey: listSortAttributes[order],
    })),
  ),
  treeIndex,
];

/** Every key attribute is a string. */
export const attributeDefinitions = [
  keyAttributes.partition,
  keyAttributes.sort,
  ...listPartitionAttributes,
  ...Object.values(listSortAttributes),
  treeIndex.partitionKey,
  treeIndex.sortKey,
].map((name) => ({ AttributeName: name, AttributeType: 'S' as const }));

/**
 * The table's change stream: every committed write, with the item before and after it. Webhook
 * events are derived from it (the stream consumers of functions/stream-consumers.ts).
 */
export const streamViewType = 'NEW_AND_OLD_IMAGES' as const;

/**
 * The TTL attribute: epoch seconds after which DynamoDB may delete the item (within days, not at
 * that second; DynamoDB Local may never do it). Readers must treat an expired item as absent.
 */
export const ttlAttribute = 'expires';

/** CreateTable input for DynamoDB Local (the stack builds the same from the same constants). */
export function createTableInput(tableName: string) {
  return {
    TableName: tableName,
    BillingMode: 'PAY_PER_REQUEST' as const,
    AttributeDefinitions: attributeDefinitions,
    KeySchema: [
      { AttributeName: keyAttributes.partition, KeyType: 'HASH' as const },
      { AttributeName: keyAttributes.sort, KeyType: 'RANGE' as const },
    ],
    GlobalSecondaryIndexes: indexes.map((index) => ({
      IndexName: index.name,
      KeySchema: [
        { AttributeName: index.partitionKey, KeyType: 'HASH' as const },
        { AttributeName: index.sortKey, KeyType: 'RANGE' as const },
      ],
      Projection: { ProjectionType: 'ALL' as const },
    })),
    StreamSpecification: { StreamEnabled: true, StreamViewType: streamViewType },
  };
}
