/**
 * cdk-nag's AwsSolutions pack, as `npm run synth` applies it (bin/app.ts): no finding, error or
 * warning, in the root stack or any nested stack, unless suppressed beside its construct in lib/
 * with its reason.
 */
import { App, Aspects, NestedStack, Stack } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { Queue } from 'aws-cdk-lib/aws-sqs';
import { AwsSolutionsChecks } from 'cdk-nag';
import { describe, expect, it } from 'vitest';
import { buildApp, type Json } from './support.ts';

const { app, stack } = buildApp();
Aspects.of(app).add(new AwsSolutionsChecks());

/** Unsuppressed findings of `root` and its nested stacks (their annotations are reported with the root's). */
const annotationsByRoot = new Map<Stack, Annotations>();
function findingsOf(root: Stack, kind: 'error' | 'warning'): string[] {
  const annotations = annotationsByRoot.get(root) ?? Annotations.fromStack(root);
  annotationsByRoot.set(root, annotations);
  return (
    kind === 'error'
      ? annotations.findError('*', Match.anyValue())
      : annotations.findWarning('*', Match.anyValue())
  ).map((message) => `${message.id}: ${String(message.entry.data).split('\n')[0]}`);
}

interface Suppression {
  id: string;
  reason: string;
  applies_to?: unknown[];
}

/** Every suppression cdk-nag recorded in a template. */
function suppressionsIn(template: Json): Suppression[] {
  return Object.values(template.Resources as Record<string, Json>).flatMap(
    (resource) => resource.Metadata?.cdk_nag?.rules_to_suppress ?? [],
  );
}

describe('cdk-nag AwsSolutions', () => {
  it('reports no unsuppressed error in the root or any nested stack', () => {
    expect(findingsOf(stack, 'error')).toEqual([]);
  });

  it('reports no unsuppressed warning', () => {
    expect(findingsOf(stack, 'warning')).toEqual([]);
  });

  it("sees a nested stack's findings from the root (so the checks above cover them)", () => {
    const control = new App({ context: { 'aws:cdk:bundling-stacks': [] } });
    const root = new Stack(control, 'Control');
    new Queue(new NestedStack(root, 'Nested'), 'QueueWithoutDeadLetterQueue');
    Aspects.of(control).add(new AwsSolutionsChecks());
    expect(findingsOf(root, 'error').join('\n')).toContain('AwsSolutions-SQS3');
  });

  const templates = [stack, ...stack.routeStacks.values(), stack.monitoring].map(
    (s) => [s.node.id, Template.fromStack(s).toJSON()] as const,
  );
  const suppressions = templates.flatMap(([, template]) => suppressionsIn(template));

  it('suppresses only rules it explains: every suppression carries its reason', () => {
    expect(suppressions.length).toBeGreaterThan(0);
    for (const suppression of suppressions) {
      expect(suppression.id).toMatch(/^AwsSolutions-/);
      expect(suppression.reason.length, suppression.id).toBeGreaterThanOrEqual(40);
    }
    expect([...new Set(suppressions.map((s) => s.id))].sort()).toEqual([
      'AwsSolutions-APIG4',
      'AwsSolutions-CFR1',
      'AwsSolutions-CFR2',
      'AwsSolutions-CFR4',
      'AwsSolutions-IAM5',
      'AwsSolutions-L1',
      'AwsSolutions-SMG4',
      'AwsSolutions-SQS3',
    ]);
  });

  it('suppresses wildcard permissions only for the resources named: the indexes, the objects, ListStreams', () => {
    const wildcards = suppressions.filter((s) => s.id === 'AwsSolutions-IAM5');
    expect(wildcards.length).toBeGreaterThan(0);
    const appliesTo = new Set(wildcards.flatMap((s) => s.applies_to ?? [null]));
    expect([...appliesTo].sort()).toEqual(
      [
        `Resource::<${Stack.of(stack.table).getLogicalId(stack.table.node.defaultChild as never)}.Arn>/index/*`,
        `Resource::<${Stack.of(stack.bucket).getLogicalId(stack.bucket.node.defaultChild as never)}.Arn>/*`,
        'Resource::*',
      ].sort(),
    );
  });

  it('checks every route functions stack: each records the suppressions of its own routes and functions', () => {
    for (const nested of stack.routeStacks.values()) {
      const ids = new Set(suppressionsIn(Template.fromStack(nested).toJSON()).map((s) => s.id));
      expect([...ids].sort(), nested.node.id).toEqual(['AwsSolutions-APIG4', 'AwsSolutions-L1']);
    }
  });

  it('suppresses on the CloudFront distribution only geography, WAF and the default certificate (logs and origin TLS comply)', () => {
    const distribution =
      Template.fromStack(stack).toJSON().Resources[
        Stack.of(stack).getLogicalId(stack.edgeCache.distribution.node.defaultChild as never)
      ];
    expect(suppressionsIn({ Resources: { distribution } }).map((s) => s.id)).toEqual([
      'AwsSolutions-CFR1',
      'AwsSolutions-CFR2',
      'AwsSolutions-CFR4',
    ]);
  });

  it('needs no suppression in the monitoring stack (its topic requires TLS)', () => {
    expect(suppressionsIn(Template.fromStack(stack.monitoring).toJSON())).toEqual([]);
  });
});
