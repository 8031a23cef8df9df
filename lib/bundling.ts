import { routes } from '../functions/routes.ts';
import { envNames } from '../shared/config/env.ts';

/**
 * Module substitutions every function bundle is built with: by the stack (NodejsFunction's
 * esbuild) and by the benchmark that sizes and times the bundles (test/bench/b1-bundles.ts).
 * Paths are relative to the repository root, esbuild's working directory in both.
 */
export const bundleAliases: Readonly<Record<string, string>> = {
  // isomorphic-git's exports give Node its CommonJS build, which esbuild cannot tree-shake: the
  // git workers would carry all of it (161 kB). Its ESM build is the same code, and only what the
  // workers call is kept (64 kB).
  'isomorphic-git': './node_modules/isomorphic-git/index.js',
  // Its SHA-1 from node:crypto instead of sha.js and the polyfills sha.js needs (shared/repository/sha1.ts).
  'sha.js/sha1.js': './shared/repository/sha1.ts',
  // Its zlib from node:zlib instead of pako's 46 kB of JavaScript (shared/repository/pako-substitute.ts).
  pako: './shared/repository/pako-substitute.ts',
  // Credentials from the environment only, where Lambda puts them (lib/bundle-substitutes/).
  '@aws-sdk/credential-provider-node': './lib/bundle-substitutes/credential-provider.ts',
};

/** The module shared/observability/tracing.ts imports when tracing is on. */
const tracingModule = '#observability/tracing-xray.ts';

/**
 * Whether every request a function built from `entry` serves is a GET (HEAD runs the GET route's
 * function): no route of it takes another method. Such a request carries no body the function
 * reads and is never idempotent by key. Workers, stream consumers and schedules are in no route
 * row: they serve no request at all.
 */
export const servesOnlyGet = (entry: string): boolean =>
  routes.every((route) => route.entry !== entry || route.method === 'GET');

/**
 * The esbuild `define`s of the bundle of `entry`, by the stack and the benchmark alike: each
 * replaces a `process.env` expression read literally by the module that names it, so the code
 * behind it is left out of bundles whose function never runs it.
 * - tracing on: shared/observability/tracing.ts imports the X-Ray tracer (absent, no tracer);
 * - every route of the entry is a GET: shared/http/parse.ts drops its multipart parser (busboy),
 *   shared/http/idempotency.ts its records.
 */
export function bundleDefines(entry: string, options: { tracing?: boolean } = {}): Record<string, string> {
  return {
    ...(options.tracing ? { [`process.env.${envNames.tracingModule}`]: JSON.stringify(tracingModule) } : {}),
    ...(servesOnlyGet(entry) ? { [`process.env.${envNames.routeMethods}`]: JSON.stringify('GET') } : {}),
  };
}
