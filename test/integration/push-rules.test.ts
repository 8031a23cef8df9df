/**
 * Project push rules over HTTP against the local runtime: null before there is one, every
 * parameter on POST, a second POST refused by the database (422, also when many race), PUT of the
 * fields sent only, at least one parameter (GitLab's sentence), regexes that RE2 accepts (400
 * naming the field in RE2's words otherwise: lookbehind refused, `(?i)` accepted), max_file_size an integer ≥ 0, DELETE idempotent (204 either way), and who may do
 * what (anonymous, non-member, guest, developer, maintainer, owner, admin on a private and a public
 * project).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { type ApiResponse, api, createUser, must, rootToken, type TestUser, unique } from '../support/api.ts';
import { storedItem } from '../support/db.ts';

const MISSING =
  'deny_delete_tag, member_check, prevent_secrets, commit_message_regex, commit_message_negative_regex, ' +
  'branch_name_regex, author_email_regex, file_name_regex, max_file_size, commit_committer_check, ' +
  'reject_unsigned_commits are missing, at least one parameter must be provided';

const DEFAULTS = {
  commit_message_regex: null,
  commit_message_negative_regex: null,
  branch_name_regex: null,
  deny_delete_tag: false,
  member_check: false,
  prevent_secrets: false,
  author_email_regex: null,
  file_name_regex: null,
  max_file_size: 0,
  commit_committer_check: false,
  reject_unsigned_commits: false,
};

const newProject = async () =>
  (await must(api<{ id: number }>('POST', '/projects', { json: { name: unique('Rules') } }), 201, 'project'))
    .id;

const call = async (method: string, path: string, json?: unknown) => {
  const response = await api(method, path, json === undefined ? {} : { json });
  return { status: response.status, body: response.body };
};

describe('project push rules', () => {
  it('GET before there is one → 200 null', async () => {
    const id = await newProject();
    const response = await api('GET', `/projects/${id}/push_rule`);
    expect({ status: response.status, text: response.text }).toEqual({ status: 200, text: 'null' });
  });

  it('POST with every parameter → 201; GET shows it; a second POST → 422', async () => {
    const id = await newProject();
    const every = {
      deny_delete_tag: true,
      member_check: true,
      prevent_secrets: true,
      commit_message_regex: '^(feat|fix): .+',
      commit_message_negative_regex: 'ssh://',
      branch_name_regex: '^(main|feature/.*)$',
      author_email_regex: '@example\\.com$',
      file_name_regex: '\\.(exe|jar)$',
      max_file_size: 100,
      commit_committer_check: true,
      reject_unsigned_commits: true,
    };
    const created = await api<Record<string, unknown>>('POST', `/projects/${id}/push_rule`, { json: every });
    expect({ status: created.status, body: created.body }).toEqual({
      status: 201,
      body: { id: expect.any(Number), project_id: id, created_at: expect.any(String), ...every },
    });
    expect(await call('GET', `/projects/${id}/push_rule`)).toEqual({ status: 200, body: created.body });
    expect(await call('POST', `/projects/${id}/push_rule`, { member_check: false })).toEqual({
      status: 422,
      body: { error: 'Project push rule exists' },
    });
    expect(await call('GET', `/projects/${id}/push_rule`)).toEqual({ status: 200, body: created.body });
  });

  it('POST with one parameter: the rest take the defaults', async () => {
    const id = await newProject();
    const response = await api<Record<string, unknown>>('POST', `/projects/${id}/push_rule`, {
      form: { max_file_size: '5' },
    });
    expect({ status: response.status, body: response.body }).toEqual({
      status: 201,
      body: {
        id: expect.any(Number),
        project_id: id,
        created_at: expect.any(String),
        ...DEFAULTS,
        max_file_size: 5,
      },
    });
  });

  it('ten POSTs at once: exactly one 201, nine 422 (the database decides)', async () => {
    const id = await newProject();
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, index) =>
        call('POST', `/projects/${id}/push_rule`, { max_file_size: index }),
      ),
    );
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(1);
    expect(answers.filter((answer) => answer.status !== 201)).toEqual(
      Array.from({ length: 9 }, () => ({ status: 422, body: { error: 'Project push rule exists' } })),
    );
    const winner = answers.find((answer) => answer.status === 201)?.body;
    expect(await call('GET', `/projects/${id}/push_rule`)).toEqual({ status: 200, body: winner });
  });

  it('PUT changes only what is sent → 200; nothing sent → 400; no rule → 404', async () => {
    const id = await newProject();
    expect(await call('PUT', `/projects/${id}/push_rule`, { deny_delete_tag: true })).toEqual({
      status: 404,
      body: { message: '404 Push Rule Not Found' },
    });
    const created = await must(
      api<Record<string, unknown>>('POST', `/projects/${id}/push_rule`, {
        json: { branch_name_regex: '^main$', member_check: true },
      }),
      201,
      'rule',
    );
    expect(
      await call('PUT', `/projects/${id}/push_rule`, {
        max_file_size: 20,
        commit_message_regex: 'JIRA-\\d+',
      }),
    ).toEqual({
      status: 200,
      body: { ...created, max_file_size: 20, commit_message_regex: 'JIRA-\\d+' },
    });
    expect(await call('PUT', `/projects/${id}/push_rule`, {})).toEqual({
      status: 400,
      body: { error: MISSING },
    });
    expect(await call('GET', `/projects/${id}/push_rule`)).toEqual({
      status: 200,
      body: { ...created, max_file_size: 20, commit_message_regex: 'JIRA-\\d+' },
    });
  });

  it('bad values → 400 naming them, nothing saved', async () => {
    const id = await newProject();
    const path = `/projects/${id}/push_rule`;
    expect(await call('POST', path, {})).toEqual({ status: 400, body: { error: MISSING } });
    expect(await call('POST', path, { branch_name_regex: '(feature' })).toEqual({
      status: 400,
      body: { message: { branch_name_regex: ['not valid RE2 syntax: missing ): (feature'] } },
    });
    expect(await call('POST', path, { file_name_regex: '*.exe', author_email_regex: '[a-' })).toEqual({
      status: 400,
      body: {
        message: {
          author_email_regex: ['not valid RE2 syntax: missing ]: [a-'],
          file_name_regex: ['not valid RE2 syntax: no argument for repetition operator: *'],
        },
      },
    });
    expect(await call('POST', path, { commit_message_regex: 'x'.repeat(512) })).toEqual({
      status: 400,
      body: { message: { commit_message_regex: ['is too long (maximum is 511 characters)'] } },
    });
    expect(await call('POST', path, { max_file_size: 1.5 })).toEqual({
      status: 400,
      body: { error: 'max_file_size is invalid' },
    });
    expect(await call('POST', path, { max_file_size: 'ten' })).toEqual({
      status: 400,
      body: { error: 'max_file_size is invalid' },
    });
    expect(await call('POST', path, { max_file_size: -1 })).toEqual({
      status: 400,
      body: { message: { max_file_size: ['must be greater than or equal to 0'] } },
    });
    expect(await call('POST', path, { deny_delete_tag: 'perhaps' })).toEqual({
      status: 400,
      body: { error: 'deny_delete_tag is invalid' },
    });
    expect(await call('GET', path)).toEqual({ status: 200, body: null });
    await must(api('POST', path, { json: { deny_delete_tag: true } }), 201, 'rule');
    expect(await call('PUT', path, { commit_message_negative_regex: '(?<' })).toEqual({
      status: 400,
      body: {
        message: {
          commit_message_negative_regex: ['not valid RE2 syntax: invalid named capture group: (?<'],
        },
      },
    });
    expect(await call('PUT', path, { max_file_size: -5 })).toEqual({
      status: 400,
      body: { message: { max_file_size: ['must be greater than or equal to 0'] } },
    });
    expect((await call('GET', path)).body).toMatchObject({
      commit_message_negative_regex: null,
      max_file_size: 0,
    });
  });

  it('regexes are RE2’s (GitLab’s UntrustedRegexp), not JavaScript’s: lookbehind → 400 naming the field, (?i) → 201/200', async () => {
    const id = await newProject();
    const path = `/projects/${id}/push_rule`;
    const lookbehind = (field: string) => ({
      status: 400,
      body: { message: { [field]: ['not valid RE2 syntax: invalid named capture group: (?<=a)b'] } },
    });
    expect(await call('POST', path, { commit_message_regex: '(?<=a)b' })).toEqual(
      lookbehind('commit_message_regex'),
    );
    expect(await call('POST', path, { branch_name_regex: '(a)\\1' })).toEqual({
      status: 400,
      body: { message: { branch_name_regex: ['not valid RE2 syntax: invalid escape sequence: \\1'] } },
    });
    expect(await call('GET', path)).toEqual({ status: 200, body: null });
    const created = await call('POST', path, {
      commit_message_regex: '(?i)abc',
      file_name_regex: '(?P<ext>exe)$',
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ commit_message_regex: '(?i)abc', file_name_regex: '(?P<ext>exe)$' });
    expect(await call('PUT', path, { author_email_regex: '(?<=a)b' })).toEqual(
      lookbehind('author_email_regex'),
    );
    const changed = await call('PUT', path, { branch_name_regex: '(?i)^(main|release/\\p{L}+)$' });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({
      commit_message_regex: '(?i)abc',
      branch_name_regex: '(?i)^(main|release/\\p{L}+)$',
      author_email_regex: null,
    });
  });

  it('DELETE → 204 whether or not there is one; then GET null, PUT 404, POST again 201', async () => {
    const id = await newProject();
    const path = `/projects/${id}/push_rule`;
    await must(api('POST', path, { json: { prevent_secrets: true } }), 201, 'rule');
    for (let round = 0; round < 2; round++) {
      const removed = await api('DELETE', path);
      expect({ status: removed.status, text: removed.text }).toEqual({ status: 204, text: '' });
    }
    expect(await storedItem(`PROJECT#${id}`, 'PUSHRULE')).toBeUndefined();
    expect(await call('GET', path)).toEqual({ status: 200, body: null });
    expect(await call('PUT', path, { prevent_secrets: false })).toEqual({
      status: 404,
      body: { message: '404 Push Rule Not Found' },
    });
    expect((await call('POST', path, { member_check: true })).status).toBe(201);
  });

  it('an unknown project → 404 Project Not Found', async () => {
    expect(await call('GET', '/projects/999999999/push_rule')).toEqual({
      status: 404,
      body: { message: '404 Project Not Found' },
    });
  });
});

// Who may do what -------------------------------------------------------------------------------------

const CALLERS = ['anonymous', 'non-member', 'guest', 'developer', 'maintainer', 'owner', 'admin'] as const;
type Caller = (typeof CALLERS)[number];
type Visibility = 'private' | 'public';

/** GitLab: authenticate! (401), then admin_project (maintainer and up); a hidden project is 404. */
const MATRIX: Record<'get' | 'create' | 'update' | 'delete', Record<Visibility, readonly number[]>> = {
  get: { private: [401, 404, 403, 403, 200, 200, 200], public: [401, 403, 403, 403, 200, 200, 200] },
  create: { private: [401, 404, 403, 403, 201, 201, 201], public: [401, 403, 403, 403, 201, 201, 201] },
  update: { private: [401, 404, 403, 403, 200, 200, 200], public: [401, 403, 403, 403, 200, 200, 200] },
  delete: { private: [401, 404, 403, 403, 204, 204, 204], public: [401, 403, 403, 403, 204, 204, 204] },
};

