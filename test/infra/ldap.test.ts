/**
 * LDAP group sync in the stack: the providers reach exactly the functions that declare `ldap`
 * access (the sync route, its worker and its schedule), and their roles may read exactly the bind
 * password secrets the providers name; without providers nothing LDAP is configured at all.
 */

import type { Policy } from 'aws-cdk-lib/aws-iam';
import { describe, expect, it } from 'vitest';
import { asArray, type Json, type Synthesized, synthesize } from './support.ts';

const SECRET_ARN = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:ldap-main-AbCdEf';
const providers = [
  {
    name: 'ldapmain',
    url: 'ldaps://ldap.example.com',
    bindDn: 'cn=sync,dc=example,dc=com',
    bindPasswordSecret: SECRET_ARN,
    base: 'ou=people,dc=example,dc=com',
    groupBase: 'ou=groups,dc=example,dc=com',
  },
  {
    name: 'secondary',
    url: 'ldap://ldap2.example.com',
    startTls: true,
    bindDn: 'cn=sync,dc=example,dc=com',
    bindPasswordSecret: 'ldap-secondary',
    base: 'ou=people,dc=example,dc=com',
    groupBase: 'ou=groups,dc=example,dc=com',
  },
];

const LDAP_ENTRIES = [
  'functions/groups/ldap-sync.ts',
  'functions/workers/ldap-sync.ts',
  'functions/schedules/ldap-sync.ts',
];

/** Every function of the app (root and nested) with its entry, environment and role's statements. */
function functionsOf(synth: Synthesized) {
  const { stack } = synth;
  const all = [
    ...stack.routeFunctions.values(),
    ...[...stack.workerQueues.values()].map((worker) => worker.consumer),
    ...[...stack.scheduledFunctions.values()].map((scheduled) => scheduled.fn),
  ];
  return all.map((fn) => {
    const policy = fn.role?.node.tryFindChild('DefaultPolicy') as Policy | undefined;
    const statements: Json[] = policy ? stack.resolve(policy.document.toJSON()).Statement : [];
    return {
      entry: fn.name,
      environment: (synth.resourceOf(fn).Properties.Environment?.Variables ?? {}) as Record<string, string>,
      statements,
    };
  });
}

const secretStatements = (statements: Json[]) =>
  statements.filter((statement) => asArray(statement.Action).includes('secretsmanager:GetSecretValue'));

describe('LDAP in the stack', () => {
  it('the providers reach the sync route, worker and schedule, whose roles read exactly the named secrets', () => {
    const synth = synthesize({ ldapProviders: JSON.stringify(providers) });
    const functions = functionsOf(synth);
    const withProviders = functions.filter((fn) => 'LDAP_PROVIDERS' in fn.environment).map((fn) => fn.entry);
    expect(withProviders.sort()).toEqual([...LDAP_ENTRIES].sort());
    for (const fn of functions) {
      const secrets = secretStatements(fn.statements);
      if (!LDAP_ENTRIES.includes(fn.entry)) {
        expect(secrets).toEqual([]);
        continue;
      }
      expect(JSON.parse(fn.environment.LDAP_PROVIDERS ?? 'null')).toEqual(providers);
      expect(secrets).toEqual([
        {
          Action: 'secretsmanager:GetSecretValue',
          Effect: 'Allow',
          Resource: [
            SECRET_ARN,
            {
              'Fn::Join': [
                '',
                [
                  'arn:',
                  { Ref: 'AWS::Partition' },
                  ':secretsmanager:',
                  { Ref: 'AWS::Region' },
                  ':',
                  { Ref: 'AWS::AccountId' },
                  ':secret:ldap-secondary-??????',
                ],
              ],
            },
          ],
        },
      ]);
    }
  });

  it('a malformed setting fails the synth with what is wrong', () => {
    expect(() =>
      synthesize({ ldapProviders: JSON.stringify([{ ...providers[0], url: 'http://x' }]) }),
    ).toThrow('LDAP_PROVIDERS: 0.url: Invalid format');
  });

  it('without providers no function gets LDAP_PROVIDERS and no role reads a secret', () => {
    const functions = functionsOf(synthesize());
    expect(functions.filter((fn) => 'LDAP_PROVIDERS' in fn.environment)).toEqual([]);
    expect(functions.flatMap((fn) => secretStatements(fn.statements))).toEqual([]);
  });
});
