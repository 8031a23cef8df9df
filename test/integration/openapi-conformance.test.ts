/**
 * The OpenAPI document against the running API: users, groups, projects, notes and hooks routes
 * (list, get, create, update, and their usual refusals) are driven over HTTP, and each answer's
 * status must be one the document lists for the operation and its body must validate against the
 * schema the document gives for that status. GET /api/v4/openapi.json serves the document itself.
 */
import { createRequire } from 'node:module';
import { beforeAll, describe, expect, it } from 'vitest';
import document from '../../docs/openapi.json' with { type: 'json' };
import { type ApiResponse, api, unique } from '../support/api.ts';

interface CompiledSchema {
  (data: unknown): boolean;
  errors?: unknown[] | null;
}
interface SchemaValidator {
  addSchema(schema: object): void;
  compile(schema: object): CompiledSchema;
}

// Ajv (draft 2020-12, OpenAPI 3.1's dialect) as the OpenAPI validator package bundles it.
const fromValidator = createRequire(
  createRequire(import.meta.url).resolve('@seriousme/openapi-schema-validator'),
);
const { default: Ajv2020 } = fromValidator('ajv/dist/2020.js') as {
  default: new (options: object) => SchemaValidator;
};

const DOCUMENT_ID = 'https://gitlab-compatible-api.local/openapi.json';
const ajv = new Ajv2020({ strict: false, allErrors: true });
ajv.addSchema({ ...document, $id: DOCUMENT_ID });

type JsonValue = Record<string, unknown>;

/** A schema of the document with its local references pointed at the registered document. */
const anchored = (schema: unknown): unknown =>
  JSON.parse(JSON.stringify(schema), (key, value) =>
    key === '$ref' && typeof value === 'string' && value.startsWith('#/') ? `${DOCUMENT_ID}${value}` : value,
  );

const resolved = (value: JsonValue): JsonValue => {
  const ref = value.$ref;
  if (typeof ref !== 'string') return value;
  const [, , section, name] = ref.split('/'); // #/components/<section>/<name>
  return (document.components as unknown as Record<string, Record<string, JsonValue>>)[section as string]?.[
    name as string
  ] as JsonValue;
};

/** Fails unless the document lists the response's status for the operation and its body fits. */
function expectConforms(method: string, template: string, response: ApiResponse) {
  const where = `${method} ${template} → ${response.status}`;
  const operation = (document.paths as unknown as Record<string, Record<string, JsonValue>>)[template]?.[
    method.toLowerCase()
  ];
  expect(operation, `${where}: no such operation`).toBeDefined();
  const responses = operation?.responses as Record<string, JsonValue>;
  const exact = responses[String(response.status)];
  const range = responses[`${String(response.status)[0]}XX`];
  const documented = exact ?? range;
  expect(documented, `${where}: status not documented (${response.text.slice(0, 200)})`).toBeDefined();
  const content = resolved(documented as JsonValue).content as
    | Record<string, { schema: unknown }>
    | undefined;
  if (response.status === 204 || response.status === 304) {
    expect(response.text, where).toBe('');
    return;
  }
  const schema = content?.['application/json']?.schema;
  expect(schema, `${where}: documented without a body schema`).toBeDefined();
  const validate = ajv.compile(anchored(schema) as object);
  const valid = validate(response.body);
  expect(validate.errors ?? [], `${where}: ${response.text.slice(0, 300)}`).toEqual([]);
  expect(valid).toBe(true);
}

/** Calls the operation at `template` (`{name}` filled from `values`) and checks the answer. */
async function call<T = JsonValue>(
  method: string,
  template: string,
  values: Record<string, string | number>,
  options: Parameters<typeof api>[2] = {},
): Promise<ApiResponse<T>> {
  const path = template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(String(values[name])));
  const response = await api<T>(method, path.replace(/^\/api\/v4/, ''), options);
  expectConforms(method, template, response);
  return response;
}

