import { starRoute } from './star-route.ts';

export const handler = starRoute(true);
