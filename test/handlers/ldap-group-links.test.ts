/**
 * LDAP group links: POST/GET /groups/:id/ldap_group_links, the three DELETE forms, and the links
 * on the group's detail.
 */

import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, TransactWriteCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { NEVER_SYNCED } from '#domain/ldap-sync.ts';
import { keys } from '#store/table/keys.ts';
import { lists } from '#store/table/list-keys.ts';
import { handler as getGroup } from '../../functions/groups/get.ts';
import { handler as createLink } from '../../functions/groups/ldap-group-links/create.ts';
import { handler as deleteLinkByCn } from '../../functions/groups/ldap-group-links/delete.ts';
import { handler as deleteLinkByName } from '../../functions/groups/ldap-group-links/delete-by-name.ts';
import { handler as deleteLinkForProvider } from '../../functions/groups/ldap-group-links/delete-for-provider.ts';
import { handler as listLinks } from '../../functions/groups/ldap-group-links/list.ts';
import { invoke } from '../support/events.ts';
import {
  ADMIN_TOKEN,
  CREATED,
  ddb,
  emptyHeaders,
  NOW,
  resetMocks,
  sentCommands,
  TABLE,
  USER_TOKEN,
} from './fixtures.ts';
import {
  BOB_TOKEN,
  batchGet,
  cancelled,
  created,
  FORBIDDEN,
  getCommand,
  givenWorld,
  groupDetailView,
  groupKey,
  groupLdapQuery,
  ldapLinksQuery,
  memberKey,
  message,
  ok,
  platform,
  store,
  tokenRead,
  transaction,
  writesSent,
} from './resource-fixtures.ts';

/** A link of platform (group 3) as stored. */
const linkItem = (fields: {
  provider?: string;
  cn?: string;
  filter?: string;
  access?: number;
  at?: string;
}) => {
  const provider = fields.provider ?? 'ldapmain';
  return {
    ...(fields.cn !== undefined
      ? keys.ldapGroupLink(3, provider, 'cn', fields.cn)
      : keys.ldapGroupLink(3, provider, 'filter', fields.filter ?? '')),
    kind: 'ldap_group_link',
    group_id: 3,
    provider,
    cn: fields.cn ?? null,
    filter: fields.filter ?? null,
    group_access: fields.access ?? 30,
    created_at: fields.at ?? NOW,
    // Listed by group id for the hourly sync.
    l1: lists.ldapGroupLinks.partition,
    sid: '000000000003',
  };
};

/** The reads of an owner's (alice's) action on platform: her token, the group, her membership. */
const aliceOnPlatform = [tokenRead(USER_TOKEN), getCommand(groupKey(3)), batchGet(memberKey('GROUP', 3, 2))];

/** The conditional put of a new link with the check that its group is live. */
const linkPut = (item: Record<string, unknown>) =>
  transaction(
    { Put: { TableName: TABLE, Item: item, ConditionExpression: 'attribute_not_exists(pk)' } },
    {
      ConditionCheck: {
        TableName: TABLE,
        Key: groupKey(3),
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(deleting)',
      },
    },
  );

const linkDelete = (Key: { pk: string; sk: string }) => ({
  DeleteCommand: {
    TableName: TABLE,
    Key,
    ConditionExpression: 'attribute_exists(pk)',
  },
});

const LINK_NOT_FOUND = message(404, 'Linked LDAP group not found');
const noContent = { statusCode: 204, headers: emptyHeaders(), body: undefined };

beforeEach(() => {
  resetMocks();
  givenWorld();
});

