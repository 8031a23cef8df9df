import { TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, it } from 'vitest';
import { handler as transfer } from '../../functions/projects/transfer.ts';
import { handler as list } from '../../functions/namespaces/list.ts';
import { handler as get } from '../../functions/namespaces/get.ts';
import { handler as exists } from '../../functions/namespaces/exists.ts';
import { invoke } from '../support/events.ts';
import { ADMIN_TOKEN, ddb, resetMocks, sentCommands, USER_TOKEN, userItem } from './fixtures.ts';
import { aliceUser, BOB_TOKEN, cancelled, givenWorld, groupMemberItem, projectMemberItem, qa, routeItem, rootUser, store, backend, platform } from './resource-fixtures.ts';
import { withRoundTrips } from './round-trips.ts';

beforeEach(() => {
  resetMocks();
  givenWorld();
  store({ ...userItem(aliceUser), namespace_id: 71 }, routeItem('alice', 'user', 2), { ...userItem(rootUser), namespace_id: 60 }, routeItem('root', 'user', 1),
    { pk: 'NAMESPACE#71', sk: 'NAMESPACE', kind: 'user_namespace', user_id: 2, l1: 'NAMESPACES#USERS', sid: '000000000071' });
});
const dump = async (name: string, run: () => Promise<unknown>) => {
  const { value, rounds, sequence } = await withRoundTrips(run);
  console.log(`=== ${name} rounds=${rounds} :: ${sequence}\n${JSON.stringify(value, null, 1)}\n${JSON.stringify(sentCommands(), null, 1)}`);
};
const put = (token: string, id: string, namespace: unknown) => () => invoke(transfer, 'PUT', `/api/v4/projects/${id}/transfer`, { token, json: { namespace } });
it('group', async () => { store(groupMemberItem(qa, { userId: 2, level: 40 })); await dump('group', put(USER_TOKEN, '42', 9)); });
it('personal', async () => { await dump('personal', put(USER_TOKEN, '42', 'alice')); });
it('same', async () => { await dump('same', put(USER_TOKEN, '42', 5)); });
it('noperm', async () => { store(groupMemberItem(qa, { userId: 7, level: 30 })); await dump('noperm', put(BOB_TOKEN, '43', 'qa')); });
it('taken', async () => { store(groupMemberItem(qa, { userId: 2, level: 40 })); ddb.on(TransactWriteCommand).rejects(cancelled('None','ConditionalCheckFailed','None','None','None','None','None','None','None','None','None')); await dump('taken', put(USER_TOKEN, '42', 9)); });
it('unknown', async () => { await dump('unknown', put(USER_TOKEN, '42', 999)); });
it('nonowner', async () => { store(projectMemberItem(42, { userId: 7, level: 40 })); await dump('nonowner', put(BOB_TOKEN, '42', 9)); });
it('hidden', async () => { await dump('hidden', put(BOB_TOKEN, '42', 9)); });
it('ns user', async () => { await dump('ns user', () => invoke(list, 'GET', '/api/v4/namespaces', { token: USER_TOKEN })); });
it('ns admin', async () => { await dump('ns admin', () => invoke(list, 'GET', '/api/v4/namespaces', { token: ADMIN_TOKEN, query: { per_page: 2 } })); });
it('ns admin2', async () => { await dump('ns admin2', () => invoke(list, 'GET', '/api/v4/namespaces', { token: ADMIN_TOKEN, query: { per_page: 2, page: 2 } })); });
it('ns search', async () => { await dump('ns search', () => invoke(list, 'GET', '/api/v4/namespaces', { token: ADMIN_TOKEN, query: { search: 'ba' } })); });
it('ns owned', async () => { store(groupMemberItem(qa, { userId: 2, level: 30 })); await dump('ns owned', () => invoke(list, 'GET', '/api/v4/namespaces', { token: USER_TOKEN, query: { owned_only: true } })); });
it('get id', async () => { await dump('get id', () => invoke(get, 'GET', '/api/v4/namespaces/3', { token: USER_TOKEN })); });
it('get path', async () => { await dump('get path', () => invoke(get, 'GET', '/api/v4/namespaces/platform%2Fbackend', { token: USER_TOKEN })); });
it('exists', async () => { store(routeItem('platform1', 'group', 11)); await dump('exists', () => invoke(exists, 'GET', '/api/v4/namespaces/platform/exists', { token: USER_TOKEN })); });
