/**
 * The middy chain every endpoint runs through. A handler declares its auth mode and params schema
 * and returns a value or a `reply`; parsing, authentication, validation, error shapes, pagination
 * headers and logging all happen here, once.
 */
import middy, { type MiddlewareObj } from '@middy/core';
import type { Context } from 'aws-lambda';
import * as v from 'valibot';
import { config } from '#config/env.ts';
import {
  allowsSudo,
  type Credential,
  isExpired,
  scopeAllows,
  sudoIdentifier,
  type TokenGrant,
  tokenUserHint,
} from '#domain/access-tokens.ts';
import { useGravatar } from '#domain/avatars.ts';
import {
  forbidden,
  insufficientScope,
  invalidParams,
  invalidToken,
  notFound,
  unauthorized,
  validationFailed,
} from '#domain/errors.ts';
import { basicPassword, gitReadScopeAllows } from '#domain/git-http.ts';
import { DEFAULT_PER_PAGE, MAX_PER_PAGE, type PageRequest } from '#domain/pagination.ts';
import { int, issueCode, modelSentence, oneOf, optional, reference } from '#domain/params.ts';
import { type ReadScope, readScopeOf } from '#domain/read-scope.ts';
import { apiAccessDenial, isBlockedState } from '#domain/user-states.ts';
import { type Caller, callerOf } from '#domain/users.ts';
import { log } from '#observability/log.ts';
import type { CredentialBatch } from '#store/access/access.ts';
import { readAhead } from '#store/access/read-ahead.ts';
import type { Key } from '#store/table/batch.ts';
import { batchGetItems } from '#store/table/batch.ts';
import {
  findGrant,
  type PresentedSecret,
  presentedSecret,
  readGrantWith,
} from '#store/users/access-tokens.ts';
import { findUser } from '#store/users/users.ts';
import {
  type ApiEvent,
  gitlabErrors,
  type RequestInfo,
  type Response,
  requestLog,
  requestStateOf,
  toResponse,
} from './core.ts';
import { MAX_CURSOR_LENGTH } from './cursor.ts';
import { idempotently } from './idempotency.ts';
import type { Loader, Reader } from './load.ts';
import { keysetRequest } from './pagination.ts';
import { headerValue, parseQueryString, parseRequest, type UploadedFile } from './parse.ts';

export type { ApiEvent, RequestInfo, Response, UploadedFile };

/** Who may call: anyone (public data only when anonymous), any signed-in user, or admins. */
export type AuthMode = 'optional' | 'user' | 'admin';

export interface RouteInput<P> {
  params: P;
  /** Who the request acts as (under sudo, the impersonated user). */
  caller: Caller | undefined;
  /** What the caller reads: whose memberships count, whether it sees all, what is open to it. */
  readScope: ReadScope;
  /** The personal access token presented, when there is one. */
  credential: Credential | undefined;
  files: Record<string, UploadedFile>;
  page: PageRequest;
  request: RequestInfo;
}

type ObjectSchema = v.ObjectSchema<v.ObjectEntries, v.ErrorMessage<v.ObjectIssue> | undefined>;

export interface RouteSpec<S extends ObjectSchema, C extends AuthMode, F, L> {
  /** `optional`: anonymous callers allowed (they see public data only). */
  auth: C;
  /** A GET about users, allowed to tokens with only the `read_user` scope. */
  userRead?: boolean;
  /** Allowed to a token of any scope (revoking the token itself). */
  anyScope?: boolean;
  /**
   * Git over HTTP: the token may also come as the password of Basic authorization, and the scopes
   * that let it in are those for fetching code (`read_repository`, `write_repository`, `api`).
   */
  gitRead?: boolean;
  params: S;
  paginated?: boolean;
  /**
   * The main read, when it does not depend on the caller: started beside authentication so the
   * two cost one round trip. Its result (or error) reaches `run` only once the caller is known.
   */
  prefetch?: (params: v.InferOutput<S>, readAhead: CredentialBatch) => Promise<F>;
  /**
   * The resource the route acts on (`project({...})`, `group({...})` of ./load.ts): read beside
   * authentication, authorized once the caller is known, and handed to `run` with the caller's
   * level, so no handler reads it or checks a level itself.
   */
  load?: Loader<v.InferOutput<S>, L>;
  run: (
    input: RouteInput<v.InferOutput<S>> & {
      caller: C extends 'optional' ? Caller | undefined : Caller;
      prefetched: Promise<F>;
    } & L,
  ) => Promise<unknown>;
}

/** What a route declares to its callers, read by the OpenAPI document (shared/openapi). */
export interface RouteContract {
  auth: AuthMode;
  params: ObjectSchema;
  paginated: boolean;
}

// Middlewares ------------------------------------------------------------------------------------

