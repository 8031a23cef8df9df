/**
 * Project hooks over HTTP against the local runtime (which allows local requests, so hooks point
 * at http://127.0.0.1:9/hook): every status and body of list, get, create, update and delete;
 * GitLab's defaults; the token kept for delivery but never shown; 422 for urls that are not
 * http(s), not urls, or longer than 2000 characters; an update that leaves the failure state
 * delivery recorded as it is; who may do what (anonymous, non-member, guest, developer,
 * maintainer, owner, admin on a private and a public project); and the hooks leaving with their
 * project when its group is deleted.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type ApiResponse,
  api,
  createUser,
  idle,
  must,
  rootToken,
  type TestUser,
  unique,
} from '../support/api.ts';
import { itemsLeft, localDatabase, partitionItems, storedItem } from '../support/db.ts';

const HOOK_URL = 'http://127.0.0.1:9/hook';
const SIGNING = `whsec_${Buffer.alloc(32, 5).toString('base64')}`;
const pad = (id: number) => String(id).padStart(12, '0');

interface HookBody {
  id: number;
  url: string;
  project_id: number;
  [field: string]: unknown;
}

async function newProject(visibility: 'private' | 'public' = 'private', namespaceId?: number) {
  return must(
    api<{ id: number }>('POST', '/projects', {
      json: { name: unique('Hooks'), visibility, ...(namespaceId ? { namespace_id: namespaceId } : {}) },
    }),
    201,
    'project',
  );
}

const addHook = (projectId: number, json: Record<string, unknown> = {}) =>
  must(
    api<HookBody>('POST', `/projects/${projectId}/hooks`, { json: { url: HOOK_URL, ...json } }),
    201,
    'hook',
  );

/** The entity of a hook created with nothing but its url, by GitLab's column defaults. */
const defaults = (projectId: number) => ({
  url: HOOK_URL,
  name: null,
  description: null,
  push_events: true,
  tag_push_events: false,
  merge_requests_events: false,
  repository_update_events: false,
  enable_ssl_verification: true,
  alert_status: 'executable',
  disabled_until: null,
  url_variables: [],
  push_events_branch_filter: null,
  branch_filter_strategy: 'wildcard',
  custom_webhook_template: null,
  custom_headers: [],
  project_id: projectId,
  issues_events: false,
  confidential_issues_events: false,
  note_events: false,
  confidential_note_events: null,
  pipeline_events: false,
  wiki_page_events: false,
  deployment_events: false,
  feature_flag_events: false,
  job_events: false,
  releases_events: false,
  milestone_events: false,
  emoji_events: false,
  resource_access_token_events: false,
  resource_deploy_token_events: false,
  vulnerability_events: false,
  token_present: false,
  signing_token_present: false,
});