describe('POST /groups/:id/ldap_group_links', () => {
  it('an owner links an LDAP group by cn: one conditional put beside the group check → 201', async () => {
    expect(
      await invoke(createLink, 'POST', '/api/v4/groups/3/ldap_group_links', {
        token: USER_TOKEN,
        json: { cn: 'developers', group_access: 30, provider: 'ldapmain' },
      }),
    ).toEqual(created({ cn: 'developers', group_access: 30, provider: 'ldapmain', filter: null }));
    expect(sentCommands()).toEqual([...aliceOnPlatform, linkPut(linkItem({ cn: 'developers' }))]);
  });

  it('an admin links by filter (form values), and a provider not configured is kept as GitLab keeps it', async () => {
    expect(
      await invoke(createLink, 'POST', '/api/v4/groups/platform/ldap_group_links', {
        token: ADMIN_TOKEN,
        form: { filter: '(employeeType=developer)', group_access: '40', provider: 'elsewhere' },
      }),
    ).toEqual(
      created({ cn: null, group_access: 40, provider: 'elsewhere', filter: '(employeeType=developer)' }),
    );
    expect(sentCommands()).toEqual([
      // The group's route is read beside the credential.
      getCommand(keys.route('platform')),
      tokenRead(ADMIN_TOKEN),
      getCommand(groupKey(3)),
      linkPut(linkItem({ provider: 'elsewhere', filter: '(employeeType=developer)', access: 40 })),
    ]);
  });

  it('the same provider and cn again → 409 Cn has already been taken', async () => {
    ddb.on(TransactWriteCommand).rejects(cancelled('ConditionalCheckFailed', 'None'));
    expect(
      await invoke(createLink, 'POST', '/api/v4/groups/3/ldap_group_links', {
        token: USER_TOKEN,
        json: { cn: 'developers', group_access: 30, provider: 'ldapmain' },
      }),
    ).toEqual(message(409, 'Cn has already been taken'));
  });

  it('the same filter again → 409 Filter has already been taken', async () => {
    ddb.on(TransactWriteCommand).rejects(cancelled('ConditionalCheckFailed', 'None'));
    expect(
      await invoke(createLink, 'POST', '/api/v4/groups/3/ldap_group_links', {
        token: USER_TOKEN,
        json: { filter: '(uid=mary)', group_access: 30, provider: 'ldapmain' },
      }),
    ).toEqual(message(409, 'Filter has already been taken'));
  });

  it('a group deleted meanwhile takes no link → 403', async () => {
    ddb.on(TransactWriteCommand).rejects(cancelled('None', 'ConditionalCheckFailed'));
    expect(
      await invoke(createLink, 'POST', '/api/v4/groups/3/ldap_group_links', {
        token: USER_TOKEN,
        json: { cn: 'developers', group_access: 30, provider: 'ldapmain' },
      }),
    ).toEqual(FORBIDDEN);
  });

  it.each([
    [{ filter: 'uid = mary', group_access: 30, provider: 'ldapmain' }, 'Filter is invalid'],
    [{ cn: 'developers', group_access: 30, provider: '' }, "Provider can't be blank"],
  ])('the model refuses %j → 409, nothing written', async (json, text) => {
    expect(
      await invoke(createLink, 'POST', '/api/v4/groups/3/ldap_group_links', { token: USER_TOKEN, json }),
    ).toEqual(message(409, text));
    expect(sentCommands()).toEqual(aliceOnPlatform);
  });

  it.each([
    [
      { cn: 'a', filter: '(uid=a)', group_access: 30, provider: 'ldapmain' },
      'cn, filter are mutually exclusive',
    ],
    [
      { group_access: 30, provider: 'ldapmain' },
      'cn, filter are missing, exactly one parameter must be provided',
    ],
    [
      { cn: '  ', group_access: 30, provider: 'ldapmain' },
      'cn, filter are missing, exactly one parameter must be provided',
    ],
    [{ cn: 'a', group_access: 60, provider: 'ldapmain' }, 'group_access does not have a valid value'],
    [{ cn: 'a', group_access: 30 }, 'provider is missing'],
  ])('Grape refuses %j → 400 before the group is judged', async (json, error) => {
    expect(
      await invoke(createLink, 'POST', '/api/v4/groups/3/ldap_group_links', { token: USER_TOKEN, json }),
    ).toEqual(ok({ error }, 400));
    expect(writesSent()).toEqual([]);
  });

  it('a cn over 255 characters → 400 with the model’s message', async () => {
    expect(
      await invoke(createLink, 'POST', '/api/v4/groups/3/ldap_group_links', {
        token: USER_TOKEN,
        json: { cn: 'c'.repeat(256), group_access: 30, provider: 'ldapmain' },
      }),
    ).toEqual(message(400, { cn: ['is too long (maximum is 255 characters)'] }));
    expect(writesSent()).toEqual([]);
  });

  it('a non-member of a group they can see → 403, nothing written', async () => {
    expect(
      await invoke(createLink, 'POST', '/api/v4/groups/9/ldap_group_links', {
        token: BOB_TOKEN,
        json: { cn: 'developers', group_access: 30, provider: 'ldapmain' },
      }),
    ).toEqual(FORBIDDEN);
    expect(sentCommands()).toEqual([
      tokenRead(BOB_TOKEN),
      getCommand(groupKey(9)),
      batchGet(memberKey('GROUP', 9, 7)),
    ]);
  });

  it('a private group the caller cannot see, or no group at all → 403 (GitLab looks it up without the "!" helper)', async () => {
    for (const id of [3, 77]) {
      expect(
        await invoke(createLink, 'POST', `/api/v4/groups/${id}/ldap_group_links`, {
          token: BOB_TOKEN,
          json: { cn: 'developers', group_access: 30, provider: 'ldapmain' },
        }),
      ).toEqual(FORBIDDEN);
    }
    expect(writesSent()).toEqual([]);
  });

  it('anonymous → 401', async () => {
    expect(
      await invoke(createLink, 'POST', '/api/v4/groups/3/ldap_group_links', {
        json: { cn: 'developers', group_access: 30, provider: 'ldapmain' },
      }),
    ).toEqual(message(401, '401 Unauthorized'));
    expect(writesSent()).toEqual([]);
  });
});

