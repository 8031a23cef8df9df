/**
 * The OpenAPI 3.1 document of the API, built from the route table and what each route's handler
 * declares (`contract` of defineRoute: who may call, the parameter schema, pagination). Path
 * parameters go in the path, the other parameters in the query (GET, DELETE) or the body (POST,
 * PUT: JSON, form or multipart, as the parser takes them).
 */
import type { JsonSchema } from '@valibot/to-json-schema';
import { MAX_CURSOR_LENGTH } from '#http/cursor.ts';
import type { RouteContract } from '#http/route.ts';
import { entities } from './entities.ts';
import { entityJsonSchema, isOptional, parameterJsonSchema } from './json-schema.ts';
import { entityResponses, otherStatuses } from './responses.ts';

export interface DocumentedRoute {
  method: string;
  path: string;
  /** The handler file; it exports `handler`. */
  entry: string;
  /** The route's function as the stack names it, where several routes share one entry. */
  name?: string;
  /** Absent for a route defined without defineRoute (no parameters, no authentication). */
  contract?: RouteContract;
}

type JsonObject = Record<string, unknown>;

/**
 * What names a route's operation (its id, tag, body schema, described responses): its function's
 * name, as the stack's (functions/route-kit.ts `functionNameOf`), so routes sharing an entry differ.
 */
const functionNameOf = (route: DocumentedRoute) => route.name ?? route.entry;

const API_VERSION = '4';
const SECURITY_SCHEMES = {
  privateToken: {
    type: 'apiKey',
    in: 'header',
    name: 'PRIVATE-TOKEN',
    description: 'A personal access token (also accepted as the `private_token` parameter).',
  },
  bearer: { type: 'http', scheme: 'bearer', description: 'A personal access token as a Bearer token.' },
};
const SIGNED_IN = [{ privateToken: [] }, { bearer: [] }];

const ERROR_SCHEMA = {
  description: "GitLab's error shapes: `{message}` (a sentence, or a model's errors by field) or `{error}`.",
  anyOf: [
    {
      type: 'object',
      required: ['message'],
      properties: {
        message: {
          anyOf: [
            { type: 'string' },
            { type: 'object', additionalProperties: { type: 'array', items: { type: 'string' } } },
          ],
        },
      },
    },
    { type: 'object', required: ['error'], properties: { error: { type: 'string' } } },
  ],
};

const PAGE_HEADER_NAMES = [
  'X-Total',
  'X-Total-Pages',
  'X-Per-Page',
  'X-Page',
  'X-Next-Page',
  'X-Prev-Page',
  'Link',
];
const PAGE_HEADERS = Object.fromEntries(
  PAGE_HEADER_NAMES.map((name) => [name, { $ref: `#/components/headers/${name}` }]),
);

const STATUS_TEXT: Record<number, string> = {
  200: 'OK',
  201: 'Created',
  202: 'Accepted',
  204: 'No Content',
  304: 'Not Modified',
};

const methodStatus = (method: string) => (method === 'POST' ? 201 : method === 'DELETE' ? 204 : 200);

const ERROR_RESPONSES = {
  BadRequest: 'A parameter is missing or invalid.',
  Unauthorized: 'The token is unknown, revoked or expired, or the route needs one.',
  Forbidden: 'The caller may not do this.',
  NotFound: 'Not found, or not visible to the caller.',
  Refused: 'Refused (conflict, too large, …).',
};

const errorResponse = (name: keyof typeof ERROR_RESPONSES) => ({ $ref: `#/components/responses/${name}` });

const pathParameterNames = (path: string) =>
  [...path.matchAll(/\{([^}+]+)\+?\}/g)].map((match) => match[1] as string);