describe('project hooks', () => {
  let projectId: number;

  beforeAll(async () => {
    projectId = (await newProject()).id;
  });

  it('POST with the url alone → 201 with GitLab’s defaults', async () => {
    const response = await api<HookBody>('POST', `/projects/${projectId}/hooks`, { json: { url: HOOK_URL } });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      ...defaults(projectId),
      id: expect.any(Number),
      created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
    });
  });

  it('POST with every field: the flags kept, the secrets stored for delivery but never shown', async () => {
    const response = await api<HookBody>('POST', `/projects/${projectId}/hooks`, {
      form: {
        url: HOOK_URL,
        push_events: 'false',
        issues_events: 'true',
        confidential_issues_events: 'true',
        merge_requests_events: 'true',
        tag_push_events: 'true',
        note_events: 'true',
        confidential_note_events: 'true',
        job_events: 'true',
        pipeline_events: 'true',
        wiki_page_events: 'true',
        repository_update_events: 'true',
        enable_ssl_verification: 'false',
        deployment_events: 'true',
        feature_flag_events: 'true',
        releases_events: 'true',
        milestone_events: 'true',
        emoji_events: 'true',
        resource_access_token_events: 'true',
        resource_deploy_token_events: 'true',
        vulnerability_events: 'true',
        push_events_branch_filter: 'release/*',
        name: 'Everything',
        description: 'every switch on',
        token: 'integration-secret-token',
        signing_token: SIGNING,
      },
    });
    expect(response.status).toBe(201);
    expect(response.body).toEqual({
      ...defaults(projectId),
      id: expect.any(Number),
      created_at: expect.any(String),
      push_events: false,
      issues_events: true,
      confidential_issues_events: true,
      merge_requests_events: true,
      tag_push_events: true,
      note_events: true,
      confidential_note_events: true,
      job_events: true,
      pipeline_events: true,
      wiki_page_events: true,
      repository_update_events: true,
      enable_ssl_verification: false,
      deployment_events: true,
      feature_flag_events: true,
      releases_events: true,
      milestone_events: true,
      emoji_events: true,
      resource_access_token_events: true,
      resource_deploy_token_events: true,
      vulnerability_events: true,
      push_events_branch_filter: 'release/*',
      name: 'Everything',
      description: 'every switch on',
      token_present: true,
      signing_token_present: true,
    });
    expect(response.text).not.toContain('integration-secret-token');
    expect(response.text).not.toContain('whsec_');
    const stored = await storedItem(`PROJECT#${projectId}`, `HOOK#${pad(response.body.id)}`);
    expect(stored).toMatchObject({
      token: 'integration-secret-token',
      signing_token: SIGNING,
      recent_failures: 0,
      uuid: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    const read = await api<HookBody>('GET', `/projects/${projectId}/hooks/${response.body.id}`);
    expect(read.status).toBe(200);
    expect(read.body).toEqual(response.body);
    expect(read.text).not.toContain('integration-secret-token');
  });

  it.each([
    ['ftp://x', 'not http(s)'],
    ['not a url', 'not a url'],
    [`http://127.0.0.1:9/${'a'.repeat(2000)}`, 'over 2000 characters'],
    ['', 'empty'],
  ])('POST %s (%s) → 422 Invalid url given', async (url) => {
    const response = await api('POST', `/projects/${projectId}/hooks`, { json: { url } });
    expect({ status: response.status, body: response.body }).toEqual({
      status: 422,
      body: { error: 'Invalid url given' },
    });
  });

  it('POST: a url of exactly 2000 characters is taken', async () => {
    const url = `http://127.0.0.1:9/${'a'.repeat(2000 - 'http://127.0.0.1:9/'.length)}`;
    expect(url).toHaveLength(2000);
    const response = await api<HookBody>('POST', `/projects/${projectId}/hooks`, { json: { url } });
    expect(response.status).toBe(201);
    expect(response.body.url).toBe(url);
    await must(api('DELETE', `/projects/${projectId}/hooks/${response.body.id}`), 200, 'cleanup');
  });

  it('POST bad parameters → 400; a bad branch filter → 422', async () => {
    const post = async (json: unknown) => {
      const response = await api('POST', `/projects/${projectId}/hooks`, { json });
      return { status: response.status, body: response.body };
    };
    expect(await post({ push_events: true })).toEqual({ status: 400, body: { error: 'url is missing' } });
    expect(await post({ url: HOOK_URL, signing_token: 'whsec_tooshort' })).toEqual({
      status: 400,
      body: { error: 'signing_token is invalid' },
    });
    expect(
      await post({ url: HOOK_URL, signing_token: `whsec_${Buffer.alloc(31).toString('base64')}` }),
    ).toEqual({
      status: 400,
      body: { error: 'signing_token is invalid' },
    });
    expect(await post({ url: HOOK_URL, note_events: 'sometimes' })).toEqual({
      status: 400,
      body: { error: 'note_events is invalid' },
    });
    expect(await post({ url: HOOK_URL, name: 'n'.repeat(256) })).toEqual({
      status: 400,
      body: { message: { name: ['is too long (maximum is 255 characters)'] } },
    });
    expect(await post({ url: HOOK_URL, push_events_branch_filter: 'bad..name' })).toEqual({
      status: 422,
      body: { error: 'Invalid branch filter given' },
    });
    expect(await post({ url: HOOK_URL, branch_filter_strategy: 'glob' })).toEqual({
      status: 400,
      body: { error: 'branch_filter_strategy does not have a valid value' },
    });
    expect(
      await post({ url: HOOK_URL, branch_filter_strategy: 'regex', push_events_branch_filter: 'release/(' }),
    ).toEqual({ status: 422, body: { error: 'Invalid branch filter given' } });
  });

  it('a branch filter read by its strategy: a regex as written, and PUT re-reads the kept filter', async () => {
    const made = await api<HookBody>('POST', `/projects/${projectId}/hooks`, {
      json: {
        url: HOOK_URL,
        branch_filter_strategy: 'regex',
        push_events_branch_filter: '^release/(v1|v2)$',
      },
    });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({
      branch_filter_strategy: 'regex',
      push_events_branch_filter: '^release/(v1|v2)$',
    });
    const asWildcards = await api('PUT', `/projects/${projectId}/hooks/${made.body.id}`, {
      json: { url: HOOK_URL, branch_filter_strategy: 'wildcard' },
    });
    expect({ status: asWildcards.status, body: asWildcards.body }).toEqual({
      status: 422,
      body: { error: 'Invalid branch filter given' },
    });
    const all = await api<HookBody>('PUT', `/projects/${projectId}/hooks/${made.body.id}`, {
      json: { url: HOOK_URL, branch_filter_strategy: 'all_branches', emoji_events: true },
    });
    expect(all.status).toBe(200);
    expect(all.body).toMatchObject({ branch_filter_strategy: 'all_branches', emoji_events: true });
    const read = await api<HookBody>('GET', `/projects/${projectId}/hooks/${made.body.id}`);
    expect(read.body).toEqual(all.body);
  });

  it('GET list: paginated in id order with X-Total and Link; GET of another project’s hook → 404', async () => {
    const own = (await newProject()).id;
    const made = [await addHook(own), await addHook(own, { note_events: true }), await addHook(own)];
    const first = await api<HookBody[]>('GET', `/projects/${own}/hooks?per_page=2`);
    expect(first.status).toBe(200);
    expect(first.body.map((hook) => hook.id)).toEqual([made[0]?.id, made[1]?.id]);
    expect(first.body[1]).toEqual(made[1]);
    expect({
      total: first.headers.get('x-total'),
      pages: first.headers.get('x-total-pages'),
      perPage: first.headers.get('x-per-page'),
      page: first.headers.get('x-page'),
      next: first.headers.get('x-next-page'),
      prev: first.headers.get('x-prev-page'),
    }).toEqual({ total: '3', pages: '2', perPage: '2', page: '1', next: '2', prev: '' });
    expect(first.headers.get('link')).toContain('rel="next"');
    const second = await api<HookBody[]>('GET', `/projects/${own}/hooks?per_page=2&page=2`);
    expect(second.body.map((hook) => hook.id)).toEqual([made[2]?.id]);
    const empty = await api<HookBody[]>('GET', `/projects/${(await newProject()).id}/hooks`);
    expect({ status: empty.status, body: empty.body, total: empty.headers.get('x-total') }).toEqual({
      status: 200,
      body: [],
      total: '0',
    });
    const elsewhere = await api('GET', `/projects/${projectId}/hooks/${made[0]?.id}`);
    expect({ status: elsewhere.status, body: elsewhere.body }).toEqual({
      status: 404,
      body: { message: '404 Not found' },
    });
    const unknown = await api('GET', `/projects/${own}/hooks/999999999`);
    expect({ status: unknown.status, body: unknown.body }).toEqual({
      status: 404,
      body: { message: '404 Not found' },
    });
    const missingProject = await api('GET', '/projects/999999999/hooks');
    expect({ status: missingProject.status, body: missingProject.body }).toEqual({
      status: 404,
      body: { message: '404 Project Not Found' },
    });
  });

  it('PUT changes only the fields sent (the wiki switch as wiki_events) and keeps the failure state', async () => {
    const hook = await addHook(projectId, { note_events: true, token: 'keep-me', name: 'before' });
    // Delivery has recorded failures meanwhile.
    const { db, table } = localDatabase();
    await db.send(
      new UpdateCommand({
        TableName: table,
        Key: { pk: `PROJECT#${projectId}`, sk: `HOOK#${pad(hook.id)}` },
        UpdateExpression: 'SET recent_failures = :n, disabled_until = :until',
        ExpressionAttributeValues: { ':n': 5, ':until': '2999-01-01T00:00:00.000Z' },
      }),
    );
    const response = await api<HookBody>('PUT', `/projects/${projectId}/hooks/${hook.id}`, {
      json: { url: HOOK_URL, wiki_events: true, issues_events: true },
    });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      ...hook,
      wiki_page_events: true,
      issues_events: true,
      alert_status: 'temporarily_disabled',
      disabled_until: '2999-01-01T00:00:00.000Z',
    });
    expect(await storedItem(`PROJECT#${projectId}`, `HOOK#${pad(hook.id)}`)).toMatchObject({
      token: 'keep-me',
      recent_failures: 5,
      disabled_until: '2999-01-01T00:00:00.000Z',
      note_events: true,
      name: 'before',
    });
    const renamed = await api<HookBody>('PUT', `/projects/${projectId}/hooks/${hook.id}`, {
      json: { url: HOOK_URL, wiki_page_events: false, name: 'after' },
    });
    expect(renamed.body).toMatchObject({ wiki_page_events: false, name: 'after', token_present: true });
  });

  it('PUT with a new url and no token drops the token; PUT with a new token sets it', async () => {
    const hook = await addHook(projectId, { token: 'first' });
    const moved = await api<HookBody>('PUT', `/projects/${projectId}/hooks/${hook.id}`, {
      json: { url: 'http://127.0.0.1:10/elsewhere' },
    });
    expect(moved.body).toMatchObject({ url: 'http://127.0.0.1:10/elsewhere', token_present: false });
    const stored = await storedItem(`PROJECT#${projectId}`, `HOOK#${pad(hook.id)}`);
    expect(stored?.token).toBeUndefined();
    const again = await api<HookBody>('PUT', `/projects/${projectId}/hooks/${hook.id}`, {
      json: { url: 'http://127.0.0.1:10/elsewhere', token: 'second', signing_token: SIGNING },
    });
    expect(again.body).toMatchObject({ token_present: true, signing_token_present: true });
    const cleared = await api<HookBody>('PUT', `/projects/${projectId}/hooks/${hook.id}`, {
      json: { url: 'http://127.0.0.1:10/elsewhere', signing_token: '' },
    });
    expect(cleared.body).toMatchObject({ token_present: true, signing_token_present: false });
  });

  it('PUT errors: url missing → 400, a bad url → 422, no such hook → 404', async () => {
    const hook = await addHook(projectId);
    const put = async (id: number, json: unknown) => {
      const response = await api('PUT', `/projects/${projectId}/hooks/${id}`, { json });
      return { status: response.status, body: response.body };
    };
    expect(await put(hook.id, { push_events: false })).toEqual({
      status: 400,
      body: { error: 'url is missing' },
    });
    expect(await put(hook.id, { url: 'ftp://x' })).toEqual({
      status: 422,
      body: { error: 'Invalid url given' },
    });
    expect(await put(hook.id, { url: 'not a url' })).toEqual({
      status: 422,
      body: { error: 'Invalid url given' },
    });
    expect(await put(hook.id, { url: `http://127.0.0.1:9/${'b'.repeat(2000)}` })).toEqual({
      status: 422,
      body: { error: 'Invalid url given' },
    });
    expect(await put(999999999, { url: HOOK_URL })).toEqual({
      status: 404,
      body: { message: '404 Not found' },
    });
    expect(await put(hook.id, { url: HOOK_URL, signing_token: 'nope' })).toEqual({
      status: 400,
      body: { error: 'signing_token is invalid' },
    });
    const unchanged = await api<HookBody>('GET', `/projects/${projectId}/hooks/${hook.id}`);
    expect(unchanged.body).toEqual(hook);
  });

  it('DELETE is idempotent: the hook as it was (200), then an empty 204', async () => {
    const hook = await addHook(projectId, { token: 'bye' });
    const removed = await api<HookBody>('DELETE', `/projects/${projectId}/hooks/${hook.id}`);
    expect({ status: removed.status, body: removed.body }).toEqual({ status: 200, body: hook });
    expect(removed.text).not.toContain('bye');
    const again = await api('DELETE', `/projects/${projectId}/hooks/${hook.id}`);
    expect({ status: again.status, text: again.text }).toEqual({ status: 204, text: '' });
    const read = await api('GET', `/projects/${projectId}/hooks/${hook.id}`);
    expect({ status: read.status, body: read.body }).toEqual({
      status: 404,
      body: { message: '404 Not found' },
    });
    expect(await storedItem(`PROJECT#${projectId}`, `HOOK#${pad(hook.id)}`)).toBeUndefined();
  });

  it('the project purge (its group deleted) removes its hooks, their count and its push rule with its partition', async () => {
    const path = unique('hookpurge');
    const group = await must(
      api<{ id: number }>('POST', '/groups', { json: { name: path, path } }),
      201,
      'group',
    );
    const project = await newProject('private', group.id);
    const hooks = [await addHook(project.id), await addHook(project.id, { token: 't' })];
    await must(
      api('POST', `/projects/${project.id}/push_rule`, { json: { deny_delete_tag: true } }),
      201,
      'rule',
    );
    const partition = `PROJECT#${project.id}`;
    expect((await partitionItems(partition)).map((item) => item.sk)).toEqual(
      expect.arrayContaining([
        `HOOK#${pad(hooks[0]?.id ?? 0)}`,
        `HOOK#${pad(hooks[1]?.id ?? 0)}`,
        'HOOKCOUNT',
        'PUSHRULE',
      ]),
    );
    await must(api('DELETE', `/groups/${group.id}`), 202, 'group delete');
    await idle();
    // Only its counter shards' deletion marks stay, refusing late writers until TTL ends them.
    expect(await itemsLeft(partition)).toEqual([]);
  });
});