describe('GET /groups/:id/ldap_group_links', () => {
  it('lists the links in the order they were made, in one Query of the group partition', async () => {
    store(
      linkItem({ cn: 'developers', access: 30, at: NOW }),
      linkItem({ provider: 'ldapsecondary', filter: '(ou=ops)', access: 40, at: CREATED }),
    );
    expect(
      await invoke(listLinks, 'GET', '/api/v4/groups/3/ldap_group_links', { token: USER_TOKEN }),
    ).toEqual(
      ok([
        { cn: null, group_access: 40, provider: 'ldapsecondary', filter: '(ou=ops)' },
        { cn: 'developers', group_access: 30, provider: 'ldapmain', filter: null },
      ]),
    );
    expect(sentCommands()).toEqual([...aliceOnPlatform, ldapLinksQuery(3)]);
  });

  it('no links → 404 No linked LDAP groups found', async () => {
    expect(
      await invoke(listLinks, 'GET', '/api/v4/groups/3/ldap_group_links', { token: USER_TOKEN }),
    ).toEqual(message(404, 'No linked LDAP groups found'));
  });

  it('a non-member → 403 without reading the links', async () => {
    store(linkItem({ cn: 'developers' }));
    expect(await invoke(listLinks, 'GET', '/api/v4/groups/9/ldap_group_links', { token: BOB_TOKEN })).toEqual(
      FORBIDDEN,
    );
    expect(sentCommands()).toEqual([
      tokenRead(BOB_TOKEN),
      getCommand(groupKey(9)),
      batchGet(memberKey('GROUP', 9, 7)),
    ]);
  });
});

describe('DELETE /groups/:id/ldap_group_links/:cn', () => {
  it('removes the first-made link of that cn, of any provider → 204', async () => {
    store(
      linkItem({ provider: 'ldapsecondary', cn: 'developers', at: NOW }),
      linkItem({ provider: 'ldapmain', cn: 'developers', at: CREATED }),
    );
    expect(
      await invoke(deleteLinkByCn, 'DELETE', '/api/v4/groups/3/ldap_group_links/developers', {
        token: USER_TOKEN,
      }),
    ).toEqual(noContent);
    expect(sentCommands()).toEqual([
      ...aliceOnPlatform,
      ldapLinksQuery(3),
      linkDelete(keys.ldapGroupLink(3, 'ldapmain', 'cn', 'developers')),
    ]);
  });

  it('no link of that cn → 404 Linked LDAP group not found, nothing written', async () => {
    store(linkItem({ filter: 'developers' }));
    expect(
      await invoke(deleteLinkByCn, 'DELETE', '/api/v4/groups/3/ldap_group_links/developers', {
        token: USER_TOKEN,
      }),
    ).toEqual(LINK_NOT_FOUND);
    expect(writesSent()).toEqual([]);
  });
});