const parseParams = (): MiddlewareObj<ApiEvent, Response> => ({
  before: async (request) => {
    const event = request.event;
    const state = requestStateOf(event);
    state.parsed = await parseRequest(event);
    // `sudo` belongs to authentication, never to a route's parameters (GitLab: param over header).
    const { sudo, ...params } = state.parsed.params;
    state.parsed.params = params;
    state.sudo = sudoIdentifier(sudo) ?? headerValue(event.headers, 'sudo');
    // The presenters' users without an upload take the deployment's Gravatar setting.
    useGravatar(config.gravatarUrl);
    state.info = {
      method: event.requestContext?.http?.method ?? 'GET',
      requestId: state.requestId,
      baseUrl: baseUrlOf(event),
      path: event.rawPath ?? event.requestContext?.http?.path ?? '/',
      query: parseQueryString(event.rawQueryString),
      userAgent: headerValue(event.headers, 'user-agent') ?? event.requestContext?.http?.userAgent,
      ip: event.requestContext?.http?.sourceIp,
    };
  },
});

function baseUrlOf(event: ApiEvent): string {
  const configured = config.externalUrl;
  if (configured) return configured.replace(/\/+$/, '');
  const host = headerValue(event.headers, 'host') ?? event.requestContext?.domainName ?? 'localhost';
  const proto = headerValue(event.headers, 'x-forwarded-proto') ?? 'https';
  return `${proto}://${host}`;
}

/**
 * The presented credential: `private_token`/`access_token` param, PRIVATE-TOKEN header, Bearer;
 * for git over HTTP also Basic authorization's password.
 */
function presentedToken(
  event: ApiEvent,
  params: Record<string, unknown>,
  basic: boolean,
): string | undefined {
  const authorization = headerValue(event.headers, 'authorization');
  const candidates = [
    params.private_token,
    headerValue(event.headers, 'private-token'),
    params.access_token,
    /^Bearer\s+(.+)$/i.exec(authorization ?? '')?.[1],
    basic ? basicPassword(authorization) : undefined,
  ];
  for (const candidate of candidates) {
    if (typeof candidate === 'string' && candidate.trim() !== '') return candidate.trim();
  }
  return undefined;
}

/** How a route lets tokens in: which scopes suffice besides `api`. */
interface ScopeRule {
  userRead: boolean;
  anyScope: boolean;
  gitRead: boolean;
}

/**
 * The caller behind the presented credential (undefined when none); 401/403 as GitLab answers.
 * The grant comes from its own read, or from a batch a prefetch folded it into. With `sudo`, an
 * admin's token with the `sudo` scope acts as the user named, for the whole request.
 */
async function resolveCaller(
  event: ApiEvent,
  mode: AuthMode,
  rule: ScopeRule,
  grantRead?: Promise<TokenGrant | undefined>,
): Promise<Caller | undefined> {
  const state = requestStateOf(event);
  const secret = presentedOnce(event, rule);
  let caller: Caller | undefined;
  if (secret !== undefined) {
    const grant = await (grantRead ?? findGrant(secret));
    if (!grant) throw unauthorized();
    if (grant.revoked) throw invalidToken('Token was revoked. You have to re-authorize from the user.');
    if (isExpired(grant.expires_at)) {
      throw invalidToken('Token is expired. You can either do re-authorization or token refresh.');
    }
    const denial = apiAccessDenial(grant.user.state);
    if (denial) throw forbidden(denial);
    state.credential = { tokenId: grant.token_id, tokenHash: secret.hash, userId: grant.user.id };
    caller = state.sudo === undefined ? grant.user : await impersonated(grant, state.sudo);
    // Acting as someone else takes the `sudo` scope alone; otherwise the route's scopes apply.
    const scoped = caller.id === grant.user.id && !rule.anyScope;
    if (scoped && rule.gitRead) {
      if (!gitReadScopeAllows(grant.scopes)) throw insufficientScope('read_repository');
    } else if (scoped && !scopeAllows(grant.scopes, state.info?.method ?? 'GET', rule.userRead)) {
      throw insufficientScope('api');
    }
    if (caller.id !== grant.user.id) state.impersonatedBy = grant.user.id;
    readAhead.rememberUser(readAheadKey(secret, state.sudo), caller.id);
  } else if (state.sudo !== undefined) {
    throw unauthorized();
  }
  if (mode !== 'optional' && !caller) throw unauthorized();
  if (mode === 'admin' && !caller?.admin) throw forbidden();
  return caller;
}

/**
 * The user an admin's token acts as (GitLab's `sudo!`): admins only, with a token holding the
 * `sudo` scope, and a user that exists (by id when all digits, else by username), read only once
 * the token may impersonate. A blocked (or banned) user cannot be acted as, as they cannot act
 * themselves.
 */
