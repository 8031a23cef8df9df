import * as esbuild from 'esbuild';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { defaultProvider } from '../../lib/bundle-substitutes/credential-provider.ts';
import { bundleAliases } from '../../lib/bundling.ts';
import { deployedBundleOptions } from '../bench/b1-bundles.ts';

describe('the credential provider bundles use in place of the SDK default chain', () => {
  afterEach(() => vi.unstubAllEnvs());

  it('is what every bundle gets for @aws-sdk/credential-provider-node', () => {
    expect(bundleAliases['@aws-sdk/credential-provider-node']).toBe(
      './lib/bundle-substitutes/credential-provider.ts',
    );
  });

  it('leaves the default chain and the clients it carries out of a bundle', async () => {
    const built = await esbuild.build({
      ...deployedBundleOptions,
      stdin: {
        contents:
          "import { DynamoDBClient } from '@aws-sdk/client-dynamodb'; export const c = new DynamoDBClient({});",
        resolveDir: deployedBundleOptions.absWorkingDir,
        loader: 'ts',
      },
      write: false,
      metafile: true,
    });
    const inputs = Object.keys(built.metafile.inputs);
    expect(inputs.some((input) => input.includes('@aws-sdk/client-dynamodb/'))).toBe(true);
    expect(inputs.filter((input) => /credential-provider-(node|ini|sso)|nested-clients/.test(input))).toEqual(
      [],
    );
    expect(inputs).toContain('lib/bundle-substitutes/credential-provider.ts');
  });

  it('reads the role credentials Lambda puts in the environment', async () => {
    vi.stubEnv('AWS_ACCESS_KEY_ID', 'AKIDEXAMPLE');
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'secret');
    vi.stubEnv('AWS_SESSION_TOKEN', 'session');
    const credentials = await defaultProvider()();
    expect(credentials).toMatchObject({
      accessKeyId: 'AKIDEXAMPLE',
      secretAccessKey: 'secret',
      sessionToken: 'session',
    });
  });

  it('fails plainly where the environment holds none', async () => {
    vi.stubEnv('AWS_ACCESS_KEY_ID', '');
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', '');
    await expect(defaultProvider()()).rejects.toThrow(/environment/i);
  });
});
