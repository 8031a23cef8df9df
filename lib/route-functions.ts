import { NestedStack, Stack } from 'aws-cdk-lib';
import {
  CfnRoute,
  HttpIntegration,
  HttpIntegrationType,
  HttpMethod,
  HttpRouteKey,
  type IHttpApi,
  PayloadFormatVersion,
} from 'aws-cdk-lib/aws-apigatewayv2';
import { ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { ILogGroup } from 'aws-cdk-lib/aws-logs';
import { NagSuppressions } from 'cdk-nag';
import { Construct } from 'constructs';
import { functionNameOf, type RouteDefinition } from '../functions/routes.ts';
import { envNames } from '../shared/config/env.ts';
import type { AccessRoles } from './access-roles.ts';
import { type AccessTargets, ApiFunction, constructIdFor } from './api-function.ts';
import { type FunctionAlarms, functionAlarms } from './monitoring.ts';

/**
 * Routes per nested stack, at most. Each route costs at most five resources here (function,
 * integration, invoke permission, route and, for a GET, its HEAD twin) and every ten functions two
 * alarms (errors, throttles), so this keeps a nested stack under 400 of CloudFormation's 500; an
 * area that outgrows it must be split (see `areaOf`).
 */
export const maxRoutesPerNestedStack = 75;

const methods: Record<RouteDefinition['method'], HttpMethod> = {
  GET: HttpMethod.GET,
  POST: HttpMethod.POST,
  PUT: HttpMethod.PUT,
  PATCH: HttpMethod.PATCH,
  DELETE: HttpMethod.DELETE,
  ANY: HttpMethod.ANY,
};

/** Construct id of a route (unchanged since the first single-stack layout), by its function's name. */
function routeIdFor(route: RouteDefinition): string {
  return route.path === '$default'
    ? 'DefaultRoute'
    : `${constructIdFor(functionNameOf(route))}${constructIdFor(route.method.toLowerCase())}Route`;
}

/** Construct id of a GET route's HEAD twin. */
const headRouteIdFor = (route: RouteDefinition) => `${constructIdFor(functionNameOf(route))}HeadRoute`;

/**
 * The API Gateway routes of a route-table entry: its own and, for a GET, a HEAD twin (an HTTP
 * API matches methods exactly, only `ANY` covers HEAD, and GitLab answers HEAD on every GET route
 * as the GET without its body), as construct id and route key.
 */
function apiRoutesOf(route: RouteDefinition): { id: string; key: string }[] {
  if (route.path === '$default') return [{ id: routeIdFor(route), key: HttpRouteKey.DEFAULT.key }];
  return [
    { id: routeIdFor(route), key: HttpRouteKey.with(route.path, methods[route.method]).key },
    ...(route.method === 'GET'
      ? [{ id: headRouteIdFor(route), key: HttpRouteKey.with(route.path, HttpMethod.HEAD).key }]
      : []),
  ];
}

/** The route keys a route-table entry deploys (`GET /api/v4/user`, `HEAD /api/v4/user`, `$default`). */
export const routeKeysOf = (route: RouteDefinition) => apiRoutesOf(route).map(({ key }) => key);

/**
 * The area a route's function is deployed with: the first folder under `functions/` of its name
 * (`functions/projects/hooks/create.ts` → `projects`; see `functionNameOf`), or `''` for a file
 * directly in it. It depends on the name alone, so a function never moves between nested stacks
 * when others are added or removed.
 */
export function areaOf(name: string): string {
  const parts = name.replace(/^functions\//, '').split('/');
  return parts.length > 1 ? parts[0]! : '';
}

/** Construct id of an area's nested stack: `projects` → `ProjectsFunctions`. */
export function nestedStackIdFor(area: string): string {
  return `${area === '' ? 'TopLevel' : constructIdFor(area)}Functions`;
}

export interface RouteFunctionsProps {
  api: IHttpApi;
  /** The routes of this area, each with its declared access. */
  routes: readonly RouteDefinition[];
  roles: AccessRoles;
  targets: AccessTargets;
  logGroup: ILogGroup;
  /** X-Ray tracing for every function (see ApiFunctionProps). */
  tracing?: boolean;
}

/** One function per distinct function name, with its integration and an invoke permission per route. */
export interface RouteTarget {
  fn: ApiFunction;
  integration: HttpIntegration;
}

/**
 * A nested stack holding one area's route functions, their API Gateway integrations, invoke
 * permissions and routes. A route lives in the template of its integration because SAM CLI
 * (`sam local start-api`) looks a route's integration up in the route's own template only. The
 * HTTP API, the roles and the log group stay in the root stack. A function moves to another
 * nested stack only when its file moves to another folder of `functions/`; its route then moves
 * too, and since API Gateway refuses two routes with one key (the new one is created before the
 * old one is deleted), such a move is deployed in two steps: route removed, then added back.
 */
export class RouteFunctions extends NestedStack {
  readonly area: string;
  /** By function name (`functionNameOf`). */
  readonly targets: ReadonlyMap<string, RouteTarget>;
  /** Errors and Throttles alarms of this area's functions (the monitoring stack's composite alarms watch them). */
  readonly alarms: FunctionAlarms;

  constructor(scope: Construct, area: string, props: RouteFunctionsProps) {
    super(scope, nestedStackIdFor(area), {
      description: `GitLab-compatible REST API: the route functions of functions/${area === '' ? '*.ts' : `${area}/`}`,
    });
    this.area = area;
    if (props.routes.length > maxRoutesPerNestedStack) {
      throw new Error(
        `functions/${area}: ${props.routes.length} routes exceed ${maxRoutesPerNestedStack} per nested stack; split the area`,
      );
    }

    const targets = new Map<string, RouteTarget>();
    const permitted = new Set<string>();
    const routeIds = new Set<string>();
    for (const route of props.routes) {
      const name = functionNameOf(route);
      const fnId = constructIdFor(name);
      let target = targets.get(name);
      if (!target) {
        const fn = new ApiFunction(this, fnId, {
          entry: route.entry,
          ...(route.name ? { name: route.name } : {}),
          access: route.access,
          targets: props.targets,
          role: props.roles.roleFor(name, { access: route.access }),
          logGroup: props.logGroup,
          tracing: props.tracing,
        });
        // Every API function signs and checks keyset cursors with the deployment's one key.
        if (props.targets.cursorKey) fn.addEnvironment(envNames.cursorKey, props.targets.cursorKey);
        const integration = new HttpIntegration(this, `${fnId}Integration`, {
          httpApi: props.api,
          integrationType: HttpIntegrationType.AWS_PROXY,
          integrationUri: fn.functionArn,
          payloadFormatVersion: PayloadFormatVersion.VERSION_2_0,
        });
        target = { fn, integration };
        targets.set(name, target);
      }
      for (const { id: firstId, key } of apiRoutesOf(route)) {
        // Rows of one function and method (a route spelled several ways, as archive.<format>):
        // the first keeps its id, the others are told apart by their path.
        const id = routeIds.has(firstId) ? `${firstId}${constructIdFor(route.path)}` : firstId;
        routeIds.add(id);
        const cfnRoute = new CfnRoute(new Construct(this, id), 'Resource', {
          apiId: props.api.apiId,
          routeKey: key,
          authorizationType: 'NONE',
          target: `integrations/${target.integration.integrationId}`,
        });
        NagSuppressions.addResourceSuppressions(cfnRoute, [
          {
            id: 'AwsSolutions-APIG4',
            reason:
              "Authorization is GitLab's: each function authenticates the request's token (personal, OAuth or job token; anonymous reads of public resources are part of the API) and authorizes the resource it loads.",
          },
        ]);
      }
      // As HttpLambdaIntegration does: API Gateway may invoke the function for this path, any stage
      // and method (`$default` has no path of its own).
      const pathPart = route.path === '$default' ? '' : route.path;
      const permission = `${name} ${pathPart}`;
      if (permitted.has(permission)) continue;
      permitted.add(permission);
      target.fn.addPermission(`Invoke${constructIdFor(pathPart) || 'Default'}`, {
        principal: new ServicePrincipal('apigateway.amazonaws.com'),
        sourceArn: Stack.of(this).formatArn({
          service: 'execute-api',
          resource: props.api.apiId,
          resourceName: `*/*${pathPart}`,
        }),
      });
    }
    this.targets = targets;
    this.alarms = functionAlarms(
      this,
      `functions/${area === '' ? '*.ts' : `${area}/`}`,
      [...targets].map(([name, { fn }]) => ({ name, fn })),
    );
  }
}
