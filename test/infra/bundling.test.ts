/**
 * The shared bundled synth (bundled-synth.ts): every function's asset, in the root stack or a
 * nested one, is an ESM bundle with its source map and the AWS SDK inside, and Node
 * can load it and call its handler.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { functionNameOf, routes } from '../../functions/routes.ts';
import { schedules } from '../../functions/schedules.ts';
import { streamConsumers } from '../../functions/stream-consumers.ts';
import { workers } from '../../functions/workers.ts';
import { bundledSynth } from './bundled-synth.ts';
import type { Json } from './support.ts';

interface Bundle {
  /** The function's name (its Description): its entry, or its route's `name`. */
  name: string;
  dir: string;
}

let bundles: Bundle[] = [];
let bundleSeconds = 0;

beforeAll(async () => {
  const synth = await bundledSynth();
  bundleSeconds = synth.seconds;
  // The root template holds the workers and scheduled functions; each nested stack's template
  // holds its area's route functions.
  bundles = synth.templates
    .flatMap((template) => Object.values(template.Resources as Record<string, Json>))
    .filter((resource) => resource.Type === 'AWS::Lambda::Function')
    .map((resource) => ({
      name: resource.Properties.Description,
      dir: path.join(synth.directory, resource.Metadata['aws:asset:path']),
    }));
}, 1_800_000);

const entryByName = new Map(routes.map((route) => [functionNameOf(route), route.entry]));

describe('real bundling', () => {
  it('bundles every route, worker, stream-consumer and schedule entry with the local esbuild', () => {
    const names = [
      ...new Set([
        ...routes.map(functionNameOf),
        ...workers.map((worker) => worker.entry),
        ...streamConsumers.map((consumer) => consumer.entry),
        ...schedules.map((schedule) => schedule.entry),
      ]),
    ];
    expect(bundles.map((bundle) => bundle.name).sort()).toEqual(names.sort());
    // About a second per function on the 2-core CI machines, with room for a busy one (twice that).
    expect(bundleSeconds).toBeLessThan(2 * names.length);
  });

  it('produces one minified ESM file and its source map per function, no node_modules', () => {
    for (const { name, dir } of bundles) {
      expect(readdirSync(dir).sort(), name).toEqual(['index.mjs', 'index.mjs.map']);
      const code = readFileSync(path.join(dir, 'index.mjs'), 'utf8');
      expect(code.startsWith('import { createRequire'), name).toBe(true);
      expect(code.trimEnd().endsWith('//# sourceMappingURL=index.mjs.map'), name).toBe(true);
      expect(code.length / code.split('\n').length, `${name} is minified`).toBeGreaterThan(1000);
      const map = JSON.parse(readFileSync(path.join(dir, 'index.mjs.map'), 'utf8')) as { sources: string[] };
      // The file the function runs: its route's entry where its name is not one.
      const file = entryByName.get(name) ?? name;
      expect(
        map.sources.some((source) => source.endsWith(file)),
        name,
      ).toBe(true);
    }
  });

  it('bundles the AWS SDK and every other dependency: only node: built-ins are imported', () => {
    for (const { name, dir } of bundles) {
      const code = readFileSync(path.join(dir, 'index.mjs'), 'utf8');
      // Import and re-export statements (at a statement boundary, so that a string such as
      // `"… from "+url` in a bundled library is not taken for one) and dynamic imports.
      const specifiers = [
        ...code.matchAll(/(?:^|[;}\n])\s*(?:import|export)\s*(?:[\w$*{}\s,]*?\bfrom\s*)?["']([^"']+)["']/g),
        ...code.matchAll(/\bimport\(\s*["']([^"']+)["']\s*\)/g),
      ].map((match) => match[1]!);
      expect(specifiers.length, name).toBeGreaterThan(0);
      expect(
        specifiers.filter((specifier) => !specifier.startsWith('node:')),
        name,
      ).toEqual([]);
    }
    const withSdk = bundles.find((bundle) => bundle.name === 'functions/users/get.ts')!;
    expect(readFileSync(path.join(withSdk.dir, 'index.mjs'), 'utf8')).toContain('dynamodb');
  });

  it('loads in Node and exports a working handler', () => {
    const notFound = bundles.find((bundle) => bundle.name === 'functions/not-found.ts')!;
    expect(existsSync(notFound.dir)).toBe(true);
    const script = `
      const urls = JSON.parse(process.argv[1]);
      const types = {};
      for (const [entry, url] of Object.entries(urls)) types[entry] = typeof (await import(url)).handler;
      const { handler } = await import(urls['functions/not-found.ts']);
      const event = {
        version: '2.0', routeKey: '$default', rawPath: '/api/v4/no-such-thing', rawQueryString: '',
        headers: { host: 'example.test' }, isBase64Encoded: false,
        requestContext: { domainName: 'example.test', requestId: 'r1', http: { method: 'GET', path: '/api/v4/no-such-thing' } },
      };
      const response = await handler(event, { awsRequestId: 'r1', getRemainingTimeInMillis: () => 10000 });
      process.stdout.write(JSON.stringify({ types, statusCode: response.statusCode, body: response.body }));
    `;
    const urls = Object.fromEntries(
      bundles.map(({ name, dir }) => [name, pathToFileURL(path.join(dir, 'index.mjs')).href]),
    );
    const output = execFileSync(
      process.execPath,
      ['--enable-source-maps', '--input-type=module', '-e', script, JSON.stringify(urls)],
      { encoding: 'utf8', env: { PATH: process.env.PATH, LOG_LEVEL: 'silent' }, cwd: tmpdir() },
    );
    const result = JSON.parse(output) as { types: Record<string, string>; statusCode: number; body: string };
    expect(result.types).toEqual(Object.fromEntries(bundles.map(({ name }) => [name, 'function'])));
    expect(result.statusCode).toBe(404);
    expect(JSON.parse(result.body)).toBeTypeOf('object');
  });
});