describe('who may manage push rules', () => {
  const users = {} as Record<Exclude<Caller, 'anonymous' | 'admin'>, TestUser>;
  const results = new Map<string, number>();
  /** For refused callers: the rule an admin made stays as it was. */
  const untouched = new Map<string, boolean>();

  const tokenOf = (caller: Caller) =>
    caller === 'anonymous' ? null : caller === 'admin' ? rootToken() : users[caller].token;

  beforeAll(async () => {
    for (const name of ['non-member', 'guest', 'developer', 'maintainer', 'owner'] as const)
      users[name] = await createUser();
    const cells: { visibility: Visibility; caller: Caller; project: number }[] = [];
    for (const visibility of ['private', 'public'] as const) {
      const path = unique(`ruleauthz-${visibility}`);
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
      for (const caller of CALLERS) {
        const project = await must(
          api<{ id: number }>('POST', '/projects', {
            token: users.owner.token,
            json: { name: unique('authz'), namespace_id: group.id, visibility },
          }),
          201,
          'project',
        );
        cells.push({ visibility, caller, project: project.id });
      }
    }
    // Each cell acts on its own project, in order (create, read, change, remove), all at once. A
    // refused caller's project gets a rule from the admin first, so refusals are seen with one there.
    await Promise.all(
      cells.map(async ({ visibility, caller, project }) => {
        const token = tokenOf(caller);
        const path = `/projects/${project}/push_rule`;
        const allowed = MATRIX.create[visibility][CALLERS.indexOf(caller)] === 201;
        const record = (row: string, response: ApiResponse) =>
          results.set(`${row}|${visibility}|${caller}`, response.status);
        if (!allowed) await must(api('POST', path, { json: { max_file_size: 7 } }), 201, 'admin rule');
        record('create', await api('POST', path, { token, json: { deny_delete_tag: true } }));
        record('get', await api('GET', path, { token }));
        record('update', await api('PUT', path, { token, json: { member_check: true } }));
        record('delete', await api('DELETE', path, { token }));
        if (!allowed) {
          const rule = await api<{ max_file_size: number; member_check: boolean }>('GET', path);
          untouched.set(
            `${visibility}|${caller}`,
            rule.body?.max_file_size === 7 && rule.body.member_check === false,
          );
        }
      }),
    );
  }, 120_000);

  for (const [row, expected] of Object.entries(MATRIX))
    for (const visibility of ['private', 'public'] as const)
      it(`${row} on a ${visibility} project: ${CALLERS.join(', ')}`, () => {
        expect(CALLERS.map((caller) => results.get(`${row}|${visibility}|${caller}`))).toEqual(
          expected[visibility],
        );
      });

  it('a refused caller changes and removes nothing', () => {
    expect(Object.fromEntries(untouched)).toEqual({
      'private|anonymous': true,
      'private|non-member': true,
      'private|guest': true,
      'private|developer': true,
      'public|anonymous': true,
      'public|non-member': true,
      'public|guest': true,
      'public|developer': true,
    });
  });
});
