/**
 * Tracing, off unless the bundle was built with it. The stack's bundling defines
 * `process.env.TRACING_MODULE` as `"#observability/tracing-xray.ts"` (esbuild `define`) when tracing is
 * on: the import below then names a module and esbuild bundles it. Without the define the
 * import names nothing esbuild can see, so no bundle carries the tracer or the X-Ray SDK.
 * Locally the same variable in the environment turns it on.
 */
import type { MiddlewareObj } from '@middy/core';

type Xray = typeof import('./tracing-xray.ts');

// Read literally (not through #config/env.ts): esbuild's define replaces this very expression.
const xray: Xray | undefined = process.env.TRACING_MODULE
  ? await import(process.env.TRACING_MODULE)
  : undefined;

/** The handler's segment, outermost in the chain, when tracing is on. */
export const handlerTracing = (): MiddlewareObj[] => (xray ? [xray.handlerTracing()] : []);

/** The client with its calls traced as subsegments when tracing is on; the client itself otherwise. */
export const captureClient = <T>(client: T): T => (xray ? xray.captureClient(client) : client);
