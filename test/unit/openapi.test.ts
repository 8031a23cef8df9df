/**
 * The OpenAPI document: valid OpenAPI 3.1 (by @seriousme/openapi-schema-validator), the same as a
 * fresh build from the route table and the handlers' declared parameters (so a route or schema
 * change without `npm run openapi` fails here), and parameter schemas that degrade instead of
 * failing when valibot's converter cannot express them.
 */
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { Validator } from '@seriousme/openapi-schema-validator';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { routes } from '../../functions/routes.ts';
import { withContracts } from '../../shared/openapi/contracts.ts';
import { openApiDocument } from '../../shared/openapi/document.ts';
import { parameterJsonSchema } from '../../shared/openapi/json-schema.ts';
import { DOCUMENT_PATH } from '../../shared/openapi/serialize.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));

const committed = async () => JSON.parse(await readFile(`${root}${DOCUMENT_PATH}`, 'utf8'));
const fresh = async () => {
  const { version } = JSON.parse(await readFile(`${root}package.json`, 'utf8')) as { version: string };
  return openApiDocument(await withContracts(routes, root), version);
};

type Operation = {
  security: unknown[];
  description?: string;
  parameters?: { name: string; in: string; required: boolean }[];
  requestBody?: { required: boolean; content: Record<string, { schema: { $ref: string } }> };
  responses: Record<string, unknown>;
};

describe('the OpenAPI document', () => {
  it('is valid OpenAPI 3.1', async () => {
    const result = await new Validator().validate(await committed());
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
  });

  it(`is what the route table and the handlers make of it (run \`npm run openapi\` when this fails)`, async () => {
    expect(await committed()).toEqual(JSON.parse(JSON.stringify(await fresh())));
  }, 60_000);

  it('has every route of the table, with its path parameters, query or body, and who may call', async () => {
    const document = await fresh();
    const operations = document.paths as Record<string, Record<string, Operation>>;
    // `$default` and the greedy route of git's files (`/{proxy+}`) describe no API path.
    const served = routes.filter((route) => route.path.startsWith('/') && !route.path.includes('+}'));
    for (const route of served) {
      expect(
        operations[route.path]?.[route.method.toLowerCase()],
        `${route.method} ${route.path}`,
      ).toBeDefined();
    }
    const created = operations['/api/v4/users']?.post as Operation;
    const bodyRef = created.requestBody?.content['application/x-www-form-urlencoded']?.schema.$ref;
    expect(bodyRef).toBe('#/components/schemas/UsersCreateBody');
    const body = (document.components.schemas as Record<string, unknown>).UsersCreateBody as {
      required: string[];
      properties: Record<string, unknown>;
    };
    expect(body.required).toEqual(['email', 'name', 'username']);
    expect(body.properties.admin).toEqual({
      anyOf: [{ type: 'boolean' }, { type: 'string' }, { type: 'number' }],
      description: 'Checked further by the server ("transform" not expressible).',
    });
    expect(created.description).toBe('Administrators only.');
    expect(created.security).toEqual([{ privateToken: [] }, { bearer: [] }]);
    expect(Object.keys(created.responses)).toEqual(['201', '400', '401', '403', '404', '4XX']);

    const list = operations['/api/v4/projects']?.get as Operation;
    expect(list.security).toEqual([{ privateToken: [] }, { bearer: [] }, {}]);
    const query = list.parameters?.filter((parameter) => parameter.in === 'query').map(({ name }) => name);
    expect(query).toEqual(expect.arrayContaining(['search', 'visibility', 'page', 'per_page']));

    const note = operations['/api/v4/projects/{id}/issues/{issue_iid}/notes/{note_id}']?.get as Operation;
    expect(note.parameters?.map(({ name, in: where, required }) => [name, where, required])).toEqual([
      ['id', 'path', true],
      ['issue_iid', 'path', true],
      ['note_id', 'path', true],
    ]);
    expect(operations['/api/v4/openapi.json']?.get?.security).toEqual([]);
    // Success statuses that are not the method's own.
    const successes = (path: string, method: string) =>
      Object.keys(operations[path]?.[method]?.responses ?? {}).filter((status) => /^[23]/.test(status));
    expect(successes('/api/v4/groups/{id}/ldap_sync', 'post')).toEqual(['202']);
    expect(successes('/api/v4/projects/{id}/mirror/pull', 'post')).toEqual(['200']);
    expect(successes('/api/v4/projects/{id}/uploads/{secret}/{filename}', 'get')).toEqual(['200', '302']);
  }, 60_000);
});

describe('parameter schemas', () => {
  it('are exact when valibot can say them', () => {
    expect(parameterJsonSchema(v.picklist(['asc', 'desc']))).toEqual({
      enum: ['asc', 'desc'],
      type: 'string',
    });
  });

  it('keep the types a client sends and say the server checks more (transforms, checks)', () => {
    expect(parameterJsonSchema(v.pipe(v.string(), v.transform(Number)))).toEqual({
      type: 'string',
      description: 'Checked further by the server ("transform" not expressible).',
    });
    expect(
      parameterJsonSchema(
        v.pipe(
          v.number(),
          v.check((value) => value % 2 === 0),
        ),
      ),
    ).toEqual({
      type: 'number',
      description: 'Checked further by the server ("check" not expressible).',
    });
  });

  it('degrade to any value with a reason when the converter cannot read them at all', () => {
    expect(parameterJsonSchema(v.custom<string>((value) => typeof value === 'string'))).toEqual({
      description: 'Checked further by the server ("custom" not expressible).',
    });
    const unreadable = { ...v.string(), pipe: [null] } as unknown as v.GenericSchema;
    expect(parameterJsonSchema(unreadable)).toEqual({
      description:
        "Any value; the server's rules decide (Cannot use 'in' operator to search for 'pipe' in null).",
    });
  });
});