async function impersonated(grant: TokenGrant, identifier: string): Promise<Caller> {
  if (!grant.user.admin) throw forbidden('Must be admin to use sudo');
  if (!allowsSudo(grant.scopes)) throw insufficientScope('sudo');
  const user = await findUser(identifier);
  if (!user) throw notFound(`User with ID or username '${identifier}'`);
  if (isBlockedState(user.state)) throw forbidden('User is blocked');
  return callerOf(user);
}

/** Whose credential this is likely to be: as this container last saw it, or as the secret says. */
const likelyUserOf = (secret: PresentedSecret, sudo: string | undefined) =>
  readAhead.likelyUser(readAheadKey(secret, sudo)) ??
  (sudo === undefined ? tokenUserHint(secret.secret) : undefined);

/** What read-ahead remembers a credential by: under sudo, the credential and the user it names. */
function readAheadKey(secret: PresentedSecret, sudo: string | undefined): Key {
  const key = secret.key;
  return sudo === undefined ? key : { ...key, pk: `${key.pk}#SUDO#${sudo.toLowerCase()}` };
}

/** Each request's presented secret, found and hashed once: its reads, its checks and read-ahead use it. */
const presentedByRequest = new WeakMap<ApiEvent, PresentedSecret | undefined>();

/** Asked only once the parameters are parsed (a token may come as one), so the answer cannot change. */
function presentedOnce(event: ApiEvent, rule: ScopeRule): PresentedSecret | undefined {
  if (presentedByRequest.has(event)) return presentedByRequest.get(event);
  const token = presentedToken(event, requestStateOf(event).parsed?.params ?? {}, rule.gitRead);
  const secret = token === undefined ? undefined : presentedSecret(token);
  presentedByRequest.set(event, secret);
  return secret;
}

/** Authenticates once per request, whoever asks first (a parameter error or the handler). */
function authenticateOnce(
  event: ApiEvent,
  mode: AuthMode,
  rule: ScopeRule,
  grantRead?: Promise<TokenGrant | undefined>,
): Promise<Caller | undefined> {
  const state = requestStateOf(event);
  if (!state.authentication) {
    state.authentication = resolveCaller(event, mode, rule, grantRead);
    state.authentication.catch(() => undefined);
  }
  return state.authentication;
}

const pageParams = {
  page: optional(int()),
  per_page: optional(int()),
  pagination: optional(oneOf(['offset', 'keyset'])),
  cursor: optional(
    v.pipe(
      reference(),
      v.check((value) => value.length <= MAX_CURSOR_LENGTH, issueCode.invalid),
    ),
  ),
};

/** Grape's sentences for each failed parameter, joined like Grape joins them. */
export function describeIssues(issues: readonly v.BaseIssue<unknown>[]): string {
  const sentences: string[] = [];
  for (const issue of issues) {
    const path = issue.path ?? [];
    const first = path[0]?.key;
    if (first === undefined) {
      sentences.push('parameters are invalid');
      continue;
    }
    let name = String(first);
    const second = path[1];
    if (second && second.type === 'object') name += `[${String(second.key)}]`;
    const code =
      issue.type === 'object' && issue.input === undefined && path.length === 1
        ? issueCode.missing
        : issue.message;
    const sentence =
      code === issueCode.missing
        ? `${name} is missing`
        : code === issueCode.notAllowed
          ? `${name} does not have a valid value`
          : `${name} is invalid`;
    if (!sentences.includes(sentence)) sentences.push(sentence);
  }
  return sentences.join(', ');
}

/**
 * Grape's error for the parameters it refuses; when only the model would refuse them (lengths,
 * dates in the past), the model's error (`{"message": {"name": ["is too long (maximum is 255
 * characters)"]}}`), as GitLab answers after Grape has let the values through.
 */
function parameterError(issues: readonly v.BaseIssue<unknown>[]) {
  const modelErrors: Record<string, string[]> = {};
  const others = issues.filter((issue) => {
    const sentence = modelSentence(issue.message);
    const name = issue.path?.[0]?.key;
    if (sentence === undefined || name === undefined) return true;
    modelErrors[String(name)] = [sentence];
    return false;
  });
  return others.length ? invalidParams(describeIssues(others)) : validationFailed(modelErrors);
}

