/**
 * Shared set-up for handler tests: environment, the DocumentClient mock, and stored items, their
 * keys and list partitions built by the store's own builders (#store/table/keys.ts), so a change of the
 * key layout is one edit in the store (the layout itself is pinned by keys.ts's unit tests).
 */
import { createHash } from 'node:crypto';
import { SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
import { mockClient } from 'aws-sdk-client-mock';
import 'aws-sdk-client-mock-vitest/extend';
import { afterEach, beforeEach, type MockInstance, vi } from 'vitest';
import { forgetReservedIds } from '#store/table/ids.ts';
import { keys } from '#store/table/keys.ts';
import { inLists, lists } from '#store/table/list-keys.ts';
import { TEST_REQUEST_ID } from '../support/events.ts';

export const TABLE = 'gitlab-test';
export const QUEUE_URL = 'https://sqs.us-east-1.amazonaws.com/123456789012/gitlab-user-cleanup';

process.env.TABLE_NAME = TABLE;
process.env.LOG_LEVEL = 'silent';
process.env.QUEUE_URL_USER_CLEANUP = QUEUE_URL;
process.env.AWS_REGION = 'us-east-1';
// The integration tier's runtime sets these in the runner's environment, which forks inherit.
for (const name of [
  'QUEUE_MODE',
  'EXTERNAL_URL',
  'DYNAMODB_ENDPOINT',
  'ID_BLOCK_SIZE',
  'ALLOW_LOCAL_REQUESTS',
  'HOOK_ALLOWLIST',
])
  delete process.env[name];

/** What every message a request queues carries beside its body: the request's correlation id. */
export const REQUEST_CORRELATION = {
  MessageAttributes: { CorrelationId: { DataType: 'String', StringValue: TEST_REQUEST_ID } },
};

/** The client the repositories really send through (created lazily in shared/store/table/client.ts). */
export const ddb = mockClient(DynamoDBDocumentClient);
export const sqs = mockClient(SQSClient);

/** The Query that reads a user's tokens page by page (only the attributes named). */
export const tokensOfUserQuery = (
  userId: number,
  projection: string,
  startKey?: Record<string, unknown>,
) => ({
  TableName: TABLE,
  IndexName: 'l2-id',
  KeyConditionExpression: '#list = :partition',
  ExpressionAttributeNames: { '#list': 'l2' },
  ExpressionAttributeValues: { ':partition': lists.accessTokensOfUser(userId).partition },
  ScanIndexForward: true,
  Limit: undefined,
  ProjectionExpression: projection,
  ExclusiveStartKey: startKey,
});

/** "Now" in every handler test. */
export const NOW = '2026-11-22T10:00:00.000Z';
export const CREATED = '2026-01-15T08:00:00.000Z';

/** Fresh mocks, fresh id blocks, a fixed clock (Date only: timers stay real for retry back-off). */
export function resetMocks(): void {
  ddb.reset();
  sqs.reset();
  forgetReservedIds();
  ddb.on(GetCommand).resolves({});
  vi.useFakeTimers({ toFake: ['Date'], now: new Date(NOW) });
}

/**
 * Counter writes add to one shard drawn with Math.random (store/table/counters.ts): pins the draw for
 * every test of the file or describe block that calls this, so the shard written is known (shard
 * 0 for the default 0; `Math.floor(random * shards)` otherwise). Restored after each test.
 */
export function pinCounterShards(random = 0): void {
  let spy: MockInstance<() => number> | undefined;
  beforeEach(() => {
    spy = vi.spyOn(Math, 'random').mockReturnValue(random);
  });
  afterEach(() => {
    spy?.mockRestore();
  });
}

export const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

/** What the auth middleware must send to look a presented secret up. */
export const tokenLookup = (secret: string) => ({
  TableName: TABLE,
  Key: keys.accessTokenHash(sha256(secret)),
  ConsistentRead: true,
});

export interface CallerFields {
  id: number;
  username: string;
  admin: boolean;
  state: 'active' | 'blocked' | 'ldap_blocked' | 'banned' | 'deactivated';
  can_create_group: boolean;
  external: boolean;
}

export const ADMIN: CallerFields = {
  id: 1,
  username: 'root',
  admin: true,
  state: 'active',
  can_create_group: true,
  external: false,
};
export const REGULAR: CallerFields = {
  id: 2,
  username: 'alice',
  admin: false,
  state: 'active',
  can_create_group: true,
  external: false,
};

export const ADMIN_TOKEN = 'glpat-admin-0000000000000000';
export const USER_TOKEN = 'glpat-alice-0000000000000000';

/** A token lookup item as stored: the grant and the owner's auth snapshot. */
export function grantItem(
  secret: string,
  grant: {
    user: CallerFields;
    token_id?: number;
    scopes?: string[];
    expires_at?: string | null;
    revoked?: boolean;
  },
) {
  return {
    ...keys.accessTokenHash(sha256(secret)),
    kind: 'token_grant',
    token_id: grant.token_id ?? grant.user.id * 100,
    scopes: grant.scopes ?? ['api'],
    expires_at: grant.expires_at ?? null,
    revoked: grant.revoked ?? false,
    user: grant.user,
  };
}

/** Makes `secret` a stored token with the given grant. */
export function givenToken(secret: string, grant: Parameters<typeof grantItem>[1]): void {
  ddb.on(GetCommand, { Key: keys.accessTokenHash(sha256(secret)) }).resolves({
    Item: grantItem(secret, grant),
  });
}

export const givenAdminToken = () => givenToken(ADMIN_TOKEN, { user: ADMIN });
export const givenUserToken = () => givenToken(USER_TOKEN, { user: REGULAR });

export interface UserRecord {
  id: number;
  username: string;
  email: string;
  name: string;
  state: 'active' | 'blocked' | 'ldap_blocked' | 'banned' | 'deactivated';
  admin: boolean;
  can_create_group: boolean;
  projects_limit: number;
  external: boolean;
  bio: string;
  location: string;
  skype: string;
  linkedin: string;
  twitter: string;
  website_url: string;
  organization: string;
  created_at: string;
  updated_at: string;
  confirmed_at: string | null;
  password_hash: string;
  namespace_id?: number;
}

export function userRecord(overrides: Partial<UserRecord> = {}): UserRecord {
  return {
    id: 7,
    username: 'bob',
    email: 'bob@example.com',
    name: 'Bob Builder',
    state: 'active',
    admin: false,
    can_create_group: true,
    projects_limit: 100000,
    external: false,
    bio: '',
    location: 'Lisbon',
    skype: '',
    linkedin: '',
    twitter: '',
    website_url: '',
    organization: '',
    created_at: CREATED,
    updated_at: CREATED,
    confirmed_at: CREATED,
    password_hash: 'scrypt$c2FsdHNhbHRzYWx0c2FsdA==$a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2V5a2U=',
    ...overrides,
  };
}

/** An id as sort keys hold it. */
export const pad = (id: number) => String(id).padStart(12, '0');
/** Times of stored projects. */
export const UPDATED = '2026-03-01T12:00:00.000Z';
export const ACTIVITY = '2026-11-01T09:30:00.000Z';
/** The separator between a sort value and the padded id. */
export const SEP = '\u0000';

/** A user item as the table holds it. */
export function userItem(user: UserRecord) {
  return {
    ...keys.user(user.id),
    ...user,
    kind: 'user',
    ...inLists(lists.users, lists.usersInState(user.state)),
    sid: pad(user.id),
    sname: `${user.name.toLowerCase()}${SEP}${pad(user.id)}`,
    spath: `${user.username.toLowerCase()}${SEP}${pad(user.id)}`,
    screated: `${user.created_at}${SEP}${pad(user.id)}`,
  };
}

export function givenStoredUser(user: UserRecord): void {
  ddb.on(GetCommand, { Key: keys.user(user.id) }).resolves({ Item: userItem(user) });
}

export const getUserInput = (id: number) => ({
  TableName: TABLE,
  Key: keys.user(id),
  ConsistentRead: true,
});

/** Every command the DocumentClient was sent, in order, as `{CommandName: input}`. */
export function sentCommands(): Record<string, unknown>[] {
  return ddb.calls().map((call) => {
    const command = call.args[0] as { constructor: { name: string }; input: unknown };
    return { [command.constructor.name]: command.input };
  });
}

/** The entity GitLab shows admins (userWithAdmin) for a record. */
export function adminView(user: UserRecord, baseUrl = 'https://gitlab.example.com') {
  return {
    id: user.id,
    name: user.name,
    username: user.username,
    state: user.state,
    avatar_url: `${baseUrl}/assets/no_avatar.png`,
    web_url: `${baseUrl}/${user.username}`,
    created_at: user.created_at,
    bio: user.bio,
    location: user.location,
    pronouns: null,
    public_email: '',
    skype: user.skype,
    linkedin: user.linkedin,
    twitter: user.twitter,
    website_url: user.website_url,
    organization: user.organization,
    last_sign_in_at: null,
    confirmed_at: user.confirmed_at,
    last_activity_on: null,
    email: user.email,
    theme_id: 1,
    color_scheme_id: 1,
    projects_limit: user.projects_limit,
    current_sign_in_at: null,
    identities: [],
    can_create_group: user.can_create_group,
    can_create_project: user.projects_limit > 0,
    two_factor_enabled: false,
    external: user.external,
    private_profile: false,
    commit_email: user.email,
    is_admin: user.admin,
    namespace_id: user.namespace_id ?? null,
  };
}

/** Headers every JSON answer carries. */
export const jsonHeaders = (extra: Record<string, string> = {}) => ({
  'Content-Type': 'application/json',
  'X-Frame-Options': 'SAMEORIGIN',
  'X-Content-Type-Options': 'nosniff',
  'X-Request-Id': 'req-0123456789',
  ...extra,
});

/** Headers of an answer without a body (204). */
export const emptyHeaders = () => ({
  'X-Frame-Options': 'SAMEORIGIN',
  'X-Content-Type-Options': 'nosniff',
  'X-Request-Id': 'req-0123456789',
});

/** The other queues and the uploads bucket (read when a handler first publishes or stores). */
export const SEARCH_QUEUE_URL = 'https://sqs.us-east-1.amazonaws.com/123456789012/gitlab-search-index';
export const GROUP_DELETE_QUEUE_URL = 'https://sqs.us-east-1.amazonaws.com/123456789012/gitlab-group-delete';
export const BUCKET = 'gitlab-test-uploads';
process.env.QUEUE_URL_SEARCH_INDEX = SEARCH_QUEUE_URL;
process.env.QUEUE_URL_GROUP_DELETE = GROUP_DELETE_QUEUE_URL;
process.env.BUCKET_NAME = BUCKET;
delete process.env.S3_ENDPOINT;