describe('responses conform to the OpenAPI document', () => {
  let userId: number;
  let userToken: string;
  let groupId: number;
  let projectId: number;
  let issueIid: number;

  beforeAll(async () => {
    const username = unique('oas');
    const created = await call<{ id: number }>(
      'POST',
      '/api/v4/users',
      {},
      { json: { username, email: `${username}@example.com`, name: username, password: 'password123' } },
    );
    expect(created.status).toBe(201);
    userId = created.body.id;
    const token = await api<{ token: string }>('POST', `/users/${userId}/personal_access_tokens`, {
      json: { name: 'oas', scopes: ['api'] },
    });
    expect(token.status).toBe(201);
    userToken = token.body.token;
  });

  it('users: current, list, get (admin, user, anonymous), update and refusals', async () => {
    expect((await call('GET', '/api/v4/user', {})).status).toBe(200);
    expect((await call('GET', '/api/v4/user', {}, { token: userToken })).status).toBe(200);
    expect((await call('GET', '/api/v4/users', {}, { token: userToken })).status).toBe(200);
    expect((await call('GET', '/api/v4/users', {})).status).toBe(200);
    expect((await call('GET', '/api/v4/users/{id}', { id: userId })).status).toBe(200);
    expect((await call('GET', '/api/v4/users/{id}', { id: userId }, { token: null })).status).toBe(200);
    expect(
      (await call('PUT', '/api/v4/users/{id}', { id: userId }, { form: { bio: 'Writes specs' } })).status,
    ).toBe(200);
    expect((await call('GET', '/api/v4/users/{id}', { id: 999_999_999 })).status).toBe(404);
    expect((await call('POST', '/api/v4/users', {}, { json: { name: 'no email' } })).status).toBe(400);
    expect((await call('GET', '/api/v4/user', {}, { token: 'glpat-unknown' })).status).toBe(401);
    expect((await call('POST', '/api/v4/users', {}, { token: userToken, json: {} })).status).toBe(403);
  });

  it('groups: create, list (also a search), get, update, subgroups and projects', async () => {
    const path = unique('oas-group');
    const created = await call<{ id: number }>(
      'POST',
      '/api/v4/groups',
      {},
      { json: { name: path, path, visibility: 'public' } },
    );
    expect(created.status).toBe(201);
    groupId = created.body.id;
    expect((await call('GET', '/api/v4/groups', {})).status).toBe(200);
    expect((await call('GET', '/api/v4/groups', {}, { token: null })).status).toBe(200);
    expect((await call('GET', '/api/v4/groups', {}, { token: userToken })).status).toBe(200);
    expect((await call('GET', '/api/v4/groups/{id}', { id: groupId })).status).toBe(200);
    expect(
      (await call('PUT', '/api/v4/groups/{id}', { id: groupId }, { json: { description: 'Specs' } })).status,
    ).toBe(200);
    expect((await call('GET', '/api/v4/groups/{id}/subgroups', { id: groupId })).status).toBe(200);
    expect((await call('GET', '/api/v4/groups/{id}/projects', { id: groupId })).status).toBe(200);
    expect((await call('GET', '/api/v4/groups/{id}', { id: 999_999_999 })).status).toBe(404);
    expect((await call('POST', '/api/v4/groups', {}, { json: { name: 'no path' } })).status).toBe(400);
  });

  it('groups: a search answers the short form, which the document allows', async () => {
    const path = unique('oas-find');
    expect((await call('POST', '/api/v4/groups', {}, { json: { name: path, path } })).status).toBe(201);
    const found = await api<unknown[]>('GET', `/groups?search=${path}`);
    expect(found.status).toBe(200);
    expect(found.body).toHaveLength(1);
    expectConforms('GET', '/api/v4/groups', found);
  });

  it('projects: create (group and personal), list (full, simple, anonymous), get, update, star, archive', async () => {
    const inGroup = await call<{ id: number }>(
      'POST',
      '/api/v4/projects',
      {},
      { json: { name: unique('oas-project'), namespace_id: groupId, visibility: 'public' } },
    );
    expect(inGroup.status).toBe(201);
    projectId = inGroup.body.id;
    const personal = await call<{ id: number; owner?: unknown }>(
      'POST',
      '/api/v4/projects',
      {},
      { token: userToken, json: { name: unique('oas-mine') } },
    );
    expect(personal.status).toBe(201);
    expect(personal.body.owner).toBeDefined();
    expect((await call('GET', '/api/v4/projects', {})).status).toBe(200);
    const simple = await api<unknown[]>('GET', '/projects?simple=true');
    expect(simple.status).toBe(200);
    expectConforms('GET', '/api/v4/projects', simple);
    expect((await call('GET', '/api/v4/projects', {}, { token: null })).status).toBe(200);
    expect((await call('GET', '/api/v4/projects/{id}', { id: projectId })).status).toBe(200);
    const withStatistics = await api(
      'GET',
      `/projects/${projectId}?statistics=true&with_custom_attributes=true`,
    );
    expect(withStatistics.status).toBe(200);
    expectConforms('GET', '/api/v4/projects/{id}', withStatistics);
    expect(
      (await call('PUT', '/api/v4/projects/{id}', { id: projectId }, { json: { description: 'Specs' } }))
        .status,
    ).toBe(200);
    expect((await call('POST', '/api/v4/projects/{id}/star', { id: projectId })).status).toBe(201);
    expect((await call('POST', '/api/v4/projects/{id}/star', { id: projectId })).status).toBe(304);
    expect((await call('POST', '/api/v4/projects/{id}/archive', { id: projectId })).status).toBe(201);
    expect((await call('POST', '/api/v4/projects/{id}/unarchive', { id: projectId })).status).toBe(201);
    expect((await call('GET', '/api/v4/users/{user_id}/projects', { user_id: userId })).status).toBe(200);
    expect((await call('GET', '/api/v4/projects/{id}', { id: 999_999_999 })).status).toBe(404);
  });

  it('notes: create, list, get and update on an issue', async () => {
    const issue = await call<{ iid: number }>(
      'POST',
      '/api/v4/projects/{id}/issues',
      { id: projectId },
      { json: { title: 'Document the API' } },
    );
    expect(issue.status).toBe(201);
    issueIid = issue.body.iid;
    const values = { id: projectId, issue_iid: issueIid };
    const note = await call<{ id: number }>(
      'POST',
      '/api/v4/projects/{id}/issues/{issue_iid}/notes',
      values,
      { json: { body: 'First note' } },
    );
    expect(note.status).toBe(201);
    const one = { ...values, note_id: note.body.id };
    expect((await call('GET', '/api/v4/projects/{id}/issues/{issue_iid}/notes', values)).status).toBe(200);
    expect((await call('GET', '/api/v4/projects/{id}/issues/{issue_iid}/notes/{note_id}', one)).status).toBe(
      200,
    );
    expect(
      (
        await call('PUT', '/api/v4/projects/{id}/issues/{issue_iid}/notes/{note_id}', one, {
          json: { body: 'Edited' },
        })
      ).status,
    ).toBe(200);
    expect(
      (await call('POST', '/api/v4/projects/{id}/issues/{issue_iid}/notes', values, { json: {} })).status,
    ).toBe(400);
    expect(
      (await call('DELETE', '/api/v4/projects/{id}/issues/{issue_iid}/notes/{note_id}', one)).status,
    ).toBe(204);
  });

  it('hooks: create, list, get, update, delete', async () => {
    const created = await call<{ id: number }>(
      'POST',
      '/api/v4/projects/{id}/hooks',
      { id: projectId },
      { json: { url: 'http://127.0.0.1:9/hook', token: 'secret', note_events: true } },
    );
    expect(created.status).toBe(201);
    const one = { id: projectId, hook_id: created.body.id };
    expect((await call('GET', '/api/v4/projects/{id}/hooks', { id: projectId })).status).toBe(200);
    expect((await call('GET', '/api/v4/projects/{id}/hooks/{hook_id}', one)).status).toBe(200);
    expect(
      (
        await call('PUT', '/api/v4/projects/{id}/hooks/{hook_id}', one, {
          json: { url: 'http://127.0.0.1:9/other' },
        })
      ).status,
    ).toBe(200);
    expect(
      (await call('GET', '/api/v4/projects/{id}/hooks', { id: projectId }, { token: userToken })).status,
    ).toBe(403);
    expect((await call('DELETE', '/api/v4/projects/{id}/hooks/{hook_id}', one)).status).toBe(200);
    expect((await call('GET', '/api/v4/projects/{id}/hooks/{hook_id}', one)).status).toBe(404);
  });

  it('deletes: a project and a group are accepted for removal', async () => {
    expect((await call('DELETE', '/api/v4/projects/{id}', { id: projectId })).status).toBe(202);
    expect((await call('DELETE', '/api/v4/groups/{id}', { id: groupId })).status).toBe(202);
  });

  it('GET /api/v4/openapi.json serves the document to anyone', async () => {
    const served = await api('GET', '/openapi.json', { token: null });
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toMatch(/^application\/json/);
    expect(served.body).toEqual(document);
  });
});
