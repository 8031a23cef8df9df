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
/**
 * Now: at most half the limit in a nested stack. The root holds every route and, since HEAD is
 * answered on every GET route, a HEAD twin of each GET route (an HTTP API matches methods
 * exactly): routes are two thirds of it, so it is allowed 70%, which still leaves room for about
 * 80 more routes before the next check.
 */
// 75% since the LDAP sync worker: the next addition to the root (alarms) must first move the
// workers, or HEAD, out of it.
const MARGIN_NOW = { root: 0.75, nested: 0.5 };
/**
 * At the planned size: the root at most 80%, a nested stack at most 70% even if every new route
 * landed in one area. Past that the root needs relief (HEAD served by `ANY` routes on GET-only
 * paths, or routes split over two APIs) before more routes are added.
 */
const MARGIN_PLANNED = { root: 0.8, nested: 0.7 };
/**
 * The route table expected next: today's plus LDAP group links and sync (5) and the OpenAPI
 * document (1), with room for a few more. (Alarms, planned too, belong in a nested stack.)
 */
const PLANNED_ROUTES = 160;
/** New areas of functions/ expected with them (each a nested stack, and say a role and its policy). */
const PLANNED_NEW_AREAS = 3;

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
const getRoutes = routes.filter((route) => route.method === 'GET').length;
const extraRoutes = Math.max(0, PLANNED_ROUTES - routes.length);
/** Worst case in the root: every new route a GET (its route and HEAD twin), plus the new areas. */
const rootPlanned = root.resources + 2 * extraRoutes + 3 * PLANNED_NEW_AREAS;
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
        `  root by type: ${JSON.stringify(root.byType)} (${getRoutes} GET routes with a HEAD twin)`,
        `at ${PLANNED_ROUTES} routes (worst case): root ≤ ${rootPlanned}, largest nested stack ≤ ${nestedPlanned}`,
      ].join('\n'),
    );
    expect(counts.length).toBe(1 + stack.routeStacks.size);
  });

  it.each(counts.map((count) => [count.stack, count] as const))(
    '%s keeps a comfortable margin under the limit',
    (_name, count) => {
      const margin = count.nested ? MARGIN_NOW.nested : MARGIN_NOW.root;
      expect(count.resources).toBeLessThanOrEqual(CLOUDFORMATION_LIMIT * margin);
    },
  );

  it('costs one resource per route in the root (its route; a GET route two, with its HEAD twin) and at most three in its nested stack; a schedule three in the root', () => {
    expect(root.byType['AWS::ApiGatewayV2::Route']).toBe(routes.length + getRoutes);
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
    expect(rootPlanned).toBeLessThanOrEqual(CLOUDFORMATION_LIMIT * MARGIN_PLANNED.root);
    expect(nestedPlanned).toBeLessThanOrEqual(CLOUDFORMATION_LIMIT * MARGIN_PLANNED.nested);
  });
});
