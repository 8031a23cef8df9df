import { readFileSync } from 'node:fs';
import path from 'node:path';
import { App, type CfnElement, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';
import { projectRoot } from '../../lib/api-function.ts';
import { ApiStack, type ApiStackProps } from '../../lib/api-stack.ts';

/** The same context `cdk synth` sees (cdk.json), so tests and the CLI build the same stack. */
const cdkContext: Record<string, unknown> =
  JSON.parse(readFileSync(path.join(projectRoot, 'cdk.json'), 'utf8')).context ?? {};

export interface SynthOptions {
  /** Run the real esbuild bundling (slow). Default: skip bundling for every stack. */
  bundle?: boolean;
  outdir?: string;
  props?: ApiStackProps;
}

export function buildApp(options: SynthOptions = {}) {
  const app = new App({
    outdir: options.outdir,
    context: {
      ...cdkContext,
      'aws:cdk:enable-asset-metadata': true,
      ...(options.bundle ? {} : { 'aws:cdk:bundling-stacks': [] }),
    },
  });
  const stack = new ApiStack(app, 'GitlabApi', options.props);
  return { app, stack };
}

/** A stack and its template with bundling skipped. */
export function synthesize(props?: ApiStackProps) {
  const { app, stack } = buildApp({ props });
  return { app, stack, template: Template.fromStack(stack) };
}

/** Logical id of a construct's CloudFormation resource (its default child for L2s). */
export function logicalId(construct: IConstruct): string {
  const element = (construct.node.defaultChild ?? construct) as CfnElement;
  return Stack.of(construct).getLogicalId(element);
}

export const getAtt = (id: string, attribute = 'Arn') => ({ 'Fn::GetAtt': [id, attribute] });
export const ref = (id: string) => ({ Ref: id });

export function asArray<T>(value: T | T[] | undefined): T[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}