const validate = (
  schema: ObjectSchema,
  paginated: boolean,
  mode: AuthMode,
  rule: ScopeRule,
): MiddlewareObj<ApiEvent, Response> => {
  const full = paginated ? v.object({ ...schema.entries, ...pageParams }, issueCode.invalid) : schema;
  return {
    before: async (request) => {
      const state = requestStateOf(request.event);
      try {
        const result = v.safeParse(full, state.parsed?.params ?? {}, { abortEarly: false });
        if (!result.success) throw parameterError(result.issues);
        const output = result.output as Record<string, unknown> & {
          page?: number;
          per_page?: number;
          pagination?: string;
          cursor?: string;
        };
        state.params = output;
        state.page = pageRequest(output.page, output.per_page);
        if (paginated) {
          state.page = withKeyset(state.page, output, state.info);
          pagesOfParams.set(output, state.page);
        }
      } catch (error) {
        // A bad credential is reported before bad parameters, as GitLab does.
        await authenticateOnce(request.event, mode, rule);
        throw error;
      }
    },
  };
};

/** Kaminari: page ≤ 0 is page 1; per_page over 100 is 100; negative per_page is the default; 0 is refused. */
export function pageRequest(page: number | undefined, perPage: number | undefined): PageRequest {
  if (perPage === 0) throw invalidParams('per_page does not have a valid value');
  const size = perPage === undefined || perPage < 0 ? DEFAULT_PER_PAGE : Math.min(perPage, MAX_PER_PAGE);
  return { page: page === undefined || page < 1 ? 1 : page, perPage: size };
}

const pagesOfParams = new WeakMap<object, PageRequest>();

/**
 * The page a paginated route's validated parameters ask for, keyset included: the very request
 * the handler gets as `page` (a keyset reader records the next page's start on it), for reads
 * started from the parameters before the handler runs.
 */
export function pageRequestOf(params: { page?: number; per_page?: number }): PageRequest {
  return pagesOfParams.get(params) ?? pageRequest(params.page, params.per_page);
}

/** A keyset request is always the first page by number; where it starts is its cursor's. */
function withKeyset(
  page: PageRequest,
  params: { pagination?: string; cursor?: string },
  info: RequestInfo | undefined,
): PageRequest {
  const keyset = keysetRequest(params, { path: info?.path ?? '/', query: info?.query ?? {} });
  return keyset ? { page: 1, perPage: page.perPage, keyset } : page;
}

export function defineRoute<
  S extends ObjectSchema,
  C extends AuthMode = 'optional',
  F = undefined,
  L = unknown,
>(spec: RouteSpec<S, C, F, L>) {
  const mode: AuthMode = spec.auth ?? 'optional';
  const rule: ScopeRule = {
    userRead: spec.userRead ?? false,
    anyScope: spec.anyScope ?? false,
    gitRead: spec.gitRead ?? false,
  };
  const base = async (event: ApiEvent, lambda: Context): Promise<Response> => {
    const state = requestStateOf(event);
    const params = state.params as v.InferOutput<S>;
    const secret = presentedOnce(event, rule);
    let grantRead: Promise<TokenGrant | undefined> | undefined;
    let authenticating = false;
    const context: CredentialBatch = {
      likelyUserId: secret === undefined ? undefined : likelyUserOf(secret, state.sudo),
      readWithCredential: (keys, options) => {
        if (secret === undefined || grantRead) return batchGetItems(keys, options);
        if (authenticating) {
          // Asked after an await: authentication reads the credential alone, so these keys are
          // read on their own (correct, one round trip dearer). The reader should ask sooner.
          log('warn', 'read-ahead asked after authentication started', { path: state.info?.path });
          return batchGetItems(keys, options);
        }
        const read = readGrantWith(secret, keys, options);
        grantRead = read.grant;
        return read.items;
      },
    };
    // The reads run first so they can fold the credential into theirs; authentication starts in
    // the same tick either way.
    const prefetched = spec.prefetch ? spec.prefetch(params, context) : Promise.resolve(undefined as F);
    prefetched.catch(() => undefined);
    const loading = spec.load?.start(params, context);
    loading?.catch(() => undefined);
    authenticating = true;
    state.caller = await authenticateOnce(event, mode, rule, grantRead);
    // With an Idempotency-Key, the key is claimed (or its answer replayed) before anything is authorized.
    return idempotently(event, lambda, async () => {
      const reader: Reader = { caller: state.caller, readScope: readScopeOf(state.caller) };
      const loaded = spec.load && loading ? await spec.load.authorize(loading, reader, params) : ({} as L);
      const value = await spec.run({
        ...loaded,
        params,
        prefetched,
        caller: reader.caller as Caller,
        readScope: reader.readScope,
        credential: state.credential,
        files: state.parsed?.files ?? {},
        page: state.page as PageRequest,
        request: state.info as RequestInfo,
      });
      return toResponse(value, state);
    });
  };
  const handler = middy<ApiEvent, Response>(base)
    .use(requestLog())
    .use(gitlabErrors())
    .use(parseParams())
    .use(validate(spec.params, spec.paginated ?? false, mode, rule));
  const contract: RouteContract = { auth: mode, params: spec.params, paginated: spec.paginated ?? false };
  return Object.assign(handler, { contract });
}
