import { readFileSync } from 'node:fs';
import path from 'node:path';
import { App, type CfnElement, type NestedStack, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { IConstruct } from 'constructs';
import { projectRoot } from '../../lib/api-function.ts';
import { ApiStack, type ApiStackProps } from '../../lib/api-stack.ts';
import type { RouteFunctions } from '../../lib/route-functions.ts';

/** The same context `cdk synth` sees (cdk.json), so tests and the CLI build the same stack. */
const cdkContext: Record<string, unknown> =
  JSON.parse(readFileSync(path.join(projectRoot, 'cdk.json'), 'utf8')).context ?? {};

export interface SynthOptions {
  /** Run the real esbuild bundling (slow). Default: skip bundling for every stack. */
  bundle?: boolean;
  outdir?: string;
  props?: ApiStackProps;
  /** Add the CDKMetadata resource to every template, as the CDK CLI does. */
  analyticsReporting?: boolean;
  /** Context values beyond cdk.json's, as `cdk synth -c key=value` gives them. */
  context?: Record<string, unknown>;
}

export function buildApp(options: SynthOptions = {}) {
  const app = new App({
    outdir: options.outdir,
    analyticsReporting: options.analyticsReporting ?? false,
    context: {
      ...cdkContext,
      ...options.context,
      'aws:cdk:enable-asset-metadata': true,
      ...(options.bundle ? {} : { 'aws:cdk:bundling-stacks': [] }),
    },
  });
  const stack = new ApiStack(app, 'GitlabApi', options.props);
  return { app, stack };
}

// biome-ignore lint/suspicious/noExplicitAny: CloudFormation JSON
export type Json = any;

/** A resource found in one of the templates (the root's or a nested stack's). */
export interface Located {
  /** The stack whose template holds it. */
  stack: Stack;
  id: string;
  resource: Json;
}

/** The root stack and every nested stack, each with its template, and lookups across them. */
export class Synthesized {
  readonly templates: ReadonlyMap<Stack, Template>;

  constructor(
    readonly app: App,
    readonly stack: ApiStack,
  ) {
    const stacks: Stack[] = [stack, ...stack.routeStacks.values(), stack.monitoring];
    this.templates = new Map(stacks.map((s) => [s, Template.fromStack(s)]));
  }

  /** The root template. */
  get template(): Template {
    return this.templates.get(this.stack)!;
  }

  get nested(): RouteFunctions[] {
    return [...this.stack.routeStacks.values()];
  }

  /** The template of the stack `construct` is defined in. */
  templateOf(construct: IConstruct): Template {
    return this.templates.get(Stack.of(construct))!;
  }

  /** The CloudFormation resource of `construct` (its default child for L2s), from its own template. */
  resourceOf(construct: IConstruct): Json {
    return this.templateOf(construct).toJSON().Resources[logicalId(construct)];
  }

  /** Every resource of `type` in the root and the nested templates. */
  resources(type: string): Located[] {
    return [...this.templates].flatMap(([stack, template]) =>
      Object.entries(template.findResources(type)).map(([id, resource]) => ({ stack, id, resource })),
    );
  }

  /**
   * `value` from a nested template written in root terms: each reference to one of the nested
   * stack's parameters becomes the value the root passes for it (`Ref: TableCD117FA1`, …).
   */
  inRoot(stack: Stack, value: Json): Json {
    if (stack === this.stack) return value;
    const nested = stack as NestedStack;
    const parameters = this.template.toJSON().Resources[logicalId(nested.nestedStackResource!)].Properties
      .Parameters as Record<string, Json>;
    const declared = this.templates.get(stack)!.toJSON().Parameters ?? {};
    const resolve = (v: Json): Json => {
      if (Array.isArray(v)) return v.map(resolve);
      if (v === null || typeof v !== 'object') return v;
      const keys = Object.keys(v);
      if (keys.length === 1 && keys[0] === 'Ref' && v.Ref in declared) return parameters[v.Ref];
      return Object.fromEntries(keys.map((k) => [k, resolve(v[k])]));
    };
    return resolve(value);
  }

  /**
   * What a root value naming a nested stack's output (`Fn::GetAtt [<nested>, Outputs.<name>]`)
   * stands for: the nested stack and the output's value there.
   */
  fromNestedOutput(value: Json): { stack: Stack; value: Json } {
    const [resourceId, attribute] = value['Fn::GetAtt'] as [string, string];
    const nested = [...this.nested, this.stack.monitoring].find(
      (n) => logicalId(n.nestedStackResource!) === resourceId,
    );
    if (!nested || !attribute.startsWith('Outputs.'))
      throw new Error(`not a nested output: ${JSON.stringify(value)}`);
    const outputs = this.templates.get(nested)!.toJSON().Outputs as Record<string, { Value: Json }>;
    return { stack: nested, value: outputs[attribute.slice('Outputs.'.length)]!.Value };
  }
}

/** The root stack, every nested stack and their templates, with bundling skipped. */
export function synthesize(
  props?: ApiStackProps,
  options: Pick<SynthOptions, 'analyticsReporting' | 'context'> = {},
) {
  const { app, stack } = buildApp({ props, ...options });
  return new Synthesized(app, stack);
}

/** Logical id of a construct's CloudFormation resource (its default child for L2s), in its own stack. */
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
