import { archiveRoute } from './archive-route.ts';

export const handler = archiveRoute(true);
