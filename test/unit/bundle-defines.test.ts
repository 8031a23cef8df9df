/**
 * The defines of lib/bundling.ts: a function serving GETs only is bundled without the multipart
 * parser (busboy) and the idempotency records; one with a route taking a body keeps both, and so
 * does the source run unbundled (the local runtime, the tests).
 */
import { join } from 'node:path';
import * as esbuild from 'esbuild';
import { describe, expect, it } from 'vitest';
import { routes } from '../../functions/routes.ts';
import { bundleDefines, servesOnlyGet } from '../../lib/bundling.ts';
import { deployedBundleOptions } from '../bench/b1-bundles.ts';
import { projectRoot } from '../bench/common.ts';

/** The project files and packages a bundle of `entry` built with its defines holds. */
async function inputsOf(entry: string): Promise<string[]> {
  const result = await esbuild.build({
    ...deployedBundleOptions,
    define: bundleDefines(entry),
    entryPoints: [join(projectRoot, entry)],
    write: false,
    outfile: 'index.mjs',
    metafile: true,
  });
  const output = Object.values(result.metafile.outputs)[0];
  return Object.entries(output?.inputs ?? {})
    .filter(([, input]) => input.bytesInOutput > 0)
    .map(([path]) => path);
}

/** What a GET-only bundle leaves out, by the path of its inputs. */
const droppable = [
  /node_modules\/busboy\//,
  /node_modules\/streamsearch\//,
  /shared\/store\/table\/idempotency-store\.ts$/,
];

/** The droppable inputs `inputs` hold, one flag per pattern. */
const held = (inputs: string[]) => droppable.map((pattern) => inputs.some((input) => pattern.test(input)));

describe('bundle defines', () => {
  it('tell GET-only entries from the others by the route table', () => {
    expect(servesOnlyGet('functions/users/get-current.ts')).toBe(true);
    expect(servesOnlyGet('functions/issues/create.ts')).toBe(false);
    // An entry of a GET and a non-GET route takes a body.
    const mixed = routes.find((route) =>
      routes.some(
        (other) => other.entry === route.entry && (other.method === 'GET') !== (route.method === 'GET'),
      ),
    );
    if (mixed) expect(servesOnlyGet(mixed.entry)).toBe(false);
    expect(bundleDefines('functions/users/get-current.ts')).toEqual({ 'process.env.ROUTE_METHODS': '"GET"' });
    expect(bundleDefines('functions/issues/create.ts', { tracing: true })).toEqual({
      'process.env.TRACING_MODULE': '"#observability/tracing-xray.ts"',
    });
  });

  it('leave busboy and the idempotency records out of a GET-only bundle, and only there', async () => {
    expect(held(await inputsOf('functions/users/get-current.ts'))).toEqual([false, false, false]);
    expect(held(await inputsOf('functions/issues/create.ts'))).toEqual([true, true, true]);
  });
});