describe('DELETE /groups/:id/ldap_group_links/:provider/:cn', () => {
  it('removes the link by its key, in one conditional delete → 204', async () => {
    expect(
      await invoke(deleteLinkForProvider, 'DELETE', '/api/v4/groups/3/ldap_group_links/ldapmain/dev%20team', {
        token: USER_TOKEN,
      }),
    ).toEqual(noContent);
    expect(sentCommands()).toEqual([
      ...aliceOnPlatform,
      linkDelete(keys.ldapGroupLink(3, 'ldapmain', 'cn', 'dev team')),
    ]);
  });

  it('none there (the condition fails) → 404 Linked LDAP group not found', async () => {
    ddb
      .on(DeleteCommand)
      .rejects(
        new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} }),
      );
    expect(
      await invoke(deleteLinkForProvider, 'DELETE', '/api/v4/groups/3/ldap_group_links/ldapmain/developers', {
        token: USER_TOKEN,
      }),
    ).toEqual(LINK_NOT_FOUND);
  });

  it('a non-member of a group they can see → 403, nothing written', async () => {
    expect(
      await invoke(deleteLinkForProvider, 'DELETE', '/api/v4/groups/9/ldap_group_links/ldapmain/developers', {
        token: BOB_TOKEN,
      }),
    ).toEqual(FORBIDDEN);
    expect(writesSent()).toEqual([]);
  });
});

describe('DELETE /groups/:id/ldap_group_links?provider=…&cn|filter=…', () => {
  it('removes a filter link by its key → 204', async () => {
    expect(
      await invoke(deleteLinkByName, 'DELETE', '/api/v4/groups/3/ldap_group_links', {
        token: USER_TOKEN,
        query: { provider: 'ldapmain', filter: '(uid=mary)' },
      }),
    ).toEqual(noContent);
    expect(sentCommands()).toEqual([
      ...aliceOnPlatform,
      linkDelete(keys.ldapGroupLink(3, 'ldapmain', 'filter', '(uid=mary)')),
    ]);
  });

  it('a name longer than any link’s → 404 without a write', async () => {
    expect(
      await invoke(deleteLinkByName, 'DELETE', '/api/v4/groups/3/ldap_group_links', {
        token: USER_TOKEN,
        query: { provider: 'ldapmain', cn: 'c'.repeat(300) },
      }),
    ).toEqual(LINK_NOT_FOUND);
    expect(sentCommands()).toEqual(aliceOnPlatform);
  });

  it('both cn and filter → 400', async () => {
    expect(
      await invoke(deleteLinkByName, 'DELETE', '/api/v4/groups/3/ldap_group_links', {
        token: USER_TOKEN,
        query: { provider: 'ldapmain', cn: 'a', filter: '(uid=a)' },
      }),
    ).toEqual(ok({ error: 'cn, filter are mutually exclusive' }, 400));
    expect(writesSent()).toEqual([]);
  });
});

describe('GET /groups/:id', () => {
  it('shows the group’s LDAP group links, read beside its other detail', async () => {
    store(linkItem({ cn: 'developers', access: 30 }));
    const response = await invoke(getGroup, 'GET', '/api/v4/groups/3', { token: USER_TOKEN });
    expect(response).toEqual(
      ok({
        ...groupDetailView(platform),
        ldap_group_links: [{ cn: 'developers', group_access: 30, provider: 'ldapmain', filter: null }],
        ...NEVER_SYNCED,
      }),
    );
    expect(sentCommands()).toContainEqual(groupLdapQuery(3));
  });
});
