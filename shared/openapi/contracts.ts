/**
 * The routes with what each handler declares. Handlers are imported, not run: they create their
 * AWS clients on first use, so loading them touches nothing outside the process. Build-time only;
 * the served document is the one written from this (docs/openapi.json).
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { RouteContract } from '#http/route.ts';
import type { DocumentedRoute } from './document.ts';

export function withContracts(
  routes: readonly Omit<DocumentedRoute, 'contract'>[],
  root: string,
): Promise<DocumentedRoute[]> {
  return Promise.all(
    routes.map(async (route) => {
      const module: {
        handler?: { contract?: RouteContract; contractFor?: (path: string) => RouteContract | undefined };
      } = await import(pathToFileURL(join(root, route.entry)).href);
      // An entry serving several routes gives each its own contract.
      return { ...route, contract: module.handler?.contractFor?.(route.path) ?? module.handler?.contract };
    }),
  );
}
