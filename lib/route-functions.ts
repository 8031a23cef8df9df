import { NestedStack, Stack } from 'aws-cdk-lib';
import {
  HttpIntegration,
  HttpIntegrationType,
  type IHttpApi,
  PayloadFormatVersion,
} from 'aws-cdk-lib/aws-apigatewayv2';
import { ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import type { ILogGroup } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import type { RouteDefinition } from '../functions/routes.ts';
import type { AccessRoles } from './access-roles.ts';
import { type AccessTargets, ApiFunction, constructIdFor } from './api-function.ts';

/**
 * Route functions per nested stack, at most. Each route costs three resources here (function,
 * integration, invoke permission), so this keeps a nested stack under 330 of CloudFormation's
 * 500; an area that outgrows it must be split (see `areaOf`).
 */
export const maxRoutesPerNestedStack = 110;

/**
 * The area a route's function is deployed with: the first folder under `functions/`
 * (`functions/projects/hooks/create.ts` → `projects`), or `''` for a file directly in it. It
 * depends on the entry alone, so a function never moves between nested stacks when others are
 * added or removed.
 */
export function areaOf(entry: string): string {
  const parts = entry.replace(/^functions\//, '').split('/');
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
}

/** One function per distinct entry, with its integration and an invoke permission per route. */
export interface RouteTarget {
  fn: ApiFunction;
  integration: HttpIntegration;
}

/**
 * A nested stack holding one area's route functions, their API Gateway integrations and invoke
 * permissions. The HTTP API, its routes, the roles and the log group stay in the root stack: a
 * route keeps its logical id there whichever nested stack serves it, so moving a function only
 * re-points its route (API Gateway refuses two routes with one key, which a route created in a
 * new nested stack before its old copy is deleted would be).
 */
export class RouteFunctions extends NestedStack {
  readonly area: string;
  /** By handler entry. */
  readonly targets: ReadonlyMap<string, RouteTarget>;

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
    for (const route of props.routes) {
      const fnId = constructIdFor(route.entry);
      let target = targets.get(route.entry);
      if (!target) {
        const fn = new ApiFunction(this, fnId, {
          entry: route.entry,
          access: route.access,
          targets: props.targets,
          role: props.roles.roleFor(route.entry, { access: route.access }),
          logGroup: props.logGroup,
        });
        const integration = new HttpIntegration(this, `${fnId}Integration`, {
          httpApi: props.api,
          integrationType: HttpIntegrationType.AWS_PROXY,
          integrationUri: fn.functionArn,
          payloadFormatVersion: PayloadFormatVersion.VERSION_2_0,
        });
        target = { fn, integration };
        targets.set(route.entry, target);
      }
      // As HttpLambdaIntegration does: API Gateway may invoke the function for this path, any stage
      // and method (`$default` has no path of its own).
      const pathPart = route.path === '$default' ? '' : route.path;
      const permission = `${route.entry} ${pathPart}`;
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
  }
}