function operationId(entry: string, method: string, taken: Set<string>): string {
  const base = entry
    .replace(/^functions\//, '')
    .replace(/\.ts$/, '')
    .split(/[/-]/)
    .map((word, index) => (index === 0 ? word : word.charAt(0).toUpperCase() + word.slice(1)))
    .join('');
  const suffix = `${method.charAt(0)}${method.slice(1).toLowerCase()}`;
  let id = taken.has(base) ? `${base}${suffix}` : base;
  // Rows of one function and method (a route per path suffix) are numbered.
  for (let count = 2; taken.has(id); count++) id = `${base}${suffix}${count}`;
  taken.add(id);
  return id;
}

function parametersOf(route: DocumentedRoute) {
  const inPath = new Set(pathParameterNames(route.path));
  const entries = route.contract?.params.entries ?? {};
  const parameters: JsonObject[] = [...inPath].map((name) => {
    const entry = entries[name];
    return {
      name,
      in: 'path',
      required: true,
      schema: entry ? parameterJsonSchema(entry) : { type: 'string' },
    };
  });
  const rest = Object.entries(entries).filter(([name]) => !inPath.has(name));
  const inBody = route.method === 'POST' || route.method === 'PUT' || route.method === 'PATCH';
  if (!inBody) {
    for (const [name, entry] of rest) {
      parameters.push({
        name,
        in: 'query',
        required: !isOptional(entry),
        schema: parameterJsonSchema(entry),
      });
    }
  }
  if (route.contract?.paginated) {
    for (const name of ['page', 'per_page']) {
      parameters.push({ name, in: 'query', required: false, schema: { type: 'integer', minimum: 1 } });
    }
    parameters.push(
      {
        name: 'pagination',
        in: 'query',
        required: false,
        schema: { type: 'string', enum: ['offset', 'keyset'] },
      },
      // Opaque: the `rel="next"` link of a keyset page carries it.
      {
        name: 'cursor',
        in: 'query',
        required: false,
        schema: { type: 'string', maxLength: MAX_CURSOR_LENGTH },
      },
    );
  }
  if (!inBody || rest.length === 0) return { parameters };
  const body: JsonSchema = {
    type: 'object',
    properties: Object.fromEntries(rest.map(([name, entry]) => [name, parameterJsonSchema(entry)])),
  };
  const required = rest.filter(([, entry]) => !isOptional(entry)).map(([name]) => name);
  if (required.length) body.required = required;
  const schema = { $ref: `#/components/schemas/${bodySchemaName(functionNameOf(route))}` };
  return {
    parameters,
    body,
    requestBody: {
      required: required.length > 0,
      content: {
        'application/json': { schema },
        'application/x-www-form-urlencoded': { schema },
        'multipart/form-data': { schema },
      },
    },
  };
}

const bodySchemaName = (entry: string) =>
  `${entry
    .replace(/^functions\//, '')
    .replace(/\.ts$/, '')
    .split(/[/-]/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('')}Body`;

function responsesOf(route: DocumentedRoute) {
  const name = functionNameOf(route);
  const described = entityResponses[name];
  const statuses = described?.statuses ?? otherStatuses[name] ?? [methodStatus(route.method)];
  const responses: JsonObject = {};
  for (const status of statuses) {
    const response: JsonObject = { description: STATUS_TEXT[status] ?? 'Success' };
    if (status !== 204 && status !== 304) {
      const entity = {
        $ref: `#/components/schemas/${described ? entityName(described.entity) : 'Undescribed'}`,
      };
      response.content = {
        'application/json': { schema: described?.list ? { type: 'array', items: entity } : entity },
      };
    }
    if (route.contract?.paginated && status === 200) response.headers = PAGE_HEADERS;
    responses[String(status)] = response;
  }
  if (route.contract) {
    responses['400'] = errorResponse('BadRequest');
    responses['401'] = errorResponse('Unauthorized');
    responses['403'] = errorResponse('Forbidden');
  }
  responses['404'] = errorResponse('NotFound');
  responses['4XX'] = errorResponse('Refused');
  return responses;
}

const entityName = (entity: string) => entity.charAt(0).toUpperCase() + entity.slice(1);

const securityOf = (contract: RouteContract | undefined) => {
  if (!contract) return [];
  // Anonymous callers are let in (they see public data only).
  return contract.auth === 'optional' ? [...SIGNED_IN, {}] : SIGNED_IN;
};

export function openApiDocument(routes: readonly DocumentedRoute[], version: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  const bodies: Record<string, JsonSchema> = {};
  const taken = new Set<string>();
  for (const route of routes) {
    // `$default`, the catch-all, and a greedy route (`/{proxy+}`: git's files under a project's
    // clone URL) describe no API path.
    if (!route.path.startsWith('/') || route.path.includes('+}')) continue;
    const { parameters, body, requestBody } = parametersOf(route);
    const name = functionNameOf(route);
    if (body) bodies[bodySchemaName(name)] = body;
    const methods = route.method === 'ANY' ? ['get', 'post', 'put', 'delete'] : [route.method.toLowerCase()];
    for (const method of methods) {
      const operation: JsonObject = {
        operationId: operationId(name, method.toUpperCase(), taken),
        tags: [name.split('/')[1] ?? 'api'],
        security: securityOf(route.contract),
        ...(parameters.length ? { parameters } : {}),
        ...(requestBody ? { requestBody } : {}),
        responses: responsesOf({ ...route, method: method.toUpperCase() }),
      };
      if (route.contract?.auth === 'admin') operation.description = 'Administrators only.';
      paths[route.path] = { ...paths[route.path], [method]: operation };
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'GitLab-compatible API',
      version,
      description: `GitLab REST API v${API_VERSION}, as this service implements it.`,
    },
    servers: [{ url: '/' }],
    security: SIGNED_IN,
    paths,
    components: {
      securitySchemes: SECURITY_SCHEMES,
      responses: Object.fromEntries(
        Object.entries(ERROR_RESPONSES).map(([name, description]) => [
          name,
          {
            description,
            content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
          },
        ]),
      ),
      headers: Object.fromEntries(
        PAGE_HEADER_NAMES.map((name) => [
          name,
          { description: `Offset pagination.`, schema: { type: 'string' } },
        ]),
      ),
      schemas: {
        Error: ERROR_SCHEMA,
        Undescribed: {
          description: "GitLab's entity for this route; its fields are not described here yet.",
        },
        ...Object.fromEntries(
          Object.entries(entities).map(([name, schema]) => [entityName(name), entityJsonSchema(schema)]),
        ),
        ...bodies,
      },
    },
  };
}
