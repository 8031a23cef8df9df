/**
 * CloudFormation refuses a template with more than 500 resources. The route functions live in
 * nested stacks (one per area of functions/) under the one root stack; this checks every template
 * keeps a comfortable margin now and at the planned size of the route table, and prints the counts.
 */
import { describe, expect, it } from 'vitest';
import { functionNameOf, routes } from '../../functions/routes.ts';
import { maxMetricsPerAlarm } from '../../lib/monitoring.ts';
import { areaOf } from '../../lib/route-functions.ts';
import { type Json, synthesize } from './support.ts';

const CLOUDFORMATION_LIMIT = 500;
/**
 * Now: at most half the limit in any template. The routes (and the HEAD twins of GET routes) moved
 * from the root into the nested stacks of their functions, so that `sam local start-api` finds a
 * route's integration in its own template; the root, which had reached 75% with them, now holds the
 * table, bucket, queues, roles, workers and log groups (about 150 resources). The alarms and the
 * dashboard have a nested stack of their own.
 */
const MARGIN_NOW = { root: 0.5, nested: 0.5 };
/**
 * At the planned size: the root at most 60%, a nested stack at most 70% even if every new route
 * landed in one area (five resources a GET route there: function, integration, permission, route,
 * HEAD twin).
 */
const MARGIN_PLANNED = { root: 0.6, nested: 0.7 };
/** The route table expected next: today's (with the OpenAPI document), with room for a few more. */
const PLANNED_ROUTES = 160;
/** New areas of functions/ expected with them (each a nested stack, and say a role and its policy). */
const PLANNED_NEW_AREAS = 3;

// With CDKMetadata, as `cdk synth` / `cdk deploy` write them.
const synth = synthesize(undefined, { analyticsReporting: true });
const { stack } = synth;
/** Alarms per nested stack of route functions: errors and throttles for every ten functions. */
const alarmsFor = (functions: number) => 2 * Math.ceil(functions / maxMetricsPerAlarm);
const resourcesOf = (template: Json) => Object.values(template.Resources as Record<string, Json>);

const counts = [...synth.templates].map(([holder, template]) => {
  const nested = [...stack.routeStacks.values()].find((s) => s === holder);
  const monitoring = holder === stack.monitoring;
  const resources = resourcesOf(template.toJSON());
  return {
    stack: nested || monitoring ? `${stack.stackName}/${holder.node.id}` : stack.stackName,
    nested: nested !== undefined || monitoring,
    monitoring,
    functions: nested ? nested.targets.size : 0,
    getRoutes: nested
      ? routes.filter((route) => route.method === 'GET' && areaOf(functionNameOf(route)) === nested.area)
          .length
      : 0,
    routes: monitoring
      ? 0
      : nested
        ? routes.filter((route) => areaOf(functionNameOf(route)) === nested.area).length
        : routes.length,
    resources: resources.length,
    byType: resources.reduce<Record<string, number>>((byType, resource) => {
      byType[resource.Type] = (byType[resource.Type] ?? 0) + 1;
      return byType;
    }, {}),
  };
});
const root = counts.find((count) => !count.nested)!;
const nested = counts.filter((count) => count.nested && !count.monitoring);
const largestNested = Math.max(...nested.map((count) => count.resources));
const getRoutes = routes.filter((route) => route.method === 'GET').length;
const extraRoutes = Math.max(0, PLANNED_ROUTES - routes.length);
/** Worst case in the root: the new areas (each a nested stack, a role and its policy). */
const rootPlanned = root.resources + 3 * PLANNED_NEW_AREAS;
/**
 * Worst case in a nested stack: every new route a GET there (function, integration, permission,
 * route and HEAD twin), with its alarms.
 */
const nestedPlanned = largestNested + 5 * extraRoutes + alarmsFor(extraRoutes);

describe('CloudFormation resource limit', () => {
  it('prints the resources of every template', () => {
    console.log(
      [
        `${routes.length} routes; resources per template (limit ${CLOUDFORMATION_LIMIT}):`,
        ...counts.map(
          (count) =>
            `  ${count.stack.padEnd(45)} ${String(count.resources).padStart(4)} resources, ${count.routes} routes`,
        ),
        `  root by type: ${JSON.stringify(root.byType)} (${getRoutes} GET routes with a HEAD twin, in the nested stacks)`,
        `at ${PLANNED_ROUTES} routes (worst case): root ≤ ${rootPlanned}, largest nested stack ≤ ${nestedPlanned}`,
      ].join('\n'),
    );
    expect(counts.length).toBe(2 + stack.routeStacks.size);
  });

  it.each(counts.map((count) => [count.stack, count] as const))(
    '%s keeps a comfortable margin under the limit',
    (_name, count) => {
      const margin = count.nested ? MARGIN_NOW.nested : MARGIN_NOW.root;
      expect(count.resources).toBeLessThanOrEqual(CLOUDFORMATION_LIMIT * margin);
    },
  );

  it('costs no resource per route in the root and at most five in its nested stack (a GET route with its HEAD twin); a schedule three in the root', () => {
    expect(root.byType['AWS::ApiGatewayV2::Route'] ?? 0).toBe(0);
    expect(nested.reduce((sum, count) => sum + (count.byType['AWS::ApiGatewayV2::Route'] ?? 0), 0)).toBe(
      routes.length + getRoutes,
    );
    expect(root.byType['AWS::Lambda::Function'] ?? 0).toBe(
      stack.workerQueues.size + stack.streamConsumers.size + stack.scheduledFunctions.size,
    );
    // The root's only invoke permissions are the schedules' rules'.
    expect(root.byType['AWS::Lambda::Permission'] ?? 0).toBe(stack.scheduledFunctions.size);
    expect(root.byType['AWS::Events::Rule'] ?? 0).toBe(stack.scheduledFunctions.size);
    expect(root.byType['AWS::ApiGatewayV2::Integration'] ?? 0).toBe(0);
    for (const count of nested) {
      // Function + integration + invoke permission + route per route, a HEAD twin per GET route, two
      // alarms per ten functions, and the CDK metadata resource.
      expect(count.resources).toBeLessThanOrEqual(
        4 * count.routes + count.getRoutes + alarmsFor(count.functions) + 1,
      );
    }
  });

  it(`still fits with a comfortable margin at ${PLANNED_ROUTES} routes`, () => {
    expect(rootPlanned).toBeLessThanOrEqual(CLOUDFORMATION_LIMIT * MARGIN_PLANNED.root);
    expect(nestedPlanned).toBeLessThanOrEqual(CLOUDFORMATION_LIMIT * MARGIN_PLANNED.nested);
  });
});
