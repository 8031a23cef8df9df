/**
 * The floors of the code (docs/architecture.md, "Floors"), checked by `npm run lint`. A folder
 * imports its own modules and those of the floors below it, never a floor above nor, but for the
 * exceptions below, a folder beside it on its own floor. Tests (test/**) import anything.
 * test/infra/floors.test.ts plants an upward import and expects this file to catch it.
 */

/** Lowest first. A name is a folder of shared/, or a top folder (functions, bin, lib). */
const floors = [
  // Settings, and the logs, metrics and traces everything below http writes.
  ['config', 'observability'],
  // Types, rules, schemas, presenters: imports nothing of ours (see `only` below).
  ['domain'],
  // The outbound address guard: what a hook delivery or a git fetch may connect to.
  ['egress'],
  // Adapters: the table, the bucket, the directory, git repositories in the bucket.
  ['store', 'blob', 'ldap', 'repository'],
  // The request chain; the queue and the worker, stream consumer and schedule wrappers.
  ['http', 'queue'],
  // What workers and routes orchestrate: webhook delivery, project and group jobs, the API document.
  ['delivery', 'jobs', 'openapi'],
  ['functions'],
  // The local runtime and scripts; the CDK stack.
  ['bin', 'lib'],
];

/** Imports beside a folder on its own floor that are allowed, each for a reason. */
const besides = {
  // The logger and metrics read the service name, log level and metrics switch from the settings.
  observability: ['config'],
  // Repositories are kept in the bucket (only shared/blob speaks S3), their commit point and
  // statistics in the table (only shared/store speaks DynamoDB); the store never imports them.
  repository: ['blob', 'store'],
  // bin/app.ts is the CDK app (cdk.json): it builds the stack of lib/.
  bin: ['lib'],
};

/** Folders that import less than every floor below them. */
const only = {
  // The domain stays pure: no settings, no logging, no I/O.
  domain: [],
};

const TOP = new Set(['functions', 'bin', 'lib']);
const dirOf = (name) => (TOP.has(name) ? `${name}/` : `shared/${name}/`);
const anyOf = (names) => `^(${names.map(dirOf).join('|')})`;

/** Our own code: anything an import may reach that is not a package or a built-in. */
const OURS = '^(shared|functions|bin|lib|test|types)/';

/**
 * What the CDK stack (lib/, bin/app.ts) may import of functions/: the tables, never a handler. The
 * route table (routes.ts) assembles one table per area, beside its handlers (`<area>/routes.ts`),
 * whose rows are written with route-kit.ts.
 */
const TABLES = '^functions/((routes|route-kit|workers|stream-consumers|schedules)|[^/]+/routes)\\.ts$';

const floorRules = floors.flatMap((floor, level) => {
  const below = floors.slice(0, level).flat();
  return floor.map((name) => {
    const allowed = [name, ...(only[name] ?? below), ...(besides[name] ?? [])];
    return {
      name: `floor-${name}`,
      comment: `${dirOf(name)} imports only ${allowed.map(dirOf).join(', ')} of ours (the floors below it)`,
      severity: 'error',
      from: { path: `^${dirOf(name)}` },
      to: {
        path: OURS,
        // lib/ takes of functions/ only the route (and its areas'), worker, stream consumer and schedule tables.
        pathNot: name === 'lib' ? [anyOf(allowed.filter((n) => n !== 'functions')), TABLES] : anyOf(allowed),
      },
    };
  });
});

export default {
  forbidden: [
    ...floorRules,
    {
      name: 'stack-without-handlers',
      comment:
        'The CDK stack (lib/, bin/app.ts) reaches no handler module, not even through a table it imports',
      severity: 'error',
      from: { path: '^(lib/|bin/app\\.ts$)' },
      to: { path: '^functions/', pathNot: TABLES, reachable: true },
    },
    {
      name: 'no-aws-sdk-in-functions',
      comment: 'Handlers reach AWS through shared/ (store, blob, queue), never the SDK itself',
      severity: 'error',
      from: { path: '^functions/' },
      to: { path: '(^|/)node_modules/@aws-sdk/' },
    },
    {
      name: 'no-aws-sdk-in-repository',
      comment: 'shared/repository reaches S3 through shared/blob',
      severity: 'error',
      from: { path: '^shared/repository/' },
      to: { path: '(^|/)node_modules/@aws-sdk/' },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'An import the checker cannot follow would escape the floors',
      severity: 'error',
      from: { path: '^(shared|functions|bin|lib)/' },
      to: { couldNotResolve: true },
    },
  ],
  options: {
    doNotFollow: { path: '(^|/)node_modules/' },
    exclude: { path: '^(cdk\\.out|\\.data|\\.bench|\\.test-results)/' },
    // A type-only import is a dependency on the floor it names too.
    tsPreCompilationDeps: true,
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
    skipAnalysisNotInRules: true,
  },
};