// Who may do what -------------------------------------------------------------------------------------

const CALLERS = ['anonymous', 'non-member', 'guest', 'developer', 'maintainer', 'owner', 'admin'] as const;
type Caller = (typeof CALLERS)[number];
type Visibility = 'private' | 'public';
type Row = Record<Visibility, readonly number[]>;

/**
 * GitLab: every hook route authenticates first (401) and then authorizes admin_project (maintainer,
 * owner, admin); a private project is 404 to a non-member, a public one 403.
 */
const MATRIX: Record<'list' | 'get' | 'create' | 'update' | 'delete', Row> = {
  list: { private: [401, 404, 403, 403, 200, 200, 200], public: [401, 403, 403, 403, 200, 200, 200] },
  get: { private: [401, 404, 403, 403, 200, 200, 200], public: [401, 403, 403, 403, 200, 200, 200] },
  create: { private: [401, 404, 403, 403, 201, 201, 201], public: [401, 403, 403, 403, 201, 201, 201] },
  update: { private: [401, 404, 403, 403, 200, 200, 200], public: [401, 403, 403, 403, 200, 200, 200] },
  delete: { private: [401, 404, 403, 403, 200, 200, 200], public: [401, 403, 403, 403, 200, 200, 200] },
};

describe('who may manage hooks', () => {
  const users = {} as Record<Exclude<Caller, 'anonymous' | 'admin'>, TestUser>;
  const projects = {} as Record<Visibility, Record<Caller, number>>;
  const results = new Map<string, number>();

  const tokenOf = (caller: Caller) =>
    caller === 'anonymous' ? null : caller === 'admin' ? rootToken() : users[caller].token;

  beforeAll(async () => {
    for (const name of ['non-member', 'guest', 'developer', 'maintainer', 'owner'] as const)
      users[name] = await createUser();
    for (const visibility of ['private', 'public'] as const) {
      const path = unique(`hookauthz-${visibility}`);
      const group = await must(
        api<{ id: number }>('POST', '/groups', {
          token: users.owner.token,
          json: { name: path, path, visibility },
        }),
        201,
        'group',
      );
      for (const [member, level] of [
        ['guest', 10],
        ['developer', 30],
        ['maintainer', 40],
      ] as const)
        await must(
          api('POST', `/groups/${group.id}/members`, {
            token: users.owner.token,
            json: { user_id: users[member].id, access_level: level },
          }),
          201,
          'member',
        );
      projects[visibility] = {} as Record<Caller, number>;
      for (const caller of CALLERS) {
        const project = await must(
          api<{ id: number }>('POST', '/projects', {
            token: users.owner.token,
            json: { name: unique('authz'), namespace_id: group.id, visibility },
          }),
          201,
          'project',
        );
        projects[visibility][caller] = project.id;
      }
    }
    // Each cell acts on its own project and its own hook, in order, all cells at once.
    await Promise.all(
      (['private', 'public'] as const).flatMap((visibility) =>
        CALLERS.map(async (caller) => {
          const id = projects[visibility][caller];
          const hook = await addHook(id);
          const token = tokenOf(caller);
          const record = (row: string, response: ApiResponse) =>
            results.set(`${row}|${visibility}|${caller}`, response.status);
          record('list', await api('GET', `/projects/${id}/hooks`, { token }));
          record('get', await api('GET', `/projects/${id}/hooks/${hook.id}`, { token }));
          record('create', await api('POST', `/projects/${id}/hooks`, { token, json: { url: HOOK_URL } }));
          record(
            'update',
            await api('PUT', `/projects/${id}/hooks/${hook.id}`, {
              token,
              json: { url: HOOK_URL, note_events: true },
            }),
          );
          record('delete', await api('DELETE', `/projects/${id}/hooks/${hook.id}`, { token }));
        }),
      ),
    );
  }, 120_000);

  for (const [row, expected] of Object.entries(MATRIX))
    for (const visibility of ['private', 'public'] as const)
      it(`${row} on a ${visibility} project: ${CALLERS.join(', ')}`, () => {
        expect(CALLERS.map((caller) => results.get(`${row}|${visibility}|${caller}`))).toEqual(
          expected[visibility],
        );
      });
});
