import { perAwardable } from '#http/award-loaders.ts';
import { awardRoutes } from './award-routes.ts';

export const handler = perAwardable(awardRoutes.list);
