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
