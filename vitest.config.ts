import { defineConfig } from 'vitest/config';

/**
 * Test tiers. `unit`, `handlers` and `infra` need no engines; `integration` and `e2e` share one
 * local runtime (DynamoDB Local, s3rver, in-process queues, the gateway) started by the global
 * setup and reached over HTTP, exactly as clients reach `npm start`.
 */
export default defineConfig({
  test: {
    expect: { requireAssertions: true },
    reporters: ['default', ['json', { outputFile: '.test-results/vitest.json' }]],
    // Test workers are forked from the process that runs the shared local runtime, which sets
    // AWS_LAMBDA_MAX_CONCURRENCY for its own invocations (bin/local/invoke-store.ts); a worker has
    // no InvokeStore of its own, so it runs as a Lambda container does: one invocation at a time.
    env: { LOG_LEVEL: 'silent', AWS_LAMBDA_MAX_CONCURRENCY: '' },
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['test/unit/**/*.test.ts'] },
      },
      {
        extends: true,
        test: { name: 'handlers', include: ['test/handlers/**/*.test.ts'] },
      },
      {
        extends: true,
        test: {
          name: 'infra',
          include: ['test/infra/**/*.test.ts'],
          // One synth, shared by the files that need bundled assets, bundles every function with
          // the local esbuild.
          globalSetup: ['test/infra/bundled-synth-setup.ts'],
          testTimeout: 240_000,
          hookTimeout: 420_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts', 'test/e2e/**/*.test.ts'],
          globalSetup: ['test/support/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
