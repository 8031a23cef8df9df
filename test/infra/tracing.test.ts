/**
 * Tracing is off unless the `tracing` context value turns it on (`cdk deploy -c tracing=true`):
 * then every function traces actively, its role may send segments, and cdk-nag stays clean.
 */
import { Aspects } from 'aws-cdk-lib';
import { Annotations, Match } from 'aws-cdk-lib/assertions';
import { AwsSolutionsChecks } from 'cdk-nag';
import { describe, expect, it } from 'vitest';
import { asArray, buildApp, type Json, type Synthesized, synthesize } from './support.ts';

const XRAY_ACTIONS = ['xray:PutTelemetryRecords', 'xray:PutTraceSegments'];

const functionsOf = (synth: Synthesized) => synth.resources('AWS::Lambda::Function');
const xrayGrants = (synth: Synthesized) =>
  synth
    .resources('AWS::IAM::Policy')
    .flatMap(({ resource }) => resource.Properties.PolicyDocument.Statement as Json[])
    .filter((statement) => asArray<string>(statement.Action).some((action) => action.startsWith('xray:')));

describe('tracing off (the default)', () => {
  const synth = synthesize();

  it('leaves every function untraced and grants no X-Ray action', () => {
    expect(functionsOf(synth).length).toBeGreaterThan(100);
    for (const { resource } of functionsOf(synth)) expect(resource.Properties.TracingConfig).toBeUndefined();
    expect(xrayGrants(synth)).toEqual([]);
  });
});

describe.each([true, 'true'])('tracing on (context tracing=%s)', (value) => {
  const synth = synthesize(undefined, { context: { tracing: value } });

  it('traces every function actively', () => {
    for (const { id, resource } of functionsOf(synth)) {
      expect(resource.Properties.TracingConfig, id).toEqual({ Mode: 'Active' });
    }
  });

  it('lets every role send trace segments, and nothing more of X-Ray', () => {
    const grants = xrayGrants(synth);
    expect(grants.length).toBe(synth.stack.roles.roles.size);
    for (const statement of grants) {
      expect([...asArray<string>(statement.Action)].sort()).toEqual(XRAY_ACTIONS);
      expect(statement.Resource).toBe('*');
    }
  });

  it('stays cdk-nag clean (the X-Ray wildcard is suppressed with its reason)', () => {
    // A fresh app: the checks must run before its first synthesis.
    const { app, stack } = buildApp({ context: { tracing: value } });
    Aspects.of(app).add(new AwsSolutionsChecks());
    const annotations = Annotations.fromStack(stack);
    expect(annotations.findError('*', Match.anyValue()).map((m) => m.entry.data)).toEqual([]);
    expect(annotations.findWarning('*', Match.anyValue()).map((m) => m.entry.data)).toEqual([]);
  });
});
