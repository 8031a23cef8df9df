/**
 * The floors of .dependency-cruiser.mjs (docs/architecture.md, "Floors"), which `npm run lint`
 * checks: the code as it is keeps them, and a synthetic tree laid out like ours, with the same
 * package.json aliases, gets each planted upward import reported under the rule that forbids it.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { cruise, type ICruiseOptions, type ICruiseResult } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { projectRoot } from '../../lib/api-function.ts';

const CHECKED = ['bin', 'lib', 'functions', 'shared'];

let options: ICruiseOptions;

beforeAll(async () => {
  options = await extractDepcruiseOptions(path.join(projectRoot, '.dependency-cruiser.mjs'));
});

async function violationsIn(baseDir: string, folders: string[]) {
  const { output } = await cruise(folders, { ...options, baseDir });
  const result = output as ICruiseResult;
  return result.summary.violations.map(({ rule, from, to }) => ({ rule: rule.name, from, to }));
}

describe('the floors', () => {
  it('hold for the code as it is', async () => {
    expect(await violationsIn(projectRoot, CHECKED)).toEqual([]);
  }, 60_000);

  describe('on a planted upward import', () => {
    let root = '';
    const write = (file: string, text: string) => {
      mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      writeFileSync(path.join(root, file), text);
    };

    beforeAll(() => {
      root = mkdtempSync(path.join(tmpdir(), 'floors-'));
      const { imports } = JSON.parse(readFileSync(path.join(projectRoot, 'package.json'), 'utf8'));
      write('package.json', JSON.stringify({ name: 'floors', type: 'module', imports }));
      symlinkSync(path.join(projectRoot, 'node_modules'), path.join(root, 'node_modules'), 'dir');
      write('shared/config/env.ts', 'export const config = {};\n');
      write(
        'shared/observability/log.ts',
        "import { config } from '#config/env.ts';\nexport const log = config;\n",
      );
      write('shared/domain/rules.ts', 'export const rule = 1;\n');
      write('shared/blob/s3.ts', 'export const blob = 1;\n');
      write('shared/http/route.ts', "import { rule } from '#domain/rules.ts';\nexport const route = rule;\n");
      // Allowed: the store imports the domain, the settings and the logs below it.
      write(
        'shared/store/table/items.ts',
        "import { config } from '#config/env.ts';\nimport { rule } from '#domain/rules.ts';\n" +
          "import { log } from '#observability/log.ts';\nexport const item = [config, rule, log];\n",
      );
      // Planted: the domain imports the store above it (a type import counts too).
      write(
        'shared/domain/planted.ts',
        "import type { item } from '#store/table/items.ts';\nexport type P = typeof item;\n",
      );
      // Planted: the logs import the request chain, and the store the bucket beside it.
      write('shared/observability/planted.ts', "export { route } from '#http/route.ts';\n");
      write('shared/store/planted.ts', "export { blob } from '../blob/s3.ts';\n");
      // Planted: a handler imports the AWS SDK.
      write('functions/projects/get.ts', "export { S3Client } from '@aws-sdk/client-s3';\n");
      // Planted: the stack imports a table it may import, which imports a handler; and a handler itself.
      write('functions/routes.ts', "export { S3Client } from './projects/get.ts';\n");
      write('lib/stack.ts', "export * from '../functions/routes.ts';\n");
      write('lib/direct.ts', "export * from '../functions/projects/get.ts';\n");
    });

    afterAll(() => {
      if (root) rmSync(root, { recursive: true, force: true });
    });

    it('reports each under the rule that forbids it, and nothing else', async () => {
      const found = await violationsIn(root, ['shared', 'functions', 'lib']);
      const order = (v: { rule: string; from: string }) => `${v.rule} ${v.from}`;
      expect(found.sort((a, b) => order(a).localeCompare(order(b)))).toEqual([
        { rule: 'floor-domain', from: 'shared/domain/planted.ts', to: 'shared/store/table/items.ts' },
        { rule: 'floor-lib', from: 'lib/direct.ts', to: 'functions/projects/get.ts' },
        { rule: 'floor-observability', from: 'shared/observability/planted.ts', to: 'shared/http/route.ts' },
        { rule: 'floor-store', from: 'shared/store/planted.ts', to: 'shared/blob/s3.ts' },
        {
          rule: 'no-aws-sdk-in-functions',
          from: 'functions/projects/get.ts',
          to: expect.stringMatching(/(^|\/)node_modules\/@aws-sdk\/client-s3\//),
        },
        { rule: 'stack-without-handlers', from: 'lib/direct.ts', to: 'functions/projects/get.ts' },
        { rule: 'stack-without-handlers', from: 'lib/stack.ts', to: 'functions/projects/get.ts' },
      ]);
    }, 60_000);
  });
});
