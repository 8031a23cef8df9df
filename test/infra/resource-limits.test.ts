/**
 * CloudFormation refuses a template with more than 500 resources. The route functions live in
 * nested stacks (one per area of functions/) under the one root stack; this checks every template
 * keeps a comfortable margin now and at the planned size of the route table, and prints the counts.
 */
import { describe, expect, it } from 'vitest';
import { routes } from '../../functions/routes.ts';
import { areaOf } from '../../lib/route-functions.ts';
import { type Json, synthesize } from './support.ts';

const CLOUDFORMATION_LIMIT = 500;
/** Now: at most half the limit in any template. */
const MARGIN_NOW = 0.5;
/** At the planned size: at most 70% of the limit, even if every new route landed in one area. */
const MARGIN_PLANNED = 0.7;
/** The route table expected soon (webhooks, push rules, forks, LDAP links on top of today's). */
const PLANNED_ROUTES = 140;

// With CDKMetadata, as `cdk synth` / `cdk deploy` write them.
const synth = synthesize(undefined, { analyticsReporting: true });
const { stack } = synth;
const resourcesOf = (template: Json) => Object.values(template.Resources as Record<string, Json>);

const counts = [...synth.templates].map(([holder, template]) => {
  const nested = [...stack.routeStacks.values()].find((s) => s === holder);
  const resources = resourcesOf(template.toJSON());
  return {
    stack: nested ? `${stack.stackName}/${nested.node.id}` : stack.stackName,
    nested: nested !== undefined,
    routes: nested ? routes.filter((route) => areaOf(route.entry) === nested.area).length : routes.length,
    resources: resources.length,
    byType: resources.reduce<Record<string, number>>((byType, resource) => {
      byType[resource.Type] = (byType[resource.Type] ?? 0) + 1;
      return byType;
    }, {}),
  };
});
const root = counts.find((count) => !count.nested)!;
const nested = counts.filter((count) => count.nested);
const largestNested = Math.max(...nested.map((count) => count.resources));
const extraRoutes = Math.max(0, PLANNED_ROUTES - routes.length);
/** Worst case per new route in the root: its route, plus a new nested stack, role and policy. */
const rootPlanned = root.resources + 4 * extraRoutes;
/** Worst case in a nested stack: every new route there (function, integration, permission). */
const nestedPlanned = largestNested + 3 * extraRoutes;

describe('CloudFormation resource limit', () => {
  it('prints the resources of every template', () => {
    console.log(
      [
        `${routes.length} routes; resources per template (limit ${CLOUDFORMATION_LIMIT}):`,
        ...counts.map(
          (count) =>
            `  ${count.stack.padEnd(45)} ${String(count.resources).padStart(4)} resources, ${count.routes} routes`,
        ),
        `  root by type: ${JSON.stringify(root.byType)}`,
        `at ${PLANNED_ROUTES} routes (worst case): root ≤ ${rootPlanned}, largest nested stack ≤ ${nestedPlanned}`,
      ].join('\n'),
    );
    expect(counts.length).toBe(1 + stack.routeStacks.size);
  });

  it.each(counts.map((count) => [count.stack, count] as const))(
    '%s keeps a comfortable margin under the limit',
    (_name, count) => {
      expect(count.resources).toBeLessThanOrEqual(CLOUDFORMATION_LIMIT * MARGIN_NOW);
    },
  );

  it('costs one resource per route in the root (its route) and at most three in its nested stack; a schedule three in the root', () => {
    expect(root.byType['AWS::ApiGatewayV2::Route']).toBe(routes.length);
    expect(root.byType['AWS::Lambda::Function'] ?? 0).toBe(
      stack.workerQueues.size + stack.streamConsumers.size + stack.scheduledFunctions.size,
    );
    // The root's only invoke permissions are the schedules' rules'.
    expect(root.byType['AWS::Lambda::Permission'] ?? 0).toBe(stack.scheduledFunctions.size);
    expect(root.byType['AWS::Events::Rule'] ?? 0).toBe(stack.scheduledFunctions.size);
    expect(root.byType['AWS::ApiGatewayV2::Integration'] ?? 0).toBe(0);
    for (const count of nested) {
      // Function + integration + invoke permission per route, and the CDK metadata resource.
      expect(count.resources).toBeLessThanOrEqual(3 * count.routes + 1);
    }
  });

  it(`still fits with a comfortable margin at ${PLANNED_ROUTES} routes`, () => {
    expect(rootPlanned).toBeLessThanOrEqual(CLOUDFORMATION_LIMIT * MARGIN_PLANNED);
    expect(nestedPlanned).toBeLessThanOrEqual(CLOUDFORMATION_LIMIT * MARGIN_PLANNED);
  });
});
